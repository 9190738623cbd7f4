"""The chip race at a colour-up (``tournaments.draws.chip_race``): the whole colour-up first,
a card per odd chip, one chip at most a player, nobody raced out, odd value removed
(CR-CU.3, CR-CU.4). Pure Python: runs with ``-p no:django``."""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.cards import Card
from tournaments.draws.chip_race import RaceSeat, fewest_chips, race
from tournaments.draws.errors import DrawError
from tournaments.draws.seeds import SeededRandom


class TopCards(random.Random):
    """Shuffles so the given cards come first, in that order (the deal the test wants)."""

    def __init__(self, *cards: str) -> None:
        super().__init__(0)
        self.top = [Card.parse(c) for c in cards]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        rest = list(x)
        for card in self.top:
            rest.remove(card)
        x[:] = self.top + rest


def test_the_worked_example_seat_5_wins_the_black_chip_with_the_king_of_spades() -> None:
    # CR-CU.3's example: 25s leave, the unit is 100; seat 2 has 3 greens, seat 5 one, seat 8
    # seven (one black in exchange, 3 greens left). Cards go round from seat 2: 2, 5, 8, 2, 8,
    # 2, 8.
    players = [
        RaceSeat(seat=2, chips=1_075, odd_chips={25: 3}),
        RaceSeat(seat=5, chips=2_025, odd_chips={25: 1}),
        RaceSeat(seat=8, chips=475, odd_chips={25: 7}),
    ]
    rng = TopCards("2c", "Ks", "3c", "4c", "5c", "6c", "7c")
    result = race(players, [25], 100, rng)
    by_seat = {s.seat: s for s in result.seats}
    assert [str(c) for c in by_seat[2].cards] == ["2c", "4c", "6c"]
    assert [str(c) for c in by_seat[5].cards] == ["Ks"]
    assert [str(c) for c in by_seat[8].cards] == ["3c", "5c", "7c"]
    assert by_seat[8].exchanged == 1 and by_seat[8].odd_chips == 3
    assert (result.raced, result.removed, result.given) == (1, 75, 0)
    assert [s.chips_after for s in result.seats] == [1_000, 2_100, 400]
    assert [s.won for s in result.seats] == [False, True, False]
    assert result.citations == ("CR-CU.3", "CR-CU.4")


def test_a_player_wins_one_chip_at_most_the_next_highest_card_of_another_player_wins() -> None:
    # Seat 1: 3 greens, seat 2: 3 greens, seat 3: 2 greens = 200: two chips raced. Seat 1 holds
    # the two best cards, so the second chip goes to the best card of another player.
    players = [RaceSeat(seat=s, chips=c) for s, c in ((1, 575), (2, 1_075), (3, 250))]
    rng = TopCards("As", "2c", "3c", "Ah", "Kd", "4c", "Qs", "5c")
    result = race(players, [25], 100, rng)
    assert result.raced == 2 and result.removed == 0
    assert [s.won for s in result.seats] == [True, True, False]
    assert [s.chips_after for s in result.seats] == [600, 1_100, 200]


def test_a_player_who_loses_their_last_chips_gets_one_chip_of_the_unit() -> None:
    players = [RaceSeat(seat=1, chips=50), RaceSeat(seat=4, chips=25)]
    result = race(players, [25], 100, TopCards("2c", "Ac", "3c"))
    # 75 of odd chips make no chip: nothing is raced, both would be out: both get a black.
    assert (result.raced, result.removed, result.given) == (0, 75, 200)
    assert [(s.chips_after, s.saved) for s in result.seats] == [(100, True), (100, True)]


def test_counts_entered_by_the_dealer_must_agree_with_the_chip_count() -> None:
    with pytest.raises(DrawError) as caught:
        race([RaceSeat(seat=1, chips=1_050, odd_chips={25: 3})], [25], 100, random.Random(1))
    assert caught.value.code == "odd_chips_disagree" and "CR-CU.3" in caught.value.citations
    with pytest.raises(DrawError) as caught:
        race([RaceSeat(seat=1, chips=1_050, odd_chips={100: 1})], [25], 500, random.Random(1))
    assert caught.value.code == "bad_odd_chips"


