"""A real Celery worker over Redis runs the clock's ticks and the balancing check."""

import subprocess
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.cache import cache
from django.test import Client

from cardroom.celery import app as celery_app
from cardroom.core.health import HEARTBEAT_KEY
from tests.tournaments.factories import bust, make_tournament
from tournaments import draw_services
from tournaments.clock import services as clock
from tournaments.models import BalanceCheck, Level, Tournament

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def wait_for(condition: Callable[[], bool], seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def test_the_worker_moves_the_clock_on_when_a_level_runs_out(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=2)
    Level.objects.filter(tournament=tournament, number=1).update(duration=timedelta(seconds=1))
    celery_app.control.purge()  # tasks other tests queued for tournaments long gone
    with start_worker(celery_app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
        clock.start_clock(tournament=tournament, by=director)  # commits, then queues the tick
        assert wait_for(lambda: Tournament.objects.get(pk=tournament.pk).level_number == 2)
    events = Tournament.objects.get(pk=tournament.pk).clock_events.values_list("action", flat=True)
    assert "level_on_time" in events


def test_the_worker_checks_the_balance_after_an_elimination(director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=12)
    celery_app.control.purge()
    with start_worker(celery_app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
        draw_services.draw_initial_seating(tournament=tournament, by=director)
        assert wait_for(lambda: BalanceCheck.objects.filter(tournament=tournament).count() == 1)
        bust(entrant=tournament.entrants.get(number=1), by=director)
        assert wait_for(lambda: BalanceCheck.objects.filter(tournament=tournament).count() == 2)
    latest = BalanceCheck.objects.filter(tournament=tournament).first()
    assert latest is not None and sum(latest.counts.values()) == 11


def test_beat_and_a_worker_move_on_a_clock_whose_tick_was_lost(
    director: Any, tmp_path: Path
) -> None:
    """The tick queued at the clock's start is lost (purged: as if held by a worker killed
    with it, until the 3-hour visibility timeout). celery beat's sweep moves the level on all
    the same, and the worker's heartbeat makes /healthz say ok."""
    tournament = make_tournament(by=director, tables=1, entrants=2)
    Level.objects.filter(tournament=tournament, number=1).update(duration=timedelta(seconds=1))
    celery_app.control.purge()
    clock.start_clock(tournament=tournament, by=director)  # queues the tick...
    assert celery_app.control.purge() >= 1  # ...and it is lost
    cache.delete(HEARTBEAT_KEY)
    assert Client().get("/healthz").json()["status"] == "degraded"  # no worker has answered
    beat = subprocess.Popen(  # the beat alone: it sends the periodic tasks, runs none
        [sys.executable, "-m", "celery", "-A", "cardroom", "beat", "--loglevel=WARNING",
         f"--schedule={tmp_path / 'beat'}"],
        start_new_session=True,
    )  # fmt: skip
    try:
        with start_worker(celery_app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
            assert wait_for(lambda: Tournament.objects.get(pk=tournament.pk).level_number == 2)
            assert wait_for(lambda: cache.get(HEARTBEAT_KEY) is not None, seconds=30)
    finally:
        beat.terminate()
        beat.wait(timeout=20)
    assert Client().get("/healthz").json()["status"] == "ok"
    events = Tournament.objects.get(pk=tournament.pk).clock_events
    assert events.filter(action="level_on_time", level_number=2).count() == 1
