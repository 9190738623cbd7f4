"""The draw for the button when a game starts at a table with no hand before it (CR-BB.9):
one card face up to each player, clockwise from seat 1; the highest card takes the button,
a tie in rank broken by suit, spades, hearts, diamonds, clubs (RRoP-TI.1: suits break a tie
between cards of the same rank, with no redeal or redraw). TDA-10's 2-step process deals a
card to each player the same way and goes by "the highest playing card by suit showing".

Pure and replayable: the caller passes a ``random.Random`` built from a seed it stores, and
``replay_button_draw`` deals the same cards again from the record."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine import citations as cite
from rules.engine.cards import DECK_BY_RANK, Card
from rules.engine.errors import BadInput, is_int


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """The cards dealt for the button (seat -> card, e.g. ``{3: "Ks"}``) and its seat."""

    cards: dict[int, str]
    button: int
    citations: tuple[str, ...] = (cite.BUTTON_DRAW, cite.SUIT_RANKING)

    @property
    def card(self) -> str:
        """The button's card."""
        return self.cards[self.button]

    def shown(self) -> dict[str, Any]:
        """The draw as the desk shows it before the deal, without the seed (the seed is kept
        with the hand once dealt): ``{"seats", "cards": {"3": "Ks"}, "button", "citations"}``."""
        return {
            "seats": sorted(self.cards),
            "cards": {str(seat): card for seat, card in sorted(self.cards.items())},
            "button": self.button,
            "citations": list(self.citations),
        }

    def record(self, seed: str) -> dict[str, Any]:
        """What a hand keeps of the draw: what was shown and the seed it was drawn from, enough
        to replay it (``replay_button_draw``)."""
        return {"seed": seed, **self.shown()}


def draw_for_button(seats: Sequence[int], rng: random.Random) -> ButtonDraw:
    """CR-BB.9: shuffle a 52-card deck with ``rng`` and deal one card to each of ``seats``,
    lowest seat first; the highest card (rank, then suit) has the button."""
    if not isinstance(rng, random.Random):
        raise BadInput("The draw needs a random.Random built from a stored seed.", "rng")
    if any(not is_int(seat) or seat < 1 for seat in seats):
        raise BadInput("A seat number is a whole number from 1.", "seats")
    order = sorted(set(seats))
    if len(order) != len(seats) or len(order) < 2:
        raise BadInput("The draw for the button needs two or more different seats.", "seats")
    deck = list(DECK_BY_RANK)
    rng.shuffle(deck)
    dealt: dict[int, Card] = dict(zip(order, deck, strict=False))
    button = max(order, key=lambda seat: dealt[seat])  # rank, then suit (RRoP-TI.1)
    return ButtonDraw(cards={seat: str(card) for seat, card in dealt.items()}, button=button)


def replay_button_draw(record: Mapping[str, Any]) -> bool:
    """Whether a recorded draw deals again, from its seed and seats, to the same cards and
    button (an audit: a record rewritten after the deal does not)."""
    try:
        drawn = draw_for_button(list(record["seats"]), random.Random(str(record["seed"])))
    except (BadInput, KeyError, TypeError):
        return False
    return drawn.record(str(record["seed"])) == dict(record)
