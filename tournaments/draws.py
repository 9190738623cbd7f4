"""Seat draws for tournaments: random seating, breaking tables, balancing. Pure Python.

Every random draw takes a ``random.Random`` built from a seed the caller stores (use
:class:`SeededRandom` so the seed goes into the audit record), uses nothing but
``rng.shuffle`` on lists in a fixed order, and returns a frozen result whose ``to_dict()`` is a
JSON-able audit record: the seed, the inputs, each random step and the result. :func:`replay`
re-runs a record from its seed and inputs; :func:`verify` says whether the record is exactly what
the replay gives, so a tampered record is caught. One fresh ``SeededRandom`` per draw: a
generator already used for something else will not replay.

Balancing and break planning are deterministic: the TDA wants a procedure published before play
(Rule 11-C), not a draw.

Rules applied (Poker TDA, 2024 numbering; every reference is stored with :data:`EDITION`):

- Rule 7: random seating. Rule 8-A: alternates, late entries and re-entries draw from the same
  seat pool and are dealt in except between the small blind and the button. Rule 9: a seat may be
  reserved for special needs (leave it out of the seats, or pass it as forbidden).
- Rule 10: breaking tables; 10-A: a moved player may receive any seat, blinds and button
  included, except between the small blind and the button. The Illustrated Addendum's two-step
  "double-blind" process is :func:`break_table`.
- Rule 11: balancing; 11-A flop games move the player due the big blind next to the worst
  position; 11-B stud games move by position, mixed games freeze the button; 11-C a
  predetermined procedure; 11-D a table three or more short of the fullest halts.
- RP-9: the final table's size (two tables of five become a 9-handed final table).
"""

from __future__ import annotations

import hashlib
import heapq
import math
import random
import secrets
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

type PlayerId = str | int
type Record = dict[str, Any]

ALGORITHM = "cardroom.draws/1"
"""Stored with every record; bump it if the way a draw consumes the generator ever changes."""

EDITION = "TDA 2024"
"""The rulebook edition every citation below refers to."""

RANDOM_SEATING = "TDA-7"
ALTERNATES_AND_LATE_ENTRIES = "TDA-8-A"
SPECIAL_NEEDS = "TDA-9"
BREAKING_TABLES = "TDA-10"
MOVED_PLAYER_SEAT = "TDA-10-A"
DOUBLE_BLIND = "TDA-10-Addendum"  # the Illustrated Addendum's 2-step "double-blind" example
BALANCING = "TDA-11"
BALANCING_FLOP = "TDA-11-A"
BALANCING_STUD_AND_MIXED = "TDA-11-B"
BALANCING_PROCEDURE = "TDA-11-C"
BALANCING_HALT = "TDA-11-D"
FINAL_TABLE_SIZE = "TDA-RP-9"

CITATIONS = frozenset(
    value
    for name, value in dict(globals()).items()
    if name.isupper() and isinstance(value, str) and value.startswith("TDA-")
)


