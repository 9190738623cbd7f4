"""The public board under a room's worth of phones: 1,000 simulated viewers polling it every
5 s on the production stack, with its cache and ETags and then without, side by side.

    make board-load        # or: .venv/bin/python bench/board_load.py [--seconds 50]

Stack: gunicorn (2 sync workers, ``DJANGO_DEBUG=false``, WhiteNoise after ``collectstatic``)
against PostgreSQL (``BOARD_LOAD_DATABASE_URL``, default the scratch database ``board_load``,
made afresh) and Redis (``BOARD_LOAD_REDIS_URL``, default db 7, emptied first: with a broker
configured the board's shared cache is Redis, the alias the public rate limits use). Seeded
with the demo data, seat maps at the five demo cash tables, four waitlists (one for a game not
running) and the demo tournament's clock running.

Each viewer loads ``/board/`` once, then polls ``/board/live/`` every 5 s as the page's script
does (``If-None-Match`` with the last ETag), starting at a random moment in the first 5 s:
about 200 requests a second. Meanwhile a writer (this process, through the seat-map and
waitlist services) seats or unseats a player every 3 s and adds someone to a list every fourth
time. Printed per side: requests, p50/p95/p99 latency, 200 vs 304, errors, how long a change
took to reach the first viewer, and the CPU seconds of gunicorn's master and workers
(``/proc/<pid>/stat``) over the run, with CPU % of one core.

The uncached side runs the same gunicorn with ``bench/board_settings_uncached.py``
(``CARDROOM_BOARD_CACHE = False``): every poll builds the board and answers it in full.

Every answer is checked (``bench.harness.expect``): the page a 200 with the board, each poll a
200 with the live board's sections or a 304 for the ETag sent. A wrong answer (a log-in page,
an error) is counted apart from the timings; any, or a side that answered nothing, makes the
exit status 1 with the first one printed. ``--quick`` (``BENCH_QUICK=1``): 20 viewers polling
every second for 3 s a side, a change a second, a few hundred in-process requests.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import stack
from bench.harness import WrongAnswer, expect, set_quick, sized

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/board_load"
DEFAULT_REDIS = "redis://127.0.0.1:6379/7"
CLK_TCK = os.sysconf("SC_CLK_TCK")
#: A poll with no answer this long counts as an error.
TIMEOUT = 10.0
#: What the page and a full poll's answer hold: the board, not a log-in page or an error.
PAGE = 'id="board-live"'
LIVE = 'id="board-cash-title"'


# --- the room ---------------------------------------------------------------------------------


def seed() -> dict[str, Any]:
    """Demo data, seat maps at the open cash tables, four lists, the tournament clock running."""
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from cardroom.seats.services import find_or_create_player, seat_player
    from cardroom.tables.models import Table
    from cardroom.waitlists import services as waitlists
    from tournaments.clock.services import start_clock
    from tournaments.models import ClockState, Tournament

    call_command("migrate", verbosity=0)
    call_command("demo_data", verbosity=0)
    manager = User.objects.get(username="manager")
    director = User.objects.get(username="director")
    rng = random.Random(20)
    tables = list(Table.objects.filter(kind="cash", status="open").order_by("number"))
    for table in tables:
        for seat in range(1, table.seats - rng.randint(0, 2) + 1):
            player = find_or_create_player(name=f"Seated T{table.number}S{seat}", by=manager)
            seat_player(table=table, player=player, seat=seat, buy_in=table.min_buy_in, by=manager)
    games = {(t.variant, t.structure, t.small_blind, t.big_blind) for t in tables}
    games.add(("holdem", "no_limit", 10, 20))  # a game the room wants to start
    lists = []
    for variant, structure, small, big in sorted(games, key=lambda g: (g[3], g[2], g)):
        game_list = waitlists.open_list(
            variant=variant, structure=structure, small_blind=small, big_blind=big, by=manager
        )
        lists.append(game_list)
        for n in range(rng.randint(4, 12)):
            waitlists.add_to_list(
                game_list=game_list, name=f"Waiting {game_list.pk} Player {n}", source="floor",
                by=manager,
            )  # fmt: skip
    tournament = Tournament.objects.get(name="Saturday Deepstack")
    if tournament.clock_state == ClockState.STOPPED:
        start_clock(tournament=tournament, by=director)
    return {"manager": manager, "tables": [t.pk for t in tables], "lists": [gl.pk for gl in lists]}


class Writer(threading.Thread):
    """Seat changes every ``every`` seconds (a player sits down or leaves), a waitlist add every
    fourth change, recording when each was committed."""

    def __init__(self, seeded: dict[str, Any], every: float, side: str) -> None:
        super().__init__(daemon=True)
        self.seeded, self.every, self.side = seeded, every, side
        self.stop = threading.Event()
        self.changes: list[float] = []
        self.failures: list[str] = []

    def run(self) -> None:
        from django.db import connection

        from cardroom.seats.models import TableSeat
        from cardroom.seats.services import find_or_create_player, leave_seat, seat_player
        from cardroom.tables.models import Table
        from cardroom.waitlists import services as waitlists
        from cardroom.waitlists.models import GameList

        rng = random.Random(7)
        by = self.seeded["manager"]
        n = 0
        while not self.stop.wait(self.every):
            n += 1
            try:
                table = Table.objects.get(pk=rng.choice(self.seeded["tables"]))
                live = list(TableSeat.objects.filter(table=table, left_at__isnull=True))
                taken = {s.seat for s in live}
                free = [s for s in range(1, table.seats + 1) if s not in taken]
                if free and (len(live) <= 3 or rng.random() < 0.5):
                    player = find_or_create_player(name=f"Walk-in {self.side} {n}", by=by)
                    seat_player(
                        table=table, player=player, seat=rng.choice(free),
                        buy_in=table.min_buy_in, by=by,
                    )  # fmt: skip
                else:
                    leave_seat(seat=rng.choice(live), by=by)
                if n % 4 == 0:
                    game_list = GameList.objects.get(pk=rng.choice(self.seeded["lists"]))
                    waitlists.add_to_list(
                        game_list=game_list, name=f"Late {self.side} {n}", source="kiosk", by=None
                    )
                self.changes.append(time.time())
            except Exception as exc:  # counted and printed, the run goes on
                self.failures.append(f"{type(exc).__name__}: {exc}")
        connection.close()


# --- the viewers ------------------------------------------------------------------------------


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)  # ms, the live polls
    page_latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    bytes_in: int = 0
    first_seen: dict[str, float] = field(default_factory=dict)  # ETag -> when first received
    wrong: list[str] = field(default_factory=list)  # answers that were not the board


async def get(port: int, path: str, etag: str | None) -> tuple[int, str | None, bytes]:
    """One GET on a fresh connection, as a phone would (gunicorn's sync workers close each
    connection anyway): the status, the ETag, the body. A plain asyncio stream, so
    the load generator costs little CPU beside the server on the same cores."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        conditional = f"If-None-Match: {etag}\r\n" if etag else ""
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\n"
            f"Connection: close\r\n{conditional}\r\n".encode()
        )
        await writer.drain()
        data = await reader.read()
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {
        k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])
    }
    return status, headers.get("etag"), body


