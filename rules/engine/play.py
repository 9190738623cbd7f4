"""Playing an action: ``apply`` checks it against the options' own rules and plays it."""

from __future__ import annotations

from rules.engine import citations as rule
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.hand import Action, ActionKind, HandState, pass_action
from rules.engine.options import (
    raise_bounds,
    refusal,
    refusal_error,
    too_large_error,
    too_small_error,
)


def apply(state: HandState, action: Action) -> None:
    """Play ``action`` or raise ``IllegalAction`` (the state is then unchanged)."""
    seat = state.to_act
    if seat is None:
        raise IllegalAction(
            "hand_over",
            f"Nobody is to act: the betting is over ({state.street}).",
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
        pass_action(state, seat)
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
        pass_action(state, seat)
        return
    _check_raise(state, seat, to)
    _wager_to(state, seat, to)
    state.acted_level[seat] = state.current_bet
    pass_action(state, seat)


def _check_raise(state: HandState, seat: int, to: int) -> None:
    reason = refusal(state, seat)
    if reason:
        raise refusal_error(state, seat, reason)
    low, high = raise_bounds(state, seat)
    if to < low:
        raise too_small_error(state, seat, to, low)
    if to > high:
        raise too_large_error(state, seat, to, high)


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