class DrawError(ValueError):
    """A draw that cannot be made as asked: a contract code, a plain message, the rules applied."""

    def __init__(self, code: str, message: str, *citations: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.citations: tuple[str, ...] = citations
        self.edition = EDITION


# --- Seeds -----------------------------------------------------------------------------------


class SeededRandom(random.Random):
    """A ``random.Random`` that remembers the seed it was built from, for the audit record."""

    def __init__(self, seed: str | int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, str | int):
            raise DrawError("bad_seed", "A seed is a string or an integer.")
        super().__init__(seed)
        self.seed_value: str | int = seed


def new_seed() -> str:
    """A fresh seed from the operating system's cryptographically secure source."""
    return secrets.token_hex(32)


def seed_commitment(seed: str | int) -> str:
    """The SHA-256 (hex) of the seed's text: shown and stored before the cards are revealed."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def _seed_of(rng: random.Random) -> str | int | None:
    return rng.seed_value if isinstance(rng, SeededRandom) else None


# --- Seats and cards -------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_player(player: object) -> None:
    if isinstance(player, bool) or not isinstance(player, str | int):
        raise DrawError(
            "bad_player", f"A player is named by a string or an integer, not {player!r}."
        )
    if isinstance(player, str) and not player:
        raise DrawError("bad_player", "A player's name cannot be empty.")


def _check_players(players: Sequence[PlayerId], what: str) -> tuple[PlayerId, ...]:
    if isinstance(players, str):
        raise DrawError("bad_player", f"Give the {what} as a list, not one string.")
    result = tuple(players)
    for player in result:
        _check_player(player)
    if len(set(result)) != len(result):
        raise DrawError("duplicate_player", f"A player appears twice among the {what}.")
    return result


@dataclass(frozen=True, order=True)
class SeatRef:
    """A seat: table number and seat number (seat numbers, not indices; both from 1)."""

    table: int
    seat: int

    def __post_init__(self) -> None:
        if not (_is_int(self.table) and _is_int(self.seat)) or self.table < 1 or self.seat < 1:
            raise DrawError(
                "bad_seat", f"Tables and seats are numbered from 1: {self.table!r}/{self.seat!r}."
            )

    def __str__(self) -> str:
        return f"table {self.table} seat {self.seat}"

    def to_dict(self) -> Record:
        return {"table": self.table, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatRef:
        return cls(data["table"], data["seat"])


def _check_seats(seats: Collection[SeatRef], what: str) -> tuple[SeatRef, ...]:
    result = tuple(seats)
    for seat in result:
        if not isinstance(seat, SeatRef):
            raise DrawError("bad_seat", f"The {what} must be SeatRefs, not {seat!r}.")
    if len(set(result)) != len(result):
        raise DrawError("duplicate_seat", f"A seat appears twice among the {what}.")
    return result


class Suit(IntEnum):
    """Suits ranked for ties, lowest to highest: clubs, diamonds, hearts, spades."""

    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    SPADES = 4

    @property
    def letter(self) -> str:
        return "cdhs"[self - 1]


RANK_LETTERS = "23456789TJQKA"


@dataclass(frozen=True, order=True)
class Card:
    """A playing card, rank 2..14 (ace high). Cards compare by rank, then suit (``As`` > ``Ks``
    > ``Ah``): the "highest card by suit" that decides who gets the first seat card."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not _is_int(self.rank) or not 2 <= self.rank <= 14:
            raise DrawError(
                "bad_card", f"A card's rank runs from 2 to 14 (ace), not {self.rank!r}."
            )
        if not isinstance(self.suit, Suit):
            raise DrawError("bad_card", f"A card's suit is a Suit, not {self.suit!r}.")

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 2] + self.suit.letter

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"As"`` -> ace of spades; ``"Td"`` -> ten of diamonds."""
        if len(text) != 2 or text[0].upper() not in RANK_LETTERS or text[1].lower() not in "cdhs":
            raise DrawError("bad_card", f"Not a card: {text!r} (write it like 'As' or 'Td').")
        return cls(RANK_LETTERS.index(text[0].upper()) + 2, Suit("cdhs".index(text[1].lower()) + 1))


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(2, 15))
"""A standard 52-card deck in a fixed order (the order the dealer's shuffle starts from)."""


@dataclass(frozen=True)
class Assignment:
    """One player's seat from a draw."""

    player: PlayerId
    seat: SeatRef

    def to_dict(self) -> Record:
        return {"player": self.player, **self.seat.to_dict()}


def _citations(*rules: str) -> list[Record]:
    return [{"rule": rule, "edition": EDITION} for rule in rules]


def _header(kind: str, seed: str | int | None, *rules: str) -> Record:
    return {
        "kind": kind,
        "algorithm": ALGORITHM,
        "seed": seed,
        "seed_sha256": None if seed is None else seed_commitment(seed),
        "citations": _citations(*rules),
    }


def _shuffled[T](items: Sequence[T], rng: random.Random) -> list[T]:
    result = list(items)
    rng.shuffle(result)
    return result


def _fill_evenly(
    capacity: Mapping[int, int], current: Mapping[int, int], count: int, rng: random.Random
) -> dict[int, int]:
    """How many newcomers each table takes: always the table with the fewest players, ties
    broken by a random order of the tables, never past a table's capacity (water-filling)."""
    tables = sorted(capacity)
    rank = {table: i for i, table in enumerate(_shuffled(tables, rng))}
    heap = [(current.get(t, 0), rank[t], t) for t in tables if capacity[t] > 0]
    heapq.heapify(heap)
    taken = dict.fromkeys(tables, 0)
    for _ in range(count):
        seated, order, table = heapq.heappop(heap)
        taken[table] += 1
        if taken[table] < capacity[table]:
            heapq.heappush(heap, (seated + 1, order, table))
    return taken


def _seat_pool(
    open_by_table: Mapping[int, Sequence[int]],
    current: Mapping[int, int] | None,
    count: int,
    rng: random.Random,
) -> list[SeatRef]:
    """The seat cards in play, in table and seat order. With ``current`` (players already at each
    table) the newcomers go to the shortest tables first; without it every open seat is equally
    likely. Which seats at a table is drawn too: every open seat has the same chance."""
    if current is None:
        every = [SeatRef(t, s) for t in sorted(open_by_table) for s in sorted(open_by_table[t])]
        return sorted(_shuffled(every, rng)[:count])
    capacity = {table: len(seats) for table, seats in open_by_table.items()}
    taken = _fill_evenly(capacity, current, count, rng)
    pool: list[SeatRef] = []
    for table in sorted(open_by_table):
        if taken[table]:
            chosen = _shuffled(sorted(open_by_table[table]), rng)[: taken[table]]
            pool.extend(SeatRef(table, seat) for seat in sorted(chosen))
    return pool


def _by_table(seats: Sequence[SeatRef]) -> dict[int, list[int]]:
    result: dict[int, list[int]] = {}
    for seat in seats:
        result.setdefault(seat.table, []).append(seat.seat)
    return result


# --- Initial seating (TDA 7) -----------------------------------------------------------------


@dataclass(frozen=True)
class InitialDraw:
    """The opening draw: which seat cards are in play (``pool``), the entrants in the order the
    shuffle put them (``order``), and the seats: the i-th player in ``order`` takes ``pool[i]``."""

    seed: str | int | None
    entrants: tuple[PlayerId, ...]
    tables: tuple[tuple[int, tuple[int, ...]], ...]
    pool: tuple[SeatRef, ...]
    order: tuple[PlayerId, ...]
    assignments: tuple[Assignment, ...]

    @property
    def seating(self) -> dict[PlayerId, SeatRef]:
        return {a.player: a.seat for a in self.assignments}

    def table_counts(self) -> dict[int, int]:
        counts = dict.fromkeys((table for table, _ in self.tables), 0)
        for a in self.assignments:
            counts[a.seat.table] += 1
        return counts

    def to_dict(self) -> Record:
        return {
            **_header("initial_seating", self.seed, RANDOM_SEATING),
            "input": {
                "entrants": list(self.entrants),
                "tables": [{"table": t, "seats": list(seats)} for t, seats in self.tables],
            },
            "steps": {
                "pool": [seat.to_dict() for seat in self.pool],
                "order": list(self.order),
            },
            "result": [a.to_dict() for a in self.assignments],
        }


def initial_seating(
    entrants: Sequence[PlayerId], tables: Mapping[int, Sequence[int]], rng: random.Random
) -> InitialDraw:
    """Draw every entrant a seat at random (TDA 7), tables filled as evenly as possible.

    ``tables`` maps each table number to its available seat numbers (leave out a seat reserved
    under TDA 9). Player counts per table differ by at most one, except that a table with fewer
    seats than that level is simply full. Which tables take the extra player and which seats stay
    empty at a table that is not full are drawn as well, so every seat is equally likely for every
    entrant when the tables are alike. Then the entrants are shuffled and take the seat cards in
    table and seat order; both steps are recorded.
    """
    players = _check_players(entrants, "entrants")
    layout = _check_layout(tables)
    open_seats = sum(len(seats) for _, seats in layout)
    if len(players) > open_seats:
        raise DrawError(
            "not_enough_seats",
            f"{len(players)} entrants but only {open_seats} seats at {len(layout)} tables.",
            RANDOM_SEATING,
        )
    pool = _seat_pool(dict(layout), dict.fromkeys(dict(layout), 0), len(players), rng)
    order = tuple(_shuffled(players, rng))
    return InitialDraw(
        seed=_seed_of(rng),
        entrants=players,
        tables=layout,
        pool=tuple(pool),
        order=order,
        assignments=tuple(Assignment(p, s) for p, s in zip(order, pool, strict=True)),
    )


def _check_layout(tables: Mapping[int, Sequence[int]]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    layout = []
    for table in sorted(tables):
        seats = tuple(tables[table])
        for seat in seats:
            SeatRef(table, seat)  # validates both numbers
        if len(set(seats)) != len(seats):
            raise DrawError("duplicate_seat", f"Seat listed twice at table {table}.")
        layout.append((table, seats))
    return tuple(layout)


# --- Late entries, alternates, re-entries (TDA 8-A) ------------------------------------------


@dataclass(frozen=True)
class OpenSeatDraw:
    """Newcomers drawn into open seats: the seat cards in play, the shuffled order, the seats."""

    seed: str | int | None
    entrants: tuple[PlayerId, ...]
    open_seats: tuple[SeatRef, ...]
    forbidden: tuple[SeatRef, ...]
    seated: tuple[tuple[int, int], ...] | None
    pool: tuple[SeatRef, ...]
    order: tuple[PlayerId, ...]
    assignments: tuple[Assignment, ...]

    @property
    def seating(self) -> dict[PlayerId, SeatRef]:
        return {a.player: a.seat for a in self.assignments}

    def to_dict(self) -> Record:
        return {
            **_header("open_seats", self.seed, ALTERNATES_AND_LATE_ENTRIES),
            "input": {
                "entrants": list(self.entrants),
                "open_seats": [seat.to_dict() for seat in self.open_seats],
                "forbidden": [seat.to_dict() for seat in self.forbidden],
                "seated": None
                if self.seated is None
                else [{"table": t, "players": n} for t, n in self.seated],
            },
            "steps": {
                "pool": [seat.to_dict() for seat in self.pool],
                "order": list(self.order),
            },
            "result": [a.to_dict() for a in self.assignments],
        }


def draw_into_open_seats(
    entrants: Sequence[PlayerId],
    open_seats: Sequence[SeatRef],
    rng: random.Random,
    forbidden: Collection[SeatRef] = frozenset(),
    *,
    seated: Mapping[int, int] | None = None,
) -> OpenSeatDraw:
    """Draw late entries, alternates or re-entries into open seats (TDA 8-A, same seat pool).

    ``forbidden`` holds seats a newcomer may not take now: those between the small blind and the
    button (see :func:`seats_between_button_and_small_blind`) or a seat reserved under TDA 9.
    Without ``seated`` every allowed open seat is equally likely. With ``seated`` (players now at
    each table), newcomers go to the shortest tables first, ties drawn, so the draw does not
    unbalance the room; the seat at that table is still drawn.
    """
    players = _check_players(entrants, "entrants")
    seats = _check_seats(open_seats, "open seats")
    barred = frozenset(_check_seats(forbidden, "forbidden seats"))
    allowed = sorted(seat for seat in seats if seat not in barred)
    if len(players) > len(allowed):
        raise DrawError(
            "not_enough_seats",
            f"{len(players)} players to seat but only {len(allowed)} open seats they may take.",
            ALTERNATES_AND_LATE_ENTRIES,
        )
    current: dict[int, int] | None = None
    if seated is not None:
        current = {}
        for table, count in seated.items():
            if not _is_int(count) or count < 0:
                raise DrawError("bad_count", f"Table {table} cannot seat {count!r} players.")
            current[table] = count
    pool = _seat_pool(_by_table(allowed), current, len(players), rng)
    order = tuple(_shuffled(players, rng))
    return OpenSeatDraw(
        seed=_seed_of(rng),
        entrants=players,
        open_seats=seats,
        forbidden=tuple(sorted(barred)),
        seated=None if current is None else tuple(sorted(current.items())),
        pool=tuple(pool),
        order=order,
        assignments=tuple(Assignment(p, s) for p, s in zip(order, pool, strict=True)),
    )


# --- Breaking a table (TDA 10 and the Illustrated Addendum) ----------------------------------


@dataclass(frozen=True)
class BreakAssignment:
    """A player from the breaking table: the playing card dealt face up, the seat card won."""

    player: PlayerId
    card: Card
    seat: SeatRef

    def to_dict(self) -> Record:
        return {"player": self.player, "card": str(self.card), **self.seat.to_dict()}


@dataclass(frozen=True)
class BreakDraw:
    """The two-step "double-blind" draw of the Illustrated Addendum, step by step.

    Step 1: the seat cards of the open seats are shown (``shown``), then scrambled face down into
    a stack (``stack``, top card first). Step 2: one playing card is dealt face up to each player
    (``cards``, in dealing order); the seat cards are dealt off the top of the stack, the first to
    the highest playing card by suit and so on down (``assignments``, in that order). Seat cards
    left over (more open seats than players) stay in the stack: ``unused``.
    """

    seed: str | int | None
    breaking_table: int | None
    players: tuple[PlayerId, ...]
    receiving_seats: tuple[SeatRef, ...]
    forbidden: tuple[SeatRef, ...]
    shown: tuple[SeatRef, ...]
    stack: tuple[SeatRef, ...]
    cards: tuple[tuple[PlayerId, Card], ...]
    assignments: tuple[BreakAssignment, ...]

    @property
    def seating(self) -> dict[PlayerId, SeatRef]:
        return {a.player: a.seat for a in self.assignments}

    @property
    def unused(self) -> tuple[SeatRef, ...]:
        return self.stack[len(self.assignments) :]

    def to_dict(self) -> Record:
        return {
            **_header("break_table", self.seed, BREAKING_TABLES, MOVED_PLAYER_SEAT, DOUBLE_BLIND),
            "input": {
                "breaking_table": self.breaking_table,
                "players": list(self.players),
                "receiving_seats": [seat.to_dict() for seat in self.receiving_seats],
                "forbidden": [seat.to_dict() for seat in self.forbidden],
            },
            "steps": {
                "shown": [seat.to_dict() for seat in self.shown],
                "stack": [seat.to_dict() for seat in self.stack],
                "cards": [{"player": p, "card": str(card)} for p, card in self.cards],
            },
            "result": [a.to_dict() for a in self.assignments],
        }


def break_table(
    players: Sequence[PlayerId],
    receiving_seats: Sequence[SeatRef],
    rng: random.Random,
    forbidden: Collection[SeatRef] = frozenset(),
    *,
    breaking_table: int | None = None,
) -> BreakDraw:
    """Break a table with the Illustrated Addendum's two-step process (TDA 10, 10-A).

    ``players`` are those at the breaking table in the order the dealer deals them a card;
    ``receiving_seats`` are the seat cards for the open seats at the receiving tables (see
    :func:`seat_cards_for_break` to choose them so the tables stay balanced). A moved player may
    get any seat, blinds and button included, except between the small blind and the button:
    pass those seats as ``forbidden`` and their cards are not shown.
    """
    dealt_to = _check_players(players, "players at the breaking table")
    seats = _check_seats(receiving_seats, "receiving seats")
    barred = frozenset(_check_seats(forbidden, "forbidden seats"))
    if breaking_table is not None:
        if not _is_int(breaking_table) or breaking_table < 1:
            raise DrawError("bad_seat", f"Tables are numbered from 1, not {breaking_table!r}.")
        if any(seat.table == breaking_table for seat in seats):
            raise DrawError(
                "bad_seat", f"Table {breaking_table} is breaking; it cannot receive its players."
            )
    shown = tuple(sorted(seat for seat in seats if seat not in barred))
    if len(shown) < len(dealt_to):
        raise DrawError(
            "not_enough_seats",
            f"{len(dealt_to)} players at the breaking table but only {len(shown)} open seats "
            "they may take at the receiving tables.",
            BREAKING_TABLES,
            MOVED_PLAYER_SEAT,
        )
    if len(dealt_to) > len(DECK):
        raise DrawError("too_many_players", "One deck deals a card to at most 52 players.")
    # Step 1: the seat cards are shown, then scrambled face down into a stack.
    stack = tuple(_shuffled(shown, rng))
    # Step 2: one playing card face up to each player; the highest card by suit takes the top
    # seat card, and so on down. Cards are unique, so there is never a tie.
    deck = _shuffled(DECK, rng)
    cards = tuple(zip(dealt_to, deck, strict=False))
    ranked = sorted(cards, key=lambda dealt: dealt[1], reverse=True)
    return BreakDraw(
        seed=_seed_of(rng),
        breaking_table=breaking_table,
        players=dealt_to,
        receiving_seats=seats,
        forbidden=tuple(sorted(barred)),
        shown=shown,
        stack=stack,
        cards=cards,
        assignments=tuple(
            BreakAssignment(player, card, seat)
            for (player, card), seat in zip(ranked, stack, strict=False)
        ),
    )


# --- Replaying a record ----------------------------------------------------------------------


type Draw = InitialDraw | OpenSeatDraw | BreakDraw


def replay(record: Mapping[str, Any]) -> Draw:
    """Re-run a draw from its record's seed and inputs (the recorded steps and result are not
    read). Raises :class:`DrawError` for an unknown kind or algorithm or a record with no seed."""
    kind = record.get("kind")
    if record.get("algorithm") != ALGORITHM:
        raise DrawError("unknown_algorithm", f"Cannot replay a {record.get('algorithm')!r} draw.")
    seed = record.get("seed")
    if seed is None:
        raise DrawError("no_seed", "This draw was made without a recorded seed; it cannot replay.")
    rng = SeededRandom(seed)
    data = record["input"]
    if kind == "initial_seating":
        tables = {entry["table"]: entry["seats"] for entry in data["tables"]}
        return initial_seating(data["entrants"], tables, rng)
    if kind == "open_seats":
        seated = data["seated"]
        return draw_into_open_seats(
            data["entrants"],
            [SeatRef.from_dict(seat) for seat in data["open_seats"]],
            rng,
            frozenset(SeatRef.from_dict(seat) for seat in data["forbidden"]),
            seated=None if seated is None else {e["table"]: e["players"] for e in seated},
        )
    if kind == "break_table":
        return break_table(
            data["players"],
            [SeatRef.from_dict(seat) for seat in data["receiving_seats"]],
            rng,
            frozenset(SeatRef.from_dict(seat) for seat in data["forbidden"]),
            breaking_table=data["breaking_table"],
        )
    raise DrawError("unknown_kind", f"No draw of kind {kind!r}.")


def verify(record: Mapping[str, Any]) -> bool:
    """True when replaying the record from its seed gives exactly the record: same inputs, same
    random steps, same seats. Any edit to a recorded step or seat, or to the seed, shows."""
    try:
        return replay(record).to_dict() == dict(record)
    except (DrawError, KeyError, TypeError, AttributeError):
        return False


# --- Table positions -------------------------------------------------------------------------


def _deal_order(seat_numbers: Sequence[int], occupied: Collection[int], button: int) -> list[int]:
    """Occupied seats in the order cards are dealt: the small blind (first occupied seat after
    the button, clockwise = rising seat numbers) first, the button last."""
    after = [s for s in seat_numbers if s > button] + [s for s in seat_numbers if s <= button]
    return [s for s in after if s in occupied]


def hands_until_big_blind(
    seat_numbers: Sequence[int], occupied: Collection[int], button: int, seat: int
) -> int:
    """How many hands the player in ``seat`` plays before posting the big blind, for the hand
    about to be dealt with the button at ``button`` (0: big blind on this hand). The small blind
    has the longest wait, one short of a full orbit."""
    order = _deal_order(sorted(seat_numbers), occupied, button)
    if seat not in order:
        raise DrawError("bad_seat", f"Nobody sits in seat {seat}.")
    return (order.index(seat) - 1) % len(order)


def seats_between_button_and_small_blind(
    table: int, seat_numbers: Sequence[int], occupied: Collection[int], button: int
) -> frozenset[SeatRef]:
    """Open seats where a newcomer would not be dealt in (TDA 8-A, 10-A): strictly between the
    button and the small blind, for the hand about to be dealt."""
    ordered = sorted(seat_numbers)
    after = [s for s in ordered if s > button] + [s for s in ordered if s <= button]
    between: set[SeatRef] = set()
    for seat in after:
        if seat in occupied:
            break
        if seat != button:
            between.add(SeatRef(table, seat))
    return frozenset(between)


# --- Balancing (TDA 11) ----------------------------------------------------------------------


class Game(StrEnum):
    FLOP = "flop"
    STUD = "stud"
    MIXED = "mixed"


class BalancePolicy(StrEnum):
    TDA = "tda"
    KEEP_POSITION = "keep_position"


@dataclass(frozen=True)
class SeatedPlayer:
    """A player in a seat. ``recently_moved``: moved by balancing recently (the caller decides how
    recently); such a player is not moved again while another candidate exists."""

    player: PlayerId
    seat: int
    recently_moved: bool = False

    def __post_init__(self) -> None:
        _check_player(self.player)
        if not _is_int(self.seat) or self.seat < 1:
            raise DrawError("bad_seat", f"Seats are numbered from 1, not {self.seat!r}.")


@dataclass(frozen=True)
class Move:
    """One balancing move: who, from where, to where, and the rule that chose them."""

    player: PlayerId
    from_seat: SeatRef
    to_seat: SeatRef
    reason: str
    citations: tuple[str, ...] = (BALANCING,)

    def to_dict(self) -> Record:
        return {
            "kind": "balance_move",
            "player": self.player,
            "from": self.from_seat.to_dict(),
            "to": self.to_seat.to_dict(),
            "reason": self.reason,
            "citations": _citations(*self.citations),
        }


@dataclass(eq=False)
class _Table:
    number: int
    seat_numbers: list[int]
    players: dict[int, SeatedPlayer]
    button: int | None
    opened: list[int]

    def open_seats(self, barred: Collection[SeatRef]) -> list[int]:
        return [
            s
            for s in self.seat_numbers
            if s not in self.players and SeatRef(self.number, s) not in barred
        ]

    def to_blind(self, seat: int) -> int:
        assert self.button is not None
        return hands_until_big_blind(self.seat_numbers, self.players, self.button, seat)

    def blind_order(self) -> list[int]:
        """Occupied seats, the player due the big blind next first, the small blind last."""
        assert self.button is not None
        order = _deal_order(self.seat_numbers, self.players, self.button)
        return order[1:] + order[:1]


def _layout(
    tables: Mapping[int, Sequence[SeatedPlayer]],
    seats: Mapping[int, Sequence[int]] | int,
    buttons: Mapping[int, int] | None,
    last_opened: Mapping[int, Sequence[int]] | None,
) -> dict[int, _Table]:
    layout: dict[int, _Table] = {}
    everyone: set[PlayerId] = set()
    for number in sorted(tables):
        if isinstance(seats, int):
            seat_numbers = list(range(1, seats + 1))
        elif number in seats:
            seat_numbers = sorted(seats[number])
        else:
            raise DrawError("bad_seat", f"No seat numbers given for table {number}.")
        for seat in seat_numbers:
            SeatRef(number, seat)
        players: dict[int, SeatedPlayer] = {}
        for seated in tables[number]:
            if seated.seat not in seat_numbers:
                raise DrawError("bad_seat", f"Table {number} has no seat {seated.seat}.")
            if seated.seat in players:
                raise DrawError(
                    "duplicate_seat", f"Two players in table {number} seat {seated.seat}."
                )
            if seated.player in everyone:
                raise DrawError("duplicate_player", f"Player {seated.player!r} is seated twice.")
            everyone.add(seated.player)
            players[seated.seat] = seated
        button = None if buttons is None else buttons.get(number)
        opened = [] if last_opened is None else list(last_opened.get(number, ()))
        layout[number] = _Table(number, seat_numbers, players, button, opened)
    return layout


def _rank_tables(numbers: Collection[int], order: Sequence[int]) -> dict[int, int]:
    """Position of each table in a published order; tables not listed follow by number."""
    if len(set(order)) != len(order):
        raise DrawError("duplicate_table", "A table appears twice in the published order.")
    listed = [t for t in order if t in numbers]
    rest = sorted(set(numbers) - set(listed))
    return {table: i for i, table in enumerate(listed + rest)}


def _first_not_recent[T](candidates: Iterable[tuple[T, SeatedPlayer]]) -> tuple[T, SeatedPlayer]:
    """The first candidate not moved recently; if every one was, the first (candidates are
    generated lazily, best first: usually the first one answers)."""
    first: tuple[T, SeatedPlayer] | None = None
    for candidate in candidates:
        if not candidate[1].recently_moved:
            return candidate
        first = first or candidate
    assert first is not None, "a fullest table always has players"
    return first


def balance(
    tables: Mapping[int, Sequence[SeatedPlayer]],
    *,
    seats: Mapping[int, Sequence[int]] | int,
    buttons: Mapping[int, int] | None = None,
    game: Game = Game.FLOP,
    policy: BalancePolicy = BalancePolicy.TDA,
    balancing_order: Sequence[int] = (),
    last_opened: Mapping[int, Sequence[int]] | None = None,
    forbidden: Collection[SeatRef] = frozenset(),
    max_difference: int = 1,
) -> list[Move]:
    """The moves that balance the tables (TDA 11), fewest possible, in the order to make them.

    ``seats`` gives each table's seat numbers (or N for seats 1..N everywhere). ``buttons`` gives,
    for flop and mixed games, the button's seat for the hand about to be dealt at each table.
    While the fullest and the shortest table differ by more than ``max_difference``, one player
    moves from the fullest to the shortest:

    - Which table gives the player (11-C): the fullest; among equally full tables, the first in
      ``balancing_order``, the order published before play (unlisted tables follow by number).
      The receiving table is the shortest, ties broken the same way.
    - Flop games (11-A), policy ``TDA``: the player due the big blind next moves to the worst
      position at the short table: the open seat that reaches the big blind soonest, the big
      blind itself included (so a player may post the big blind twice), never the small blind.
      Seats between the button and the small blind, where the player would sit out until the
      button passes, are used only when nothing else is open.
    - Mixed games (11-B) use the flop rule with the button frozen where the caller froze it.
    - Stud games (11-B): the last seat opened at the short table is filled (``last_opened``
      lists each table's open seats in the order they opened; with none known, the lowest open
      seat), by position: the player in that same seat number at the long table, else the next
      occupied seat clockwise.
    - Policy ``KEEP_POSITION`` (as online rooms do): the same tables, but the player and seat
      are paired to keep the player's place in the orbit (hands to the big blind as a share of
      the table) as close as possible; ties go to the player nearest the big blind.
    - A player marked ``recently_moved`` is not chosen while another candidate at any of the
      fullest tables exists.

    ``forbidden`` seats (reserved, TDA 9) are never filled. If the shortest tables have no seat
    to fill, balancing stops there.
    """
    if not _is_int(max_difference) or max_difference < 1:
        raise DrawError("bad_difference", "Tables may differ by at least one player.")
    barred = frozenset(_check_seats(forbidden, "forbidden seats"))
    layout = _layout(tables, seats, buttons, last_opened)
    if game is not Game.STUD:
        missing = [t.number for t in layout.values() if t.players and t.button is None]
        if missing:
            raise DrawError(
                "no_button",
                f"Flop and mixed games need the button's seat at tables {missing}.",
                BALANCING_FLOP,
            )
    rank = _rank_tables(layout, balancing_order)
    by_rank = sorted(layout.values(), key=lambda t: rank[t.number])
    moves: list[Move] = []
    while True:
        counts = {t.number: len(t.players) for t in by_rank}
        most, fewest = max(counts.values(), default=0), min(counts.values(), default=0)
        if most - fewest <= max_difference:
            return moves
        sources = [t for t in by_rank if counts[t.number] == most]
        targets = [
            t for t in by_rank if counts[t.number] < most - max_difference and t.open_seats(barred)
        ]
        if not targets:
            return moves
        fewest = min(counts[t.number] for t in targets)
        target = next(t for t in targets if counts[t.number] == fewest)
        move = _choose_move(sources, target, barred, game, policy)
        source = layout[move.from_seat.table]
        mover = source.players.pop(move.from_seat.seat)
        source.opened.append(move.from_seat.seat)
        target.players[move.to_seat.seat] = SeatedPlayer(
            mover.player, move.to_seat.seat, recently_moved=True
        )
        target.opened = [s for s in target.opened if s != move.to_seat.seat]
        moves.append(move)


def _choose_move(
    sources: list[_Table],
    target: _Table,
    barred: frozenset[SeatRef],
    game: Game,
    policy: BalancePolicy,
) -> Move:
    open_seats = target.open_seats(barred)
    if game is Game.STUD:
        return _stud_move(sources, target, open_seats)
    button = target.button
    assert button is not None
    waiting = seats_between_button_and_small_blind(
        target.number, target.seat_numbers, target.players, button
    )
    dealt_in = [s for s in open_seats if SeatRef(target.number, s) not in waiting]
    rule = BALANCING_FLOP if game is Game.FLOP else BALANCING_STUD_AND_MIXED
    citations = (BALANCING, rule, BALANCING_PROCEDURE)

    def to_blind_if_seated(seat: int) -> int:
        return hands_until_big_blind(target.seat_numbers, [*target.players, seat], button, seat)

    if not dealt_in:
        # Nothing open where the player is dealt in at once: they wait for the button to pass.
        dealt_in = open_seats
    if policy is BalancePolicy.KEEP_POSITION:
        return _keep_position_move(sources, target, dealt_in, to_blind_if_seated, citations)
    # Ties (open seats in the same gap come round equally soon): the first clockwise from the button.
    clockwise = _deal_order(target.seat_numbers, target.seat_numbers, button)
    seat = min(dealt_in, key=lambda s: (to_blind_if_seated(s), clockwise.index(s)))

    # TDA 11-A: the player due the big blind next; if recently moved, the same player at the next
    # fullest table, then the next player in blind order.
    def candidates() -> Iterator[tuple[_Table, SeatedPlayer]]:
        orders: dict[int, list[int]] = {}  # worked out only for the tables looked at
        for depth in range(max(len(table.players) for table in sources)):
            for table in sources:
                if table.number not in orders:
                    orders[table.number] = table.blind_order()
                order = orders[table.number]
                if depth < len(order):
                    yield table, table.players[order[depth]]

    table, mover = _first_not_recent(candidates())
    return Move(
        mover.player,
        SeatRef(table.number, mover.seat),
        SeatRef(target.number, seat),
        f"TDA 11-A: due the big blind next at table {table.number}; worst position at "
        f"table {target.number} ({to_blind_if_seated(seat)} hands to the big blind).",
        citations,
    )


def _keep_position_move(
    sources: list[_Table],
    target: _Table,
    open_seats: list[int],
    to_blind_if_seated: Callable[[int], int],
    citations: tuple[str, ...],
) -> Move:
    size = len(target.players) + 1
    seat_share = {s: to_blind_if_seated(s) / size for s in open_seats}
    # The first fullest table with a player not moved recently gives the player (fewest moves).
    table = next(
        (t for t in sources if any(not p.recently_moved for p in t.players.values())), sources[0]
    )
    pool = [p for p in table.players.values() if not p.recently_moved] or list(
        table.players.values()
    )
    best = min(
        (
            (
                abs(table.to_blind(p.seat) / len(table.players) - seat_share[s]),
                table.to_blind(p.seat),
                s,
                p,
            )
            for p in pool
            for s in open_seats
        ),
        key=lambda choice: (choice[0], choice[1], seat_share[choice[2]], choice[2]),
    )
    _, _, seat, mover = best
    return Move(
        mover.player,
        SeatRef(table.number, mover.seat),
        SeatRef(target.number, seat),
        f"Keep position: {table.to_blind(mover.seat)} hands to the big blind at table "
        f"{table.number}, {to_blind_if_seated(seat)} at table {target.number}.",
        (BALANCING, BALANCING_PROCEDURE),
    )


def _stud_move(sources: list[_Table], target: _Table, open_seats: list[int]) -> Move:
    recent_openings = [s for s in reversed(target.opened) if s in open_seats]
    seat = recent_openings[0] if recent_openings else min(open_seats)

    def candidates() -> Iterator[tuple[_Table, SeatedPlayer]]:
        # The same seat number at each fullest table in order, then the next seat clockwise.
        rings: dict[int, list[int]] = {}  # worked out only for the tables looked at
        for step in range(max(len(t.seat_numbers) for t in sources)):
            for table in sources:
                if table.number not in rings:
                    numbers = table.seat_numbers
                    rings[table.number] = [s for s in numbers if s >= seat] + [
                        s for s in numbers if s < seat
                    ]
                ring = rings[table.number]
                if step < len(ring) and ring[step] in table.players:
                    yield table, table.players[ring[step]]

    table, mover = _first_not_recent(candidates())
    return Move(
        mover.player,
        SeatRef(table.number, mover.seat),
        SeatRef(target.number, seat),
        f"TDA 11-B: stud moves by position; seat {mover.seat} at table {table.number} fills "
        f"the last seat opened, {target.number}/{seat}.",
        (BALANCING, BALANCING_STUD_AND_MIXED, BALANCING_PROCEDURE),
    )


def tables_to_halt(tables: Mapping[int, Sequence[SeatedPlayer]]) -> list[int]:
    """Tables three or more players short of the fullest (TDA 11-D): they halt play once their
    blinds are affected, until balanced (when is the floor's call)."""
    counts = {number: len(players) for number, players in tables.items()}
    most = max(counts.values(), default=0)
    return sorted(number for number, count in counts.items() if most - count >= 3)


# --- When tables break (TDA 10, 11-C, RP-9) --------------------------------------------------


def _check_sizes(seats_per_table: int, final_table_size: int | None) -> int:
    if not _is_int(seats_per_table) or seats_per_table < 2:
        raise DrawError("bad_size", f"A table seats at least two, not {seats_per_table!r}.")
    final = seats_per_table if final_table_size is None else final_table_size
    if not _is_int(final) or not 2 <= final <= seats_per_table:
        raise DrawError(
            "bad_size",
            f"The final table seats 2 to {seats_per_table} players, not {final!r}.",
            FINAL_TABLE_SIZE,
        )
    return final


def tables_needed(players: int, seats_per_table: int, final_table_size: int | None = None) -> int:
    """How many tables ``players`` need. Down to ``final_table_size`` (default: a full table)
    they fit one final table; above it at least two (TDA RP-9: with 10-handed tables and a
    9-handed final table, two tables of five play on until nine remain)."""
    final = _check_sizes(seats_per_table, final_table_size)
    if not _is_int(players) or players < 0:
        raise DrawError("bad_count", f"Cannot seat {players!r} players.")
    if players == 0:
        return 0
    if players <= final:
        return 1
    return max(2, math.ceil(players / seats_per_table))


def when_to_break(
    tables_in_play: int, seats_per_table: int, final_table_size: int | None = None
) -> int:
    """The number of players left at which the next table breaks (0: nothing left to break)."""
    final = _check_sizes(seats_per_table, final_table_size)
    if tables_in_play <= 1:
        return 0
    if tables_in_play == 2:
        return final
    return seats_per_table * (tables_in_play - 1)


def default_break_order(tables: Collection[int]) -> tuple[int, ...]:
    """A break order to publish before play (TDA 11-C) when the room has none: the highest table
    number breaks first, so the lowest-numbered table becomes the final table."""
    return tuple(sorted(tables, reverse=True))


def tables_to_break(
    players: int,
    tables_in_play: Sequence[int],
    seats_per_table: int,
    break_order: Sequence[int],
    final_table_size: int | None = None,
) -> list[int]:
    """Which tables break now, in the published break order (tables in play but not listed break
    after the listed ones, highest number first)."""
    needed = tables_needed(players, seats_per_table, final_table_size)
    in_play = set(tables_in_play)
    if len(in_play) != len(tables_in_play):
        raise DrawError("duplicate_table", "A table is listed twice among the tables in play.")
    if len(set(break_order)) != len(break_order):
        raise DrawError("duplicate_table", "A table appears twice in the break order.")
    order = [t for t in break_order if t in in_play]
    order += default_break_order(in_play - set(order))
    return order[: max(0, len(in_play) - needed)]


def seat_cards_for_break(
    tables: Mapping[int, Sequence[SeatedPlayer]],
    *,
    seats: Mapping[int, Sequence[int]] | int,
    breaking_table: int,
    forbidden: Collection[SeatRef] = frozenset(),
    balancing_order: Sequence[int] = (),
) -> list[SeatRef]:
    """The seat cards to show when ``breaking_table`` breaks (step 1 of :func:`break_table`): as
    many as it has players, taken from the shortest receiving tables first (ties in
    ``balancing_order``) so the tables come out balanced; at a table, the lowest open seats."""
    if breaking_table not in tables:
        raise DrawError("unknown_table", f"Table {breaking_table} is not in play.", BREAKING_TABLES)
    barred = frozenset(_check_seats(forbidden, "forbidden seats"))
    layout = _layout(tables, seats, None, None)
    movers = len(layout[breaking_table].players)
    receiving = {n: t for n, t in layout.items() if n != breaking_table}
    rank = _rank_tables(receiving, balancing_order)
    open_by_table = {n: t.open_seats(barred) for n, t in receiving.items()}
    room = sum(len(s) for s in open_by_table.values())
    if room < movers:
        raise DrawError(
            "not_enough_seats",
            f"Table {breaking_table} has {movers} players but the other tables have only "
            f"{room} open seats they may take.",
            BREAKING_TABLES,
        )
    heap = [(len(t.players), rank[n], n) for n, t in receiving.items() if open_by_table[n]]
    heapq.heapify(heap)
    taken = dict.fromkeys(receiving, 0)
    for _ in range(movers):
        count, order, number = heapq.heappop(heap)
        taken[number] += 1
        if taken[number] < len(open_by_table[number]):
            heapq.heappush(heap, (count + 1, order, number))
    return [
        SeatRef(number, seat)
        for number in sorted(receiving)
        for seat in open_by_table[number][: taken[number]]
    ]
