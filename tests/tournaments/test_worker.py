"""A real Celery worker over Redis runs the clock's ticks and the balancing check."""

import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker

from cardroom.celery import app as celery_app
from tests.tournaments.factories import make_tournament
from tournaments import services
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
        services.start_clock(tournament=tournament, by=director)  # commits, then queues the tick
        assert wait_for(lambda: Tournament.objects.get(pk=tournament.pk).level_number == 2)
    events = Tournament.objects.get(pk=tournament.pk).clock_events.values_list("action", flat=True)
    assert "level_on_time" in events


def test_the_worker_checks_the_balance_after_an_elimination(director: Any) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=12)
    celery_app.control.purge()
    with start_worker(celery_app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
        services.draw_initial_seating(tournament=tournament, by=director)
        assert wait_for(lambda: BalanceCheck.objects.filter(tournament=tournament).count() == 1)
        services.eliminate_player(entrant=tournament.entrants.get(number=1), by=director)
        assert wait_for(lambda: BalanceCheck.objects.filter(tournament=tournament).count() == 2)
    latest = BalanceCheck.objects.filter(tournament=tournament).first()
    assert latest is not None and sum(latest.counts.values()) == 11
