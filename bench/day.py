"""``make day``: a WSOP-sized day on this machine, end to end, with a census.

    CARDROOM_UV_GROUPS="--group bench" bin/setup --test && .venv/bin/python bench/day.py

1. Builds the day (``bench/day_build.py``) into a scratch PostgreSQL database, dropped and made
   afresh: ``BENCH_DAY_URL`` (default ``postgres://postgres@127.0.0.1:5432/cardroom_day``).
   Default: 50 tables in play, 715 entrants (the full day's 10,000 to 700 tables), the seats
   filled by the draw and the rest on the alternate list; ``--full``: 700 tables, 10,000.
2. The census (``bench/day_census.py``): CPU (this thread + its PostgreSQL backend) and
   queries per request of each family, in this process with the production settings, and the
   cores the WSOP mix needs at those costs.
3. The load (``bench/day_load.py``): gunicorn (2 sync workers, production settings) and a
   Celery worker with its beat (``bench/stack.py``), driven by the mix scaled to the tables
   for ``--seconds`` (default 60; ``--full`` 600): per family the count, p50/p95/p99 and errors
   by status, and the CPU seconds of gunicorn (master and workers), Celery and PostgreSQL
   (every postgres process on the machine, reaped backends included: another database's
   work on the same server counts too) over the run, and the cores they used.

``--nginx``: the load goes through nginx to two gunicorn instances (``bench/day_nginx.py``),
and the run says how many requests each instance answered. ``--census-only`` stops after the
census. ``--quick`` (``BENCH_QUICK=1``): 4 tables, 15
seconds of load; ``tests/test_benchmarks.py`` runs it. Exits 1 on any wrong answer or error.

The figures were measured on the project's 2-core machine shared with other work: the CPU
figures (thread time, /proc) hold; the latencies are wall-clock and noisy there.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import stack
from bench.harness import WrongAnswer, set_quick, sized

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/cardroom_day"
MANIFEST = stack.ROOT / "var" / "day" / "manifest.json"
#: The full day: tables in play and entrants; the default keeps the ratio.
FULL = (700, 10_000)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--full", action="store_true", help="700 tables, 10,000 entrants, 600 s")
    parser.add_argument("--tables", type=int, help="tables in play (default 50; --full 700)")
    parser.add_argument("--seconds", type=int, help="the load's length (default 60; --full 600)")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--nginx", action="store_true", help="two gunicorns behind nginx")
    parser.add_argument("--census-only", action="store_true", help="build and census, no load")
    parser.add_argument("--quick", action="store_true", help="4 tables, a few seconds")
    args = parser.parse_args()
    if args.quick:
        set_quick()
    args.tables = args.tables or (FULL[0] if args.full else sized(50, 4))
    if not 2 <= args.tables <= 2000:
        parser.error("--tables: 2 to 2000")
    args.entrants = round(args.tables * FULL[1] / FULL[0])
    args.seconds = args.seconds or (600 if args.full else sized(60, 15))
    return args


@contextmanager
def production(
    env: dict[str, str], port: int, nginx: bool
) -> Iterator[tuple[dict[str, list[int]], Callable[[], str]]]:
    """The stack on ``port`` for the block: its processes by group, and what says which
    instance answered (nothing without nginx)."""
    from bench import day_nginx

    if nginx:
        with day_nginx.running(env, port) as (groups, log):

            def answered() -> str:
                counts = sorted(day_nginx.answered_by(log).items())
                return "answered by: " + ", ".join(f"{who} {n}" for who, n in counts)

            yield groups, answered
    else:
        with stack.running(env, port) as procs:
            yield {"gunicorn": [procs[0].pid], "celery": [procs[1].pid]}, lambda: ""


def load(manifest: dict[str, Any], env: dict[str, str], args: argparse.Namespace) -> bool:
    """The mix on the production stack for ``--seconds``: prints its table; whether it was
    clean."""
    from bench import day_load

    with production(env, args.port, args.nginx) as (groups, answered):
        before = day_load.cpu_ticks(groups)
        started = time.perf_counter()
        base = f"http://127.0.0.1:{args.port}"
        record = asyncio.run(day_load.drive(manifest, base, args.seconds))
        wall = time.perf_counter() - started
        after = day_load.cpu_ticks(groups)
        served = answered()
    tick = os.sysconf("SC_CLK_TCK")
    cpu = {name: (after[name] - before[name]) / tick for name in after}
    text, clean = day_load.report(record, args.seconds, wall, cpu)
    through = "nginx and two gunicorn instances" if args.nginx else "gunicorn"
    print(
        f"load: {args.seconds} s of the mix at {manifest['tables']} tables through {through}"
        f" ({wall:.0f} s wall)\n{text}" + (f"\n{served}" if served else ""),
        flush=True,
    )
    return clean


def main() -> int:
    args = arguments()
    url = os.environ.get("BENCH_DAY_URL", DEFAULT_URL)
    if why := stack.fresh_postgres_database(url):
        print(f"make day needs PostgreSQL: {why}", file=sys.stderr)
        return 2
    env = stack.production_env(
        "make-day", DATABASE_URL=url, DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost,testserver"
    )
    os.environ.update(env)
    stack.collectstatic(env)  # the pages' static URLs come from its manifest
    stack.django_setup()
    from django.core.management import call_command

    from bench import day_build, day_census

    call_command("migrate", verbosity=0)
    manifest = day_build.build(args.tables, args.entrants, sessions=3)
    print(
        f"built {args.tables} tables, {args.entrants} entrants in {manifest['build_s']} s: "
        f"{manifest['registered']}",
        flush=True,
    )
    try:
        census = day_census.run(manifest)
    except WrongAnswer as wrong:
        print(f"!! census: {wrong}", file=sys.stderr)
        return 1
    print(day_census.table(manifest, census), flush=True)
    day_build.write(manifest, MANIFEST)  # with the hands the census dealt
    if args.census_only:
        return 0
    from django.db import connections

    from bench.day_load import stagger

    stagger(manifest)
    connections.close_all()
    return 0 if load(manifest, env, args) else 1


if __name__ == "__main__":
    raise SystemExit(main())
