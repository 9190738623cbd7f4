"""The chip race at a colour-up: which players' odd chips become a chip of the smallest
denomination left in play, dealt from a seeded deck so the race replays. Pure Python, like the
whole package; the cards are the engine's (``rules.engine.cards``).

Rules applied (Cardroom's floor procedures, the CR book's CU section in
``rules/rulebooks/procedures.toml``; they follow the practice of TDA Rules 24 and 25, whose
text is not in the bundled sources):

- CR-CU.3: the whole colour-up comes first: each player's chips of the denominations leaving
  play are exchanged for as many chips of the unit (the smallest denomination left) as they
  make. What is left over (less than one unit) is the player's odd chips, made with the fewest
  chips of the leaving denominations. The race deals one card per odd chip, face up, clockwise
  from seat 1, one card at a time round the players holding odd chips; the highest card (rank,
  then suit, RRoP-TI.1) wins the first chip, the next highest card of another player the
  next, and so on. A player wins one chip at most. The race has as many chips as the odd
  chips' total value makes whole units.
- CR-CU.4: nobody is raced out: a player left with no chips after the race gets one chip of
  the unit. Odd value that makes no whole chip is taken out of play.

So, at every seat: chips after = chips before - odd value + (raced chip or saved chip) x unit,
every count after is a multiple of the unit, nobody goes from chips to none, and the table's
total after = total before - removed + the chips given to the players saved.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.cards import DECK, Card
from rules.engine.citations import CHIP_RACE as RACE
from rules.engine.citations import CHIP_SET, NOBODY_RACED_OUT
from tournaments.draws.errors import DrawError
from tournaments.draws.seeds import seed_of

#: A card per odd chip from as many shuffled decks as the race needs; past this many cards a
#: race is refused as a sign of a wrong count (a 25 raced up to 5,000 is 199 cards a player).
MOST_CARDS = 520


@dataclass(frozen=True)
class RaceSeat:
    """One player at the race: the seat, the chip count before it and, when the dealer counted
    them, how many chips of each leaving denomination the player holds (``odd_chips``, by
    value). ``None`` means the count alone decides: the odd value is the count modulo the unit."""

    seat: int
    chips: int
    odd_chips: Mapping[int, int] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or self.seat < 1:
            raise DrawError("bad_seat", f"A seat is a number from 1, not {self.seat!r}.")
        if isinstance(self.chips, bool) or not isinstance(self.chips, int) or self.chips < 0:
            raise DrawError("bad_chips", f"Seat {self.seat}'s chips are a whole number.")
        for value, count in (self.odd_chips or {}).items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise DrawError(
                    "bad_odd_chips", f"Seat {self.seat}'s {value} chips are a whole number."
                )


@dataclass(frozen=True)
class SeatResult:
    """What the race did at one seat."""

    seat: int
    chips_before: int
    odd_value: int
    exchanged: int  # chips of the unit the whole colour-up gave
    odd_chips: int  # chips left over and raced, one card each
    cards: tuple[Card, ...]
    won: bool  # won a chip in the race
    saved: bool  # given a chip so as not to be raced out (CR-CU.4)
    chips_after: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "chips_before": self.chips_before,
            "odd_value": self.odd_value,
            "exchanged": self.exchanged,
            "odd_chips": self.odd_chips,
            "cards": [str(card) for card in self.cards],
            "won": self.won,
            "saved": self.saved,
            "chips_after": self.chips_after,
        }


@dataclass(frozen=True)
class RaceResult:
    """The race at one table: each seat's result in seat order, the unit, the chips raced, the
    value taken out of play and the value given to players saved from being raced out."""

    unit: int
    leaving: tuple[int, ...]
    seats: tuple[SeatResult, ...]
    raced: int
    removed: int
    given: int
    seed: str | int | None = None
    citations: tuple[str, ...] = field(default=(RACE, NOBODY_RACED_OUT))

    @property
    def total_before(self) -> int:
        return sum(s.chips_before for s in self.seats)

    @property
    def total_after(self) -> int:
        return sum(s.chips_after for s in self.seats)

    def to_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "leaving": list(self.leaving),
            "seats": [s.to_dict() for s in self.seats],
            "raced": self.raced,
            "removed": self.removed,
            "given": self.given,
            "total_before": self.total_before,
            "total_after": self.total_after,
            "citations": list(self.citations),
        }


def fewest_chips(value: int, leaving: Sequence[int]) -> int:
    """How many chips of the leaving denominations make ``value``, the largest first (the
    dealer gives change in the fewest chips)."""
    count = 0
    for denomination in sorted(leaving, reverse=True):
        count += value // denomination
        value %= denomination
    if value:
        raise DrawError(
            "odd_value",
            f"{value} cannot be made with the chips leaving play ({_names(leaving)}).",
            CHIP_SET,
        )
    return count


def _names(values: Sequence[int]) -> str:
    return ", ".join(f"{v}" for v in sorted(values))


def _odd_value(player: RaceSeat, leaving: tuple[int, ...], unit: int) -> int:
    if player.odd_chips is None:
        return player.chips % unit
    unknown = set(player.odd_chips) - set(leaving)
    if unknown:
        raise DrawError(
            "bad_odd_chips",
            f"Seat {player.seat}: only chips leaving play are raced ({_names(leaving)}), "
            f"not {_names(sorted(unknown))}.",
            RACE,
        )
    value = sum(denomination * count for denomination, count in player.odd_chips.items())
    if value > player.chips or (player.chips - value) % unit:
        raise DrawError(
            "odd_chips_disagree",
            f"Seat {player.seat}: {value} in chips leaving play does not fit a count of "
            f"{player.chips} (the rest must be whole chips of {unit}): count again.",
            RACE,
        )
    return value


def check_race(leaving: Sequence[int], unit: int) -> tuple[int, ...]:
    """The leaving denominations, smallest first, each dividing the unit (CR-CU.1)."""
    if isinstance(unit, bool) or not isinstance(unit, int) or unit < 1:
        raise DrawError("bad_unit", "The unit is the smallest denomination left, a number.")
    result = tuple(sorted(set(leaving)))
    if not result:
        raise DrawError("nothing_leaves", "No denomination leaves play: there is no race.")
    for value in result:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise DrawError("bad_denomination", f"Not a denomination: {value!r}.")
        if value >= unit or unit % value:
            raise DrawError(
                "bad_denomination",
                f"A {value} chip cannot be coloured up into {unit} chips: a denomination "
                "leaving play divides the smallest one left.",
                CHIP_SET,
            )
    return result


def race(
    players: Sequence[RaceSeat], leaving: Sequence[int], unit: int, rng: random.Random
) -> RaceResult:
    """Colour up and race the odd chips at one table (CR-CU.3, CR-CU.4); ``rng`` shuffles the
    decks the cards are dealt from (a ``SeededRandom`` from a stored seed: it replays)."""
    leaving_values = check_race(leaving, unit)
    seats = sorted(players, key=lambda p: p.seat)
    if len({p.seat for p in seats}) != len(seats):
        raise DrawError("duplicate_seat", "A seat appears twice in the race.")
    odd = {p.seat: _odd_value(p, leaving_values, unit) for p in seats}
    remainder = {seat: value % unit for seat, value in odd.items()}
    odd_count = {seat: fewest_chips(value, leaving_values) for seat, value in remainder.items()}
    cards_needed = sum(odd_count.values())
    if cards_needed > MOST_CARDS:
        raise DrawError(
            "race_too_big",
            f"The race would deal {cards_needed} cards (at most {MOST_CARDS}): check the counts.",
            RACE,
        )
    decks = -(-cards_needed // len(DECK)) if cards_needed else 0
    deck = list(DECK) * decks
    rng.shuffle(deck)
    # One card at a time round the players holding odd chips, clockwise from seat 1.
    cards: dict[int, list[Card]] = {seat: [] for seat in remainder}
    order: list[tuple[Card, int, int]] = []  # (card, deal position, seat)
    position = 0
    while position < cards_needed:
        for seat in cards:
            if len(cards[seat]) < odd_count[seat]:
                card = deck[position]
                cards[seat].append(card)
                order.append((card, position, seat))
                position += 1
    raced = sum(remainder.values()) // unit
    winners: set[int] = set()
    # The highest card wins (rank, then suit); two equal cards from two decks: the one dealt
    # first. A player who has won is passed over (one chip at most).
    for _card, _position, seat in sorted(order, key=lambda o: (o[0], -o[1]), reverse=True):
        if len(winners) == raced:
            break
        winners.add(seat)
    results = []
    given = 0
    for p in seats:
        after = p.chips - remainder[p.seat] + (unit if p.seat in winners else 0)
        saved = after == 0 and p.chips > 0
        if saved:
            after, given = unit, given + unit
        results.append(
            SeatResult(
                seat=p.seat,
                chips_before=p.chips,
                odd_value=odd[p.seat],
                exchanged=(odd[p.seat] - remainder[p.seat]) // unit,
                odd_chips=odd_count[p.seat],
                cards=tuple(cards[p.seat]),
                won=p.seat in winners,
                saved=saved,
                chips_after=after,
            )
        )
    removed = sum(remainder.values()) - raced * unit
    return RaceResult(
        unit=unit,
        leaving=leaving_values,
        seats=tuple(results),
        raced=raced,
        removed=removed,
        given=given,
        seed=seed_of(rng),
    )
