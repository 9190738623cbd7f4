"""A hand's betting state and its flow: the actions and seats it is made of, ``HandState``,
and how the action passes, a street closes and the betting ends.

Public attributes of ``HandState`` (read them, change them only through ``apply``):

``config``, ``button`` (a seat number; with a dead button, not a seat dealt in),
``seat_order`` (seats dealt in, ascending), ``street`` (``preflop``,
``flop``, ``turn``, ``river``, ``showdown``, ``complete``), ``street_index`` (0-3), ``to_act``
(seat or None), ``current_bet`` (what a caller must match this street: preflop the full big
blind or straddle even when it was posted short), ``min_raise_increment`` (the largest full
bet or raise of the street; the bring-in, or the fixed-limit bet, at its start), ``bring_in``
(the minimum bet on every street: the big blind, or the straddle when one was posted),
``pot`` (every chip committed, current street included), ``stacks`` (chips behind),
``street_wager`` (this street's wager per seat), ``total_contributed`` (per seat, antes
and dead money included), ``dead`` (the dead money in it per seat: a big-blind ante, the dead
part of a post; it lies in the main pot and raises nobody's pot level), ``folded``,
``acted_level`` (the current bet when each seat last acted by choice this street, -1 when it
has not), ``full_level`` (the bet level of the last full bet or raise: short all-ins do not
move it), ``raises`` and ``capped`` (fixed limit), ``sb_seat`` (None: a dead small blind) and
``bb_seat``, ``held`` and ``voided`` (out-of-turn actions: ``rules.engine.out_of_turn``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.engine.config import GameConfig
from rules.engine.errors import BadInput, is_int

STREETS = ("preflop", "flop", "turn", "river")
SHOWDOWN, COMPLETE = "showdown", "complete"


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"

    @classmethod
    def parse(cls, value: object) -> ActionKind:
        try:
            if not isinstance(value, str):
                raise ValueError(value)
            return cls(value)
        except ValueError:
            raise BadInput(
                f"Unknown action {value!r}: use fold, check, call, bet, raise or all_in.",
                "actions",
            ) from None


@dataclass(frozen=True, slots=True)
class Seat:
    """A player dealt in: the seat number and the chips before any forced bet."""

    seat: int
    stack: int

    def __post_init__(self) -> None:
        if not is_int(self.seat) or self.seat < 1:
            raise BadInput("A seat number is a whole number from 1.", "seats")
        if not is_int(self.stack):
            raise BadInput(f"Seat {self.seat}: the stack must be a whole number.", "seats")
        if self.stack < 0:
            raise BadInput(f"Seat {self.seat} has a negative stack.", "seats")

    @classmethod
    def from_dict(cls, data: Any) -> Seat:
        if not isinstance(data, Mapping):
            raise BadInput("Each seat must be an object with seat and stack.", "seats")
        seat, stack = data.get("seat"), data.get("stack")
        if not isinstance(seat, int) or not isinstance(stack, int):
            raise BadInput("Each seat needs whole numbers for seat and stack.", "seats")
        return cls(seat, stack)


@dataclass(frozen=True, slots=True)
class Action:
    """A player's action. ``to`` is the total wager on the street after a bet or raise (the
    two are synonyms); it is ignored for every other kind."""

    seat: int
    kind: ActionKind
    to: int | None = None
    #: Made out of turn: held until the turn reaches the seat (TDA-53; ``out_of_turn.py``).
    out_of_turn: bool = False

    def __post_init__(self) -> None:
        if not is_int(self.seat):
            raise BadInput("An action needs the seat number acting.", "actions")
        if not isinstance(self.kind, ActionKind):
            object.__setattr__(self, "kind", ActionKind.parse(self.kind))
        if self.kind is ActionKind.BET or self.kind is ActionKind.RAISE:
            if self.to is None or not is_int(self.to) or self.to < 0:
                raise BadInput(
                    f"A {self.kind} needs `to`: the total wager on the street.", "actions"
                )
        elif self.to is not None:
            object.__setattr__(self, "to", None)  # the contract: ignored if sent
        if not isinstance(self.out_of_turn, bool):
            raise BadInput("`out_of_turn` must be true or false.", "actions")

    @classmethod
    def from_dict(cls, data: Any) -> Action:
        """Read ``{"seat": 3, "action": "raise", "to": 600}`` (``"out_of_turn": true`` too)."""
        if not isinstance(data, Mapping):
            raise BadInput("Each action must be an object.", "actions")
        kind = data.get("action")
        if not isinstance(kind, str):
            raise BadInput(
                "An action needs `action`: fold, check, call, bet, raise or all_in.", "actions"
            )
        seat, to = data.get("seat"), data.get("to")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise BadInput("An action needs the seat number acting.", "actions")
        out_of_turn = data.get("out_of_turn", False)
        return cls(seat, ActionKind.parse(kind), to if is_int(to) else None, out_of_turn)


@dataclass(frozen=True, slots=True)
class RaiseRange:
    min_to: int
    max_to: int


@dataclass(frozen=True, slots=True)
class Options:
    """What the player to act may do. ``call`` is the chips they add to call (capped by their
    stack), None when they can check; ``raise_`` is None when they may not bet or raise."""

    fold: bool
    check: bool
    call: int | None
    raise_: RaiseRange | None

    def to_dict(self) -> dict[str, Any]:
        raise_ = self.raise_
        return {
            "fold": self.fold,
            "check": self.check,
            "call": self.call,
            "raise": None if raise_ is None else {"min_to": raise_.min_to, "max_to": raise_.max_to},
        }


class HandState:
    """The betting state of one hand (attributes: see the module docstring). Mutable for
    speed; ``copy()`` for what-ifs."""

    __slots__ = (
        "able_count",
        "acted_level",
        "bb_seat",
        "bring_in",
        "button",
        "capped",
        "config",
        "current_bet",
        "dead",
        "first_after_button",
        "folded",
        "full_level",
        "held",
        "limit",
        "live_count",
        "min_raise_increment",
        "next_seat",
        "pot",
        "raises",
        "returned",
        "sb_seat",
        "seat_order",
        "stacks",
        "street",
        "street_index",
        "street_wager",
        "to_act",
        "total_contributed",
        "voided",
    )

    config: GameConfig
    button: int
    seat_order: tuple[int, ...]
    #: Clockwise neighbour of each seat dealt in.
    next_seat: Mapping[int, int]
    stacks: dict[int, int]
    street_wager: dict[int, int]
    total_contributed: dict[int, int]
    dead: dict[int, int]
    folded: set[int]
    acted_level: dict[int, int]
    street: str
    street_index: int
    to_act: int | None
    current_bet: int
    min_raise_increment: int
    bring_in: int
    full_level: int
    pot: int
    raises: int
    capped: bool
    sb_seat: int | None
    bb_seat: int
    #: The seat dealt in at or before the button (clockwise): later streets start after it.
    first_after_button: int
    #: Out-of-turn actions waiting for their turn, and those voided (``out_of_turn.Held``).
    held: list[Any]
    voided: list[Any]
    #: Uncalled chips handed back to their owner when the betting closed, per seat: what the
    #: award reports as ``returned``.
    returned: dict[int, int]
    limit: bool
    #: Players still in the hand; of them, players with chips behind.
    live_count: int
    able_count: int

    def copy(self) -> HandState:
        other = HandState.__new__(HandState)
        for name in HandState.__slots__:
            setattr(other, name, getattr(self, name))
        other.stacks = self.stacks.copy()
        other.street_wager = self.street_wager.copy()
        other.total_contributed = self.total_contributed.copy()
        other.dead = self.dead.copy()
        other.folded = self.folded.copy()
        other.acted_level = self.acted_level.copy()
        other.held = self.held.copy()
        other.voided = self.voided.copy()
        other.returned = self.returned.copy()
        return other

    def can_act(self, seat: int) -> bool:
        """Still in the hand with chips behind."""
        return seat not in self.folded and self.stacks[seat] > 0


# --- the flow of the betting -----------------------------------------------------------------


def pass_action(state: HandState, last: int) -> None:
    """Pass the action on from ``last``; close the street (or the hand) when nobody is left
    to act."""
    if state.live_count == 1:
        finish(state, COMPLETE)
        return
    folded, stacks, wager, acted = (
        state.folded,
        state.stacks,
        state.street_wager,
        state.acted_level,
    )
    current = state.current_bet
    nxt = state.next_seat
    seat = nxt[last]
    for _ in range(len(state.seat_order)):
        if stacks[seat] > 0 and seat not in folded and (acted[seat] < 0 or wager[seat] < current):
            if state.able_count == 1:
                # Alone with chips: they act only to match what an all-in opponent put in.
                mine = wager[seat]
                if not any(
                    wager[s] > mine for s in state.seat_order if s != seat and s not in folded
                ):
                    break
            state.to_act = seat
            return
        seat = nxt[seat]
    end_street(state)


def end_street(state: HandState) -> None:
    if state.able_count <= 1 or state.street_index == 3:
        # TDA-16: no further betting is possible (or the river is over): to the showdown.
        finish(state, SHOWDOWN)
        return
    # Contract v2: a held action whose turn never came on its street is void.
    state.voided.extend(state.held)
    state.held.clear()
    state.street_index += 1
    state.street = STREETS[state.street_index]
    wager, acted = state.street_wager, state.acted_level
    for seat in state.seat_order:
        wager[seat] = 0
        acted[seat] = -1
    state.current_bet = state.full_level = 0
    state.raises, state.capped = 0, False
    if state.limit:
        state.min_raise_increment = state.config.bet_size(state.street_index)
    else:
        state.min_raise_increment = state.bring_in
    # Later streets start with the first seat dealt in after the button's seat number, dealt in
    # or not (CR-BB.1: a dead button).
    pass_action(state, state.first_after_button)


def finish(state: HandState, street: str) -> None:
    """The betting is over: return an uncalled excess to its owner and sweep the wagers in."""
    state.to_act = None
    state.street = street
    # Contract v2: held actions whose turn never comes (the hand ends first) are void.
    state.voided.extend(state.held)
    state.held.clear()
    totals, dead = state.total_contributed, state.dead
    top_seat, top, second = -1, -1, 0
    for seat, chips in totals.items():
        chips -= dead[seat]  # dead money is never returned as uncalled
        if chips > top:
            top_seat, second, top = seat, max(top, 0), chips
        elif chips > second:
            second = chips
    excess = top - second
    if excess > 0:
        totals[top_seat] -= excess
        state.stacks[top_seat] += excess
        state.pot -= excess
        state.returned[top_seat] = state.returned.get(top_seat, 0) + excess
    for seat in state.seat_order:
        state.street_wager[seat] = 0
    state.current_bet = 0
    state.min_raise_increment = (
        state.config.bet_size(state.street_index) if state.limit else state.bring_in
    )
