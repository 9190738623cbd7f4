"""What the player to act may do, and the rules a refusal cites.

``legal_options`` lists the options; ``apply`` (``play.py``) checks an action with the same
``refusal`` (may the actor bet or raise at all?) and ``raise_bounds`` (from what total to what
total?), so the options offered and the actions accepted cannot disagree.
"""

from __future__ import annotations

from rules.engine import citations as rule
from rules.engine.config import Structure
from rules.engine.errors import IllegalAction
from rules.engine.hand import HandState, Options, RaiseRange

# Why the actor may not bet or raise (``refusal``); 0 = they may.
MAY_RAISE = 0
_NO_CHIPS_BEYOND_CALL = 1
_NOBODY_CAN_CALL = 2
_NOT_REOPENED = 3
_CAPPED = 4


def refusal(state: HandState, seat: int) -> int:
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
    return MAY_RAISE


def raise_bounds(state: HandState, seat: int) -> tuple[int, int]:
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
    if small is None:
        return extra  # a dead small blind: nobody posted it, nothing to count (CR-BB.2)
    if _small_blind_counts_as_big(state):
        extra += config.big_blind - wager[small]
    elif stacks[small] == 0 and wager[small] < config.small_blind:
        extra += config.small_blind - wager[small]
    return extra


def _small_blind_counts_as_big(state: HandState) -> bool:
    # RRoP-PL.5: the small blind counts as a big blind in the pot size until the big blind
    # is through acting on the first round (once the small blind has put in a big blind or
    # more, there is nothing to add).
    small = state.sb_seat
    return (
        state.config.pot_limit_small_blind_as_big
        and small is not None
        and state.street_index == 0
        and state.acted_level[state.bb_seat] < 0
        and state.street_wager[small] < state.config.big_blind
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
    if refusal(state, seat):
        return Options(True, check, call, None)
    low, high = raise_bounds(state, seat)
    return Options(True, check, call, RaiseRange(low, high))


# --- the rules a refusal cites ---------------------------------------------------------------


def _table_stakes_rules(state: HandState) -> tuple[str, ...]:
    # RRoP-14.0: a wager is limited by the table stakes (the chips in front of the player).
    return (rule.MIN_WAGER,) if state.limit else (rule.PL_MAX_BET,)


def refusal_error(state: HandState, seat: int, reason: int) -> IllegalAction:
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


def too_small_error(state: HandState, seat: int, to: int, low: int) -> IllegalAction:
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


def too_large_error(state: HandState, seat: int, to: int, high: int) -> IllegalAction:
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
    if state.street_index == 0 and _short_blinds(state) and not _small_blind_counts_as_big(state):
        rules += (rule.BRING_IN_AND_SHORT_BLIND,)  # a short blind counted at full size
    return IllegalAction(
        "raise_too_large",
        f"The most you may {word} to is the pot: {high}, not {to}.",
        *rules,
    )
