"""Changing the structure while the clock runs: time added or removed, a later level changed,
a step inserted or deleted and the rest renumbered, levels added when the structure runs out
(never a "finished" clock with players left), each change recorded with who and why."""

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.core import audit
from tests.tournaments.factories import make_tournament
from tournaments.clock import services as clock
from tournaments.clock import structure
from tournaments.clock.display import room_state
from tournaments.clock.reading import read_clock
from tournaments.clock.structure import LevelValues
from tournaments.draws.errors import DrawError
from tournaments.models import ClockState, Level, StructureAction, StructureChange, Tournament

pytestmark = pytest.mark.django_db

TWENTY = timedelta(minutes=20)


@pytest.fixture
def tournament(director: Any) -> Tournament:
    return make_tournament(by=director, tables=1, entrants=2)  # three 20-minute levels


def fresh(tournament: Tournament) -> Tournament:
    return Tournament.objects.get(pk=tournament.pk)


def step(tournament: Tournament, number: int) -> Level:
    return Level.objects.get(tournament=tournament, number=number)


def rewind(tournament: Tournament, minutes: float) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=F("level_started_at") - timedelta(minutes=minutes)
    )
    return fresh(tournament)


def blinds(tournament: Tournament) -> list[tuple[int, int, int, bool]]:
    return [
        (lv.number, lv.small_blind, lv.big_blind, lv.is_break) for lv in tournament.levels.all()
    ]


def test_adding_time_lengthens_the_level_in_play_and_is_recorded(
    tournament: Tournament, director: Any
) -> None:
    clock.start_clock(tournament=tournament, by=director)
    version = fresh(tournament).clock_version
    structure.adjust_time(tournament=tournament, seconds=300, reason="Dealer change", by=director)
    tournament = fresh(tournament)
    assert tournament.clock_version > version  # the displays see it at their next poll
    now = read_clock(tournament, list(tournament.levels.all()), timezone.now())
    assert timedelta(minutes=24) < now.remaining <= timedelta(minutes=25)
    change = StructureChange.objects.get(tournament=tournament)
    assert change.action == StructureAction.TIME and change.level_number == 1
    assert change.before is not None and change.after is not None
    assert change.before["seconds"] == 1200 and change.after["seconds"] == 1500
    assert change.by == director and change.reason == "Dealer change"
    structure.adjust_time(tournament=tournament, seconds=-60, reason="Too long", by=director)
    assert step(tournament, 1).duration == timedelta(minutes=24)
    assert audit.verify() == []


def test_time_taken_off_never_leaves_none(tournament: Tournament, director: Any) -> None:
    clock.start_clock(tournament=tournament, by=director)
    rewind(tournament, 19.5)
    with pytest.raises(ValidationError, match="is left in this level"):
        structure.adjust_time(tournament=tournament, seconds=-60, reason="Hurry", by=director)
    assert step(tournament, 1).duration == TWENTY
    assert not StructureChange.objects.exists()


def test_time_needs_a_started_clock_a_reason_and_a_sane_amount(
    tournament: Tournament, director: Any
) -> None:
    with pytest.raises(DrawError, match="has not started"):
        structure.adjust_time(tournament=tournament, seconds=60, reason="x", by=director)
    clock.start_clock(tournament=tournament, by=director)
    with pytest.raises(ValidationError, match="Say why"):
        structure.adjust_time(tournament=tournament, seconds=60, reason="  ", by=director)
    with pytest.raises(ValidationError):
        structure.adjust_time(tournament=tournament, seconds=0, reason="x", by=director)
    with pytest.raises(ValidationError, match="at most 4:00:00"):
        structure.adjust_time(tournament=tournament, seconds=4 * 3600, reason="x", by=director)


def test_a_later_level_changes_but_the_blinds_in_play_do_not(
    tournament: Tournament, director: Any
) -> None:
    clock.start_clock(tournament=tournament, by=director)
    third = step(tournament, 3)
    values = LevelValues(400, 800, 800, timedelta(minutes=30))
    structure.edit_level(
        tournament=tournament, level=third, values=values, reason="Slower", by=director
    )
    third.refresh_from_db()
    assert (third.small_blind, third.big_blind, third.ante) == (400, 800, 800)
    assert third.duration == timedelta(minutes=30)
    # CR-TP.2: the blinds in play change at the next level, not now.
    first = step(tournament, 1)
    with pytest.raises(ValidationError, match=r"CR-TP\.2"):
        structure.edit_level(
            tournament=tournament, level=first, values=LevelValues(150, 300, 0, TWENTY),
            reason="x", by=director,
        )  # fmt: skip
    # Its time may change.
    structure.edit_level(
        tournament=tournament, level=first, values=LevelValues(100, 200, 0, timedelta(minutes=25)),
        reason="Longer first level", by=director,
    )  # fmt: skip
    assert step(tournament, 1).duration == timedelta(minutes=25)
    # A level played is the record of what was played.
    clock.advance_level(tournament=tournament, by=director)
    with pytest.raises(DrawError, match="has been played"):
        structure.edit_level(
            tournament=tournament, level=first, values=LevelValues(100, 200, 0, TWENTY),
            reason="x", by=director,
        )  # fmt: skip
    assert [c.action for c in StructureChange.objects.order_by("id")] == ["edit", "edit"]


