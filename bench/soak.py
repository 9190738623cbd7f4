"""``make soak``: the browser shift of ``tests/browser/shift.py`` in a loop for an hour on the
production stack, then a report.

    .venv/bin/python bench/soak.py [--minutes 60] [--port 8790] [--level-seconds 30]

The stack is the README's production one: ``DJANGO_DEBUG=false`` settings, ``collectstatic``
and WhiteNoise, gunicorn with 2 sync workers, a Celery worker over Redis, PostgreSQL. It runs
over plain http on loopback with ``DJANGO_SECURE_SSL_REDIRECT=false``; the cookies stay
``Secure`` (Chromium keeps them for http://127.0.0.1). The database at ``SOAK_DATABASE_URL``
(default ``postgres://postgres@127.0.0.1:5432/cardroom_soak``) is dropped and made afresh and
migrated; the broker is ``SOAK_BROKER_URL`` (default ``redis://127.0.0.1:6379/9``), purged.

The six pages stay open the whole run (floor, two desks, a director, the clock, the room
display). Each round:
a full hand at each desk, a ruling, an elimination and whatever balancing it calls for, the
clock's level. A change a page does not show in time is an error and the shift goes on; a
round that breaks (a desk cannot act) is an error, its hands are voided, the desks reload.

The report (printed, and written to ``bench-results/soak-<time>.md``): requests, errors (any
4xx/5xx, console errors, page errors, failed requests, changes not shown within one poll),
poll URL length at the start and the end (must not grow), JS heap per page and gunicorn
worker RSS at the start and the end, and the poll latency from change to appearance
(p50/p95/p99). Exit status 1 on any error or any growth of a poll URL.

What it times is checked as it goes: each change is waited for until every page that shows it
does (the latency is that wait; a change not shown in time is an error), and every answer of
every page is recorded, a 4xx or 5xx being an error. The stack it starts is checked first
(``bench.harness.expect``: the log-in page and the public board answer with themselves).
``--quick`` (``BENCH_QUICK=1``): the warm round alone, with 10-second levels.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import stack
from bench.harness import expect, set_quick, sized
from tests.browser.shift import CASH_TABLES, CHROMIUM_ARGS, Record, Shift, seed

SAMPLE_EVERY = 300  # seconds between memory samples


def processes(procs: list[Any]) -> dict[int, str]:
    """gunicorn's workers (under its master) and the Celery worker with its pool process."""
    found = {pid: f"gunicorn worker {i}" for i, pid in enumerate(stack.children(procs[0].pid), 1)}
    found[procs[1].pid] = "celery worker"
    found.update({pid: "celery pool process" for pid in stack.children(procs[1].pid)})
    return found


def rss(procs: dict[int, str]) -> dict[str, float | None]:
    return {name: stack.rss_mb(pid) for pid, name in procs.items()}


