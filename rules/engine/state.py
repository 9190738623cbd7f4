"""A hand of poker as the betting rules see it: whose turn, what they may do, and the pots.

``start_hand`` posts the forced bets; ``legal_options`` lists what the player to act may do;
``apply`` checks an action against those same rules and plays it; ``snapshot`` gives the
betting contract's response body; ``replay`` deals and plays a list of actions up to the first
illegal one. Chips are ints, seats are seat numbers (clockwise = ascending, wrapping).

``legal_options`` and ``apply`` share ``_refusal`` (may the actor bet or raise at all?) and
``_raise_bounds`` (from what total to what total?), so the options offered and the actions
accepted cannot disagree.

Public attributes of ``HandState`` (read them, change them only through ``apply``):

``config``, ``button``, ``seat_order`` (seats dealt in, ascending), ``street`` (``preflop``,
``flop``, ``turn``, ``river``, ``showdown``, ``complete``), ``street_index`` (0-3), ``to_act``
(seat or None), ``current_bet`` (what a caller must match this street: preflop the full big
blind or straddle even when it was posted short), ``min_raise_increment`` (the largest full
bet or raise of the street; the bring-in, or the fixed-limit bet, at its start), ``bring_in``
(the minimum bet on every street: the big blind, or the straddle when one was posted),
``pot`` (every chip committed, current street included), ``stacks`` (chips behind),
``street_wager`` (this street's wager per seat), ``total_contributed`` (per seat, antes
and dead money included), ``dead`` (the dead money in it per seat: a big-blind ante; it lies in
the main pot and raises nobody's pot level), ``folded``, ``acted_level`` (the current bet when each seat last acted by choice
this street, -1 when it has not), ``full_level`` (the bet level of the last full bet or raise:
short all-ins do not move it), ``raises`` and ``capped`` (fixed limit), ``sb_seat`` and ``bb_seat``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.engine import citations as rule
from rules.engine.config import GameConfig, Structure
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.pots import Pot, build_pots

STREETS = ("preflop", "flop", "turn", "river")
SHOWDOWN, COMPLETE = "showdown", "complete"

# Why the actor may not bet or raise (``_refusal``); 0 = they may.
_MAY_RAISE = 0
_NO_CHIPS_BEYOND_CALL = 1
_NOBODY_CAN_CALL = 2
_NOT_REOPENED = 3
_CAPPED = 4


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
        if not _is_int(self.seat) or self.seat < 1:
            raise BadInput("A seat number is a whole number from 1.", "seats")
        if not _is_int(self.stack):
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

    def __post_init__(self) -> None:
        if not _is_int(self.seat):
            raise BadInput("An action needs the seat number acting.", "actions")
        if not isinstance(self.kind, ActionKind):
            object.__setattr__(self, "kind", ActionKind.parse(self.kind))
        if self.kind is ActionKind.BET or self.kind is ActionKind.RAISE:
            if self.to is None or not _is_int(self.to) or self.to < 0:
                raise BadInput(
                    f"A {self.kind} needs `to`: the total wager on the street.", "actions"
                )
        elif self.to is not None:
            object.__setattr__(self, "to", None)  # the contract: ignored if sent

    @classmethod
    def from_dict(cls, data: Any) -> Action:
        """Read ``{"seat": 3, "action": "raise", "to": 600}``."""
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
        return cls(seat, ActionKind.parse(kind), to if _is_int(to) else None)


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
        "folded",
        "full_level",
        "limit",
        "live_count",
        "min_raise_increment",
        "next_seat",
        "pot",
        "raises",
        "sb_seat",
        "seat_order",
        "stacks",
        "street",
        "street_index",
        "street_wager",
        "to_act",
        "total_contributed",
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
    sb_seat: int
    bb_seat: int
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
        return other

    def can_act(self, seat: int) -> bool:
        """Still in the hand with chips behind."""
        return seat not in self.folded and self.stacks[seat] > 0


def start_hand(config: GameConfig, button: int, seats: Sequence[Seat]) -> HandState:
    """Deal ``seats`` in and post the antes, the blinds and the straddle (a player who cannot
    cover one posts what they have and is all-in)."""
    if not isinstance(config, GameConfig):
        raise BadInput("The game must be a GameConfig.", "game")
    if len(seats) < 2:
        raise BadInput("A hand needs at least two players dealt in.", "seats")
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        raise BadInput("Each seat may be dealt in only once.", "seats")
    if not _is_int(button) or button not in numbers:
        raise BadInput(f"The button (seat {button!r}) must be a seat dealt in.", "button")
    order = tuple(sorted(numbers))
    count = len(order)

    state = HandState.__new__(HandState)
    state.config = config
    state.button = button
    state.seat_order = order
    state.next_seat = {seat: order[(i + 1) % count] for i, seat in enumerate(order)}
    state.stacks = {s.seat: s.stack for s in seats}
    state.street_wager = dict.fromkeys(order, 0)
    state.total_contributed = dict.fromkeys(order, 0)
    state.dead = dict.fromkeys(order, 0)
    state.folded = set()
    state.acted_level = dict.fromkeys(order, -1)
    state.street, state.street_index = STREETS[0], 0
    state.to_act = None
    state.pot = 0
    state.raises, state.capped = 0, False
    state.limit = config.structure is Structure.FIXED_LIMIT

    stacks, contributed = state.stacks, state.total_contributed
    # Antes are dead money: in the pot, not part of anyone's wager on the street.
    if config.ante:
        for seat in order:
            paid = min(config.ante, stacks[seat])
            stacks[seat] -= paid
            contributed[seat] += paid
            state.pot += paid

    nxt = state.next_seat
    heads_up = count == 2
    # Heads-up the button posts the small blind and acts first preflop.
    sb_seat = button if heads_up else nxt[button]
    bb_seat = nxt[sb_seat]
    state.sb_seat, state.bb_seat = sb_seat, bb_seat
    _post(state, sb_seat, config.small_blind)
    _post(state, bb_seat, config.big_blind)
    if config.big_blind_ante:
        # Dead money from the big blind for the table, after the blind: a big blind who
        # cannot cover both posts the blind first. Contract v2 "Dead money": it counts toward
        # nobody's wager or pot level and is never returned as uncalled.
        paid = min(config.big_blind_ante, stacks[bb_seat])
        stacks[bb_seat] -= paid
        contributed[bb_seat] += paid
        state.dead[bb_seat] += paid
        state.pot += paid
    # RRoP-4.2: a short big blind still makes the full big blind the bet to call.
    state.current_bet = state.bring_in = config.big_blind
    last_forced = bb_seat
    if config.straddle and not heads_up and stacks[nxt[bb_seat]] >= config.straddle:
        # RRoP-14.14: the seat left of the big blind "must post an amount twice the size of
        # the big blind": one who cannot post the whole straddle (after the ante) posts none,
        # and the big blind stays the bet (contract v2, "Straddle not posted").
        # RRoP-14.2: a straddle sets a new bring-in and is not treated as a raise. It acts
        # last preflop.
        last_forced = nxt[bb_seat]
        _post(state, last_forced, config.straddle)
        state.current_bet = state.bring_in = config.straddle
    state.full_level = state.current_bet
    state.min_raise_increment = config.bet_size(0) if state.limit else state.bring_in
    state.live_count = count
    state.able_count = sum(1 for seat in order if stacks[seat] > 0)
    if state.limit and config.raise_cap == 0 and state.able_count >= 3:
        state.capped = True  # RRoP-BR.3 with no raises allowed: the blind bet is the cap
    _pass_action(state, last_forced)
    return state


def _post(state: HandState, seat: int, amount: int) -> None:
    paid = min(amount, state.stacks[seat])
    state.stacks[seat] -= paid
    state.street_wager[seat] += paid
    state.total_contributed[seat] += paid
    state.pot += paid


def _pass_action(state: HandState, last: int) -> None:
    """Pass the action on from ``last``; close the street (or the hand) when nobody is left
    to act."""
    if state.live_count == 1:
        _finish(state, COMPLETE)
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
    _end_street(state)


def _end_street(state: HandState) -> None:
    if state.able_count <= 1 or state.street_index == 3:
        # TDA-16: no further betting is possible (or the river is over): to the showdown.
        _finish(state, SHOWDOWN)
        return
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
    _pass_action(state, state.button)


def _finish(state: HandState, street: str) -> None:
    """The betting is over: return an uncalled excess to its owner and sweep the wagers in."""
    state.to_act = None
    state.street = street
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
    for seat in state.seat_order:
        state.street_wager[seat] = 0
    state.current_bet = 0
    state.min_raise_increment = (
        state.config.bet_size(state.street_index) if state.limit else state.bring_in
    )


# --- what the player to act may do -----------------------------------------------------------


def _refusal(state: HandState, seat: int) -> int:
    """Why ``seat`` may not bet or raise now (one of the ``_NO_...`` reasons), or 0."""
    current = state.current_bet
    wager = state.street_wager
    stacks = state.stacks
    if wager[seat] + stacks[seat] <= current:
        return _NO_CHIPS_BEYOND_CALL
    folded = state.folded
    for other in state.seat_order:
        if other != seat and other not in folded and wager[other] + stacks[other] > current:
            break
    else:
        return _NOBODY_CAN_CALL
    acted = state.acted_level[seat]
    if acted >= 0:
        if state.limit:
            # RRoP-BR.5: only a full bet or raise (an all-in of half a bet or more) re-opens.
            if state.full_level <= acted:
                return _NOT_REOPENED
        elif current - acted < state.min_raise_increment:
            # TDA-47, RRoP-14.5: re-opened only by a full raise; short all-ins add up.
            return _NOT_REOPENED
    if state.capped:
        return _CAPPED
    return _MAY_RAISE


def _raise_bounds(state: HandState, seat: int) -> tuple[int, int]:
    """The smallest and largest legal bet/raise totals for ``seat`` (who may raise)."""
    all_in = state.street_wager[seat] + state.stacks[seat]
    current = state.current_bet
    if state.limit:
        # Exactly one bet above the last full bet or raise; after a short all-in that is
        # "completing" it (RRoP-BR.5).
        low = high = state.full_level + state.config.bet_size(state.street_index)
    else:
        # RRoP-14.2: a bet is at least the bring-in; RRoP-14.3, TDA-43: a raise at least the
        # largest full bet or raise of the round.
        low = current + state.min_raise_increment if current else state.bring_in
        if state.config.structure is Structure.POT_LIMIT:
            # RRoP-14.0: the bet faced plus the pot after the call; the bring-in (or a minimum
            # raise) is always allowed even when the pot is smaller.
            high = current + _pot_after_call(state, seat)
            if high < low:
                high = low
        else:
            high = all_in
    if all_in < low:
        return all_in, all_in  # all-in for less than the minimum
    return low, (high if high < all_in else all_in)


def _pot_after_call(state: HandState, seat: int) -> int:
    """The pot including every bet on the table and the actor's call (pot-limit maximum)."""
    owed = state.current_bet - state.street_wager[seat]
    pot = state.pot + (owed if owed > 0 else 0)
    if state.street_index == 0:
        pot += _short_blinds(state)
    unit = state.config.pot_round_unit
    if unit > 1 and state.config.structure is Structure.POT_LIMIT:
        pot = -(-pot // unit) * unit  # RRoP-PL.4: an odd amount counts as the next unit up
    return pot


def _short_blinds(state: HandState) -> int:
    """Preflop, what the pot size adds to count the blinds at full size: seed 004 (RRoP-4.2)
    "the allowable raise sizes ... remain the same even when the player in the blind does not
    have enough chips to post the full amount"; contract v2: for every preflop raise, short
    small blind included. With RRoP-PL.5 the small blind counts as a big blind."""
    config, wager, stacks = state.config, state.street_wager, state.stacks
    extra = 0
    big = state.bb_seat
    if stacks[big] == 0 and wager[big] < config.big_blind:
        extra += config.big_blind - wager[big]
    small = state.sb_seat
    if _small_blind_counts_as_big(state):
        extra += config.big_blind - wager[small]
    elif stacks[small] == 0 and wager[small] < config.small_blind:
        extra += config.small_blind - wager[small]
    return extra


def _small_blind_counts_as_big(state: HandState) -> bool:
    # RRoP-PL.5: the small blind counts as a big blind in the pot size until the big blind
    # is through acting on the first round (once the small blind has put in a big blind or
    # more, there is nothing to add).
    return (
        state.config.pot_limit_small_blind_as_big
        and state.street_index == 0
        and state.acted_level[state.bb_seat] < 0
        and state.street_wager[state.sb_seat] < state.config.big_blind
        and state.config.structure is Structure.POT_LIMIT
    )


def legal_options(state: HandState) -> Options | None:
    """What the player to act may do, or None when nobody is to act."""
    seat = state.to_act
    if seat is None:
        return None
    owed = state.current_bet - state.street_wager[seat]
    if owed > 0:
        stack = state.stacks[seat]
        check, call = False, (owed if owed < stack else stack)
    else:
        check, call = True, None
    if _refusal(state, seat):
        return Options(True, check, call, None)
    low, high = _raise_bounds(state, seat)
    return Options(True, check, call, RaiseRange(low, high))


# --- applying actions ------------------------------------------------------------------------


def apply(state: HandState, action: Action) -> None:
    """Play ``action`` or raise ``IllegalAction`` (the state is then unchanged)."""
    seat = state.to_act
    if seat is None:
        raise IllegalAction(
            "hand_over",
            f"Nobody is to act: the hand is at {state.street}.",
            rule.ACT_IN_TURN,
        )
    if action.seat != seat:
        raise IllegalAction(
            "not_your_turn",
            f"It is seat {seat}'s turn, not seat {action.seat}'s.",
            rule.ACT_IN_TURN,
            rule.TDA_ACTING_IN_TURN,
        )
    kind = action.kind
    if kind is ActionKind.FOLD:
        state.folded.add(seat)
        state.live_count -= 1
        state.able_count -= 1  # the player to act always has chips behind
        _pass_action(state, seat)
        return
    wager = state.street_wager[seat]
    stack = state.stacks[seat]
    owed = state.current_bet - wager
    if kind is ActionKind.BET or kind is ActionKind.RAISE:
        to = action.to
        if to is None:  # only a hand-built Action can get here: __post_init__ refuses it
            raise BadInput(f"A {kind} needs `to`: the total wager on the street.", "actions")
    elif kind is ActionKind.ALL_IN and wager + stack > state.current_bet:
        to = wager + stack  # a bet or a raise of every chip
    else:
        # A check, a call, or an all-in that is a call.
        if owed > 0:
            if kind is ActionKind.CHECK:
                raise IllegalAction(
                    "cannot_check",
                    f"You face a bet of {state.current_bet}: call {min(owed, stack)},"
                    " raise or fold.",
                    rule.MIN_WAGER,
                )
            paid = owed if owed < stack else stack
            state.stacks[seat] = stack - paid
            state.street_wager[seat] = wager + paid
            state.total_contributed[seat] += paid
            state.pot += paid
            if paid == stack:
                state.able_count -= 1
        state.acted_level[seat] = state.current_bet
        _pass_action(state, seat)
        return
    _check_raise(state, seat, to)
    _wager_to(state, seat, to)
    state.acted_level[seat] = state.current_bet
    _pass_action(state, seat)


def _check_raise(state: HandState, seat: int, to: int) -> None:
    reason = _refusal(state, seat)
    if reason:
        raise _refusal_error(state, seat, reason)
    low, high = _raise_bounds(state, seat)
    if to < low:
        raise _too_small_error(state, seat, to, low)
    if to > high:
        raise _too_large_error(state, seat, to, high)


def _wager_to(state: HandState, seat: int, to: int) -> None:
    """Put ``seat``'s wager up to ``to`` (a legal bet or raise) and record what it counts as."""
    paid = to - state.street_wager[seat]
    able_before = state.able_count
    state.stacks[seat] -= paid
    state.street_wager[seat] = to
    state.total_contributed[seat] += paid
    state.pot += paid
    if state.stacks[seat] == 0:
        state.able_count -= 1
    current = state.current_bet
    if state.limit:
        size = state.config.bet_size(state.street_index)
        # RRoP-BR.5: an all-in of half a bet or more counts as a full bet or raise.
        if 2 * (to - state.full_level) >= size:
            if state.full_level > 0:
                state.raises += 1
            # RRoP-BR.3: a bet and ``raise_cap`` raises with three or more players not
            # all-in at the time; RRoP-BR.4: unlimited heads-up, and a cap once reached stays.
            if state.raises >= state.config.raise_cap and able_before >= 3:
                state.capped = True
            state.full_level = to
    elif to - current >= state.min_raise_increment:
        # TDA-43: the largest full bet or raise of the round; short all-ins don't change it.
        state.min_raise_increment = to - current
        state.full_level = to
    if to > current:
        state.current_bet = to


# --- the rules a refusal cites ---------------------------------------------------------------


def _table_stakes_rules(state: HandState) -> tuple[str, ...]:
    # RRoP-14.0: a wager is limited by the table stakes (the chips in front of the player).
    return (rule.MIN_WAGER,) if state.limit else (rule.PL_MAX_BET,)


def _refusal_error(state: HandState, seat: int, reason: int) -> IllegalAction:
    if reason == _NO_CHIPS_BEYOND_CALL:
        return IllegalAction(
            "raise_not_allowed",
            f"You have {state.street_wager[seat] + state.stacks[seat]} in all, no more than the"
            f" bet of {state.current_bet}: you may call all-in or fold.",
            *_table_stakes_rules(state),
        )
    if reason == _NOBODY_CAN_CALL:
        return IllegalAction(
            "raise_not_allowed",
            "Nobody left in the hand could call a raise: every other player is all-in, or"
            " would be by calling. Call or fold.",
            rule.TDA_REOPENING,
        )
    if reason == _NOT_REOPENED:
        acted = state.acted_level[seat]
        if state.limit:
            return IllegalAction(
                "raise_not_allowed",
                "You have already acted and the all-in since was less than half a bet, so"
                " the betting is not re-opened for you: call or fold.",
                rule.LIMIT_HALF_BET_ALL_IN,
                rule.TDA_REOPENING,
            )
        return IllegalAction(
            "raise_not_allowed",
            f"You have already acted and face an increase of {state.current_bet - acted},"
            f" less than a full raise of {state.min_raise_increment}: the betting is not"
            " re-opened for you. Call or fold.",
            rule.TDA_REOPENING,
            rule.NL_MIN_RAISE,
            rule.NL_ALL_INS_ADD_UP,
        )
    return IllegalAction(
        "raise_not_allowed",
        f"The betting is capped at a bet and {state.config.raise_cap} raises on this round.",
        rule.LIMIT_RAISE_CAP,
        rule.HEADS_UP_UNLIMITED,
    )


def _too_small_error(state: HandState, seat: int, to: int, low: int) -> IllegalAction:
    current = state.current_bet
    word = "raise" if current else "bet"
    if state.limit:
        rules: tuple[str, ...] = (rule.MIN_WAGER, rule.BRING_UP_SHORT_WAGER)
        if state.full_level < current:
            rules += (rule.LIMIT_HALF_BET_ALL_IN,)
        return IllegalAction(
            "raise_too_small",
            f"In fixed limit this {word} is exactly to {low}, not {to}.",
            *rules,
        )
    all_in = state.street_wager[seat] + state.stacks[seat]
    if all_in == low and low < (current + state.min_raise_increment if current else state.bring_in):
        message = f"Short of a full {word}, you may only go all-in: to {low}, not {to}."
    elif not current:
        message = f"A bet must be at least the bring-in of {state.bring_in}; {to} is short."
    else:
        message = (
            f"A raise must be to at least {low} (the bet of {current} plus the largest full"
            f" bet or raise of the round, {state.min_raise_increment}); {to} is short."
        )
    if not current:
        rules = (rule.NL_MIN_BET, rule.MIN_WAGER)
    else:
        rules = (rule.NL_MIN_RAISE, rule.TDA_RAISE_AMOUNTS)
        if state.full_level < current:
            rules += (rule.NL_NO_COMPLETING,)  # facing a short all-in: no completing it
    if state.street_index == 0:
        config = state.config
        if state.bring_in == config.straddle:
            rules += (rule.NL_STRADDLE,)
        elif state.stacks[state.bb_seat] == 0 and (
            state.street_wager[state.bb_seat] < config.big_blind
        ):
            rules += (rule.BRING_IN_AND_SHORT_BLIND,)  # a short big blind: raise to 2x it
    return IllegalAction("raise_too_small", message, *rules)


def _too_large_error(state: HandState, seat: int, to: int, high: int) -> IllegalAction:
    word = "raise" if state.current_bet else "bet"
    all_in = state.street_wager[seat] + state.stacks[seat]
    if to > all_in:
        return IllegalAction(
            "raise_too_large",
            f"You have {all_in} in all: you cannot {word} to {to}.",
            *_table_stakes_rules(state),
        )
    if state.limit:
        return IllegalAction(
            "raise_too_large",
            f"In fixed limit this {word} is exactly to {high}, not {to}.",
            rule.MIN_WAGER,
        )
    rules: tuple[str, ...] = (rule.PL_MAX_BET, rule.PL_OVERSIZE_REDUCED)
    if _small_blind_counts_as_big(state):
        rules += (rule.PL_SMALL_BLIND_AS_BIG,)
    return IllegalAction(
        "raise_too_large",
        f"The most you may {word} to is the pot: {high}, not {to}.",
        *rules,
    )


# --- reading the state -----------------------------------------------------------------------


def pots(state: HandState) -> list[Pot]:
    """Main pot first, then side pots (eligible: players still in who can match the pot)."""
    stacks = state.stacks
    all_in = [seat for seat in state.seat_order if stacks[seat] == 0]
    dead = state.dead
    live = {seat: chips - dead[seat] for seat, chips in state.total_contributed.items()}
    return build_pots(live, state.folded, all_in, sum(dead.values()))


def snapshot(state: HandState) -> dict[str, Any]:
    """The betting contract's 200 response body."""
    options = legal_options(state)
    return {
        "street": state.street,
        "to_act": state.to_act,
        "pot": state.pot,
        "current_bet": state.current_bet,
        "min_raise_increment": state.min_raise_increment,
        "options": None if options is None else options.to_dict(),
        "pots": [pot.to_dict() for pot in pots(state)],
    }


def replay(
    config: GameConfig, button: int, seats: Sequence[Seat], actions: Sequence[Action]
) -> tuple[HandState, tuple[int, IllegalAction] | None]:
    """Deal and play ``actions`` until the first illegal one (the ones before it stand).
    Returns the state and ``(index, error)`` for the illegal action, or None."""
    state = start_hand(config, button, seats)
    dealt = state.next_seat
    for index, action in enumerate(actions):
        if action.seat not in dealt:
            raise BadInput(f"Action {index}: seat {action.seat} is not dealt in.", "actions")
    for index, action in enumerate(actions):
        try:
            apply(state, action)
        except IllegalAction as error:
            return state, (index, error)
    return state, None