@pytest.mark.parametrize(
    ("values", "field"),
    [
        (LevelValues(500, 400, 0, TWENTY), "small_blind"),
        (LevelValues(0, 0, 100, TWENTY), "big_blind"),
        (LevelValues(100, 200, 0, timedelta(0)), "minutes"),
        (LevelValues(100, 200, 0, timedelta(hours=5)), "minutes"),
        (LevelValues(100, 10**9, 0, TWENTY), "big_blind"),
    ],
)
def test_clearly_wrong_values_are_refused_by_field(
    tournament: Tournament, director: Any, values: LevelValues, field: str
) -> None:
    with pytest.raises(ValidationError) as refused:
        structure.edit_level(
            tournament=tournament, level=step(tournament, 2), values=values, reason="x",
            by=director,
        )  # fmt: skip
    assert field in refused.value.message_dict
    # Not over-constrained: the same blinds twice, a big blind equal to the small, lower
    # blinds than the level before (after a colour-up) are the director's to choose.
    structure.edit_level(
        tournament=tournament, level=step(tournament, 2), values=LevelValues(100, 100, 0, TWENTY),
        reason="Equal blinds", by=director,
    )  # fmt: skip


def test_inserting_and_deleting_renumber_the_steps_after(
    tournament: Tournament, director: Any
) -> None:
    clock.start_clock(tournament=tournament, by=director)
    first = step(tournament, 1)
    structure.insert_level(
        tournament=tournament, after=first, values=LevelValues(duration=timedelta(minutes=10),
        is_break=True, small_blind=5), reason="Early break", by=director,
    )  # fmt: skip
    assert blinds(tournament) == [
        (1, 100, 200, False), (2, 0, 0, True), (3, 200, 400, False), (4, 300, 600, False)
    ]  # fmt: skip
    structure.delete_level(
        tournament=tournament, level=step(tournament, 3), reason="Skip it", by=director
    )
    assert blinds(tournament) == [(1, 100, 200, False), (2, 0, 0, True), (3, 300, 600, False)]
    tournament = fresh(tournament)
    assert tournament.level_number == 1  # the level in play is the same level
    with pytest.raises(DrawError, match="in play or played"):
        structure.delete_level(tournament=tournament, level=first, reason="x", by=director)
    changes = list(StructureChange.objects.order_by("id").values_list("action", "level_number"))
    assert changes == [("insert", 2), ("delete", 3)]
    deleted = StructureChange.objects.get(action="delete")
    assert deleted.before is not None and deleted.after is None
    assert deleted.before["big_blind"] == 400
    assert audit.verify() == []


def test_before_the_start_every_step_is_ahead(tournament: Tournament, director: Any) -> None:
    structure.insert_level(
        tournament=tournament, after=None, values=LevelValues(50, 100, 0, TWENTY),
        reason="A gentler start", by=director,
    )  # fmt: skip
    assert blinds(tournament)[0] == (1, 50, 100, False)
    structure.delete_level(
        tournament=tournament, level=step(tournament, 4), reason="Shorter", by=director
    )
    assert len(blinds(tournament)) == 3


def test_a_structure_keeps_one_level_of_play(director: Any) -> None:
    tournament = make_tournament(
        by=director, tables=1, levels=[{"small_blind": 100, "big_blind": 200, "minutes": 20}]
    )
    with pytest.raises(DrawError, match="at least one level of play"):
        structure.delete_level(
            tournament=tournament, level=step(tournament, 1), reason="x", by=director
        )


def test_a_step_goes_in_after_the_level_in_play_never_before(
    tournament: Tournament, director: Any
) -> None:
    clock.start_clock(tournament=tournament, by=director)
    clock.advance_level(tournament=tournament, by=director)
    with pytest.raises(DrawError, match="not before"):
        structure.insert_level(
            tournament=tournament, after=step(tournament, 1), values=LevelValues(1, 2, 0, TWENTY),
            reason="x", by=director,
        )  # fmt: skip


