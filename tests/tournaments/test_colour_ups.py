"""Colour-ups: the chip set and its schedule (CR-CU.1), the desk's smallest chip after the
break, the room display's announcement (CR-CU.2), and the chip race run at a table and
recorded through the chip-count log (CR-CU.3, CR-CU.4); the pages, for directors only."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from cardroom.core.api_errors import Conflict
from cardroom.core.audit import verify
from tests.tournaments.factories import make_tournament
from tournaments import colour_ups, eliminations, table_hands
from tournaments.clock.display import room_state
from tournaments.colour_ups import ChipSetRefused, RaceRefused
from tournaments.draw_services import draw_initial_seating
from tournaments.draws.errors import DrawError
from tournaments.models import (
    ChipChange,
    ChipCount,
    ChipRace,
    Entrant,
    SeatAssignment,
    Tournament,
    TournamentTable,
)

pytestmark = pytest.mark.django_db

LEVELS: list[dict[str, Any]] = [
    {"small_blind": 25, "big_blind": 50, "ante": 0, "minutes": 20},
    {"small_blind": 50, "big_blind": 100, "ante": 0, "minutes": 20},
    {"is_break": True, "minutes": 10},  # step 3
    {"small_blind": 100, "big_blind": 200, "ante": 0, "minutes": 20},
    {"small_blind": 200, "big_blind": 400, "ante": 400, "minutes": 20},
]
BREAK = 3


def event(director: Any, *, players: int = 6, levels: list[dict[str, Any]] = LEVELS) -> Tournament:
    tournament = make_tournament(
        by=director, tables=1, entrants=players, seats_per_table=6, levels=levels
    )
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    tournament.refresh_from_db()
    return tournament


def with_chip_set(tournament: Tournament, director: Any, *, leaves: int | None = BREAK) -> None:
    colour_ups.save_chip(tournament=tournament, value=25, colour="green", removed_at=leaves,
                         by=director)  # fmt: skip
    for value, colour in ((100, "black"), (500, "purple"), (1000, "yellow")):
        colour_ups.save_chip(
            tournament=tournament, value=value, colour=colour, removed_at=None, by=director
        )


def at_step(tournament: Tournament, step: int) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(level_number=step)
    tournament.refresh_from_db()
    return tournament


def seats(tournament: Tournament) -> list[SeatAssignment]:
    return list(
        SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
        .select_related("entrant")
        .order_by("seat")
    )


def set_counts(tournament: Tournament, counts: list[int]) -> None:
    for assignment, chips in zip(seats(tournament), counts, strict=True):
        Entrant.objects.filter(pk=assignment.entrant_id).update(chips=chips)


# --- the chip set ------------------------------------------------------------------------------


def test_a_chip_that_does_not_divide_the_next_larger_is_refused(director: Any) -> None:
    tournament = event(director)
    with_chip_set(tournament, director)
    with pytest.raises(ChipSetRefused) as caught:
        colour_ups.save_chip(tournament=tournament, value=250, colour="pink", removed_at=None,
                             by=director)  # fmt: skip
    assert "250 does not divide 1,000" in str(caught.value) or "100 does not divide 250" in str(
        caught.value
    )
    assert caught.value.citations == ("CR-CU.1",)
    assert tournament.chip_set.count() == 4


def test_a_chip_leaves_play_only_at_a_break_and_is_raced_into_a_chip_left(director: Any) -> None:
    tournament = event(director)
    with pytest.raises(ChipSetRefused, match="only at a break"):
        colour_ups.save_chip(tournament=tournament, value=25, colour="green", removed_at=2,
                             by=director)  # fmt: skip
    assert not tournament.chip_set.exists()
    colour_ups.save_chip(tournament=tournament, value=25, colour="green", removed_at=BREAK,
                         by=director)  # fmt: skip
    with pytest.raises(RaceRefused, match="add the larger ones"):
        colour_ups.race_setup(at_step(tournament, BREAK).tables.get())


def test_a_removal_that_leaves_a_level_unpayable_is_refused_with_the_level_named(
    director: Any,
) -> None:
    levels = [*LEVELS[:3], {"small_blind": 75, "big_blind": 150, "ante": 0, "minutes": 20}]
    tournament = event(director, levels=levels)
    with_chip_set(tournament, director, leaves=None)
    with pytest.raises(ChipSetRefused) as caught:
        colour_ups.save_chip(tournament=tournament, value=25, colour="green",
                             removed_at=BREAK, by=director)  # fmt: skip
    assert "Level 3 (75/150) cannot be paid" in str(caught.value)
    assert tournament.chip_set.get(value=25).removed_at is None


def test_a_chip_set_too_big_for_the_first_levels_is_refused(director: Any) -> None:
    tournament = event(director)
    with pytest.raises(ChipSetRefused, match="Level 1 \\(25/50\\) cannot be paid"):
        colour_ups.save_chip(tournament=tournament, value=100, colour="black", removed_at=None,
                             by=director)  # fmt: skip


def test_the_desk_s_smallest_chip_is_the_smallest_left_from_the_first_hand_after_the_break(
    director: Any,
) -> None:
    tournament = event(director)
    with_chip_set(tournament, director)
    assert [colour_ups.smallest_chip(tournament, s) for s in (1, 2, 3, 4, 5)] == [
        25, 25, 25, 100, 100,
    ]  # fmt: skip
    table = tournament.tables.get().table
    level_4 = tournament.levels.get(number=4)
    assert (
        table_hands.tournament_game(
            table, tournament, level_4, colour_ups.smallest_chip(tournament, level_4.number)
        )["min_chip"]
        == 100
    )
    level_1 = tournament.levels.get(number=1)
    assert (
        table_hands.tournament_game(
            table, tournament, level_1, colour_ups.smallest_chip(tournament, level_1.number)
        )["min_chip"]
        == 25
    )


def test_a_chip_that_has_left_play_stays_as_it_was(director: Any) -> None:
    tournament = at_step(event(director), 4)
    with_chip_set(tournament, director, leaves=None)
    with pytest.raises(ChipSetRefused, match="behind the clock"):
        colour_ups.save_chip(tournament=tournament, value=25, colour="green",
                             removed_at=BREAK, by=director)  # fmt: skip


def test_the_structure_editor_keeps_the_chip_set_payable_and_its_colour_up_breaks(
    director: Any,
) -> None:
    from datetime import timedelta

    from tournaments.clock import structure

    tournament = event(director)
    with_chip_set(tournament, director)
    level_4 = tournament.levels.get(number=4)
    with pytest.raises(ChipSetRefused, match="Level 3 \\(150/300 ante 50\\) cannot be paid"):
        structure.edit_level(
            tournament=tournament, level=level_4, reason="Slower",
            values=structure.LevelValues(150, 300, 50, timedelta(minutes=20)), by=director,
        )  # fmt: skip
    assert tournament.levels.get(number=4).small_blind == 100
    with pytest.raises(ChipSetRefused, match="25 chips \\(green\\) leave play at that break"):
        structure.delete_level(
            tournament=tournament, level=tournament.levels.get(number=BREAK), reason="No break",
            by=director,
        )  # fmt: skip
    assert tournament.levels.filter(number=BREAK, is_break=True).exists()


# --- the announcement --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "shown"),
    [
        (1, ""),
        (2, "Colour-up at this break: 25 chips (green) leave play"),
        (3, "Colour-up at this break: 25 chips (green) leave play"),
        (4, ""),
    ],
)
def test_the_room_display_announces_the_colour_up_the_level_before_and_during_the_break(
    director: Any, step: int, shown: str
) -> None:
    tournament = event(director)
    with_chip_set(tournament, director)
    at_step(tournament, step)
    state = room_state(tournament, list(tournament.levels.all()), timezone.now())
    assert state["colour_up"] == shown


# --- the race ----------------------------------------------------------------------------------


COUNTS = [1_075, 2_025, 475, 10_000, 50, 3_125]


def test_the_race_is_recorded_with_the_counts_and_the_desk_deals_in_the_new_unit(
    director: Any,
) -> None:
    tournament = at_step(event(director), BREAK)
    with_chip_set(tournament, director)
    set_counts(tournament, COUNTS)
    table = tournament.tables.get()
    record = colour_ups.run_chip_race(table=table, by=director)
    after = [a.entrant.chips for a in seats(tournament)]
    assert all(chips % 100 == 0 and chips > 0 for chips in after)
    # 75 + 25 + 75 + 0 + 50 + 25 = 250 of odd chips: two blacks raced, 50 left play; nobody
    # was left with nothing unless they lost the race with 50 (seat 5).
    assert record.result["raced"] == 2 and record.result["removed"] == 50
    assert sum(after) == sum(COUNTS) - 50 + record.result["given"]
    assert record.result["citations"] == ["CR-CU.3", "CR-CU.4"]
    assert [row["chips_after"] for row in record.result["seats"]] == after
    rows = ChipCount.objects.filter(tournament=tournament, kind=ChipChange.COUNT)
    assert rows.count() == 6
    assert all(r.reason.startswith("Chip race at the break (step 3)") for r in rows)
    assert verify() == []
    # The same seed deals the same race: the record replays.
    setup = colour_ups.race_setup(table)
    assert record.seed == setup.seed
    # Hands after the break are dealt with the black chip as the smallest.
    level_4 = tournament.levels.get(number=4)
    assert (
        table_hands.tournament_game(
            table.table, tournament, level_4, colour_ups.smallest_chip(tournament, level_4.number)
        )["min_chip"]
        == 100
    )


def test_the_preview_is_the_race_that_is_recorded(director: Any) -> None:
    tournament = at_step(event(director), BREAK)
    with_chip_set(tournament, director)
    set_counts(tournament, COUNTS)
    table = tournament.tables.get()
    preview = colour_ups.compute_race(colour_ups.race_setup(table))
    record = colour_ups.run_chip_race(table=table, by=director)
    assert record.result["seats"] == [
        {**row, "entry": record.result["seats"][i]["entry"],
         "name": record.result["seats"][i]["name"]}
        for i, row in enumerate(preview.to_dict()["seats"])
    ]  # fmt: skip


def test_odd_chips_entered_by_the_dealer_must_agree_with_the_counts(director: Any) -> None:
    tournament = at_step(event(director), BREAK)
    with_chip_set(tournament, director)
    set_counts(tournament, COUNTS)
    table = tournament.tables.get()
    numbers = [a.entrant.number for a in seats(tournament)]
    entered = {n: {25: 3} for n in numbers}  # three greens each: wrong for most counts
    with pytest.raises(RaceRefused, match="count again"):
        colour_ups.run_chip_race(table=table, by=director, odd_chips=entered)
    assert not ChipRace.objects.exists()
    right = {n: {25: greens} for n, greens in zip(numbers, [3, 1, 7, 0, 2, 5], strict=True)}
    record = colour_ups.run_chip_race(table=table, by=director, odd_chips=right)
    assert record.mode == "entered"
    assert record.result["seats"][2]["exchanged"] == 1  # seven greens: a black and three odd


def test_the_race_is_run_only_at_a_colour_up_break_and_once_a_table(director: Any) -> None:
    tournament = at_step(event(director), 2)
    with_chip_set(tournament, director)
    set_counts(tournament, COUNTS)
    table = tournament.tables.get()
    with pytest.raises(RaceRefused, match="at a break"):
        colour_ups.run_chip_race(table=table, by=director)
    at_step(tournament, BREAK)
    colour_ups.run_chip_race(table=table, by=director)
    with pytest.raises(Conflict):
        colour_ups.run_chip_race(table=table, by=director)
    assert ChipRace.objects.count() == 1


def test_the_race_waits_for_a_hand_still_being_played_at_the_table(director: Any) -> None:
    tournament = at_step(event(director), 2)
    with_chip_set(tournament, director)
    set_counts(tournament, [c - c % 100 + 100 for c in COUNTS])
    table = tournament.tables.get()
    table_hands.deal_tournament_hand(table=table.table, by=director)
    at_step(tournament, BREAK)
    with pytest.raises(DrawError) as caught:
        colour_ups.run_chip_race(table=table, by=director)
    assert caught.value.code == "in_hand"
    assert not ChipRace.objects.exists()


def test_no_hand_is_dealt_after_the_break_until_the_table_has_raced(director: Any) -> None:
    tournament = event(director)
    with_chip_set(tournament, director)
    set_counts(tournament, COUNTS)
    at_step(tournament, 4)  # the break passed with no race at the table
    table = tournament.tables.get()
    with pytest.raises(table_hands.CannotDeal) as caught:
        table_hands.deal_tournament_hand(table=table.table, by=director)
    assert "not a whole number of 100 chips" in str(caught.value)
    assert caught.value.citations == ("CR-CU.3",)
    at_step(tournament, BREAK)
    colour_ups.run_chip_race(table=table, by=director)
    at_step(tournament, 4)
    hand = table_hands.deal_tournament_hand(table=table.table, by=director)
    assert hand.game["min_chip"] == 100


def test_a_chip_race_is_append_only(director: Any) -> None:
    tournament = at_step(event(director), BREAK)
    with_chip_set(tournament, director)
    set_counts(tournament, COUNTS)
    record = colour_ups.run_chip_race(table=tournament.tables.get(), by=director)
    record.seed = "another"
    with pytest.raises(ValidationError):
        record.save()


# --- pages -------------------------------------------------------------------------------------


@pytest.mark.parametrize("persona", ["floor_manager", "staff", "no_role_user"])
def test_only_directors_see_or_change_the_chips_and_run_races(
    director: Any, persona_client: Any, persona: str
) -> None:
    tournament = at_step(event(director), BREAK)
    with_chip_set(tournament, director)
    table = tournament.tables.get()
    client = persona_client(persona)
    pk = tournament.pk
    assert client.get(reverse("tournaments:chip_set", args=[pk])).status_code == 403
    posted = client.post(
        reverse("tournaments:chip_save", args=[pk]), {"value": "5000", "colour": "red"}
    )
    assert posted.status_code == 403
    race = reverse("tournaments:chip_race", args=[pk, table.number])
    assert client.post(race, {"mode": "counts", "action": "confirm"}).status_code == 403
    assert not ChipRace.objects.exists() and not tournament.chip_set.filter(value=5000).exists()


@pytest.mark.parametrize("value", ["²", "-25", "2.5", "٣", ""])
def test_a_bad_value_comes_back_on_the_form_with_422(
    director: Any, persona_client: Any, value: str
) -> None:
    tournament = event(director)
    client = persona_client("director")
    response = client.post(
        reverse("tournaments:chip_save", args=[tournament.pk]),
        {"value": value, "colour": "green", "removed_at": ""},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 422
    assert 'id="chip-set"' in response.text and "form-error" in response.text
    assert not tournament.chip_set.exists()


def test_a_refused_chip_set_comes_back_with_the_rule_and_422(
    director: Any, persona_client: Any
) -> None:
    tournament = event(director)
    client = persona_client("director")
    response = client.post(
        reverse("tournaments:chip_save", args=[tournament.pk]),
        {"value": "100", "colour": "black", "removed_at": ""},
    )
    assert response.status_code == 422
    assert "Level 1 (25/50) cannot be paid" in response.text


def test_the_director_sets_the_chips_previews_and_confirms_a_race(
    director: Any, persona_client: Any
) -> None:
    tournament = event(director)
    client = persona_client("director")
    save = reverse("tournaments:chip_save", args=[tournament.pk])
    for value, colour, leaves in (("25", "green", str(BREAK)), ("100", "black", ""),
                                  ("500", "purple", "")):  # fmt: skip
        response = client.post(save, {"value": value, "colour": colour, "removed_at": leaves})
        assert response.status_code == 200, response.text
    at_step(tournament, BREAK)
    set_counts(tournament, COUNTS)
    page = client.get(reverse("tournaments:chip_set", args=[tournament.pk]))
    assert "Colour-up at this break: 25 chips (green) leave play" in page.text
    table = TournamentTable.objects.get(tournament=tournament)
    race = reverse("tournaments:chip_race", args=[tournament.pk, table.number])
    assert client.get(race).status_code == 200
    bad = client.post(race, {"mode": "entered", "action": "preview", **{
        f"odd_{a.entrant.number}_25": "²" for a in seats(tournament)}})  # fmt: skip
    assert bad.status_code == 422 and "A whole number in digits" in bad.text
    preview = client.post(race, {"mode": "counts", "action": "preview"})
    assert preview.status_code == 200 and "as it will be recorded" in preview.text
    assert not ChipRace.objects.exists()
    confirmed = client.post(race, {"mode": "counts", "action": "confirm"})
    record = ChipRace.objects.get()
    assert confirmed.status_code == 302
    assert confirmed["Location"] == reverse(
        "tournaments:chip_race_result", args=[tournament.pk, record.pk]
    )
    printed = client.get(confirmed["Location"])
    assert printed.status_code == 200 and record.seed in printed.text
    assert "Player" in printed.text and "won a chip" in printed.text


def test_taking_out_a_chip_the_set_does_not_hold_is_said_with_422(
    director: Any, persona_client: Any
) -> None:
    tournament = event(director)
    with_chip_set(tournament, director)
    client = persona_client("director")
    delete = reverse("tournaments:chip_delete", args=[tournament.pk])
    assert client.post(delete, {}).status_code == 422
    missing = client.post(delete, {"value": "5000"})
    assert missing.status_code == 422 and "no 5,000 chip" in missing.text
    # The 25s are scheduled to leave: taking out the 100s leaves level 4 unpayable.
    refused = client.post(delete, {"value": "100"})
    assert refused.status_code == 422 and "Level 3 (100/200) cannot be paid" in refused.text
    assert client.post(delete, {"value": "1000"}).status_code == 200
    assert list(tournament.chip_set.values_list("value", flat=True)) == [25, 100, 500]
