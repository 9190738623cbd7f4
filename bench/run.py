"""``make bench``: every benchmark of the project in one run, side by side, as one table.

Prints the figures and writes them to ``bench-results/<timestamp>.json`` and
``bench-results/latest.md``. Each ``bench/bench_*.py`` module has a ``run() -> dict``.

The rulebook search runs on both backends: SQLite FTS5 (a scratch file) and PostgreSQL full
text (a scratch database, dropped and made afresh, at ``BENCH_POSTGRES_URL``, default
``postgres://postgres@127.0.0.1:5432/cardroom_bench``; reported as skipped when unreachable).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
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
)


def environment(changes: dict[str, str | None]) -> dict[str, str]:
    env = dict(os.environ)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def main() -> int:
    results: dict[str, dict[str, Any]] = {}
    for label, name, changes in RUNS:
        if not (ROOT / "bench" / f"{name}.py").exists():
            print(f"!! bench/{name}.py is missing", file=sys.stderr)
            return 1
        if changes is POSTGRES and (why := fresh_postgres_database(POSTGRES_URL)):
            results[label] = {"skipped": why}
            print(f"== {label} skipped: {why}")
            continue
        started = time.perf_counter()
        # Each benchmark in its own process: its own Django set-up and scratch database, and
        # its own peak memory.
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
            print(done.stdout[-2000:], done.stderr[-4000:], file=sys.stderr)
            print(f"!! bench/{name}.py failed", file=sys.stderr)
            return 1
        results[label] = json.loads(lines[-1].removeprefix("RESULT "))
        print(f"== {label} ({time.perf_counter() - started:.1f} s)")
        # A benchmark with a table of its own (bench_engine: the engines side by side, and
        # what each does inside the clock) prints it before its figures.
        for line in done.stdout.splitlines():
            if line.startswith("TABLE "):
                print("   " + line.removeprefix("TABLE "))
        for key, value in results[label].items():
            print(
                f"   {key:44} {value:14.3f}"
                if isinstance(value, float)
                else f"   {key:44} {value!s:>14}"
            )
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
