"""One card model for every draw (``rules.engine.cards``): how a card is written and read out,
the order the highest card goes by (rank, then suit, RRoP-TI.1), the two deck orders the draws
on record were shuffled from, and draws made before the button draw and the seat draws shared
this module, replayed from their seeds to the same cards (computed with the code of then;
the seat draws' are in ``tests/tournaments/test_draws.py``)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from rules.engine.button_draw import draw_for_button, replay_button_draw
from rules.engine.cards import DECK, DECK_BY_RANK, Card, Suit
from rules.engine.errors import BadInput

ROOT = Path(__file__).resolve().parents[3]


def test_cards_read_and_print_like_the_dealer_says_them() -> None:
    assert str(Card(14, Suit.SPADES)) == "As"
    assert str(Card(10, Suit.DIAMONDS)) == "Td"
    assert str(Card(2, Suit.CLUBS)) == "2c"
    assert Card.parse("Td") == Card(10, Suit.DIAMONDS)
    assert Card.parse("kh") == Card(13, Suit.HEARTS)
    assert [Card.parse(c).words for c in ("Ts", "Kh", "2d", "Ac")] == ["10♠", "K♥", "2♦", "A♣"]


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "10s", "Ass"])
def test_a_card_that_is_not_a_card_is_refused(text: str) -> None:
    with pytest.raises(BadInput, match="Not a card"):
        Card.parse(text)


@pytest.mark.parametrize("rank", [1, 15, True])
def test_ranks_run_from_two_to_ace(rank: int) -> None:
    with pytest.raises(BadInput):
        Card(rank, Suit.SPADES)


def test_rank_comes_first_then_spades_hearts_diamonds_clubs() -> None:
    order = ["As", "Ah", "Ad", "Ac", "Ks", "Kh", "Kd", "Kc", "2s", "2h", "2d", "2c"]
    cards = [Card.parse(text) for text in order]
    assert sorted(cards, reverse=True) == cards
    assert Card.parse("2s") < Card.parse("3c")
    assert Suit.SPADES > Suit.HEARTS > Suit.DIAMONDS > Suit.CLUBS


def test_both_decks_are_the_same_fifty_two_cards_in_the_orders_on_record() -> None:
    assert len(DECK) == len(set(DECK)) == 52 and set(DECK) == set(DECK_BY_RANK)
    assert max(DECK) == Card.parse("As") and min(DECK) == Card.parse("2c")
    # The seat draws' deck goes suit by suit, the button draw's rank by rank: a shuffle of
    # either from a seed on record deals what it dealt only from the same starting order.
    assert [str(c) for c in DECK[:3]] + [str(c) for c in DECK[12:14]] == [
        "2c", "3c", "4c", "Ac", "2d"
    ]  # fmt: skip
    assert [str(c) for c in DECK_BY_RANK[:5]] + [str(DECK_BY_RANK[-1])] == [
        "2c", "2d", "2h", "2s", "3c", "As"
    ]  # fmt: skip


# Records of draws made before the two draws shared one card module, computed by the code of
# then: the same seeds must deal the same cards, or a record on file no longer replays.
BUTTON_DRAWS_ON_RECORD = [
    {
        "seed": "seed on record",
        "seats": [1, 3, 4, 6, 9],
        "cards": {"1": "7d", "3": "Jc", "4": "2c", "6": "Js", "9": "4d"},
        "button": 6,
        "citations": ["CR-BB.9", "RRoP-TI.1"],
    },
    {
        "seed": "7f3a:tournament 12 table 3",
        "seats": [2, 5],
        "cards": {"2": "Qc", "5": "3h"},
        "button": 2,
        "citations": ["CR-BB.9", "RRoP-TI.1"],
    },
]


@pytest.mark.parametrize("record", BUTTON_DRAWS_ON_RECORD, ids=["five-seats", "heads-up"])
def test_a_button_draw_on_record_deals_the_same_cards_from_its_seed(record: dict[str, Any]) -> None:
    drawn = draw_for_button(record["seats"], random.Random(record["seed"]))
    assert drawn.record(record["seed"]) == record
    assert replay_button_draw(record)


#: What a second card model would be spelled with: the rank letters, the suit letters or
#: symbols as one string, a Suit or a deck of its own.
SECOND_CARD_MODEL = re.compile(
    r"""["']23456789TJQKA["']|["']cdhs["']|["']♣♦♥♠["']|^class Suit\b|^DECK\w*\s*[:=]""",
    re.MULTILINE,
)


def test_no_module_but_the_card_module_spells_out_cards_or_a_deck() -> None:
    found = [
        str(path.relative_to(ROOT))
        for folder in ("cardroom", "rules", "tournaments")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "migrations" not in path.parts
        and path != ROOT / "rules" / "engine" / "cards.py"
        and SECOND_CARD_MODEL.search(path.read_text())
    ]
    assert found == [], "Use rules.engine.cards, the one card model"
