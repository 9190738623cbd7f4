"""A table's settings changed while a player is seated there at the same moment (PostgreSQL
row locks): the edit and the seating take the table row in turn, so the edit either sees the
player (refused, naming them) or the seating sees the new seat count (refused); a player is
never left in a seat the table no longer has."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.core.exceptions import ValidationError

from cardroom.seats import services as players
from cardroom.seats.models import TableSeat
from cardroom.tables import services
from cardroom.tables.models import Table
from tests.factories import make_table
from tests.races import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(calls: dict[str, Callable[[], Any]]) -> dict[str, str]:
    """Each call in its own thread and connection; its outcome: "won" or the refusal's class."""
    return run_at_once(calls, refused=(ValidationError,))


@contextmanager
def meeting(*, locked: bool) -> Iterator[list[str]]:
    """The edit's and the seat map's table locks, each followed by a wait of up to 2 s for the
    other: "together" when both were inside at once, "alone" otherwise. ``locked=False``
    reads the row without the lock (the race the lock prevents)."""
    barrier, passed = threading.Barrier(2), []

    def meet(read: Callable[..., Table]) -> Callable[..., Table]:
        def lock(*args: Any) -> Table:
            row = read(*args)
            try:
                barrier.wait(timeout=2)
                passed.append("together")
            except threading.BrokenBarrierError:
                passed.append("alone")
            return row

        return lock

    def unlocked(table: Table) -> Table:
        return Table.objects.get(pk=table.pk)

    def unlocked_row(model: type[Table], pk: int) -> Table:
        return model.objects.get(pk=pk)

    # The edit takes the table with the one row lock (``cardroom.core.locks.lock_row``).
    edit_lock = services.lock_row if locked else unlocked_row
    seat_lock = players.lock_table if locked else unlocked
    with (
        mock.patch.object(services, "lock_row", meet(edit_lock)),
        mock.patch.object(players, "lock_table", meet(seat_lock)),
    ):
        yield passed


def edit_and_seat(fm: Any, *, locked: bool) -> tuple[list[str], dict[str, str]]:
    table = make_table(number=1, by=fm)
    ana = players.find_or_create_player(name="Ana Ruiz", by=fm)
    with meeting(locked=locked) as passed:
        outcomes = run_together(
            {
                "edit": lambda: services.update_table(table=table, by=fm, seats=6),
                "seat": lambda: players.seat_player(
                    table=table, player=ana, seat=9, buy_in=100, by=fm
                ),
            }
        )
    return passed, outcomes


def test_without_the_lock_a_player_is_left_above_the_last_seat(floor_manager: Any) -> None:
    passed, outcomes = edit_and_seat(floor_manager, locked=False)
    assert passed == ["together", "together"]
    assert outcomes == {"edit": "won", "seat": "won"}
    assert Table.objects.get().seats == 6
    assert TableSeat.objects.get(left_at=None).seat == 9  # stranded: the race is real


def test_the_edit_and_the_seating_take_the_table_in_turn(floor_manager: Any) -> None:
    passed, outcomes = edit_and_seat(floor_manager, locked=True)
    assert passed == ["alone", "alone"]
    assert sorted(outcomes.values()) in (["SeatRefused", "won"], ["TableInUse", "won"])
    table = Table.objects.get()
    live = TableSeat.objects.filter(left_at=None)
    if outcomes["edit"] == "won":
        assert table.seats == 6 and not live.exists()
    else:
        assert table.seats == 9 and live.get().seat == 9
