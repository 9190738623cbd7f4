"""Table positions: the deal order, who is due the big blind. Pure Python."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rules.engine.seat_order import clockwise_from
from tournaments.draws.errors import DrawError
from tournaments.draws.seats import SeatRef

# --- Table positions -------------------------------------------------------------------------


def deal_order(seat_numbers: Sequence[int], occupied: Collection[int], button: int) -> list[int]:
    """Occupied seats in the order cards are dealt: the small blind (first occupied seat after
    the button, clockwise = rising seat numbers) first, the button last."""
    return [s for s in clockwise_from(button, seat_numbers) if s in occupied]


def hands_until_big_blind(
    seat_numbers: Sequence[int], occupied: Collection[int], button: int, seat: int
) -> int:
    """How many hands the player in ``seat`` plays before posting the big blind, for the hand
    about to be dealt with the button at ``button`` (0: big blind on this hand). The small blind
    has the longest wait, one short of a full orbit."""
    order = deal_order(sorted(seat_numbers), occupied, button)
    if seat not in order:
        raise DrawError("bad_seat", f"Nobody sits in seat {seat}.")
    return (order.index(seat) - 1) % len(order)


def seats_between_button_and_small_blind(
    table: int, seat_numbers: Sequence[int], occupied: Collection[int], button: int
) -> frozenset[SeatRef]:
    """Open seats where a newcomer would not be dealt in (TDA 8-A, 10-A): strictly between the
    button and the small blind, for the hand about to be dealt."""
    between: set[SeatRef] = set()
    for seat in clockwise_from(button, seat_numbers):
        if seat in occupied:
            break
        if seat != button:
            between.add(SeatRef(table, seat))
    return frozenset(between)