async def viewer(port: int, results: Results, interval: float, stop_at: float) -> None:
    await asyncio.sleep(random.uniform(0, interval))
    etag: str | None = None
    path = "/board/"
    while True:
        started = time.perf_counter()
        if started >= stop_at:
            return
        try:
            status, tag, body = await asyncio.wait_for(
                get(port, path, etag if path != "/board/" else None), TIMEOUT
            )
            results.bytes_in += len(body)
        except Exception as exc:  # a refused or timed-out request: an error
            status, tag, body = 599, None, b""
            results.errors[type(exc).__name__] += 1
        ms = (time.perf_counter() - started) * 1000
        try:
            if path == "/board/":
                expect(f"GET {path}", status, body, contains=PAGE)
                results.page_latencies.append(ms)
                path = "/board/live/"
            else:
                results.statuses[status] += 1
                if status != 304:  # a 304 has no body: the board the viewer has is current
                    expect(f"GET {path}", status, body, statuses=(200, 304), contains=LIVE)
                results.latencies.append(ms)
                if status == 200 and tag:
                    etag = tag
                    results.first_seen.setdefault(tag, time.time())
        except WrongAnswer as wrong:
            if status != 599:  # a refused or timed-out request is counted as an error
                results.wrong.append(str(wrong))
        await asyncio.sleep(max(0.0, started + interval - time.perf_counter()))


async def crowd(port: int, viewers: int, interval: float, seconds: float) -> Results:
    results = Results()
    stop_at = time.perf_counter() + seconds
    await asyncio.gather(*(viewer(port, results, interval, stop_at) for _ in range(viewers)))
    return results


# --- measuring --------------------------------------------------------------------------------