def void_live_hands() -> int:
    """After a broken round: call the hands left in progress dead, so the desks deal afresh."""
    from django.contrib.auth.models import User

    from cardroom.tables.models import Hand, HandStatus
    from cardroom.tables.services import void_hand

    manager = User.objects.get(username="shift-manager")
    live = Hand.objects.filter(table__number__in=CASH_TABLES, state=HandStatus.IN_PROGRESS)
    for hand in live:
        void_hand(hand=hand, by=manager, expected_seq=hand.seq, reason="soak: round broke")
    return len(live)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, help="default 60 (quick: 0, one round)")
    parser.add_argument("--port", type=int, default=8790)
    parser.add_argument("--level-seconds", type=int, help="default 30 (quick: 10)")
    parser.add_argument("--quick", action="store_true", help="one round, 10-second levels")
    args = parser.parse_args()
    if args.quick:
        set_quick()
    args.minutes = sized(60.0, 0.0) if args.minutes is None else args.minutes
    args.level_seconds = args.level_seconds or sized(30, 10)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    database = os.environ.get(
        "SOAK_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cardroom_soak"
    )
    broker = os.environ.get("SOAK_BROKER_URL", "redis://127.0.0.1:6379/9")
    if why := stack.fresh_postgres_database(database):
        print(f"soak: {why}", file=sys.stderr)
        return 2
    env = stack.production_env("soak", DATABASE_URL=database, CELERY_BROKER_URL=broker)
    os.environ.update(env)
    # Playwright's sync API runs an event loop in this thread; the ORM reads here are safe.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    stack.django_setup()
    from django.core.management import call_command
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    from cardroom.celery import app as celery_app

    started_at = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(f"soak: migrating a fresh database ({database.rsplit('/', 1)[-1]}), collectstatic")
    call_command("migrate", verbosity=0)
    stack.collectstatic(env)
    celery_app.control.purge()
    tournament = seed(level_seconds=args.level_seconds)
    record = Record()
    base = f"http://127.0.0.1:{args.port}"
    with stack.running(env, args.port) as procs:
        probe = stack.Client(args.port)
        for path, piece in (("/login/", 'name="password"'), ("/board/", 'id="board-live"')):
            status, raw = probe.request("GET", path, headers={"Accept": "text/html"})
            expect(f"GET {path}", status, raw, contains=piece)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            shift = Shift(browser, base, tournament, record, strict=False)
            shift.open()
            print(f"soak: {base} up, six pages open; {args.minutes:g} minutes, a line every 5")

            def play_round() -> None:
                try:
                    shift.round(args.level_seconds)
                except (AssertionError, PlaywrightError) as error:
                    record.error("shift", f"round {record.counts['rounds'] + 1} broke: {error}")
                    record.counts["rounds broken"] += 1
                    void_live_hands()
                    for name in ("desk 1", "desk 2", "director"):
                        shift.pages[name].reload()

            try:
                play_round()  # warm: every page and process has done everything once
                workers = processes(procs)
                heap_start, rss_start = shift.sample_memory(), rss(workers)
                begun = time.monotonic()
                deadline, next_sample = begun + args.minutes * 60, begun + SAMPLE_EVERY
                while time.monotonic() < deadline:
                    play_round()
                    if time.monotonic() >= next_sample:
                        next_sample += SAMPLE_EVERY
                        heap = shift.sample_memory()
                        print(
                            f"soak: {(time.monotonic() - begun) / 60:.0f} min, "
                            f"{record.counts['rounds']} rounds, {record.requests} requests, "
                            f"{len(record.errors)} errors; heap MB "
                            + ", ".join(f"{k} {v:.1f}" for k, v in heap.items())
                        )
                heap_end = shift.sample_memory()
            finally:
                shift.close()
                browser.close()
        rss_end = rss(workers)
        restarted = sorted(set(stack.children(procs[0].pid)) - set(workers))
    elapsed = (time.monotonic() - begun) / 60
    return report(args, started_at, elapsed, record, heap_start, heap_end, rss_start, rss_end, restarted)  # fmt: skip


def report(
    args: Any,
    started_at: str,
    minutes: float,
    record: Record,
    heap_start: dict[str, float],
    heap_end: dict[str, float],
    rss_start: dict[str, float | None],
    rss_end: dict[str, float | None],
    restarted: list[int],
) -> int:
    grew = {
        page: (lengths[0], max(lengths))
        for page, lengths in record.poll_urls.items()
        if lengths and page in ("floor", "clock", "room display") and max(lengths) > lengths[0]
    }
    lines = [
        f"# Soak {started_at}",
        "",
        f"{minutes:.1f} minutes of the browser shift (`tests/browser/shift.py`), "
        f"levels of {args.level_seconds} s. Stack: gunicorn `cardroom.wsgi -w 2` with "
        "`DJANGO_DEBUG=false` (production settings, collectstatic + WhiteNoise), "
        "`DJANGO_SECURE_SSL_REDIRECT=false` on plain http over loopback (cookies still Secure), "
        "a Celery worker over Redis, PostgreSQL (a fresh database). Headless Chromium, six "
        "contexts: floor (staff), desk 1 (floor manager), desk 2 (director), director "
        "(rulings, tournament), clock and room display (staff).",
        "",
        *record.report(),
        "",
        "| process | RSS at start (MB) | at end (MB) |",
        "|---|---|---|",
        *(f"| {name} | {mb(rss_start[name])} | {mb(rss_end.get(name))} |" for name in rss_start),
        "",
        "JS heap growth (MB, first to last sample after GC): "
        + ", ".join(f"{k} {heap_end[k] - heap_start[k]:+.1f}" for k in heap_start),
        "Poll URL growth: "
        + (", ".join(f"{p} {a} -> {b}" for p, (a, b) in grew.items()) or "none"),
        "gunicorn workers restarted: " + (", ".join(map(str, restarted)) or "none"),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    out = stack.ROOT / "bench-results"
    out.mkdir(exist_ok=True)
    path = out / f"soak-{time.strftime('%Y%m%d-%H%M%S')}.md"
    path.write_text(text)
    print(f"soak: report written to {path.relative_to(stack.ROOT)}")
    return 1 if record.errors or grew or restarted else 0


def mb(value: float | None) -> str:
    return "gone" if value is None else f"{value:.0f}"


if __name__ == "__main__":
    raise SystemExit(main())
