"""The draw for the button at a table's first hand (CR-BB.9): a card to each player from a
deck shuffled by a seeded ``random.Random``, the high card by rank, then suit (RRoP-TI.1),
replayable from the seed; the rotation places the first button there and the blinds after it.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import citations
from rules.engine.button_draw import draw_for_button, replay_button_draw
from rules.engine.cards import Card
from rules.engine.errors import BadInput
from rules.engine.rotation import Previous, SeatState, plan_next_hand


class Stacked(random.Random):
    """A deck stacked with ``top`` first (the rest in order): worked examples, exact cards."""

    def __init__(self, *top: str) -> None:
        super().__init__(0)
        self.top = [Card.parse(card) for card in top]

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        rest = [card for card in x if card not in self.top]
        x[:] = [*self.top, *rest]


EXAMPLES = [
    # id, source, seats, cards dealt in seat order, button, citation
    ("high-card", "CR-BB.9", [1, 4, 6], ["9c", "Ah", "2s"], 4, "CR-BB.9"),
    ("tie-by-suit", "CR-BB.9 example", [2, 5, 7], ["Kh", "9c", "Ks"], 7, "RRoP-TI.1"),
    ("heads-up", "CR-BB.9", [3, 8], ["Td", "Tc"], 3, "RRoP-TI.1"),
]


@pytest.mark.parametrize(
    ("case", "source", "seats", "cards", "button", "citation"),
    EXAMPLES,
    ids=[e[0] for e in EXAMPLES],
)
def test_the_highest_card_by_rank_then_suit_takes_the_button(
    case: str, source: str, seats: list[int], cards: list[str], button: int, citation: str
) -> None:
    drawn = draw_for_button(seats, Stacked(*cards))
    assert drawn.cards == dict(zip(seats, cards, strict=True))
    assert drawn.button == button and citation in drawn.citations


def test_the_suits_rank_spades_hearts_diamonds_clubs() -> None:
    assert sorted(["Ac", "Ad", "Ah", "As"], key=Card.parse) == ["Ac", "Ad", "Ah", "As"]
    assert Card.parse("2s") < Card.parse("3c")  # rank first
    assert [Card.parse(c).words for c in ("Ts", "Kh", "2d", "Ac")] == ["10♠", "K♥", "2♦", "A♣"]


def test_the_same_seed_deals_the_same_draw_and_replays() -> None:
    seats = [2, 3, 5, 9]
    first = draw_for_button(seats, random.Random("table-7-seed"))
    again = draw_for_button(seats, random.Random("table-7-seed"))
    assert first == again
    record = first.record("table-7-seed")
    assert record["seats"] == seats and record["button"] == first.button
    assert replay_button_draw(record)
    assert not replay_button_draw({**record, "button": next(s for s in seats if s != first.button)})
    assert not replay_button_draw({**record, "seed": "another"})
    assert not replay_button_draw({"seed": "x"})


@given(
    seats=st.sets(st.integers(1, 10), min_size=2, max_size=10).map(sorted),
    seed=st.text(max_size=20),
)
def test_every_player_gets_a_different_card_and_the_button_holds_the_highest(
    seats: list[int], seed: str
) -> None:
    drawn = draw_for_button(seats, random.Random(seed))
    assert sorted(drawn.cards) == seats
    assert len(set(drawn.cards.values())) == len(seats)
    assert all(str(Card.parse(card)) == card for card in drawn.cards.values())
    assert Card.parse(drawn.card) == max(map(Card.parse, drawn.cards.values()))
    assert replay_button_draw(drawn.record(seed))


@pytest.mark.parametrize("seats", [[3], [], [2, 2], [0, 1], [True, 2]])
def test_a_draw_needs_two_different_seats(seats: list[Any]) -> None:
    with pytest.raises(BadInput):
        draw_for_button(seats, random.Random(1))


def test_a_draw_needs_a_seeded_random() -> None:
    with pytest.raises(BadInput, match="stored seed"):
        draw_for_button([1, 2], "seed")  # type: ignore[arg-type]


def plan(seats: list[int], **extra: Any) -> Any:
    return plan_next_hand(
        seats=[SeatState(n, active=True) for n in seats], rule="dead", missed_blinds="post",
        small_blind=1, big_blind=2, **extra,
    )  # fmt: skip


def test_a_tables_first_hand_puts_the_button_on_the_drawn_seat_and_the_blinds_after_it() -> None:
    first = plan([2, 5, 7], previous=None, draw=Stacked("Kh", "9c", "Ks"))
    assert (first.button, first.small, first.big) == (7, 2, 5)
    assert first.draw is not None and first.draw.button == 7
    assert {citations.BUTTON_DRAW, citations.SUIT_RANKING} <= set(first.citations)
    heads_up = plan([3, 8], previous=None, draw=Stacked("2c", "3c"))
    assert (heads_up.button, heads_up.small, heads_up.big) == (8, 8, 3)


def test_without_a_draw_or_after_a_hand_the_button_is_not_drawn() -> None:
    assert plan([2, 5, 7], previous=None).button == 2  # the caller made no draw
    later = plan([2, 5, 7], previous=Previous(2, 5, 7), draw=Stacked("Ks"))
    assert later.draw is None and citations.BUTTON_DRAW not in later.citations