def cpu_ticks(pid: int) -> int:
    """User + system CPU ticks of one live process (fields 14 and 15 of /proc/<pid>/stat)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def gunicorn_ticks(master: int) -> dict[int, int]:
    return {pid: cpu_ticks(pid) for pid in [master, *stack.children(master)]}


def percentiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        one = values[0] if values else float("nan")
        return one, one, one
    q = statistics.quantiles(values, n=100)
    return q[49], q[94], q[98]


def reach(changes: list[float], first_seen: dict[str, float]) -> list[float]:
    """For each change, seconds until some viewer first received a board newer than it."""
    seen = sorted(first_seen.values())
    delays = []
    for at in changes:
        later = [t for t in seen if t >= at]
        if later:
            delays.append(later[0] - at)
    return delays


def in_process_costs() -> list[tuple[str, int, int, float, float, float]]:
    """Inside the clock, one request at a time through Django's whole middleware stack (no
    HTTP server, no network): CPU and wall ms and database queries per request, for a
    conditional poll of an unchanged board (304), a full answer from the cache (200), and an
    uncached answer (builds the board: its queries and the render)."""
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    tag = client.get("/board/live/")["ETag"]
    rows = []
    plan = [
        ("cached: If-None-Match, unchanged", sized(3000, 30), {"If-None-Match": tag}, 304, True),
        ("cached: full answer", sized(3000, 30), {}, 200, True),
        ("uncached: built every time", sized(300, 10), {}, 200, False),
    ]
    for label, n, headers, answer, cached in plan:
        settings.CARDROOM_BOARD_CACHE = cached

        def poll(
            label: str = label, headers: dict[str, str] = headers, answer: int = answer
        ) -> Any:
            response = client.get("/board/live/", headers=headers)
            expect(
                f"GET /board/live/ ({label})", response.status_code, response.content,
                statuses=(answer,), contains=LIVE if answer == 200 else (),
            )  # fmt: skip
            return response

        response = poll()  # warm up
        with CaptureQueriesContext(connection) as queries:
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(n):
                response = poll()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        rows.append(
            (label, response.status_code, len(response.content), 1000 * cpu / n,
             1000 * wall / n, len(queries) / n)
        )  # fmt: skip
    settings.CARDROOM_BOARD_CACHE = True
    print("\nPer request, in this process (Django's middleware and the view, no HTTP server):\n")
    print("| request | status | bytes | CPU ms | wall ms | queries |")
    print("|---|---|---|---|---|---|")
    for label, status, size, cpu, wall, count in rows:
        print(f"| {label} | {status} | {size:,} | {cpu:.2f} | {wall:.2f} | {count:.2f} |")
    return rows


def run_side(
    label: str, env: dict[str, str], seeded: dict[str, Any], args: argparse.Namespace
) -> dict[str, Any]:
    proc = stack.start_gunicorn(env, args.port)
    try:
        stack.wait_healthy(stack.Client(args.port), 60)
        warm = stack.Client(args.port)
        for path, piece in (("/board/", PAGE), ("/board/live/", LIVE)):
            status, raw = warm.request("GET", path)
            expect(f"{label}: GET {path}", status, raw, contains=piece)
        writer = Writer(seeded, args.write_every, label.split()[0])
        before = gunicorn_ticks(proc.pid)
        client_cpu = time.process_time()
        wall = time.perf_counter()
        writer.start()
        results = asyncio.run(crowd(args.port, args.viewers, args.interval, args.seconds))
        wall = time.perf_counter() - wall
        after = gunicorn_ticks(proc.pid)
        client_cpu = time.process_time() - client_cpu
        writer.stop.set()
        writer.join(10)
    finally:
        stack.stop([proc])
    cpu = sum(after[pid] - before.get(pid, 0) for pid in after) / CLK_TCK
    p50, p95, p99 = percentiles(results.latencies)
    delays = reach(writer.changes, results.first_seen)
    return {
        "label": label,
        "requests": len(results.latencies),
        "rate": len(results.latencies) / wall,
        "p50": p50, "p95": p95, "p99": p99,
        "page_p50": percentiles(results.page_latencies)[0],
        "ok": results.statuses.get(200, 0),
        "not_modified": results.statuses.get(304, 0),
        "errors": sum(n for s, n in results.statuses.items() if s >= 500 or s == 599),
        "other": {s: n for s, n in results.statuses.items() if s not in (200, 304) and s < 500},
        "error_kinds": dict(results.errors),
        "wrong": results.wrong,
        "mb": results.bytes_in / 1e6,
        "cpu": cpu,
        "cpu_pct": 100 * cpu / wall,
        "workers": len(after) - 1,
        "wall": wall,
        "client_cpu": client_cpu,
        "load": os.getloadavg(),
        "changes": len(writer.changes),
        "writer_failures": writer.failures,
        "reach_p50": statistics.median(delays) if delays else float("nan"),
        "reach_max": max(delays) if delays else float("nan"),
    }  # fmt: skip


def report(sides: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(
        f"\n{args.viewers} viewers polling /board/live/ every {args.interval:g} s for "
        f"{args.seconds:g} s, a seat change every {args.write_every:g} s "
        f"(gunicorn, 2 sync workers, PostgreSQL, Redis; "
        f"{os.cpu_count()} cores):\n"
    )
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("requests (req/s)", lambda s: f"{s['requests']:,} ({s['rate']:.0f}/s)"),
        ("p50 / p95 / p99 ms", lambda s: f"{s['p50']:.1f} / {s['p95']:.1f} / {s['p99']:.1f}"),
        ("200 / 304", lambda s: f"{s['ok']:,} / {s['not_modified']:,}"),
        ("errors (5xx, refused)", lambda s: f"{s['errors']}" + (f" {s['error_kinds']}" if s["error_kinds"] else "")),
        ("other statuses", lambda s: str(s["other"] or "none")),
        ("bytes received", lambda s: f"{s['mb']:.1f} MB"),
        ("gunicorn CPU s (% of a core)", lambda s: f"{s['cpu']:.1f} s ({s['cpu_pct']:.0f}%)"),
        ("gunicorn CPU per answered poll", lambda s: f"{1000 * s['cpu'] / (s['ok'] + s['not_modified']):.2f} ms" if s['ok'] + s['not_modified'] else "n/a (none answered)"),
        ("a change reached a viewer p50 / max", lambda s: f"{s['reach_p50']:.1f} / {s['reach_max']:.1f} s"),
        ("seat/list changes (writer failures)", lambda s: f"{s['changes']} ({len(s['writer_failures'])})"),
        ("first page load p50", lambda s: f"{s['page_p50']:.1f} ms"),
        ("load generator CPU s", lambda s: f"{s['client_cpu']:.1f} s"),
        ("machine load average (1/5/15 min) after", lambda s: " / ".join(f"{x:.1f}" for x in s["load"])),
    ]  # fmt: skip
    print(f"| {'':38} | " + " | ".join(f"{s['label']:30}" for s in sides) + " |")
    print(f"|{'-' * 40}|" + "|".join("-" * 32 for _ in sides) + "|")
    for name, cell in rows:
        print(f"| {name:38} | " + " | ".join(f"{cell(s):30}" for s in sides) + " |")
    for side in sides:
        for failure in side["writer_failures"][:3]:
            print(f"writer ({side['label']}): {failure}")
        if side["wrong"]:
            print(f"!! {side['label']}: {len(side['wrong'])} wrong answers; the first: "
                  f"{side['wrong'][0]}", file=sys.stderr)  # fmt: skip
        if not side["requests"]:
            print(f"!! {side['label']}: no poll was answered", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 viewers, 3 s a side")
    parser.add_argument("--seconds", type=float, help="per side (default 50; quick: 3)")
    parser.add_argument("--viewers", type=int, help="default 1000 (quick: 20)")
    parser.add_argument("--interval", type=float, help="seconds between polls (5; quick: 1)")
    parser.add_argument("--write-every", type=float, help="seconds (3; quick: 1)")
    parser.add_argument("--port", type=int, default=8147)
    parser.add_argument("--only", choices=("cached", "uncached"), help="run one side")
    parser.add_argument(
        "--costs-only", action="store_true",
        help="only the per-request costs in this process, on the database a run left",
    )  # fmt: skip
    args = parser.parse_args()
    if args.quick:
        set_quick()
    args.seconds = args.seconds or sized(50.0, 3.0)
    args.viewers = args.viewers or sized(1000, 20)
    args.interval = args.interval or sized(5.0, 1.0)
    args.write_every = args.write_every or sized(3.0, 1.0)
    url = os.environ.get("BOARD_LOAD_DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("BOARD_LOAD_REDIS_URL", DEFAULT_REDIS)
    env = stack.production_env(
        "board-load", DATABASE_URL=url, CELERY_BROKER_URL=redis_url,
        DJANGO_SETTINGS_MODULE="cardroom.settings", DJANGO_LOG_LEVEL="WARNING",
    )  # fmt: skip
    os.environ.update({**env, "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver"})
    if args.costs_only:
        stack.django_setup()
        in_process_costs()
        return 0
    problem = stack.fresh_postgres_database(url)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    import redis

    redis.Redis.from_url(redis_url, socket_connect_timeout=2).flushdb()
    stack.django_setup()
    started = time.perf_counter()
    seeded = seed()
    stack.collectstatic(env)
    print(f"seeded in {time.perf_counter() - started:.0f} s", flush=True)
    in_process_costs()
    sides = []
    plan = [
        ("cached + ETag", env),
        ("uncached, no ETag", {**env, "DJANGO_SETTINGS_MODULE": "bench.board_settings_uncached"}),
    ]
    for label, side_env in plan:
        if args.only and not label.startswith(args.only):
            continue
        print(f"running: {label} …", flush=True)
        sides.append(run_side(label, side_env, seeded, args))
    report(sides, args)
    failed = any(side["errors"] or side["wrong"] or not side["requests"] for side in sides)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
