"""Playing cards: a card, its rank and suit, how it is written ("As") and read out ("A♠"), and
the order two cards take when the highest card decides: rank first (ace high), then suit,
spades, hearts, diamonds, clubs (RRoP-TI.1: suits break a tie between cards of the same rank).
The draw for the button (``button_draw``) and the tournaments' seat draws
(``tournaments.draws``) deal these cards.

Each draw shuffles a fresh deck with a seeded ``random.Random``, so the order a deck starts in
is part of every recorded draw: a draw replays from its seed only from the same starting order.
The two orders below are the ones the draws on record were made from, kept as they are."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from rules.engine.errors import BadInput, is_int

RANK_LETTERS = "23456789TJQKA"  # low to high: 2 to 14 (ace)
RANK_WORDS = {"T": "10"}


class Suit(IntEnum):
    """Suits ranked for ties, lowest to highest: clubs, diamonds, hearts, spades."""

    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    SPADES = 4

    @property
    def letter(self) -> str:
        return "cdhs"[self - 1]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self - 1]


@dataclass(frozen=True, order=True)
class Card:
    """A playing card, rank 2..14 (ace high). Cards compare by rank, then suit (``As`` > ``Ks``
    > ``Ah``): the "highest card by suit" that takes the button or the first seat card."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not is_int(self.rank) or not 2 <= self.rank <= 14:
            raise BadInput(f"A card's rank runs from 2 to 14 (ace), not {self.rank!r}.", "card")
        if not isinstance(self.suit, Suit):
            raise BadInput(f"A card's suit is a Suit, not {self.suit!r}.", "card")

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 2] + self.suit.letter

    @property
    def words(self) -> str:
        """The card as the dealer reads it out: "K♠", "10♥"."""
        letter = RANK_LETTERS[self.rank - 2]
        return RANK_WORDS.get(letter, letter) + self.suit.symbol

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"As"`` -> ace of spades; ``"Td"`` -> ten of diamonds."""
        if (
            not isinstance(text, str)
            or len(text) != 2
            or text[0].upper() not in RANK_LETTERS
            or text[1].lower() not in "cdhs"
        ):
            raise BadInput(f"Not a card: {text!r} (write it like 'As' or 'Td').", "card")
        return cls(RANK_LETTERS.index(text[0].upper()) + 2, Suit("cdhs".index(text[1].lower()) + 1))


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(2, 15))
"""The deck suit by suit, clubs 2 to ace first, spades last: the order the seat draws'
shuffle starts from (``tournaments.draws``, algorithm ``cardroom.draws/1``)."""

DECK_BY_RANK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in Suit)
"""The same cards rank by rank, the four 2s first (clubs to spades), the aces last: the order
the draw for the button's shuffle starts from (``button_draw``; the records of it on file were
dealt from this order and carry no version that could name another)."""
