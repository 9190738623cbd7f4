"""Properties over random hands: 2-9 players, all three structures, random legal actions.

At every decision: chips are conserved, the pots add up to the pot, the options are sane and
are exactly what ``apply`` accepts (every offered amount is legal, one chip outside the range
is refused with the contract's code), and a betting round ends exactly when every player still
in with chips has acted and matched the bet.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.config import GameConfig, Structure
from rules.engine.errors import IllegalAction
from rules.engine.state import (
    Action,
    ActionKind,
    HandState,
    Seat,
    apply,
    legal_options,
    pots,
    snapshot,
    start_hand,
)

MAX_ACTIONS = 400


@st.composite
def deals(draw: Any) -> tuple[GameConfig, int, list[Seat]]:
    structure = draw(st.sampled_from(list(Structure)))
    players = draw(st.integers(2, 9))
    numbers = draw(st.lists(st.integers(1, 10), min_size=players, max_size=players, unique=True))
    small_blind = draw(st.integers(1, 50))
    big_blind = draw(st.integers(small_blind, 2 * small_blind + 50))
    ante = draw(st.sampled_from([0, 0, 1, small_blind, big_blind]))
    # Every player's ante, or the big blind's ante for the table (never both).
    extra: dict[str, Any] = (
        {"big_blind_ante": ante} if ante and draw(st.booleans()) else {"ante": ante}
    )
    if structure is Structure.FIXED_LIMIT:
        small_bet = draw(st.sampled_from([big_blind, big_blind, 2 * big_blind]))
        extra |= {
            "small_bet": small_bet,
            "big_bet": draw(st.sampled_from([small_bet, 2 * small_bet])),
            "raise_cap": draw(st.integers(0, 4)),
        }
    else:
        extra["straddle"] = draw(st.sampled_from([0, 2 * big_blind]))
        if structure is Structure.POT_LIMIT:
            extra["pot_limit_small_blind_as_big"] = draw(st.booleans())
            extra["pot_round_unit"] = draw(st.sampled_from([0, 0, 5, 25, big_blind]))
    config = GameConfig(structure, small_blind, big_blind, **extra)
    stack = st.one_of(
        st.integers(0, 3 * big_blind),  # short: all-in blinds, antes and short all-ins
        st.integers(big_blind, 60 * big_blind),
    )
    seats = [Seat(number, draw(stack)) for number in numbers]
    return config, draw(st.sampled_from(numbers)), seats


def refusal(state: HandState, action: Action) -> str | None:
    trial = state.copy()
    try:
        apply(trial, action)
    except IllegalAction as error:
        return error.code
    return None


def check_invariants(state: HandState, chips: int) -> None:
    assert sum(state.stacks.values()) + state.pot == chips
    assert state.pot == sum(state.total_contributed.values())
    assert sum(pot.amount for pot in pots(state)) == state.pot
    assert all(stack >= 0 for stack in state.stacks.values())
    assert all(pot.eligible for pot in pots(state))
    body = snapshot(state)
    assert body["pot"] == state.pot and body["to_act"] == state.to_act
    if state.to_act is None:
        assert state.street in ("showdown", "complete") and body["options"] is None
        if state.street == "complete":
            assert len(set(state.seat_order) - state.folded) == 1
        # Uncalled excess returned: nobody has more in than the second-highest contributor
        # (dead money, a big-blind ante, is never returned: contract v2 "Dead money").
        totals = sorted(chips - state.dead[s] for s, chips in state.total_contributed.items())
        assert totals[-1] == totals[-2]
    else:
        assert state.street in ("preflop", "flop", "turn", "river")
        assert state.to_act not in state.folded and state.stacks[state.to_act] > 0


def check_options_match_apply(state: HandState, draw: Any) -> None:
    seat = state.to_act
    assert seat is not None
    options = legal_options(state)
    assert options is not None and options.fold
    wager, stack = state.street_wager[seat], state.stacks[seat]
    owed = state.current_bet - wager
    assert options.check == (owed <= 0)
    assert options.call == (None if owed <= 0 else min(owed, stack))

    assert refusal(state, Action(seat, ActionKind.FOLD)) is None
    assert refusal(state, Action(seat, ActionKind.CALL)) is None
    assert refusal(state, Action(seat, ActionKind.CHECK)) == (
        None if options.check else "cannot_check"
    )
    other = next(s for s in state.seat_order if s != seat)
    assert refusal(state, Action(other, ActionKind.CALL)) == "not_your_turn"

    all_in = wager + stack
    raise_ = options.raise_
    if raise_ is None:
        assert refusal(state, Action(seat, ActionKind.RAISE, all_in)) == "raise_not_allowed"
        expected = None if all_in <= state.current_bet else "raise_not_allowed"
        assert refusal(state, Action(seat, ActionKind.ALL_IN)) == expected
        return
    low, high = raise_.min_to, raise_.max_to
    assert state.current_bet < low <= high <= all_in
    assert low > wager
    between = draw(st.integers(low, high))
    for to in {low, high, between}:
        assert refusal(state, Action(seat, ActionKind.RAISE, to)) is None
        assert refusal(state, Action(seat, ActionKind.BET, to)) is None
    assert refusal(state, Action(seat, ActionKind.RAISE, low - 1)) == "raise_too_small"
    assert refusal(state, Action(seat, ActionKind.RAISE, high + 1)) == "raise_too_large"
    assert refusal(state, Action(seat, ActionKind.RAISE, state.current_bet)) == "raise_too_small"
    expected = None if all_in <= high else "raise_too_large"
    assert refusal(state, Action(seat, ActionKind.ALL_IN)) == expected
    if state.config.structure is Structure.NO_LIMIT:
        assert high == all_in
    if state.config.structure is Structure.FIXED_LIMIT:
        assert low == high


def round_should_close(state: HandState, action: Action) -> tuple[bool, set[int]]:
    """An independent reading of "the round is over": after ``action``, is any player still
    in with chips yet to act or short of the bet? Returns (over, seats that must act)."""
    seat = action.seat
    wagers = dict(state.street_wager)
    stacks = dict(state.stacks)
    folded = set(state.folded)
    acted = dict(state.acted_level)
    current = state.current_bet
    if action.kind is ActionKind.FOLD:
        folded.add(seat)
    else:
        if action.kind in (ActionKind.BET, ActionKind.RAISE):
            target = action.to
            assert target is not None
        elif action.kind is ActionKind.ALL_IN:
            target = wagers[seat] + stacks[seat]
        else:
            target = max(wagers[seat], min(current, wagers[seat] + stacks[seat]))
        stacks[seat] -= target - wagers[seat]
        wagers[seat] = target
        current = max(current, target)
        acted[seat] = current
    live = [s for s in state.seat_order if s not in folded]
    if len(live) == 1:
        return True, set()
    able = [s for s in live if stacks[s] > 0]
    must = {s for s in able if acted[s] < 0 or wagers[s] < current}
    if len(able) == 1 and must:
        (alone,) = able
        if all(wagers[s] <= wagers[alone] for s in live if s != alone):
            must = set()
    return not must, must


def first_clockwise(order: tuple[int, ...], after: int, seats: set[int]) -> int:
    start = order.index(after)
    for step in range(1, len(order) + 1):
        seat = order[(start + step) % len(order)]
        if seat in seats:
            return seat
    raise AssertionError("nobody to act")


def choose(state: HandState, draw: Any) -> Action:
    seat = state.to_act
    assert seat is not None
    options = legal_options(state)
    assert options is not None
    pick = draw(st.integers(0, 9))
    if pick == 0:
        return Action(seat, ActionKind.FOLD)
    if options.raise_ is not None and pick >= 7:
        low, high = options.raise_.min_to, options.raise_.max_to
        how = draw(st.sampled_from(["min", "max", "between", "all_in"]))
        if how == "all_in" and state.street_wager[seat] + state.stacks[seat] <= high:
            return Action(seat, ActionKind.ALL_IN)
        to = {"min": low, "max": high}.get(how) or draw(st.integers(low, high))
        return Action(seat, ActionKind.RAISE, to)
    if pick == 1 and options.check:
        return Action(seat, ActionKind.CHECK)
    return Action(seat, ActionKind.CALL)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals(), data=st.data())
def test_random_hands_keep_every_rule(deal: tuple[GameConfig, int, list[Seat]], data: Any) -> None:
    config, button, seats = deal
    chips = sum(seat.stack for seat in seats)
    state = start_hand(config, button, seats)
    for _ in range(MAX_ACTIONS):
        check_invariants(state, chips)
        if state.to_act is None:
            break
        check_options_match_apply(state, data.draw)
        action = choose(state, data.draw)
        over, must = round_should_close(state, action)
        street = state.street
        apply(state, action)
        closed = state.street != street or state.to_act is None
        assert closed == over, (street, action, must)
        if not over:
            assert state.to_act == first_clockwise(state.seat_order, action.seat, must)
        elif state.to_act is not None:
            # A new street: the first player still in with chips left of the button.
            able = {s for s in state.seat_order if state.can_act(s)}
            assert state.street_wager[state.to_act] == 0 and len(able) >= 2
            assert state.to_act == first_clockwise(state.seat_order, state.button, able)
    else:
        raise AssertionError("the hand never ended")
    check_invariants(state, chips)
    assert refusal(state, Action(state.seat_order[0], ActionKind.CALL)) == "hand_over"


@settings(max_examples=150, deadline=None)
@given(deal=deals(), data=st.data())
def test_a_copy_plays_the_same_as_the_original(
    deal: tuple[GameConfig, int, list[Seat]], data: Any
) -> None:
    config, button, seats = deal
    state = start_hand(config, button, seats)
    actions: list[Action] = []
    while state.to_act is not None and len(actions) < MAX_ACTIONS:
        action = choose(state, data.draw)
        before = state.copy()
        apply(state, action)
        apply(before, action)
        assert snapshot(before) == snapshot(state)
        actions.append(action)
    replayed = start_hand(config, button, seats)
    for action in actions:
        apply(replayed, action)
    assert snapshot(replayed) == snapshot(state)
    assert replayed.stacks == state.stacks
