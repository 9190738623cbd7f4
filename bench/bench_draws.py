"""Seat-draw figures (pure Python, no database): the opening draw of a 10,000-player field,
breaking a table into a room of 1,111 tables, and the balancing check after an elimination.

Goals: the draw under 2 s, a break and a balance under 50 ms each.
Times are medians of several runs, in milliseconds. What each step timed gives is checked
(``bench.harness.expect_that``): every entrant seated, every record verified, the breaking
table's players all moved, the balancing moves made. ``BENCH_QUICK=1``: 199 entrants, 3 runs.
"""

from __future__ import annotations

import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import expect_that, sized  # noqa: E402
from tournaments.draws.balancing import BalancePolicy, Game, SeatedPlayer, balance  # noqa: E402
from tournaments.draws.breaks import seat_cards_for_break  # noqa: E402
from tournaments.draws.replay import verify  # noqa: E402
from tournaments.draws.seat_draws import break_table, initial_seating  # noqa: E402
from tournaments.draws.seeds import SeededRandom  # noqa: E402


def entrants_count() -> int:
    """10,000 entrants (quick: 199); one more than a multiple of nine either way, so that the
    first bust leaves a table to break into exactly the seats left at the others."""
    return sized(10_000, 199)


def tables_for(seats: int) -> int:
    return -(-entrants_count() // seats)


def _median_time(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(sized(repeat, min(repeat, 3))):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _room(tables: int, seats: int) -> dict[int, list[SeatedPlayer]]:
    """The field seated by the real opening draw, as the balancing functions take it."""
    layout = {t: list(range(1, seats + 1)) for t in range(1, tables + 1)}
    draw = initial_seating(
        [f"p{i}" for i in range(entrants_count())], layout, SeededRandom("bench")
    )
    room: dict[int, list[SeatedPlayer]] = {t: [] for t in layout}
    for player, seat in draw.seating.items():
        room[seat.table].append(SeatedPlayer(player, seat.seat))
    return room


def run() -> dict[str, Any]:
    count = entrants_count()
    entrants = [f"p{i}" for i in range(count)]
    figures: dict[str, Any] = {}
    nines = tables_for(9)
    for tables, seats in ((tables_for(10), 10), (nines, 9)):
        layout = {t: list(range(1, seats + 1)) for t in range(1, tables + 1)}

        def seat(layout: dict[int, list[int]] = layout) -> Any:
            return initial_seating(entrants, layout, SeededRandom("bench"))

        expect_that(f"the opening draw over {tables} tables", len(seat().seating) == count)
        figures[f"initial_seating_{count}_over_{tables}_tables_ms"] = _median_time(seat, 5)
    layout = {t: list(range(1, 10)) for t in range(1, nines + 1)}
    record = initial_seating(entrants, layout, SeededRandom("bench")).to_dict()
    expect_that("the opening draw's record verifies", verify(record))
    figures["initial_seating_record_and_verify_ms"] = _median_time(lambda: verify(record), 3)

    room = _room(nines, 9)
    buttons = {t: random.Random(t).randint(1, 9) for t in room}
    # Down to one player fewer the last full table breaks (TDA 10): its nine take the seat
    # cards chosen across the other tables, then the double-blind draw.
    breaking = max(t for t in room if len(room[t]) == 9)
    busted_at = min(t for t in room if t != breaking)
    room = {**room, busted_at: room[busted_at][1:]}
    movers = [p.player for p in room[breaking]]
    figures["break_table_players"] = len(movers)
    figures["break_table_seat_cards_ms"] = _median_time(
        lambda: seat_cards_for_break(room, seats=9, breaking_table=breaking), 20
    )
    cards = seat_cards_for_break(room, seats=9, breaking_table=breaking)
    figures["break_table_draw_ms"] = _median_time(
        lambda: break_table(movers, cards, SeededRandom("break"), breaking_table=breaking), 200
    )
    draw = break_table(movers, cards, SeededRandom("break"), breaking_table=breaking)
    expect_that(
        f"breaking table {breaking} seats its {len(movers)} players elsewhere",
        sorted(draw.seating) == sorted(movers)
        and all(seat.table != breaking for seat in draw.seating.values()),
        draw.seating,
    )
    expect_that("the break's record verifies", verify(draw.to_dict()))
    figures["break_table_verify_ms"] = _median_time(lambda: verify(draw.to_dict()), 200)

    # The balancing check after an elimination at a table already one short: 9 against 7.
    room = _room(nines, 9)
    short = min(room, key=lambda t: len(room[t]))
    after = {**room, short: room[short][1:]}
    figures["balance_tables"] = len(after)
    for name, game, policy in (
        ("flop_tda", Game.FLOP, BalancePolicy.TDA),
        ("flop_keep_position", Game.FLOP, BalancePolicy.KEEP_POSITION),
        ("stud", Game.STUD, BalancePolicy.TDA),
    ):
        moves = balance(after, seats=9, buttons=buttons, game=game, policy=policy)
        expect_that(f"balancing 9 against 7 ({name}) moves a player", len(moves) >= 1)
        figures[f"balance_{name}_moves"] = len(moves)
        figures[f"balance_{name}_ms"] = _median_time(
            functools.partial(balance, after, seats=9, buttons=buttons, game=game, policy=policy),
            20,
        )
    balanced = {t: players for t, players in room.items() if len(players) == 9}
    expect_that("balanced tables need no move", balance(balanced, seats=9, buttons=buttons) == [])
    figures["balance_already_balanced_ms"] = _median_time(
        lambda: balance(balanced, seats=9, buttons=buttons), 20
    )
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:44} {value:12.4f}" if isinstance(value, float) else f"{key:44} {value!s:>12}")
