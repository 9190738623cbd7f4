"""Main and side pots, and splitting a pot with the odd chip rule."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine.errors import BadInput
from rules.engine.pots import Pot, build_pots, split_pot
from rules.engine.state import pots
from tests.rules.engine.hands import game, played, table


def test_everyone_matched_is_one_pot() -> None:
    assert build_pots({1: 300, 2: 300, 3: 300}, folded=()) == [Pot(900, (1, 2, 3))]


def test_an_all_in_caps_the_main_pot_and_the_rest_is_a_side_pot() -> None:
    assert build_pots({1: 100, 2: 300, 3: 300}, folded=()) == [
        Pot(300, (1, 2, 3)),
        Pot(400, (2, 3)),
    ]


def test_several_all_ins_make_several_side_pots_main_pot_first() -> None:
    assert build_pots({1: 50, 2: 200, 3: 500, 4: 500}, folded=()) == [
        Pot(200, (1, 2, 3, 4)),
        Pot(450, (2, 3, 4)),
        Pot(600, (3, 4)),
    ]


def test_folded_chips_stay_in_the_pots_they_reached_but_their_owner_is_not_eligible() -> None:
    assert build_pots({1: 100, 2: 250, 3: 400, 4: 400}, folded={2}) == [
        Pot(400, (1, 3, 4)),
        Pot(750, (3, 4)),
    ]


def test_mid_hand_a_player_with_chips_behind_is_eligible_for_every_pot() -> None:
    # Seat 2 (the big blind, 200 in) has not acted on seat 1's all-in for 1000: still live.
    assert build_pots({1: 1000, 2: 200, 3: 0}, folded=(), all_in={1}) == [
        Pot(1200, (1, 2, 3)),
    ]


def test_mid_hand_nobody_all_in_is_one_pot_for_everyone_still_in() -> None:
    assert build_pots({1: 100, 2: 200, 3: 600, 4: 600}, folded={1}, all_in=()) == [
        Pot(1500, (2, 3, 4)),
    ]


def test_a_player_who_put_in_nothing_is_eligible_for_nothing() -> None:
    assert build_pots({1: 0, 2: 300, 3: 300}, folded=()) == [Pot(600, (2, 3))]


def test_chips_only_folded_players_reached_join_the_last_pot() -> None:
    assert build_pots({1: 100, 2: 300}, folded={2}) == [Pot(400, (1,))]


def test_the_state_pots_follow_the_contract_example() -> None:
    state = played(game("no_limit", 100, 200), 4, table(4), ["3 raise 600", "4 call", "1 fold"])
    assert pots(state) == [Pot(1500, (2, 3, 4))]
    assert [pot.to_dict() for pot in pots(state)] == [{"amount": 1500, "eligible": [2, 3, 4]}]


def test_the_state_pots_show_a_side_pot_behind_a_short_all_in() -> None:
    state = played(game("no_limit", 50, 100), 3, table(3, s3=300), ["3 all_in", "1 call"])
    # Seat 2 (big blind) has yet to act but can still match: eligible for both pots.
    assert pots(state) == [Pot(700, (1, 2, 3))]
    state = played(game("no_limit", 50, 100), 3, table(3, s3=300), ["3 all_in", "1 raise 1000"])
    assert pots(state) == [Pot(700, (1, 2, 3)), Pot(700, (1, 2))]


# --- splitting ----------------------------------------------------------------------------


def test_an_even_pot_splits_evenly() -> None:
    assert split_pot(66, [3, 7], button=1, seat_order=range(1, 10)) == {3: 33, 7: 33}


def test_the_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    assert split_pot(101, [2, 8], button=5, seat_order=range(1, 10)) == {8: 51, 2: 50}
    assert split_pot(101, [2, 8], button=9, seat_order=range(1, 10)) == {2: 51, 8: 50}


def test_the_button_itself_is_last_for_the_odd_chip() -> None:
    assert split_pot(101, [5, 6], button=5, seat_order=range(1, 10)) == {6: 51, 5: 50}


def test_several_odd_chips_go_one_each_clockwise() -> None:
    shares = split_pot(11, [1, 4, 7], button=4, seat_order=range(1, 10))
    assert shares == {7: 4, 1: 4, 4: 3}


def test_shares_are_in_units_of_the_smallest_chip() -> None:
    # 150 in 25s is 6 chips: 2 each for three winners.
    assert split_pot(150, [1, 2, 3], 9, range(1, 10), min_chip=25) == {1: 50, 2: 50, 3: 50}
    # 175 in 25s is 7 chips: the odd 25 goes to the first left of the button.
    assert split_pot(175, [1, 2, 3], 1, range(1, 10), min_chip=25) == {2: 75, 3: 50, 1: 50}


def test_change_smaller_than_the_smallest_chip_goes_with_the_first_odd_chip() -> None:
    assert split_pot(105, [4, 6], 5, range(1, 10), min_chip=25) == {6: 55, 4: 50}


def test_a_single_winner_takes_the_pot() -> None:
    assert split_pot(999, [4], 1, range(1, 10)) == {4: 999}


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ((100, [], 1, [1, 2]), "winners"),
        ((100, [1, 1], 1, [1, 2]), "winners"),
        ((100, [3], 1, [1, 2]), "winners"),
        ((-1, [1], 1, [1, 2]), "amount"),
        ((100, [1], 1, [1, 2], 0), "min_chip"),
    ],
)
def test_a_split_needs_winners_dealt_in_and_sane_amounts(arguments: Any, field: str) -> None:
    with pytest.raises(BadInput) as bad:
        split_pot(*arguments)
    assert bad.value.field == field


def test_a_split_always_adds_up_to_the_pot() -> None:
    for amount in range(0, 200, 7):
        for chip in (1, 5, 25):
            shares = split_pot(amount, [2, 3, 5], 3, range(1, 7), min_chip=chip)
            assert sum(shares.values()) == amount
            assert max(shares.values()) - min(shares.values()) <= chip + amount % chip
