"""Who posts (contract v2): named blinds, a dead button (TDA-32), a dead small blind, and
players making up missed blinds with live and dead parts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from rules.engine.errors import BadInput
from rules.engine.state import Blinds, HandState, Post, legal_options, pots, replay, snapshot
from tests.rules.engine.hands import action, game, seats, table

NL = game("no_limit", 50, 100)


def deal(
    stacks: Mapping[int, int],
    button: int,
    blinds: Blinds | None = None,
    posts: Sequence[Post] = (),
    actions: Sequence[str] = (),
    config: object = NL,
) -> HandState:
    state, error = replay(
        config,  # type: ignore[arg-type]
        button,
        seats(stacks),
        [action(a) for a in actions],
        blinds,
        posts,
    )
    assert error is None, error
    return state


def test_a_dead_button_on_an_empty_seat() -> None:
    # TDA-32: the button stays on seat 4, now empty; seats 5 and 6 post the blinds.
    stacks = {1: 5000, 2: 5000, 3: 5000, 5: 5000, 6: 5000}
    state = deal(stacks, 4, Blinds(5, 6))
    assert (state.street_wager[5], state.street_wager[6]) == (50, 100)
    assert state.to_act == 1  # the first seat dealt in after the big blind
    state = deal(
        stacks, 4, Blinds(5, 6), actions=["1 call", "2 call", "3 call", "5 call", "6 check"]
    )
    assert state.street == "flop" and state.to_act == 5  # first dealt in after seat 4
    assert snapshot(state)["blinds"] == {"button": 4, "small": 5, "big": 6}


def test_a_dead_small_blind_nobody_posts() -> None:
    state = deal(table(4), 1, Blinds(None, 3))
    assert state.pot == 100 and state.current_bet == 100 and state.to_act == 4
    assert snapshot(state)["blinds"] == {"button": 1, "small": None, "big": 3}
    state = deal(table(4), 1, Blinds(None, 3), actions=["4 call", "1 call", "2 call", "3 check"])
    assert state.street == "flop" and state.to_act == 2


def test_no_straddle_behind_a_dead_small_blind() -> None:
    state = deal(table(5), 1, Blinds(None, 3), config=game("no_limit", 50, 100, straddle=200))
    assert state.current_bet == 100 and state.street_wager[4] == 0 and state.to_act == 4


def test_the_straddle_seat_with_named_blinds_is_the_first_dealt_in_after_the_big_blind() -> None:
    stacks = {1: 5000, 2: 5000, 3: 5000, 5: 5000, 6: 5000}
    state = deal(stacks, 1, Blinds(2, 3), config=game("no_limit", 50, 100, straddle=200))
    assert state.street_wager[5] == 200 and state.current_bet == 200 and state.to_act == 6


def test_heads_up_with_named_blinds_the_first_after_the_big_blind_acts_first() -> None:
    state = deal(table(2), 1, Blinds(1, 2))
    assert state.to_act == 1
    state = deal(table(2), 1, Blinds(1, 2), actions=["1 call", "2 check"])
    assert state.to_act == 2  # post flop, the first seat after the button


def test_without_blinds_version_1_applies_and_the_button_must_be_dealt_in() -> None:
    with pytest.raises(BadInput) as bad:
        deal({1: 5000, 2: 5000, 3: 5000}, 4)
    assert bad.value.field == "button"


@pytest.mark.parametrize(
    ("blinds", "field"),
    [
        (Blinds(2, 7), "blinds.big"),
        (Blinds(7, 2), "blinds.small"),
        (Blinds(2, 2), "blinds.small"),
    ],
)
def test_blind_seats_must_be_dealt_in_and_different(blinds: Blinds, field: str) -> None:
    with pytest.raises(BadInput) as bad:
        deal(table(3), 1, blinds)
    assert bad.value.field == field


def test_a_live_post_counts_toward_the_wager_and_has_the_big_blind_s_option() -> None:
    # Seat 5 makes up a missed big blind: live 100. Everyone calls round to it: it may check.
    state = deal(table(6), 1, posts=[Post(5, live=100)], actions=["4 call"])
    assert state.to_act == 5 and state.street_wager[5] == 100
    options = legal_options(state)
    assert options is not None and options.check and options.raise_ is not None
    assert options.raise_.min_to == 200


def test_a_live_poster_facing_a_raise_calls_only_the_difference() -> None:
    state = deal(table(6), 1, posts=[Post(5, live=100)], actions=["4 raise 300"])
    options = legal_options(state)
    assert state.to_act == 5 and options is not None and options.call == 200


def test_a_dead_post_is_dead_money_in_the_main_pot() -> None:
    state = deal(table(4), 1, posts=[Post(4, live=100, dead=50)])
    assert state.pot == 300 and state.street_wager[4] == 100 and state.dead[4] == 50
    assert state.total_contributed[4] == 150
    # Everyone folds to the big blind: the dead 50 is never returned, it is the big blind's.
    state = deal(
        table(4), 1, posts=[Post(4, live=100, dead=50)], actions=["4 fold", "1 fold", "2 fold"]
    )
    assert state.street == "complete" and state.pot == 300
    assert [(p.amount, p.eligible) for p in pots(state)] == [(300, (3,))]


def test_a_player_short_of_a_post_posts_live_first_then_dead_and_is_all_in() -> None:
    state = deal(table(4, s4=120), 1, posts=[Post(4, live=100, dead=50)])
    assert state.street_wager[4] == 100 and state.dead[4] == 20 and state.stacks[4] == 0


@pytest.mark.parametrize(
    ("posts", "field"),
    [
        ([Post(4, live=50)], "posts.0.live"),
        ([Post(4, dead=100)], "posts.0.dead"),
        ([Post(2, live=100)], "posts.0.seat"),  # the small blind
        ([Post(3, live=100)], "posts.0.seat"),  # the big blind
        ([Post(9, live=100)], "posts.0.seat"),  # not dealt in
        ([Post(4, live=100), Post(4, dead=50)], "posts.1.seat"),
    ],
)
def test_posts_the_contract_refuses(posts: list[Post], field: str) -> None:
    with pytest.raises(BadInput) as bad:
        deal(table(4), 1, posts=posts)
    assert bad.value.field == field


def test_a_post_by_the_straddle_seat_is_refused() -> None:
    with pytest.raises(BadInput) as bad:
        deal(table(5), 1, posts=[Post(4, live=100)], config=game("no_limit", 50, 100, straddle=200))
    assert bad.value.field == "posts.0.seat"


def test_the_straddle_seat_short_of_the_straddle_posts_its_missed_blinds() -> None:
    # Blinds 50-100, straddle 200: seat 4 (left of the big blind) has 150, cannot post the
    # whole straddle, so nobody straddles (RRoP-14.14, contract v2 "Straddle not posted") and
    # seat 4 makes up its missed blinds like anyone else (CR-BB.3): live first, then dead.
    config = game("no_limit", 50, 100, straddle=200)
    state = deal(table(5, s4=150), 1, posts=[Post(4, live=100, dead=50)], config=config)
    assert state.current_bet == state.bring_in == 100
    assert state.street_wager[4] == 100 and state.dead[4] == 50 and state.stacks[4] == 0
    assert state.pot == 300 and state.to_act == 5
    # With 120 it posts the live 100, then 20 of the dead 50, and is all-in.
    state = deal(table(5, s4=120), 1, posts=[Post(4, live=100, dead=50)], config=config)
    assert state.street_wager[4] == 100 and state.dead[4] == 20 and state.stacks[4] == 0
