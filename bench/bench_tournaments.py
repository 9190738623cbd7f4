"""Tournament figures through the services and the database: 10,000 entrants on 1,112 tables.

The opening draw (commit, deal, write every seat and move), breaking a table with the
double-blind draw, and the balancing check after an elimination; times in milliseconds and
the queries each makes. The same steps on a field ten times smaller show which query counts
grow with the field (the bulk inserts of the opening draw, in batches) and which do not.

Goals: the draw under 2 s, a break and a balance under 50 ms each.
Runs against the configured database (``DATABASE_URL``; a scratch SQLite file otherwise).
What each timed step did is checked (``bench.harness.expect_that``): every entrant seated,
every draw verified, a table to break found and broken, a balancing move found and made.
``BENCH_QUICK=1``: 199 entrants on 23 tables, then 100 on 12.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
if "DATABASE_URL" not in os.environ:  # a fresh scratch database each run
    (ROOT / "var" / "bench.sqlite3").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = "sqlite:///var/bench.sqlite3"

from bench.harness import expect_that, sized  # noqa: E402


def fields() -> tuple[tuple[int, int, str], ...]:
    """(entrants, tables, label): one more entrant than eight-ninths of the seats' multiple of
    nine, so the first bust leaves a table to break into the seats left at the others."""
    return sized(((10_000, 1_112, "10k"), (1_000, 112, "1k")), ((199, 23, "199"), (100, 12, "100")))


def _setup() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _measure(work: Callable[[], Any]) -> tuple[Any, float, int]:
    """Run ``work`` once: its result, the time in ms and the number of queries. Garbage from
    the set-up (a 10,000-player field, megabytes of draw records) is collected first, so an
    operation is not charged for a full collection of the bench's own heap."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    gc.collect()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        result = work()
        elapsed = (time.perf_counter() - started) * 1000
    return result, elapsed, len(queries.captured_queries)


def _field(entrants: int, tables: int, first_table: int) -> tuple[Any, Any]:
    from django.contrib.auth.models import User

    from cardroom.tables.choices import TableKind
    from cardroom.tables.models import Table
    from tournaments.setup import create_tournament, register_entrants

    director, _ = User.objects.get_or_create(username="bench-director")
    rooms = Table.objects.bulk_create(
        Table(number=first_table + i, kind=TableKind.TOURNAMENT, status="open", seats=9)
        for i in range(tables)
    )
    tournament = create_tournament(
        by=director,
        name=f"Bench {entrants}",
        tables=rooms,
        levels=[{"small_blind": 100, "big_blind": 200, "minutes": 20}],
    )
    register_entrants(
        tournament=tournament, names=[f"Player {i}" for i in range(entrants)], by=director
    )
    return tournament, director


def _players_at(tournament: Any, table: int) -> list[Any]:
    from tournaments.models import SeatAssignment

    return [
        a.entrant
        for a in SeatAssignment.objects.filter(
            tournament=tournament, table__number=table, ended_at__isnull=True
        ).select_related("entrant")
    ]


def _bench_field(entrants: int, tables: int, label: str, first_table: int) -> dict[str, Any]:
    from django.db import transaction

    from tournaments import balance_checks, draw_services
    from tournaments.models import SeatAssignment

    figures: dict[str, Any] = {}
    tournament, director = _field(entrants, tables, first_table)
    # The balancing check is a Celery task queued on commit; it is measured on its own below.
    with transaction.atomic():
        draw, ms, queries = _measure(
            lambda: draw_services.draw_initial_seating(tournament=tournament, by=director)
        )
    seated = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True).count()
    expect_that(f"{label}: the opening draw seats every entrant", seated == entrants, seated)
    figures[f"{label}_initial_draw_ms"] = ms
    figures[f"{label}_initial_draw_queries"] = queries
    verified, ms, _ = _measure(lambda: draw_services.verify_draw(draw))
    expect_that(f"{label}: the opening draw verifies", verified.ok, verified)
    figures[f"{label}_initial_draw_verify_ms"] = ms

    # 9,999 left fit 1,111 tables: the check after this elimination says which table breaks.
    check = _eliminate_and_check(tournament, director, label, "first", figures)
    figures[f"{label}_first_check_tables_to_break"] = len(check.tables_to_break)
    expect_that(f"{label}: the first check breaks a table", bool(check.tables_to_break), check)
    if check.tables_to_break:
        table = tournament.tables.get(number=check.tables_to_break[0])
        with transaction.atomic():
            draw, ms, queries = _measure(
                lambda: draw_services.break_table(table=table, by=director)
            )
        moved = len(draw.result["result"])
        expect_that(f"{label}: the break moves the table's players", moved > 0, draw.result)
        figures[f"{label}_break_table_players"] = moved
        figures[f"{label}_break_table_ms"] = ms
        figures[f"{label}_break_table_queries"] = queries
        verified, ms, _ = _measure(lambda: draw_services.verify_draw(draw))
        expect_that(f"{label}: the break's draw verifies", verified.ok, verified)
        figures[f"{label}_break_table_verify_ms"] = ms
    # A bust after the break leaves the tables within one (nothing to do); another at that
    # table, already one short, makes 9 against 7: one balancing move (TDA 11-A).
    check = _eliminate_and_check(tournament, director, label, "second", figures)
    figures[f"{label}_second_check_moves"] = len(check.moves)
    check = _eliminate_and_check(tournament, director, label, "third", figures)
    figures[f"{label}_third_check_moves"] = len(check.moves)
    expect_that(f"{label}: 9 against 7 calls for a balancing move", bool(check.moves), check)
    if check.moves:
        with transaction.atomic():
            applied, ms, queries = _measure(
                lambda: balance_checks.apply_balance(check=check, by=director)
            )
        expect_that(f"{label}: the balancing move is made", bool(applied), applied)
        figures[f"{label}_balance_apply_ms"] = ms
        figures[f"{label}_balance_apply_queries"] = queries
    return figures


def _eliminate_and_check(
    tournament: Any, director: Any, label: str, which: str, figures: dict[str, Any]
) -> Any:
    """Bust a player at the shortest table (the task's check is measured on its own)."""
    from django.db import transaction

    from tournaments import balance_checks, eliminations, seating
    from tournaments.models import Entrant

    counts = seating.table_counts(tournament)
    short = min(counts, key=lambda t: (counts[t], t))
    victim = _players_at(tournament, short)[0]
    # The desk's last hand took the victim's chips (a player holding chips is not put out).
    Entrant.objects.filter(pk=victim.pk).update(chips=0)
    with transaction.atomic():
        _, ms, queries = _measure(
            lambda: eliminations.eliminate_player(entrant=victim, by=director)
        )
        transaction.on_commit(lambda: None)
    figures[f"{label}_{which}_eliminate_ms"] = ms
    figures[f"{label}_{which}_eliminate_queries"] = queries
    # The check only records what it finds: run it a few times, report the median.
    runs = [
        _measure(lambda: balance_checks.check_balance(tournament_id=tournament.pk))
        for _ in range(5)
    ]
    check, _, queries = runs[-1]
    figures[f"{label}_{which}_balance_check_ms"] = statistics.median(ms for _, ms, _ in runs)
    figures[f"{label}_{which}_balance_check_queries"] = queries
    return check


def run() -> dict[str, Any]:
    _setup()
    figures: dict[str, Any] = {}
    for i, (entrants, tables, label) in enumerate(fields()):
        figures.update(_bench_field(entrants, tables, label, first_table=10_000 * (i + 1)))
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:44} {value:12.1f}" if isinstance(value, float) else f"{key:44} {value!s:>12}")
