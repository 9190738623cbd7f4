"""Dead money (a big-blind ante, the dead part of a posted missed blind) in ``build_pots``.

Contract v2, "Dead money": it lies in the main pot and is won by whoever is eligible for it. These
rows pin who that is when no pot was built from the contributions (nothing put in, or nobody
live), a gap the mutation run showed (docs/mutation.md).
"""

from __future__ import annotations

from rules.engine.award import Showdown, award_hand, parse_showdown
from rules.engine.pots import Pot, build_pots
from rules.engine.state import Action, ActionKind, Blinds, HandState, Post, Seat, pots, replay
from tests.rules.engine.hands import game


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
