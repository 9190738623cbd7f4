"""The clock's sweep (celery beat, every few seconds) moves on a running clock whose level has
ended even when the tick queued for it was lost with its worker."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from cardroom.celery import app
from tests.tournaments.factories import make_tournament
from tournaments.clock import services as clock
from tournaments.models import ClockState, Tournament
from tournaments.scheduling import CLOCK_SWEEP_EVERY
from tournaments.tasks import advance_clocks

pytestmark = pytest.mark.django_db


def started_ago(tournament: Tournament, **ago: float) -> None:
    """As if the clock had started that long ago and no tick had run since (the tick lost)."""
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=timezone.now() - timedelta(**ago)
    )


def test_the_sweep_moves_on_a_clock_whose_tick_was_lost(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    clock.start_clock(tournament=tournament, by=director)
    level_one = tournament.levels.get(number=1).duration
    started_ago(tournament, seconds=level_one.total_seconds() + 1)
    assert Tournament.objects.get(pk=tournament.pk).level_number == 1  # nothing moved it
    assert advance_clocks() == [tournament.pk]
    moved = Tournament.objects.get(pk=tournament.pk)
    assert (moved.level_number, moved.clock_state) == (2, ClockState.RUNNING)
    assert moved.clock_events.filter(action="level_on_time", level_number=2).exists()
    # Run again (a second beat, or the lost tick delivered at last): nothing more happens.
    assert advance_clocks() == []
    assert clock.tick_clock(tournament_id=tournament.pk, version=1) is None
    assert Tournament.objects.get(pk=tournament.pk).level_number == 2


def test_the_sweep_leaves_clocks_whose_level_runs_on(director: Any) -> None:
    running = make_tournament(by=director, tables=1, name="Running")
    clock.start_clock(tournament=running, by=director)
    paused = make_tournament(by=director, tables=1, first_table=201, name="Paused")
    clock.start_clock(tournament=paused, by=director)
    clock.pause_clock(tournament=paused, by=director)
    started_ago(paused, hours=5)
    make_tournament(by=director, tables=1, first_table=301, name="Not started")
    version = Tournament.objects.get(pk=running.pk).clock_version
    assert advance_clocks() == []
    assert Tournament.objects.get(pk=running.pk).clock_version == version
    assert Tournament.objects.get(pk=paused.pk).clock_state == ClockState.PAUSED


def test_the_sweep_catches_up_several_levels_at_once(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    clock.start_clock(tournament=tournament, by=director)
    levels = list(tournament.levels.order_by("number"))
    started_ago(tournament, seconds=(levels[0].duration + levels[1].duration).total_seconds() + 1)
    assert advance_clocks() == [tournament.pk]
    assert Tournament.objects.get(pk=tournament.pk).level_number == 3


def test_celery_beat_sends_the_sweep_and_the_heartbeat_every_few_seconds() -> None:
    schedule = {entry["task"]: entry for entry in app.conf.beat_schedule.values()}
    assert schedule["tournaments.advance_clocks"]["schedule"] == CLOCK_SWEEP_EVERY <= 5
    assert schedule["cardroom.heartbeat"]["schedule"] <= 30  # well inside /healthz's minute
