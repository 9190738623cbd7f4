"""The waitlists' deadlines (``cardroom/core/deadlines.py``): a seat offer's end and a call-in's
check-in time are each queued for their time after the write commits, the beat's sweep is the
safety net, and the next write that needs them acts on them first, once; whichever comes
first acts, and the others find nothing left to do."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from cardroom.core import deadlines
from cardroom.core.api_errors import Conflict
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import EntryStatus, WaitlistEntry
from cardroom.waitlists.schedule import OFFERS
from tests.cardroom.test_waitlist_offers import called_leo

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], Any]]:
    """What the deadlines queue, as if a broker were there: (args, eta) of each task."""
    sent: list[tuple[tuple[Any, ...], Any]] = []

    class Task:
        def apply_async_on_commit(self, *, args: tuple[Any, ...], eta: Any) -> None:
            transaction.on_commit(lambda: sent.append((args, eta)))

    monkeypatch.setattr(deadlines, "tasks_run_in_process", lambda: False)
    monkeypatch.setattr(deadlines.current_app, "tasks", {OFFERS.task: Task()})
    return sent


def test_an_offer_queues_its_deadline_for_its_time_after_commit(
    floor_manager: Any,
    queued: list[tuple[tuple[Any, ...], Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game, _one, _two, leo = called_leo(floor_manager)
    assert queued == [((game.pk, leo.call_expires_at.timestamp()), leo.call_expires_at)]


def test_a_call_in_queues_its_check_in_deadline(
    floor_manager: Any,
    queued: list[tuple[tuple[Any, ...], Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    with django_capture_on_commit_callbacks(execute=True):
        entry = waitlists.add_to_list(
            game_list=game, name="Cal Lin", source="call_in", by=floor_manager
        )
    assert entry.check_in_by is not None
    assert queued == [((game.pk, entry.check_in_by.timestamp()), entry.check_in_by)]


def test_the_deadlines_task_acts_once_at_its_time_and_waits_when_early(
    floor_manager: Any,
    queued: list[tuple[tuple[Any, ...], Any]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, _one, _two, leo = called_leo(floor_manager)
    due = timezone.now() + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        assert waitlists.lapse_on_time(list_id=game.pk, at=due) == 0  # early: queued again
    assert queued[-1] == ((game.pk, due.timestamp()), due)
    assert WaitlistEntry.objects.get(pk=leo.pk).status == EntryStatus.CALLED

    WaitlistEntry.objects.filter(pk=leo.pk).update(call_expires_at=timezone.now())
    past = timezone.now()
    assert waitlists.lapse_on_time(list_id=game.pk, at=past) == 1
    assert waitlists.lapse_on_time(list_id=game.pk, at=past) == 0  # delivered twice: nothing
    assert waitlists.lapse_due() == 0  # nor the sweep after it
    assert game.events.filter(kind="offer_expired", entry=leo).count() == 1


def test_a_write_acts_on_the_lists_deadlines_once(
    floor_manager: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, one, _two, leo = called_leo(floor_manager)
    runs = []
    real = waitlists.lapse_list_due

    def counted(*args: Any, **kwargs: Any) -> int:
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(waitlists, "lapse_list_due", counted)
    waitlists.release_offer(entry=leo, by=floor_manager)
    assert len(runs) == 1
    mo = waitlists.add_to_list(game_list=game, name="Mo Next", by=floor_manager)
    runs.clear()
    waitlists.call_player(entry=mo, table=one, seat=9, by=floor_manager)
    assert len(runs) == 1
    runs.clear()
    waitlists.seat_from_list(entry=mo, table=one, seat=9, buy_in=None, by=floor_manager)
    assert len(runs) == 1


def test_a_refused_write_leaves_the_deadline_it_acted_on_recorded(floor_manager: Any) -> None:
    """Leo's offer ran out unseen; the floor then tries to seat someone at a taken seat: the
    write is refused, and the offer's end it acted on first stays recorded."""
    game, one, _two, leo = called_leo(floor_manager)
    WaitlistEntry.objects.filter(pk=leo.pk).update(
        call_expires_at=timezone.now() - timedelta(seconds=1)
    )
    mo = waitlists.add_to_list(game_list=game, name="Mo Next", by=floor_manager)
    with pytest.raises(Conflict):
        waitlists.seat_from_list(entry=mo, table=one, seat=1, buy_in=None, by=floor_manager)
    assert game.events.filter(kind="offer_expired", entry=leo).count() == 1
    assert WaitlistEntry.objects.get(pk=leo.pk).status == EntryStatus.WAITING
    assert waitlists.lapse_due() == 0  # the sweep finds nothing left


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_ends_an_offer_at_its_time(floor_manager: Any) -> None:
    """The offer's own task, queued after commit for its time, runs on the worker: no sweep,
    no write."""
    import time

    from celery.contrib.testing.worker import start_worker

    from cardroom.celery import app as celery_app

    game, _one, _two, leo = called_leo(floor_manager)
    celery_app.control.purge()  # the offer's real deadline, minutes away
    with start_worker(celery_app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
        with transaction.atomic():
            soon = timezone.now() + timedelta(seconds=1)
            WaitlistEntry.objects.filter(pk=leo.pk).update(call_expires_at=soon)
            waitlists.queue_deadline(game, soon)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not game.events.filter(kind="offer_expired"):
            time.sleep(0.2)
    assert game.events.filter(kind="offer_expired", entry=leo).count() == 1
    assert WaitlistEntry.objects.get(pk=leo.pk).status == EntryStatus.WAITING
