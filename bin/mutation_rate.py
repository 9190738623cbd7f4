"""Print the survival rate of the last ``mutmut run`` (``make mutation``), per package and in all.

A mutant that survives, or that no test reaches, counts against the tests; one killed or timed
out counts for them. Survivors are listed by name (``mutmut show NAME`` prints the change);
docs/mutation.md explains each one left. Exit status 1 when the engine's rate is 5% or more
(the goal is under 5%), so the target can gate a build.

Run from the project root, after ``mutmut run``: ``.venv/bin/python bin/mutation_rate.py``.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

MUTMUT = str(Path(sys.executable).with_name("mutmut"))
GROUPS = {"rules.engine": "rules/engine", "tournaments.draws": "tournaments/draws*"}
#: Statuses that count against the tests; every other checked status counts for them.
AGAINST = {"survived", "no tests"}
UNCHECKED = {"not checked", "skipped", "check was interrupted by user"}
GOAL = 5.0  # per cent, for the engine


def results() -> list[tuple[str, str]]:
    command = [MUTMUT, "results", "--all", "true"]  # a fixed command: no outside input
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout  # noqa: S603
    rows = []
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            rows.append((name, status))
    return rows


def group_of(name: str) -> str:
    return next((g for g in GROUPS if name.startswith(f"{g}.")), "other")


def rate(counts: Counter[str]) -> tuple[int, int, float]:
    checked = sum(n for status, n in counts.items() if status not in UNCHECKED)
    against = sum(counts[status] for status in AGAINST)
    return checked, against, 100.0 * against / checked if checked else 0.0


def main() -> int:
    rows = results()
    if not rows:
        print("No mutation results: run `make mutation` (mutmut run) first.")
        return 1
    by_group: dict[str, Counter[str]] = defaultdict(Counter)
    survivors: dict[str, list[str]] = defaultdict(list)
    for name, status in rows:
        by_group[group_of(name)][status] += 1
        by_group["all"][status] += 1
        if status in AGAINST:
            survivors[group_of(name)].append(f"{name} ({status})")
    print(f"{'package':<20} {'mutants':>8} {'killed':>7} {'survived':>9} {'rate':>7}")
    for group in [*GROUPS, "other", "all"]:
        counts = by_group.get(group)
        if not counts:
            continue
        checked, against, percent = rate(counts)
        killed = checked - against
        print(f"{group:<20} {checked:>8} {killed:>7} {against:>9} {percent:>6.1f}%")
        unchecked = sum(counts[s] for s in UNCHECKED)
        if unchecked:
            print(f"{'':<20} ({unchecked} not checked yet: the run was stopped early)")
    for group, names in sorted(survivors.items()):
        print(f"\nSurvivors in {group} ({len(names)}):")
        for name in sorted(names):
            print(f"  {name}")
    engine = rate(by_group.get("rules.engine", Counter()))[2]
    print(f"\nEngine survival rate {engine:.1f}% (goal: under {GOAL:.0f}%).")
    return 0 if engine < GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
