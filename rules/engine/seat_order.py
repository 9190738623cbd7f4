"""Seats round a table: the order the deal goes round from a seat (clockwise, which is rising
seat numbers wrapping round after the highest), and the button and blinds of a game's first
hand from its button (CR-BB.7 heads-up). Every part of the project that goes round a table
asks here: the rotation, the deal, the odd chip, the desk, the tournament tables and their
draws (the seat draws import this module and ``cards``, nothing else of the engine's)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.engine.errors import BadInput


def clockwise_from(seat: int, seats: Iterable[int]) -> list[int]:
    """``seats`` in the order the deal goes round from ``seat``: the first one after it
    clockwise first, ``seat`` itself last when it is one of them (RRoP-TI.5: "the first hand
    clockwise from the button"). ``seat`` need not be one of them (a dead button)."""
    ordered = sorted(set(seats))
    return [s for s in ordered if s > seat] + [s for s in ordered if s <= seat]


def next_after(seat: int, seats: Iterable[int]) -> int:
    """The first of ``seats`` clockwise after ``seat`` (``seat`` itself when it is the only
    one): the next button, the next blind, the player left of the big blind."""
    order = clockwise_from(seat, seats)
    if not order:
        raise BadInput("No seat to go round to.", "seats")
    return order[0]


@dataclass(frozen=True, slots=True)
class FirstBlinds:
    """A game's first hand from its button: the button and the seats of the blinds."""

    button: int
    small: int
    big: int


def first_blinds(button: int, seats: Iterable[int]) -> FirstBlinds:
    """The blinds of a game's first hand, from its button (the high card of the draw for it,
    or the one the dealer reports): the next two players clockwise after the button post the
    small and the big blind. Heads-up (CR-BB.7) the button posts the small blind and the other
    player the big blind; a button reported at an empty seat then goes back to the player
    before it, so the big blind is still the first player after the button's seat. With three
    or more, a button at an empty seat stays there, dead (CR-BB.1)."""
    order = clockwise_from(button, seats)
    if len(order) < 2:
        raise BadInput("A hand needs two players or more.", "seats")
    if len(order) == 2:
        return FirstBlinds(button=order[-1], small=order[-1], big=order[0])
    return FirstBlinds(button=button, small=order[0], big=order[1])
