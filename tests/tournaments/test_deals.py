"""Deal quotes (``tournaments.prizes.deals``): the issue's worked check, hand-worked cases, and
properties over any table: shares sum to the total in whole units, ICM equities sum to the
prizes, a bigger stack never gets less, and ICM agrees with the order-by-order definition."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise, permutations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.prizes.deals import (
    MAX_ICM_PLAYERS,
    DealError,
    icm_equities,
    quote,
    round_to_unit,
)


def test_the_worked_three_way_icm_deal() -> None:
    made = quote("icm", [5000, 3000, 2000], [500, 300, 200])
    assert [round(float(x), 2) for x in made.exact] == [383.93, 327.50, 288.57]
    assert made.exact == (Fraction(5375, 14), Fraction(655, 2), Fraction(2020, 7))
    assert made.shares == (384, 327, 289)


def test_heads_up_icm_by_hand() -> None:
    # 3,000 v 1,000 for 600 and 400: first with chance 3/4, so 3/4 of 600 + 1/4 of 400 = 550.
    assert quote("icm", [3000, 1000], [600, 400]).shares == (550, 450)


def test_chip_chop_and_the_floor_by_hand() -> None:
    assert quote("chip_chop", [5000, 3000, 2000], [500, 300, 200]).shares == (500, 300, 200)
    # Everyone is sure of 200: 600 handed out, the other 400 by chips (200, 120, 80).
    assert quote("chip_chop_floor", [5000, 3000, 2000], [500, 300, 200]).shares == (400, 320, 280)
    # Fewer prizes than players: the smallest (padded) prize is 0, so the floor is 0.
    assert (
        quote("chip_chop_floor", [1, 1, 2], [400, 0]).shares
        == quote("chip_chop", [1, 1, 2], [400, 0]).shares
        == (100, 100, 200)
    )


def test_equal_shares_give_the_odd_unit_to_the_bigger_stack_then_the_earlier() -> None:
    assert quote("equal", [2000, 5000, 3000], [500, 300, 200]).shares == (333, 334, 333)
    assert quote("equal", [1000, 1000, 1000], [500, 300, 200]).shares == (334, 333, 333)


def test_play_for_comes_off_first_and_the_rest_is_split() -> None:
    made = quote("chip_chop", [1, 1], [1000, 600], play_for=200)
    assert made.shares == (700, 700)  # 1,400 shared; the 200 goes to the winner
    assert sum(quote("icm", [5, 3, 2], [500, 300, 200], play_for=100).shares) == 900


def test_units() -> None:
    made = quote("icm", [5000, 3000, 2000], [500, 300, 200], unit=5)
    assert made.shares == (385, 325, 290) and all(s % 5 == 0 for s in made.shares)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"method": "split", "stacks": [1, 2], "prizes": [3]}, "method"),
        ({"method": "icm", "stacks": [], "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": [0, 2], "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": [-1, 2], "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": [1, 2], "prizes": [3, 2, 1]}, "prizes"),
        ({"method": "icm", "stacks": [1, 2], "prizes": []}, "prizes"),
        ({"method": "icm", "stacks": [1, 2], "prizes": [3, -1]}, "prizes"),
        ({"method": "icm", "stacks": [1, 2], "prizes": [3, 2], "unit": 2}, "prizes"),
        (
            {"method": "icm", "stacks": [1, 2], "prizes": [3, 1], "unit": 2, "play_for": 1},
            "play_for",
        ),
        ({"method": "icm", "stacks": [1, 2], "prizes": [3, 2], "play_for": 4}, "play_for"),
        ({"method": "icm", "stacks": [1, 2], "prizes": [3, 2], "unit": 0}, "unit"),
        ({"method": "icm", "stacks": [1] * (MAX_ICM_PLAYERS + 1), "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": [1] * 12, "prizes": [1] * 12}, "stacks"),
    ],
)
def test_refusals_name_the_field(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(DealError) as refused:
        quote(**kwargs)
    assert refused.value.field == field and refused.value.message


def test_twenty_players_are_quoted_exactly_when_few_places_are_paid() -> None:
    made = quote("icm", list(range(1, 21)), [300, 200, 100])
    assert sum(made.shares) == 600 and sum(made.exact) == 600


def by_orders(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """The definition, order by order: every finishing order's chance is the product of each
    place's winner's share of the chips still in; each player gets, over the orders, its
    chance times the prize of the place they finish in."""
    equity = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance, left = Fraction(1), sum(stacks)
        for i in order:
            chance *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order[: len(prizes)]):
            equity[i] += chance * prizes[place]
    return equity


stacks_st = st.lists(st.integers(1, 10**6), min_size=1, max_size=6)


@given(stacks_st, st.data())
def test_icm_is_the_malmuth_harville_definition(stacks: list[int], data: st.DataObject) -> None:
    prizes = data.draw(st.lists(st.integers(0, 10**5), min_size=1, max_size=len(stacks)))
    assert icm_equities(stacks, prizes) == by_orders(stacks, prizes)


@given(stacks_st, st.data())
def test_shares_sum_to_the_total_and_a_bigger_stack_never_gets_less(
    stacks: list[int], data: st.DataObject
) -> None:
    method = data.draw(st.sampled_from(["icm", "chip_chop", "chip_chop_floor", "equal"]))
    unit = data.draw(st.sampled_from([1, 5, 100]))
    prizes = sorted(
        data.draw(st.lists(st.integers(0, 10**4), min_size=1, max_size=len(stacks))),
        reverse=True,
    )
    prizes = [p * unit for p in prizes]
    play_for = data.draw(st.integers(0, prizes[0] // unit)) * unit
    made = quote(method, stacks, prizes, unit=unit, play_for=play_for)
    total = sum(prizes) - play_for
    assert sum(made.exact) == total
    assert sum(made.shares) == total
    assert all(share % unit == 0 and share >= 0 for share in made.shares)
    assert all(
        abs(share - exact) < unit for share, exact in zip(made.shares, made.exact, strict=True)
    )
    paid = [prizes[0] - play_for, *prizes[1:]]
    descending = all(a >= b for a, b in pairwise(paid))
    for i, j in permutations(range(len(stacks)), 2):
        # A bigger stack is worth more while the prizes fall place by place (an amount left to
        # play for may take the first prize below the second: then ICM may rank otherwise).
        if stacks[i] > stacks[j] and (descending or method != "icm"):
            assert made.exact[i] >= made.exact[j]
            assert made.shares[i] >= made.shares[j]


@given(st.lists(st.fractions(min_value=0, max_value=1000), min_size=1, max_size=8))
def test_rounding_keeps_the_total(values: list[Fraction]) -> None:
    # Make the total whole: the remainder goes onto the first value.
    whole = sum(values, Fraction(0))
    values[0] += (-whole) % 1
    shares = round_to_unit(values, [1] * len(values), 1)
    assert sum(shares) == sum(values)
    assert all(0 <= v - s < 1 or 0 <= s - v < 1 for s, v in zip(shares, values, strict=True))
