"""``make bench``: every benchmark of the project in one run, side by side, as one table.

Prints the figures and writes them to ``bench-results/<timestamp>.json`` and
``bench-results/latest.md``. Each ``bench/bench_*.py`` module has a ``run() -> dict``.

The rulebook search runs on both backends: SQLite FTS5 (a scratch file) and PostgreSQL full
text (a scratch database, dropped and made afresh, at ``BENCH_POSTGRES_URL``, default
``postgres://postgres@127.0.0.1:5432/cardroom_bench``; reported as skipped when unreachable).
The tournament's lock waits (``bench_locks``) run on PostgreSQL only: SQLite has no row locks.

Every benchmark checks each answer it times (``bench/harness.py``): a wrong one stops it, and
the run, with the benchmark's message. ``--quick`` (``BENCH_QUICK=1``): every benchmark at
small sizes, a few iterations, figures printed and not written; ``tests/test_benchmarks.py``
runs each benchmark this way. ``--only LABEL`` (repeatable): only those runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.harness import quick, set_quick
from bench.stack import ROOT, fresh_postgres_database

POSTGRES_URL = os.environ.get(
    "BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/cardroom_bench"
)
SQLITE: dict[str, str | None] = {"DATABASE_URL": None}
POSTGRES: dict[str, str | None] = {"DATABASE_URL": POSTGRES_URL}
#: (label, module, environment changes): each runs in its own process.
RUNS: tuple[tuple[str, str, dict[str, str | None]], ...] = (
    ("bench_engine", "bench_engine", {}),
    ("bench_draws", "bench_draws", {}),
    ("bench_search", "bench_search", SQLITE),
    ("bench_search_postgres", "bench_search", POSTGRES),
    ("bench_tournaments", "bench_tournaments", {}),
    ("bench_web", "bench_web", {}),
    ("bench_desk", "bench_desk", {}),
    ("bench_waitlists", "bench_waitlists", {}),
    ("bench_screens", "bench_screens", {}),
    ("bench_floor", "bench_floor", {}),
    ("bench_locks", "bench_locks", POSTGRES),
)


def environment(changes: dict[str, str | None]) -> dict[str, str]:
    env = dict(os.environ)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


class BenchmarkFailed(Exception):
    """A benchmark's process failed: its message says which, with the end of its output."""


def run_benchmark(name: str, changes: dict[str, str | None]) -> tuple[dict[str, Any], list[str]]:
    """``bench/<name>.py``'s ``run()`` in a process of its own (its own Django set-up, scratch
    database and peak memory), with ``changes`` to the environment: its figures and the lines of
    its own table (bench_engine: the engines side by side, and what each does inside the
    clock). ``BenchmarkFailed`` when it fails, a wrong answer included."""
    if not (ROOT / "bench" / f"{name}.py").exists():
        raise BenchmarkFailed(f"bench/{name}.py is missing")
    code = (
        f"import json, bench.{name} as m; r = m.run(); t = getattr(m, 'table', None)\n"
        "for line in (t(r).splitlines() if t else ()): print('TABLE ' + line)\n"
        "print('RESULT ' + json.dumps(r))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False,
        env=environment(changes),
    )  # fmt: skip
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    if done.returncode or not lines:
        raise BenchmarkFailed(
            f"{done.stdout[-2000:]}\n{done.stderr[-4000:]}\nbench/{name}.py failed"
            f" (exit {done.returncode})"
        )
    table = [
        ln.removeprefix("TABLE ") for ln in done.stdout.splitlines() if ln.startswith("TABLE ")
    ]
    return json.loads(lines[-1].removeprefix("RESULT ")), table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="small sizes, few iterations")
    parser.add_argument("--only", action="append", metavar="LABEL", help="run only LABEL")
    args = parser.parse_args(argv)
    if args.quick:
        set_quick()  # for every benchmark's process too
    labels = [label for label, _, _ in RUNS]
    if unknown := set(args.only or ()) - set(labels):
        parser.error(f"no benchmark {', '.join(sorted(unknown))}; they are {', '.join(labels)}")
    results: dict[str, dict[str, Any]] = {}
    for label, name, changes in RUNS:
        if args.only and label not in args.only:
            continue
        if changes is POSTGRES and (why := fresh_postgres_database(POSTGRES_URL)):
            results[label] = {"skipped": why}
            print(f"== {label} skipped: {why}")
            continue
        started = time.perf_counter()
        try:
            results[label], table = run_benchmark(name, changes)
        except BenchmarkFailed as failed:
            print(f"!! {failed}", file=sys.stderr)
            return 1
        print(f"== {label} ({time.perf_counter() - started:.1f} s)")
        for line in table:
            print("   " + line)
        for key, value in results[label].items():
            print(
                f"   {key:44} {value:14.3f}"
                if isinstance(value, float)
                else f"   {key:44} {value!s:>14}"
            )
    if quick():
        print("\nQuick run: the figures are not written to bench-results/.")
        return 0
    out = ROOT / "bench-results"
    out.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (out / f"{stamp}.json").write_text(json.dumps(results, indent=2))
    lines = ["| benchmark | figure | value |", "|---|---|---|"]
    for name, figures in results.items():
        lines += [
            f"| {name} | {key} | {value:.3f} |"
            if isinstance(value, float)
            else f"| {name} | {key} | {value} |"
            for key, value in figures.items()
        ]
    (out / "latest.md").write_text("\n".join(lines) + "\n")
    print(f"\nWritten to bench-results/{stamp}.json and bench-results/latest.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
