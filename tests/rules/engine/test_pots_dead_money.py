"""Dead money (a big-blind ante, the dead part of a posted missed blind) in ``build_pots``.

Contract v2, "Dead money": it lies in the main pot and is won by whoever is eligible for it. These
rows pin who that is when no pot was built from the contributions (nothing put in, or nobody
live), a gap the mutation run showed (docs/mutation.md); a player all-in for dead money alone;
and every worked example of dead money in the contract and the CR book, with the other ways a
player can be all-in for little or nothing (a dead small blind, a short ante, a short big blind
at a big-blind-ante table).
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine import citations
from rules.engine.award import Showdown, award_hand, parse_showdown
from rules.engine.pots import Pot, build_pots
from rules.engine.state import Action, ActionKind, Blinds, HandState, Post, Seat, pots, replay
from tests.rules.engine.hands import action, game


def test_dead_money_joins_the_main_pot() -> None:
    pots = build_pots({1: 500, 2: 300, 3: 500}, folded=(), all_in={2}, dead={2: 100})
    assert pots == [Pot(1000, (1, 2, 3)), Pot(400, (1, 3))]


def test_dead_money_alone_goes_to_the_players_still_in() -> None:
    assert build_pots({1: 0, 2: 0, 3: 0}, folded={2}, dead={2: 100}) == [Pot(100, (1, 3))]


def test_dead_money_alone_with_nobody_live_names_every_seat() -> None:
    assert build_pots({3: 0, 1: 0}, folded={1, 3}, dead={1: 100}) == [Pot(100, (1, 3))]


def test_no_dead_money_and_nothing_in_is_no_pot() -> None:
    assert build_pots({1: 0, 2: 0}, folded=(), dead={}) == []


# A player all-in for dead money alone: their live level is 0, so the main
# pot is the dead money, and every player still in who put chips in is eligible for it
# (CR-DM.1; RRoP-TR.19: action on whatever amount of money remains).


def test_a_player_all_in_on_a_dead_post_is_eligible_for_the_dead_money() -> None:
    # Blinds 50-100: seat 3 posts its last 50 dead; the small blind (1) folds and the big blind
    # (2) has 50 of its 100 returned. The dead 50 is the main pot, for seats 2 and 3.
    pots = build_pots({1: 50, 2: 50, 3: 0, 4: 0}, folded={1, 4}, all_in={3}, dead={3: 50})
    assert pots == [Pot(50, (2, 3)), Pot(100, (2,))]


def test_the_dead_money_pot_holds_every_dead_chip_the_big_blind_ante_too() -> None:
    # Seat 2 (the big blind) also put 100 dead (a big-blind ante): all dead money is the main
    # pot's (CR-DM.1), whoever posted it.
    pots = build_pots({1: 100, 2: 100, 3: 0}, folded=(), all_in={3}, dead={2: 100, 3: 50})
    assert pots == [Pot(150, (1, 2, 3)), Pot(200, (1, 2))]


def test_mid_hand_a_player_with_chips_behind_is_eligible_for_the_dead_money_pot_too() -> None:
    pots = build_pots({1: 0, 2: 100, 3: 0}, folded=(), all_in={3}, dead={3: 50})
    assert pots == [Pot(50, (1, 2, 3)), Pot(100, (1, 2))]


def test_a_player_who_put_in_nothing_at_all_is_eligible_for_no_dead_money() -> None:
    # Seat 3 is dealt in with no chips and posts nothing: no stake in any pot, dead or not.
    pots = build_pots({1: 100, 2: 100, 3: 0}, folded=(), all_in={3}, dead={2: 100})
    assert pots == [Pot(300, (1, 2))]


def dead_post_all_in(*folds: int, blinds: Blinds | None = None) -> HandState:
    """Blinds 50-100, button 4: seat 3 has 50 and posts it dead (a missed small blind, CR-BB.3)
    and is all-in; ``folds`` fold in turn."""
    stacks = [Seat(1, 1000), Seat(2, 1000), Seat(3, 50), Seat(4, 1000)]
    actions = [Action(seat, ActionKind.FOLD) for seat in folds]
    state, error = replay(game(), 4, stacks, actions, blinds, [Post(3, dead=50)])
    assert error is None, error
    return state


def showdown(ranking: list[list[int]]) -> Showdown:
    return parse_showdown({"ranking": ranking}, dealt=(1, 2, 3, 4))


def test_all_in_on_a_dead_post_wins_the_dead_money_at_showdown() -> None:
    # The floor's hand: two players fold, seat 3 shows the best hand. It was one pot of 150
    # for seat 2 alone: seat 3 paid 50 and could win nothing.
    state = dead_post_all_in(4, 1)
    assert state.street == "showdown" and state.stacks[3] == 0
    assert pots(state) == [Pot(50, (2, 3)), Pot(100, (2,))]
    body = award_hand(
        pots=pots(state),
        showdown=showdown([[3], [2]]),
        button=4,
        stacks=state.stacks,
        returned=state.returned,
        min_chip=1,
        dead_money=50,
    )
    assert body["stacks"] == [
        {"seat": 1, "stack": 950},
        {"seat": 2, "stack": 1050},
        {"seat": 3, "stack": 50},
        {"seat": 4, "stack": 1000},
    ]
    assert "CR-DM.1" in body["citations"]


def test_all_in_on_a_dead_post_behind_a_dead_small_blind() -> None:
    # A dead small blind (CR-BB.2): only the big blind and seat 3's dead 50 are in. Everyone
    # else folds: the big blind's 100 is uncalled (returned) and the dead 50 is seat 3's to win.
    state = dead_post_all_in(4, 1, blinds=Blinds(None, 2))
    assert state.returned == {2: 100}
    assert pots(state) == [Pot(50, (2, 3))]


# The worked examples, and the other short forced bets, as rows: (id, source, game, button,
# stacks, posts, actions, pots, returned, citation).
EXAMPLES: list[
    tuple[
        str,
        str,
        dict[str, Any],
        int,
        dict[int, int],
        list[Post],
        list[str],
        list[Pot],
        dict[int, int],
        str,
    ]
] = [
    (
        "cr-bb-3-a-live-post-and-a-dead-post",
        "CR-BB.3 example: seat 1 posts 100 live and 50 dead, raises to 300, both blinds fold:"
        " a pot of 300, the uncalled 200 returned",
        {},
        1,
        {1: 1000, 2: 1000, 3: 1000},
        [Post(1, live=100, dead=50)],
        ["1 raise 300", "2 fold", "3 fold"],
        [Pot(300, (1,))],
        {1: 200},
        "CR-BB.3",
    ),
    (
        "cr-dm-1-big-blind-ante-short-big-blind-checked-down",
        "CR-DM.1 example: big-blind ante 100, the big blind has 200 (blind, then ante, all-in),"
        " the button calls, the small blind completes, checked down: 400, nothing returned",
        {"big_blind_ante": 100},
        1,
        {1: 1000, 2: 1000, 3: 200},
        [],
        ["1 call", "2 call", *["2 check", "1 check"] * 3],
        [Pot(400, (1, 2, 3))],
        {},
        "CR-DM.1",
    ),
    (
        "cr-dm-1-big-blind-ante-side-pot",
        "CR-DM.1 example and contract v2 Dead money: the two callers bet 500 and call on the"
        " flop: main pot 400 (all three), side pot 1,000 (the two callers)",
        {"big_blind_ante": 100},
        1,
        {1: 1000, 2: 1000, 3: 200},
        [],
        ["1 call", "2 call", "2 bet 500", "1 call", *["2 check", "1 check"] * 2],
        [Pot(400, (1, 2, 3)), Pot(1000, (1, 2))],
        {},
        "CR-DM.1",
    ),
    (
        "big-blind-ante-big-blind-covers-only-the-blind",
        "CR-DM.2: the blind first; a big blind with exactly 100 posts no ante (no dead money)"
        " and is in the main pot for its 100",
        {"big_blind_ante": 100},
        1,
        {1: 1000, 2: 1000, 3: 100},
        [],
        ["1 raise 400", "2 call", *["2 check", "1 check"] * 3],
        [Pot(300, (1, 2, 3)), Pot(600, (1, 2))],
        {},
        "CR-DM.2",
    ),
    (
        "all-in-on-a-dead-post",
        "Contract v2 Dead money, RRoP-TR.19: seat 3 posts its last 50 dead; two fold: the dead"
        " 50 is the main pot (seats 2 and 3), the blinds' 100 a side pot",
        {},
        4,
        {1: 1000, 2: 1000, 3: 50, 4: 1000},
        [Post(3, dead=50)],
        ["4 fold", "1 fold"],
        [Pot(50, (2, 3)), Pot(100, (2,))],
        {2: 50},
        "CR-DM.1",
    ),
    (
        "all-in-on-a-live-post-short-of-the-big-blind",
        "CR-BB.3: live first, then dead: seat 3 with 50 owes 100 live and 50 dead, posts 50"
        " live and is all-in for it like a short big blind",
        {},
        4,
        {1: 1000, 2: 1000, 3: 50, 4: 1000},
        [Post(3, live=100, dead=50)],
        ["4 fold", "1 fold"],
        [Pot(150, (2, 3))],
        {2: 50},
        "CR-BB.3",
    ),
    (
        "all-in-for-part-of-the-ante",
        "Regular antes are no dead money (CR-DM.1): seat 3 all-in for 10 of a 25 ante is in"
        " the main pot of three tens",
        {"ante": 25},
        3,
        {1: 1000, 2: 1000, 3: 10},
        [],
        ["1 call", "2 check", *["1 check", "2 check"] * 3],
        [Pot(30, (1, 2, 3)), Pot(230, (1, 2))],
        {},
        "CR-DM.1",
    ),
]


@pytest.mark.parametrize(
    ("source", "config", "button", "stacks", "posts", "actions", "expected", "returned", "cite"),
    [pytest.param(*row[1:], id=row[0]) for row in EXAMPLES],
)
def test_worked_examples_of_dead_money_and_short_forced_bets(
    source: str, config: dict[str, Any], button: int, stacks: dict[int, int],
    posts: list[Post], actions: list[str], expected: list[Pot], returned: dict[int, int],
    cite: str,
) -> None:  # fmt: skip
    seats = [Seat(seat, stack) for seat, stack in stacks.items()]
    state, error = replay(game(**config), button, seats, [action(a) for a in actions], None, posts)
    assert error is None, (source, error)
    assert state.to_act is None, source
    assert pots(state) == expected, source
    assert state.returned == returned, source
    assert cite in citations.ALL
