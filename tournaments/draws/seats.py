"""Seats: what every draw deals with, checked on the way in, and the pieces every draw record
is built from. Pure Python; the cards the draws deal are the engine's (``rules.engine.cards``)."""

from __future__ import annotations

import heapq
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.errors import is_int
from tournaments.draws.errors import ALGORITHM, EDITION, DrawError
from tournaments.draws.seeds import seed_commitment

type PlayerId = str | int
type Record = dict[str, Any]


# --- Seats -------------------------------------------------------------------------------------


def check_player(player: object) -> None:
    if isinstance(player, bool) or not isinstance(player, str | int):
        raise DrawError(
            "bad_player", f"A player is named by a string or an integer, not {player!r}."
        )
    if isinstance(player, str) and not player:
        raise DrawError("bad_player", "A player's name cannot be empty.")


def check_players(players: Sequence[PlayerId], what: str) -> tuple[PlayerId, ...]:
    if isinstance(players, str):
        raise DrawError("bad_player", f"Give the {what} as a list, not one string.")
    result = tuple(players)
    for player in result:
        check_player(player)
    if len(set(result)) != len(result):
        raise DrawError("duplicate_player", f"A player appears twice among the {what}.")
    return result


@dataclass(frozen=True, order=True)
class SeatRef:
    """A seat: table number and seat number (seat numbers, not indices; both from 1)."""

    table: int
    seat: int

    def __post_init__(self) -> None:
        if not (is_int(self.table) and is_int(self.seat)) or self.table < 1 or self.seat < 1:
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


def check_seats(seats: Collection[SeatRef], what: str) -> tuple[SeatRef, ...]:
    result = tuple(seats)
    for seat in result:
        if not isinstance(seat, SeatRef):
            raise DrawError("bad_seat", f"The {what} must be SeatRefs, not {seat!r}.")
    if len(set(result)) != len(result):
        raise DrawError("duplicate_seat", f"A seat appears twice among the {what}.")
    return result


@dataclass(frozen=True)
class Assignment:
    """One player's seat from a draw."""

    player: PlayerId
    seat: SeatRef

    def to_dict(self) -> Record:
        return {"player": self.player, **self.seat.to_dict()}


def citation_records(*rules: str) -> list[Record]:
    """The rules a record applies, each with the rulebook edition."""
    return [{"rule": rule, "edition": EDITION} for rule in rules]


def record_header(kind: str, seed: str | int | None, *rules: str) -> Record:
    """What every draw record opens with: its kind, the algorithm, the seed and its commitment,
    the rules it applies."""
    return {
        "kind": kind,
        "algorithm": ALGORITHM,
        "seed": seed,
        "seed_sha256": None if seed is None else seed_commitment(seed),
        "citations": citation_records(*rules),
    }


def shuffled[T](items: Sequence[T], rng: random.Random) -> list[T]:
    """A shuffled copy: the caller's list stays as it was."""
    result = list(items)
    rng.shuffle(result)
    return result


def _fill_evenly(
    capacity: Mapping[int, int], current: Mapping[int, int], count: int, rng: random.Random
) -> dict[int, int]:
    """How many newcomers each table takes: always the table with the fewest players, ties
    broken by a random order of the tables, never past a table's capacity (water-filling)."""
    tables = sorted(capacity)
    rank = {table: i for i, table in enumerate(shuffled(tables, rng))}
    heap = [(current.get(t, 0), rank[t], t) for t in tables if capacity[t] > 0]
    heapq.heapify(heap)
    taken = dict.fromkeys(tables, 0)
    for _ in range(count):
        seated, order, table = heapq.heappop(heap)
        taken[table] += 1
        if taken[table] < capacity[table]:
            heapq.heappush(heap, (seated + 1, order, table))
    return taken


def seat_pool(
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
        return sorted(shuffled(every, rng)[:count])
    capacity = {table: len(seats) for table, seats in open_by_table.items()}
    taken = _fill_evenly(capacity, current, count, rng)
    pool: list[SeatRef] = []
    for table in sorted(open_by_table):
        if taken[table]:
            chosen = shuffled(sorted(open_by_table[table]), rng)[: taken[table]]
            pool.extend(SeatRef(table, seat) for seat in sorted(chosen))
    return pool


def seats_by_table(seats: Sequence[SeatRef]) -> dict[int, list[int]]:
    """Seat numbers grouped by table, in the order given."""
    result: dict[int, list[int]] = {}
    for seat in seats:
        result.setdefault(seat.table, []).append(seat.seat)
    return result
