"""When tables break (TDA 10, 11-C, RP-9). Pure Python."""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Mapping, Sequence

from rules.engine.errors import is_int
from tournaments.draws.balancing import SeatedPlayer, rank_tables, table_layout
from tournaments.draws.errors import BREAKING_TABLES, FINAL_TABLE_SIZE, DrawError
from tournaments.draws.seats import SeatRef, check_seats

# --- When tables break (TDA 10, 11-C, RP-9) --------------------------------------------------


def _check_sizes(seats_per_table: int, final_table_size: int | None) -> int:
    if not is_int(seats_per_table) or seats_per_table < 2:
        raise DrawError("bad_size", f"A table seats at least two, not {seats_per_table!r}.")
    final = seats_per_table if final_table_size is None else final_table_size
    if not is_int(final) or not 2 <= final <= seats_per_table:
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
    if not is_int(players) or players < 0:
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
    barred = frozenset(check_seats(forbidden, "forbidden seats"))
    layout = table_layout(tables, seats, None, None)
    movers = len(layout[breaking_table].players)
    receiving = {n: t for n, t in layout.items() if n != breaking_table}
    rank = rank_tables(receiving, balancing_order)
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
