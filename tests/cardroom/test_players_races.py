"""Two devices changing one cash table's seat map at once (PostgreSQL row locks): exactly one
wins, the other gets a 409 ``Conflict``, and nothing is half-written."""

import threading
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from cardroom.seats import hands as cash_hands
from cardroom.seats import services as players
from cardroom.seats.models import SeatEvent, TableSeat
from cardroom.tables.models import Hand, Table
from tests.factories import make_table
from tests.races import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def race(**calls: Callable[[], Any]) -> tuple[list[str], dict[str, str]]:
    """Run ``calls`` at once. Whoever locks the table first holds it for up to 2 s: a second
    caller inside the seat map at the same time would meet it at the barrier ("together");
    with the row lock each gets in alone. Returns that, and each call's outcome ("won" or its
    conflict code)."""
    barrier, passed = threading.Barrier(len(calls)), []
    real_lock = players.lock_table

    def racing_lock(table: Table) -> Table:
        locked = real_lock(table)
        try:
            barrier.wait(timeout=2)
            passed.append("together")  # both inside the seat map at once: no lock held
        except threading.BrokenBarrierError:
            passed.append("alone")
        return locked

    with mock.patch.object(players, "lock_table", racing_lock):
        outcomes = run_at_once(calls)
    return passed, outcomes


def test_two_devices_seating_the_same_seat(floor_manager: Any) -> None:
    table = make_table(number=1, by=floor_manager, max_buy_in=400)
    ana = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    bo = players.find_or_create_player(name="Bo Li", by=floor_manager)
    passed, outcomes = race(
        ana=lambda: players.seat_player(
            table=table, player=ana, seat=4, buy_in=200, by=floor_manager
        ),
        bo=lambda: players.seat_player(
            table=table, player=bo, seat=4, buy_in=300, by=floor_manager
        ),
    )
    assert passed == ["alone", "alone"]  # one after the other, never both inside at once
    assert sorted(outcomes.values()) == ["seat_taken", "won"]
    live = TableSeat.objects.get(table=table, left_at__isnull=True)
    assert live.seat == 4
    assert [(e.player_id, e.kind, e.amount) for e in SeatEvent.objects.all()] == [
        (live.player_id, "seated", live.stack)
    ]


def test_one_player_seated_at_two_tables_at_once(floor_manager: Any) -> None:
    one = make_table(number=1, by=floor_manager)
    two = make_table(number=2, by=floor_manager)
    ana = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    passed, outcomes = race(
        one=lambda: players.seat_player(
            table=one, player=ana, seat=1, buy_in=100, by=floor_manager
        ),
        two=lambda: players.seat_player(
            table=two, player=ana, seat=2, buy_in=100, by=floor_manager
        ),
    )
    # Two tables, two table locks: both get in at once, and the player's row lock decides.
    assert passed == ["together", "together"]
    assert sorted(outcomes.values()) == ["player_seated", "won"]
    assert TableSeat.objects.filter(player=ana, left_at__isnull=True).count() == 1
    assert SeatEvent.objects.count() == 1


def test_a_seat_change_racing_a_deal(floor_manager: Any) -> None:
    table = make_table(number=1, by=floor_manager, max_buy_in=400)
    seated = {
        n: players.seat_player(
            table=table,
            player=players.find_or_create_player(name=name, by=floor_manager),
            seat=n,
            buy_in=200,
            by=floor_manager,
        )
        for n, name in ((1, "Ana Ruiz"), (2, "Bo Li"), (3, "Cy Wu"))
    }
    proposal = cash_hands.propose_next_hand(table)
    passed, outcomes = race(
        leave=lambda: players.leave_seat(seat=seated[3], by=floor_manager),
        deal=lambda: cash_hands.deal_next_hand(
            table=table, by=floor_manager, version=proposal["version"]
        ),
    )
    assert passed == ["alone", "alone"]
    hands = list(Hand.objects.filter(table=table))
    left = TableSeat.objects.filter(left_at__isnull=False)
    if outcomes["leave"] == "won":
        # The player left first: the deal saw another seat map than the one proposed.
        assert outcomes["deal"] == "seat_map_changed"
        assert hands == [] and left.count() == 1
        # Nothing half-written: the deal that lost changed no seat's flags.
        assert all(s.new for s in TableSeat.objects.all())
    else:
        # The deal went first: the seat is in an unsettled hand and cannot be freed.
        assert outcomes == {"deal": "won", "leave": "in_hand"}
        assert len(hands) == 1 and not left.exists()
        assert sorted(hands[0].names) == ["1", "2", "3"]
        assert [e.kind for e in SeatEvent.objects.all()] == ["seated"] * 3