def test_the_structure_running_out_leaves_the_last_level_in_play(
    tournament: Tournament, director: Any
) -> None:
    clock.start_clock(tournament=tournament, by=director)
    tournament = rewind(tournament, 65)
    levels = list(tournament.levels.all())
    now = read_clock(tournament, levels, timezone.now())
    # Not "finished" with players left: the last level, its time run out, its blinds on.
    assert now.state == ClockState.FINISHED and now.level is not None
    assert now.level.number == 3 and now.remaining == timedelta(0)
    state = room_state(tournament, levels, timezone.now())
    assert state["state_label"] == "Last level: no more levels scheduled"
    assert state["level"]["big_blind"] == 600 and state["remaining_ms"] == 0
    clock.tick_clock(tournament_id=tournament.pk, version=tournament.clock_version)
    tournament = fresh(tournament)
    assert tournament.clock_state == ClockState.FINISHED and tournament.level_number == 3
    stored = read_clock(tournament, levels, timezone.now())
    assert stored.level == now.level and stored.remaining == timedelta(0)
    with pytest.raises(DrawError, match="add levels"):
        structure.adjust_time(tournament=tournament, seconds=60, reason="x", by=director)
    with pytest.raises(DrawError, match="add levels"):
        clock.advance_level(tournament=tournament, by=director)


def test_adding_levels_continues_the_structure_and_starts_the_next_at_once(
    tournament: Tournament, director: Any
) -> None:
    clock.start_clock(tournament=tournament, by=director)
    rewind(tournament, 65)
    structure.add_levels(tournament=tournament, count=2, reason="Five players left", by=director)
    tournament = fresh(tournament)
    assert blinds(tournament)[3:] == [(4, 600, 1200, False), (5, 1200, 2400, False)]
    assert step(tournament, 5).ante == 2400 and step(tournament, 5).duration == TWENTY
    assert tournament.clock_state == ClockState.RUNNING and tournament.level_number == 4
    now = read_clock(tournament, list(tournament.levels.all()), timezone.now())
    assert now.remaining > timedelta(minutes=19)
    added = StructureChange.objects.filter(action=StructureAction.APPEND).order_by("id")
    assert [c.level_number for c in added] == [4, 5]
    assert all(c.reason == "Five players left" and c.by == director for c in added)
    assert tournament.clock_events.filter(action="levels_added", level_number=4).exists()
    with pytest.raises(ValidationError):
        structure.add_levels(tournament=tournament, count=21, reason="x", by=director)


def test_an_ended_tournament_keeps_its_structure(tournament: Tournament, director: Any) -> None:
    clock.start_clock(tournament=tournament, by=director)
    Tournament.objects.filter(pk=tournament.pk).update(clock_state=ClockState.ENDED)
    with pytest.raises(DrawError, match="over"):
        structure.add_levels(tournament=tournament, count=1, reason="x", by=director)


def test_a_level_deleted_elsewhere_is_not_changed_by_a_stale_page(
    tournament: Tournament, director: Any
) -> None:
    third = step(tournament, 3)
    structure.delete_level(tournament=tournament, level=third, reason="x", by=director)
    with pytest.raises(DrawError, match="no longer in the structure"):
        structure.edit_level(
            tournament=tournament, level=third, values=LevelValues(1, 2, 0, TWENTY), reason="x",
            by=director,
        )  # fmt: skip


# --- any sequence of changes keeps the structure whole -----------------------------------------

TABLES = itertools.count(200)
OPS = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "edit", "time"]),
        st.integers(min_value=0, max_value=8),
        st.booleans(),
    ),
    max_size=8,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
def test_any_changes_keep_steps_numbered_one_to_n_and_the_level_in_play(
    director: Any, ops: list[tuple[str, int, bool]]
) -> None:
    # Examples share the test's database: each tournament on its own room table.
    tournament = make_tournament(by=director, tables=1, first_table=next(TABLES))
    clock.start_clock(tournament=tournament, by=director)
    clock.advance_level(tournament=tournament, by=director)
    clock.pause_clock(tournament=tournament, by=director)
    in_play = step(tournament, 2).pk
    for op, index, is_break in ops:
        numbers = list(tournament.levels.values_list("number", flat=True))
        target = step(tournament, numbers[index % len(numbers)])
        values = LevelValues(100 + index, 200 + index, 0, timedelta(minutes=5 + index), is_break)
        try:
            if op == "insert":
                structure.insert_level(
                    tournament=tournament, after=target, values=values, reason="p", by=director
                )
            elif op == "delete":
                structure.delete_level(tournament=tournament, level=target, reason="p", by=director)
            elif op == "edit":
                structure.edit_level(
                    tournament=tournament, level=target, values=values, reason="p", by=director
                )
            else:
                structure.adjust_time(
                    tournament=tournament, seconds=60 * (index - 4), reason="p", by=director
                )
        except (DrawError, ValidationError):
            pass
        numbers = list(tournament.levels.values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1))
        now = fresh(tournament)
        assert step(now, now.level_number).pk == in_play
        assert any(not lv.is_break for lv in now.levels.all())
    assert audit.verify() == []
