"""Seat-draw figures (pure Python, no database): the opening draw of a 10,000-player field,
breaking a table into a room of 1,111 tables, and the balancing check after an elimination.

Goals from the tournament issue: the draw under 2 s, a break and a balance under 50 ms each.
Times are medians of several runs, in milliseconds.
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

from tournaments.draws.balancing import BalancePolicy, Game, SeatedPlayer, balance  # noqa: E402
from tournaments.draws.breaks import seat_cards_for_break  # noqa: E402
from tournaments.draws.replay import verify  # noqa: E402
from tournaments.draws.seat_draws import break_table, initial_seating  # noqa: E402
from tournaments.draws.seeds import SeededRandom  # noqa: E402

ENTRANTS = 10_000


def _median_time(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _room(tables: int, seats: int) -> dict[int, list[SeatedPlayer]]:
    """The field seated by the real opening draw, as the balancing functions take it."""
    layout = {t: list(range(1, seats + 1)) for t in range(1, tables + 1)}
    draw = initial_seating([f"p{i}" for i in range(ENTRANTS)], layout, SeededRandom("bench"))
    room: dict[int, list[SeatedPlayer]] = {t: [] for t in layout}
    for player, seat in draw.seating.items():
        room[seat.table].append(SeatedPlayer(player, seat.seat))
    return room


def run() -> dict[str, Any]:
    entrants = [f"p{i}" for i in range(ENTRANTS)]
    figures: dict[str, Any] = {}
    for tables, seats in ((1_000, 10), (1_112, 9)):
        layout = {t: list(range(1, seats + 1)) for t in range(1, tables + 1)}

        def seat(layout: dict[int, list[int]] = layout) -> Any:
            return initial_seating(entrants, layout, SeededRandom("bench"))

        figures[f"initial_seating_{ENTRANTS}_over_{tables}_tables_ms"] = _median_time(seat, 5)
    layout = {t: list(range(1, 10)) for t in range(1, 1_113)}
    record = initial_seating(entrants, layout, SeededRandom("bench")).to_dict()
    figures["initial_seating_record_and_verify_ms"] = _median_time(lambda: verify(record), 3)

    room = _room(1_112, 9)
    buttons = {t: random.Random(t).randint(1, 9) for t in room}
    # Down to 9,999 players the last table breaks (TDA 10): its nine take the seat cards chosen
    # across the other 1,111 tables, then the double-blind draw.
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
    figures["break_table_verify_ms"] = _median_time(lambda: verify(draw.to_dict()), 200)

    # The balancing check after an elimination at a table already one short: 9 against 7.
    room = _room(1_112, 9)
    short = min(room, key=lambda t: len(room[t]))
    after = {**room, short: room[short][1:]}
    figures["balance_tables"] = len(after)
    for name, game, policy in (
        ("flop_tda", Game.FLOP, BalancePolicy.TDA),
        ("flop_keep_position", Game.FLOP, BalancePolicy.KEEP_POSITION),
        ("stud", Game.STUD, BalancePolicy.TDA),
    ):
        moves = balance(after, seats=9, buttons=buttons, game=game, policy=policy)
        figures[f"balance_{name}_moves"] = len(moves)
        figures[f"balance_{name}_ms"] = _median_time(
            functools.partial(balance, after, seats=9, buttons=buttons, game=game, policy=policy),
            20,
        )
    balanced = {t: players for t, players in room.items() if len(players) == 9}
    figures["balance_already_balanced_ms"] = _median_time(
        lambda: balance(balanced, seats=9, buttons=buttons), 20
    )
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:44} {value:12.4f}" if isinstance(value, float) else f"{key:44} {value!s:>12}")
