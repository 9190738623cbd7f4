"""Two floor people seating from the waitlists at once (PostgreSQL row locks): exactly one
wins, the other gets a 409 ``Conflict``, and nothing is half-written."""

import contextlib
import threading
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from cardroom.seats.models import SeatEvent, TableSeat
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tables as waitlist_tables
from cardroom.waitlists.models import GameList, WaitlistEntry, WaitlistEvent
from tests.factories import make_table
from tests.races import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def race(**calls: Callable[[], Any]) -> tuple[int, dict[str, str]]:
    """Run ``calls`` at once. Whoever locks a table first waits there (up to 2 s) for the
    others: a caller locking another table meets it, one blocked on the same table does not.
    Returns how many met at the barrier, and each call's outcome ("won" or its 409 code)."""
    barrier, met = threading.Barrier(len(calls)), []
    real_lock = waitlists.lock_cash_table

    def racing_lock(table: Table, game_list: GameList, **kwargs: Any) -> Table:
        locked = real_lock(table, game_list, **kwargs)
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=2)
            met.append(1)
        return locked

    with mock.patch.object(waitlists, "lock_cash_table", racing_lock):
        outcomes = run_at_once(calls)
    return len(met), outcomes


def nlhe(fm: Any) -> GameList:
    return waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=fm
    )


def test_two_floor_people_seating_one_seat(floor_manager: Any, staff: Any) -> None:
    table = make_table(number=1, by=floor_manager, seats=6)
    game = nlhe(floor_manager)
    ana = waitlists.add_to_list(game_list=game, name="Ana Ruiz", by=floor_manager)
    bo = waitlists.add_to_list(game_list=game, name="Bo Li", by=floor_manager)
    # Both are called (to different seats), then both are sent to seat 4.
    waitlists.call_player(entry=ana, table=table, seat=1, by=floor_manager)
    waitlists.call_player(entry=bo, table=table, seat=2, by=floor_manager)
    met, outcomes = race(
        ana=lambda: waitlists.seat_from_list(
            entry=ana, table=table, seat=4, buy_in=100, by=floor_manager
        ),
        bo=lambda: waitlists.seat_from_list(entry=bo, table=table, seat=4, buy_in=100, by=staff),
    )
    assert met == 0  # one table lock: the second waited for the first to commit
    assert sorted(outcomes.values()) == ["seat_taken", "won"]
    live = TableSeat.objects.get(table=table, left_at=None)
    assert live.seat == 4 and SeatEvent.objects.count() == 1
    statuses = dict(WaitlistEntry.objects.values_list("player__name", "status"))
    winner = live.player.name
    loser = "Bo Li" if winner == "Ana Ruiz" else "Ana Ruiz"
    assert statuses == {winner: "seated", loser: "called"}  # the loser's offer stands
    assert WaitlistEvent.objects.filter(kind="seated").count() == 1


def test_one_player_seated_at_two_tables_at_once(floor_manager: Any, staff: Any) -> None:
    one = make_table(number=1, by=floor_manager, seats=6)
    two = make_table(number=2, by=floor_manager, seats=6)
    game = nlhe(floor_manager)
    ana = waitlists.add_to_list(game_list=game, name="Ana Ruiz", by=floor_manager)
    met, outcomes = race(
        one=lambda: waitlists.seat_from_list(
            entry=ana, table=one, seat=3, buy_in=100, by=floor_manager
        ),
        two=lambda: waitlists.seat_from_list(entry=ana, table=two, seat=5, buy_in=100, by=staff),
    )
    assert met == 2  # two tables, two locks: both got in, and the list's lock decided
    assert sorted(outcomes.values()) == ["entry_changed", "won"]
    assert TableSeat.objects.filter(left_at=None).count() == 1
    assert SeatEvent.objects.count() == 1
    ana.refresh_from_db()
    assert ana.status == "seated" and ana.seat is not None
    assert WaitlistEvent.objects.filter(kind="seated").count() == 1


def test_a_must_move_racing_a_seating_for_the_last_seat(floor_manager: Any, staff: Any) -> None:
    main = make_table(number=1, by=floor_manager, seats=2)
    must = make_table(number=2, by=floor_manager, seats=2)
    game = nlhe(floor_manager)
    from cardroom.seats import services as players

    mover = players.find_or_create_player(name="Mo Ver", by=floor_manager)
    players.seat_player(table=must, player=mover, seat=1, buy_in=90, by=floor_manager)
    sitter = players.find_or_create_player(name="Sit Ter", by=floor_manager)
    players.seat_player(table=main, player=sitter, seat=1, buy_in=90, by=floor_manager)
    mm = waitlist_tables.create_must_move(table=must, main=game, by=floor_manager)
    ana = waitlists.add_to_list(game_list=game, name="Ana Ruiz", by=floor_manager)
    _met, outcomes = race(
        move=lambda: waitlist_tables.move_must_move_player(
            must_move=mm, by=floor_manager, to_table=main, to_seat=2
        ),
        seat=lambda: waitlists.seat_from_list(entry=ana, table=main, seat=2, buy_in=100, by=staff),
    )
    assert sorted(outcomes.values()) == ["seat_taken", "won"]
    assert TableSeat.objects.filter(table=main, left_at=None).count() == 2
    mover_seat = TableSeat.objects.get(player=mover, left_at=None)
    if outcomes["move"] == "won":
        assert (mover_seat.table, mover_seat.stack) == (main, 90)
    else:
        assert mover_seat.table == must  # nothing half-moved
        assert not SeatEvent.objects.filter(kind__in=["moved_out", "moved_in"]).exists()


def test_the_desk_and_the_list_seating_an_offered_seat_at_once(
    floor_manager: Any, staff: Any
) -> None:
    """The desk seats a walk-in in seat 2 while the floor seats the called player there
    from the list: whichever locks the table first, the called player gets the seat and the
    desk is told why (the offer, or the seat taken)."""
    from cardroom.seats import services as players

    table = make_table(number=1, by=floor_manager, seats=2)
    game = nlhe(floor_manager)
    leo = waitlists.add_to_list(game_list=game, name="Leo Ray", by=floor_manager)
    waitlists.call_player(entry=leo, table=table, seat=2, by=floor_manager)
    walk_in = players.find_or_create_player(name="Quentin Blake", by=floor_manager)
    _met, outcomes = race(
        desk=lambda: players.seat_player(
            table=table, player=walk_in, seat=2, buy_in=100, by=floor_manager
        ),
        floor=lambda: waitlists.seat_from_list(
            entry=leo, table=table, seat=2, buy_in=100, by=staff
        ),
    )
    assert outcomes["floor"] == "won" and outcomes["desk"] in {"seat_offered", "seat_taken"}
    live = TableSeat.objects.get(table=table, left_at=None)
    assert (live.seat, live.player.name, SeatEvent.objects.count()) == (2, "Leo Ray", 1)
    assert WaitlistEntry.objects.get(pk=leo.pk).status == "seated"
