"""The random seat draws: initial seating (TDA 7), late entries and alternates (TDA 8-A), the
double-blind table break (TDA 10, 10-A and the Illustrated Addendum). Pure Python.

Every random draw takes a ``random.Random`` built from a seed the caller stores (use
``seeds.SeededRandom`` so the seed goes into the audit record), uses nothing but
``rng.shuffle`` on lists in a fixed order, and returns a frozen result whose ``to_dict()`` is a
JSON-able audit record: the seed, the inputs, each random step and the result.
``replay.replay`` re-runs a record from its seed and inputs; ``replay.verify`` says whether the
record is exactly what the replay gives, so a tampered record is caught. One fresh
``SeededRandom`` per draw: a generator already used for something else will not replay.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rules.engine.cards import DECK, Card
from rules.engine.errors import is_int
from tournaments.draws.errors import (
    ALTERNATES_AND_LATE_ENTRIES,
    BREAKING_TABLES,
    DOUBLE_BLIND,
    MOVED_PLAYER_SEAT,
    RANDOM_SEATING,
    DrawError,
)
from tournaments.draws.seats import (
    Assignment,
    PlayerId,
    Record,
    SeatRef,
    check_players,
    check_seats,
    record_header,
    seat_pool,
    seats_by_table,
    shuffled,
)
from tournaments.draws.seeds import seed_of

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
            **record_header("initial_seating", self.seed, RANDOM_SEATING),
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
    players = check_players(entrants, "entrants")
    layout = _check_layout(tables)
    open_seats = sum(len(seats) for _, seats in layout)
    if len(players) > open_seats:
        raise DrawError(
            "not_enough_seats",
            f"{len(players)} entrants but only {open_seats} seats at {len(layout)} tables.",
            RANDOM_SEATING,
        )
    pool = seat_pool(dict(layout), dict.fromkeys(dict(layout), 0), len(players), rng)
    order = tuple(shuffled(players, rng))
    return InitialDraw(
        seed=seed_of(rng),
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
            **record_header("open_seats", self.seed, ALTERNATES_AND_LATE_ENTRIES),
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


def refuse_too_few_seats(players: int, allowed: int) -> None:
    """Newcomers need as many open seats they may take as there are of them (TDA 8-A): checked
    when the draw is committed as well as when it is dealt, so a draw that cannot be dealt is
    never committed."""
    if players > allowed:
        raise DrawError(
            "not_enough_seats",
            f"{players} players to seat but only {allowed} open seats they may take.",
            ALTERNATES_AND_LATE_ENTRIES,
        )


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
    players = check_players(entrants, "entrants")
    seats = check_seats(open_seats, "open seats")
    barred = frozenset(check_seats(forbidden, "forbidden seats"))
    allowed = sorted(seat for seat in seats if seat not in barred)
    refuse_too_few_seats(len(players), len(allowed))
    current: dict[int, int] | None = None
    if seated is not None:
        current = {}
        for table, count in seated.items():
            if not is_int(count) or count < 0:
                raise DrawError("bad_count", f"Table {table} cannot seat {count!r} players.")
            current[table] = count
    pool = seat_pool(seats_by_table(allowed), current, len(players), rng)
    order = tuple(shuffled(players, rng))
    return OpenSeatDraw(
        seed=seed_of(rng),
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
            **record_header(
                "break_table", self.seed, BREAKING_TABLES, MOVED_PLAYER_SEAT, DOUBLE_BLIND
            ),
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
    dealt_to = check_players(players, "players at the breaking table")
    seats = check_seats(receiving_seats, "receiving seats")
    barred = frozenset(check_seats(forbidden, "forbidden seats"))
    if breaking_table is not None:
        if not is_int(breaking_table) or breaking_table < 1:
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
    stack = tuple(shuffled(shown, rng))
    # Step 2: one playing card face up to each player; the highest card by suit takes the top
    # seat card, and so on down. Cards are unique, so there is never a tie.
    deck = shuffled(DECK, rng)
    cards = tuple(zip(dealt_to, deck, strict=False))
    ranked = sorted(cards, key=lambda dealt: dealt[1], reverse=True)
    return BreakDraw(
        seed=seed_of(rng),
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
