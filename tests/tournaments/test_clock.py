"""The tournament clock: levels on time, pause and resume, moving a level by hand, the tick task."""

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from tests.tournaments.factories import make_tournament
from tournaments import services
from tournaments.draws import DrawError
from tournaments.models import ClockState, Tournament, read_clock
from tournaments.tasks import advance_clock

pytestmark = pytest.mark.django_db


def rewind(tournament: Tournament, minutes: float) -> Tournament:
    """Pretend the clock has been running ``minutes`` longer than it has."""
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=F("level_started_at") - timedelta(minutes=minutes)
    )
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def tournament(director: Any) -> Tournament:
    return make_tournament(by=director, tables=1, entrants=2)  # three 20-minute levels


def reading(tournament: Tournament) -> Any:
    return read_clock(tournament, list(tournament.levels.all()), timezone.now())


def test_starting_the_clock_queues_the_level_change_for_when_the_level_ends(
    tournament: Tournament, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        services.start_clock(tournament=tournament, by=director)
    # With a broker: advance_clock, after the commit, due when the level ends. Without one
    # tasks cannot wait, so nothing is queued and the reading keeps time by itself.
    assert len(callbacks) == (0 if settings.CELERY_TASK_ALWAYS_EAGER else 1)
    tournament.refresh_from_db()
    assert tournament.clock_state == ClockState.RUNNING and tournament.level_number == 1
    now = reading(tournament)
    assert now.level is not None and now.level.big_blind == 200
    assert timedelta(minutes=19) < now.remaining <= timedelta(minutes=20)
    with pytest.raises(DrawError):
        services.start_clock(tournament=tournament, by=director)


def test_the_reading_passes_levels_on_time_and_the_tick_records_them(
    tournament: Tournament, director: Any
) -> None:
    services.start_clock(tournament=tournament, by=director)
    tournament = rewind(tournament, 25)
    now = reading(tournament)
    assert now.level is not None and now.level.number == 2
    assert timedelta(minutes=14) < now.remaining <= timedelta(minutes=15)
    assert tournament.level_number == 1  # not recorded yet
    stale = tournament.clock_version - 1
    assert advance_clock.apply(args=(tournament.pk, stale)).get() is None  # an old tick: nothing
    assert advance_clock.apply(args=(tournament.pk, tournament.clock_version)).get() == 2
    tournament.refresh_from_db()
    assert tournament.level_number == 2
    events = list(tournament.clock_events.values_list("action", "level_number"))
    assert ("level_on_time", 2) in events


def test_an_early_tick_changes_nothing(tournament: Tournament, director: Any) -> None:
    services.start_clock(tournament=tournament, by=director)
    tournament.refresh_from_db()
    services.tick_clock(tournament_id=tournament.pk, version=tournament.clock_version)
    tournament.refresh_from_db()
    assert tournament.level_number == 1 and tournament.clock_state == ClockState.RUNNING


def test_a_paused_clock_keeps_its_time_and_resumes_where_it_stopped(
    tournament: Tournament, director: Any
) -> None:
    services.start_clock(tournament=tournament, by=director)
    tournament = rewind(tournament, 5)
    services.pause_clock(tournament=tournament, by=director)
    tournament.refresh_from_db()
    paused = reading(tournament)
    assert tournament.clock_state == ClockState.PAUSED
    assert timedelta(minutes=14) < paused.remaining <= timedelta(minutes=15)
    version = tournament.clock_version
    services.tick_clock(tournament_id=tournament.pk, version=version)  # ignored while paused
    tournament.refresh_from_db()
    assert reading(tournament).remaining == paused.remaining
    services.resume_clock(tournament=tournament, by=director)
    tournament.refresh_from_db()
    assert tournament.clock_version > version
    assert abs(reading(tournament).remaining - paused.remaining) < timedelta(seconds=2)
    with pytest.raises(DrawError):
        services.resume_clock(tournament=tournament, by=director)


def test_the_director_moves_a_level_on_or_back_with_its_full_time(
    tournament: Tournament, director: Any
) -> None:
    services.start_clock(tournament=tournament, by=director)
    tournament = rewind(tournament, 7)
    services.advance_level(tournament=tournament, by=director)
    tournament.refresh_from_db()
    now = reading(tournament)
    assert tournament.level_number == 2 and now.remaining > timedelta(minutes=19)
    services.advance_level(tournament=tournament, by=director, back=True)
    tournament.refresh_from_db()
    assert tournament.level_number == 1
    with pytest.raises(DrawError):
        services.advance_level(tournament=tournament, by=director, back=True)


def test_the_clock_finishes_after_the_last_level(tournament: Tournament, director: Any) -> None:
    services.start_clock(tournament=tournament, by=director)
    tournament = rewind(tournament, 65)
    assert reading(tournament).state == ClockState.FINISHED
    services.tick_clock(tournament_id=tournament.pk, version=tournament.clock_version)
    tournament.refresh_from_db()
    assert tournament.clock_state == ClockState.FINISHED and tournament.level_number == 3
    with pytest.raises(DrawError):
        services.advance_level(tournament=tournament, by=director)


@pytest.mark.django_db(transaction=True)
def test_a_committed_clock_start_runs_without_a_worker(director: Any) -> None:
    """The embedded default (no broker): nothing waits in a queue, the reading keeps time."""
    tournament = make_tournament(by=director, tables=1, entrants=2)
    services.start_clock(tournament=tournament, by=director)  # commits; on-commit hooks run
    tournament = rewind(tournament, 21)
    assert reading(tournament).level.number == 2  # type: ignore[union-attr]
    services.pause_clock(tournament=tournament, by=director)  # records the level reached
    tournament.refresh_from_db()
    assert tournament.level_number == 2 and tournament.clock_state == ClockState.PAUSED
