"""Properties of version 2 over random hands: named blinds (a dead button, a dead small blind),
posts with live and dead parts, big-blind antes, and actions out of turn.

At every decision chips are conserved and the pots add up to every chip put in, dead money
included; the options are exactly what ``apply`` accepts; and a held action never changes a
hand whose action changed: when it is voided, the hand is the hand played without it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules.engine.config import GameConfig
from rules.engine.errors import IllegalAction
from rules.engine.out_of_turn import play_action
from rules.engine.state import (
    Action,
    ActionKind,
    Blinds,
    HandState,
    Post,
    Seat,
    pots,
    replay,
    snapshot,
    start_hand,
)
from tests.rules.engine.test_properties import MAX_ACTIONS, check_options_match_apply, choose, deals

Deal = tuple[GameConfig, int, list[Seat], Blinds | None, list[Post]]


@st.composite
def deals_v2(draw: Any) -> Deal:
    config, button, seats = draw(deals())
    numbers = sorted(seat.seat for seat in seats)
    blinds: Blinds | None = None
    if draw(st.booleans()):
        big = draw(st.sampled_from(numbers))
        others = [n for n in numbers if n != big]
        small = draw(st.one_of(st.none(), st.sampled_from(others)))
        button = draw(st.integers(1, 12))  # dead or not
        blinds = Blinds(small, big)
    posts: list[Post] = []
    state = start_hand(config, button, seats, blinds)
    forced = {state.sb_seat, state.bb_seat}
    if config.straddle and len(numbers) > 2 and state.sb_seat is not None:
        forced.add(state.next_seat[state.bb_seat])
    for number in numbers:
        if number not in forced and draw(st.integers(0, 3)) == 0:
            live = draw(st.sampled_from([0, config.big_blind]))
            dead = draw(st.sampled_from([0, config.small_blind]))
            posts.append(Post(number, live, dead))
    if posts and draw(st.booleans()):
        # A poster short of their post: all-in for less than a blind, or for dead money alone
        # (a dead post with their last chips).
        short = draw(st.sampled_from(posts)).seat
        stack = draw(st.integers(1, config.big_blind + config.small_blind))
        seats = [Seat(s.seat, stack) if s.seat == short else s for s in seats]
    return config, button, seats, blinds, posts


def check_chips(state: HandState, chips: int) -> None:
    assert sum(state.stacks.values()) + state.pot == chips
    assert state.pot == sum(state.total_contributed.values())
    assert sum(pot.amount for pot in pots(state)) == state.pot
    assert all(0 <= state.dead[s] <= state.total_contributed[s] for s in state.seat_order)
    assert all(pot.eligible for pot in pots(state))
    live = set(state.seat_order) - state.folded
    assert all(set(pot.eligible) <= live for pot in pots(state))
    check_pot_levels(state)


def check_pot_levels(state: HandState) -> None:
    """Every pot's eligible players are exactly the players still in who contributed fully to
    its level (contract: "a player is eligible for the pots they contributed to fully"), dead
    money counting toward nobody's level and lying in the main pot (contract v2, CR-DM.1).

    A pot's level is the least that its eligible players put in (dead money aside); levels
    rise from the main pot; each pot but the last holds what everyone put in between the level
    before it and its own, the main pot the dead money too (the last may also hold chips only
    folded players reached). A player who put nothing in and has nothing behind (dealt in with
    no chips) has no stake. Mid-hand, a player with chips behind may still match any pot:
    eligible for every one."""
    built = pots(state)
    live = set(state.seat_order) - state.folded
    if state.to_act is not None:
        able = {s for s in live if state.stacks[s] > 0}
        assert all(able <= set(pot.eligible) for pot in built)
        return
    put = {s: chips - state.dead[s] for s, chips in state.total_contributed.items()}
    staked = {s for s in live if state.total_contributed[s] > 0 or state.stacks[s] > 0}
    dead = sum(state.dead.values())
    previous = -1
    for index, pot in enumerate(built):
        level = min(put[s] for s in pot.eligible)
        assert level > previous, built
        assert set(pot.eligible) == {s for s in staked if put[s] >= level}, built
        floor = max(previous, 0)
        expected = sum(min(chips, level) - min(chips, floor) for chips in put.values())
        expected += dead if index == 0 else 0
        if index < len(built) - 1:
            assert pot.amount == expected, built
        else:
            assert pot.amount >= expected, built
        previous = level
    if built and staked:
        assert set(built[0].eligible) == staked  # everyone with a stake is in the main pot


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals_v2(), data=st.data())
def test_chips_are_conserved_with_posts_and_dead_money_and_options_match_apply(
    deal: Deal, data: Any
) -> None:
    config, button, seats, blinds, posts = deal
    chips = sum(seat.stack for seat in seats)
    state = start_hand(config, button, seats, blinds, posts)
    for _ in range(MAX_ACTIONS):
        check_chips(state, chips)
        if state.to_act is None:
            break
        check_options_match_apply(state, data.draw)
        play_action(state, 0, choose(state, data.draw))
    else:
        raise AssertionError("the hand never ended")
    check_chips(state, chips)


def without_turn_order(state: HandState, draw: Any) -> Action | None:
    """An out-of-turn action by a seat still in with chips whose turn it is not."""
    waiting = [
        s
        for s in state.seat_order
        if s != state.to_act and state.can_act(s) and all(h.seat != s for h in state.held)
    ]
    if not waiting:
        return None
    seat = draw(st.sampled_from(waiting))
    kind = draw(st.sampled_from(list(ActionKind)))
    to = None
    if kind in (ActionKind.BET, ActionKind.RAISE):
        to = draw(st.integers(0, state.street_wager[seat] + state.stacks[seat] + 10))
    return Action(seat, kind, to, out_of_turn=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals_v2(), data=st.data())
def test_a_voided_held_action_never_changes_the_hand(deal: Deal, data: Any) -> None:
    config, button, seats, blinds, posts = deal
    chips = sum(seat.stack for seat in seats)
    state = start_hand(config, button, seats, blinds, posts)
    actions: list[Action] = []
    held_at: int | None = None
    while state.to_act is not None and len(actions) < MAX_ACTIONS:
        if held_at is None and data.draw(st.integers(0, 4)) == 0:
            held = without_turn_order(state, data.draw)
            if held is not None:
                held_at = len(actions)
                actions.append(held)
                play_action(state, held_at, held)
                assert [h.index for h in state.held] == [held_at]
                continue
        action = choose(state, data.draw)
        actions.append(action)
        try:
            refused = play_action(state, len(actions) - 1, action)
        except IllegalAction:
            raise AssertionError(f"a legal choice was refused: {action}") from None
        if refused is not None:
            assert refused[0] == held_at  # only the held action can fail at its turn
            return
        check_chips(state, chips)
    if held_at is None:
        return
    body = snapshot(state)
    event("held action voided" if body["voided"] else "held action bound or still held")
    if [v["index"] for v in body["voided"]] == [held_at]:
        # Void: the same hand without the held action is exactly this hand.
        rest = actions[:held_at] + actions[held_at + 1 :]
        alone, error = replay(config, button, seats, rest, blinds, posts)
        assert error is None
        assert {**snapshot(alone), "voided": body["voided"]} == body
    assert len(body["held"]) + len(body["voided"]) <= 1