def test_two_denominations_leaving_at_once_are_made_with_the_fewest_chips() -> None:
    assert fewest_chips(475, [25, 100]) == 7  # four blacks and three greens
    result = race([RaceSeat(seat=3, chips=1_475)], [25, 100], 500, random.Random(2))
    assert result.seats[0].odd_chips == 7 and result.seats[0].chips_after == 1_000
    assert result.removed == 475


def test_a_denomination_that_does_not_divide_the_unit_is_refused() -> None:
    with pytest.raises(DrawError) as caught:
        race([RaceSeat(seat=1, chips=100)], [40], 100, random.Random(1))
    assert caught.value.code == "bad_denomination" and caught.value.citations == ("CR-CU.1",)


def test_the_race_replays_from_its_seed() -> None:
    players = [RaceSeat(seat=s, chips=25 * (3 + s)) for s in range(1, 10)]
    first = race(players, [25], 100, SeededRandom("a seed"))
    again = race(players, [25], 100, SeededRandom("a seed"))
    assert first == again and first.seed == "a seed"
    assert first.to_dict() == again.to_dict()


counts = st.lists(st.integers(min_value=0, max_value=400), min_size=1, max_size=10)


@settings(max_examples=300, deadline=None)
@given(
    units=counts,
    odd=st.lists(st.integers(min_value=0, max_value=60), min_size=10, max_size=10),
    step=st.sampled_from([(25, 100), (25, 500), (100, 500), (5, 25), (500, 1000)]),
    entered=st.booleans(),
    seed=st.integers(),
)
def test_the_race_keeps_every_promise_of_the_rules(
    units: list[int], odd: list[int], step: tuple[int, int], entered: bool, seed: int
) -> None:
    leaving, unit = step
    players = []
    for seat, (whole, greens) in enumerate(zip(units, odd, strict=False), start=1):
        chips = whole * unit + greens * leaving
        if chips == 0:
            continue
        players.append(
            RaceSeat(seat=seat, chips=chips, odd_chips={leaving: greens} if entered else None)
        )
    if not players:
        return
    result = race(players, [leaving], unit, SeededRandom(seed))
    remainders = sum(p.chips % unit for p in players)
    for before, after in zip(players, result.seats, strict=True):
        assert after.chips_after % unit == 0  # every count is made of chips left in play
        assert after.chips_after > 0  # nobody is raced out (CR-CU.4)
        assert not (after.won and after.saved)
        # A player gains one raced chip at most, and loses less than a unit.
        assert before.chips - unit < after.chips_after <= before.chips - before.chips % unit + unit
        assert len(after.cards) == (before.chips % unit) // leaving
    assert result.raced == remainders // unit == sum(s.won for s in result.seats)
    assert result.removed == remainders - result.raced * unit and 0 <= result.removed < unit
    assert result.total_after == result.total_before - result.removed + result.given
    assert result.given == unit * sum(s.saved for s in result.seats)
    assert result == race(players, [leaving], unit, SeededRandom(seed))


@settings(max_examples=200, deadline=None)
@given(
    players=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=50),  # chips of the unit, 500
            st.integers(min_value=0, max_value=12),  # blacks, 100, leaving
            st.integers(min_value=0, max_value=12),  # greens, 25, leaving
        ),
        min_size=1,
        max_size=10,
    ),
    seed=st.text(max_size=8),
)
def test_two_chips_leaving_at_once_keep_the_same_promises(
    players: list[tuple[int, int, int]], seed: str
) -> None:
    seats = [
        RaceSeat(seat=n, chips=500 * whole + 100 * blacks + 25 * greens,
                 odd_chips={100: blacks, 25: greens})
        for n, (whole, blacks, greens) in enumerate(players, start=1)
        if whole or blacks or greens
    ]  # fmt: skip
    if not seats:
        return
    result = race(seats, [100, 25], 500, SeededRandom(seed))
    for before, after in zip(seats, result.seats, strict=True):
        assert after.chips_after % 500 == 0 and after.chips_after > 0
        odd = (before.chips % 500) // 100 + (before.chips % 100) // 25
        assert after.odd_chips == len(after.cards) == odd  # a card per odd chip, fewest chips
    remainders = sum(s.chips % 500 for s in seats)
    assert result.raced == remainders // 500 == sum(s.won for s in result.seats)
    assert result.total_after == result.total_before - result.removed + result.given
