"""``make bench``: every benchmark of the project in one run, side by side, as one table.

Prints the figures and writes them to ``bench-results/<timestamp>.json`` and
``bench-results/latest.md``. Each ``bench/bench_*.py`` module has a ``run() -> dict``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MODULES = ("bench_engine", "bench_draws", "bench_search", "bench_tournaments", "bench_web")


def main() -> int:
    results: dict[str, dict[str, float]] = {}
    for name in MODULES:
        if not (ROOT / "bench" / f"{name}.py").exists():
            print(f"!! bench/{name}.py is missing", file=sys.stderr)
            return 1
        started = time.perf_counter()
        # Each benchmark in its own process: its own Django set-up and scratch database, and
        # its own peak memory.
        code = f"import json, bench.{name} as m; print('RESULT ' + json.dumps(m.run()))"
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
        )
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
        if done.returncode or not lines:
            print(done.stdout[-2000:], done.stderr[-4000:], file=sys.stderr)
            print(f"!! bench/{name}.py failed", file=sys.stderr)
            return 1
        results[name] = json.loads(lines[-1].removeprefix("RESULT "))
        print(f"== {name} ({time.perf_counter() - started:.1f} s)")
        for key, value in results[name].items():
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
