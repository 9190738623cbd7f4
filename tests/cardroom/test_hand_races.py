"""Two devices entering on one hand at once: exactly one wins, the other gets 409."""

import contextlib
import threading
from typing import Any
from unittest import mock

import pytest
from rest_framework.authtoken.models import Token

from cardroom.tables import services
from cardroom.tables.models import Hand
from cardroom.tables.services import StaleHand, record_action
from tests.factories import make_hand
from tests.live_requests import post_json

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_real_requests_on_the_same_step_one_wins_one_gets_409(
    live_server: Any, floor_manager: Any, director: Any
) -> None:
    hand = make_hand(by=floor_manager)
    tokens = [Token.objects.create(user=user).key for user in (floor_manager, director)]
    url = f"{live_server.url}/api/v1/hands/{hand.pk}/actions/"
    barrier, statuses = threading.Barrier(2), []

    def enter(token: str, action: str) -> None:
        barrier.wait()
        statuses.append(post_json(url, token, {"expected_seq": 0, "seat": 1, "action": action})[0])

    threads = [
        threading.Thread(target=enter, args=(t, a))
        for t, a in zip(tokens, ("call", "fold"), strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409]
    hand.refresh_from_db()
    assert hand.seq == 1 and hand.actions.count() == 1


def run_pair(hand: Hand, user: Any) -> tuple[list[str], list[str]]:
    barrier, passed, outcomes = threading.Barrier(2), [], []
    real_lock = services.lock_hand

    def racing_lock(h: Hand, expected_seq: int) -> Hand:
        locked = real_lock(h, expected_seq)
        passed.append("checked")
        # Both inside the check at once, if the lock allows it (otherwise time out and go on).
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=2)
        return locked

    def enter(action: str) -> None:
        from django.db import connection

        try:
            record_action(hand=hand, by=user, expected_seq=0, seat=1, action=action)
            outcomes.append("won")
        except StaleHand:
            outcomes.append("stale")
        finally:
            connection.close()

    with mock.patch.object(services, "lock_hand", racing_lock):
        threads = [threading.Thread(target=enter, args=(a,)) for a in ("call", "fold")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return passed, outcomes


def test_without_the_row_lock_both_pass_the_check_and_only_the_unique_step_saves_us(
    floor_manager: Any,
) -> None:
    hand = make_hand(by=floor_manager)

    def no_lock(h: Hand, expected_seq: int) -> Hand:
        locked = Hand.objects.get(pk=h.pk)  # the race: no FOR UPDATE
        if locked.seq != expected_seq:
            raise StaleHand(locked)
        return locked

    with mock.patch.object(services, "lock_hand", no_lock):
        passed, outcomes = run_pair(hand, floor_manager)
    assert passed == ["checked", "checked"]  # the race happens: both read seq 0
    assert sorted(outcomes) == ["stale", "won"]


def test_with_the_row_lock_the_second_waits_and_sees_the_new_step(floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    passed, outcomes = run_pair(hand, floor_manager)
    assert passed == ["checked"]  # the second never got past the locked check
    assert sorted(outcomes) == ["stale", "won"]
    hand.refresh_from_db()
    assert hand.actions.count() == 1
