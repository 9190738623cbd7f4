"""Payouts (``tournaments.prizes.payouts``): places paid, the curve and the room's templates in
whole units with the remainder to first, ties on one hand-for-hand hand, satellites; every
prize table sums to the pool and never pays a lower place more."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.prizes.payouts import (
    PayoutError,
    curve,
    from_template,
    places_paid,
    satellite,
    split_tie,
)


def test_places_paid() -> None:
    assert places_paid(4997) == 749  # the WSOP's 15%
    assert places_paid(3) == 1 and places_paid(100, fixed=9) == 9
    with pytest.raises(PayoutError) as refused:
        places_paid(5, fixed=6)
    assert refused.value.field == "places"


def test_a_template_by_hand() -> None:
    # 50 / 30 / 20 of 10,005 in 10s: 5,000, 3,000, 2,000 after the floor, the 5 to first.
    assert from_template(10_005, [5000, 3000, 2000], unit=10) == [5005, 3000, 2000]
    for bad in ([5000, 3000], [3000, 5000, 2000], [12000, -2000]):
        with pytest.raises(PayoutError) as refused:
            from_template(10_000, bad)
        assert refused.value.field == "percentages"


def test_the_curve_by_hand() -> None:
    # Weights 1, 1/2, 1/3 of 11/6: 6/11, 3/11, 2/11 of 1,100 = 600, 300, 200.
    assert curve(1100, 3) == [600, 300, 200]
    assert curve(1100, 3, steepness=0) == [368, 366, 366]  # equal, the odd units to first
    # 200 each first; the other 400 by 6/11, 3/11, 2/11 (218, 109, 72); down to 10s, 20 to first.
    assert curve(1000, 3, min_cash=200, unit=10) == [430, 300, 270]
    with pytest.raises(PayoutError) as refused:
        curve(1000, 6, min_cash=200)
    assert refused.value.field == "min_cash" and "1200" in refused.value.message


def test_three_players_out_on_one_hand_for_hand_hand_share_the_places() -> None:
    # 50th to 52nd pay 300, 300 and 250: 850 shared, 283 each, the odd unit to the bigger stack.
    assert split_tie([300, 300, 250], 3) == [284, 283, 283]
    assert split_tie([300, 300, 250], 3, unit=5) == [285, 285, 280]
    with pytest.raises(PayoutError):
        split_tie([300, 300], 3)


def test_a_satellite_pays_seats_and_the_rest_in_cash() -> None:
    made = satellite(23_500, 10_000)
    assert (made.seats, made.cash) == (2, 3500)


@given(
    st.integers(0, 10**9),
    st.integers(1, 300),
    st.sampled_from([1, 5, 100]),
    st.floats(0, 4),
    st.data(),
)
def test_a_curve_sums_to_the_pool_and_falls(
    pool: int, places: int, unit: int, steepness: float, data: st.DataObject
) -> None:
    min_cash = data.draw(st.integers(0, pool // places // unit)) * unit
    prizes = curve(pool, places, min_cash=min_cash, unit=unit, steepness=steepness)
    assert len(prizes) == places and sum(prizes) == pool
    assert all(a >= b for a, b in pairwise(prizes))
    assert all(p >= min_cash for p in prizes)
    assert all(p % unit == 0 for p in prizes[1:])


@given(st.integers(0, 10**9), st.lists(st.integers(0, 3000), min_size=1, max_size=50))
def test_a_template_sums_to_the_pool_and_falls(pool: int, raw: list[int]) -> None:
    raw = sorted(raw, reverse=True)
    if sum(raw) == 0:
        raw[0] = 1
    bp = [r * 10_000 // sum(raw) for r in raw]
    bp[0] += 10_000 - sum(bp)
    prizes = from_template(pool, bp, unit=5)
    assert sum(prizes) == pool and all(a >= b for a, b in pairwise(prizes))


@given(st.lists(st.integers(0, 10**7), min_size=1, max_size=12), st.sampled_from([1, 5, 100]))
def test_a_tie_shares_the_places_exactly_and_in_order(prizes: list[int], unit: int) -> None:
    shares = split_tie(prizes, len(prizes), unit=unit)
    assert sum(shares) == sum(prizes)
    assert all(a >= b for a, b in pairwise(shares))
    assert max(shares) - min(shares) <= unit + sum(prizes) % unit
