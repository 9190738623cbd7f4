"""The waitlists at their worst: 10,000 players waiting on one list for a
game with 500 open tables (the first 500 on the list play at one of those tables, 1,000
players seated in all), 250 tables dealt from typed stacks. Timed, with the bytes and the
queries of each answer: the floor's page, its quiet poll (204) and a poll after a change, the
API's lists and a page of one list's players, the kiosk's post (page and API) and its refusal
at the room's caps, the public board's build, and the floor dashboard (its cards count the
list). Every answer's status and content are checked: a redirect, an error page or an answer
without the players fails the run, as does a request slower than ``LIMIT_S`` (gunicorn's
timeout is 30 s).

Every timed answer goes through ``bench.harness.expect``. ``BENCH_QUICK=1``: 60 waiting at 6
tables, two requests each. Runs against the configured database (``DATABASE_URL``; a scratch
SQLite file otherwise). ``BENCH_WAITLIST_WAITING`` and ``BENCH_WAITLIST_TABLES`` change the
sizes.
"""

from __future__ import annotations

import json
import os
import re
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
if "DATABASE_URL" not in os.environ:  # a fresh scratch database each run
    (ROOT / "var" / "bench_waitlists.sqlite3").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = "sqlite:///var/bench_waitlists.sqlite3"
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost")

from bench.harness import WrongAnswer, expect_response, expect_that, sized  # noqa: E402

WAITING = int(os.environ.get("BENCH_WAITLIST_WAITING", sized("10000", "60")))
TABLES = int(os.environ.get("BENCH_WAITLIST_TABLES", sized("500", "6")))
#: A request slower than this fails the run.
LIMIT_S = int(os.environ.get("BENCH_WAITLIST_LIMIT_S", "60"))
REPEAT = sized(5, 2)


@contextmanager
def deadline(what: str) -> Iterator[None]:
    def fail(signum: int, frame: Any) -> None:
        raise WrongAnswer(f"{what} took more than {LIMIT_S} s")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(LIMIT_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _setup() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build_room() -> dict[str, Any]:
    """The tables, the players, the list; returns what the checks look for."""
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from cardroom.core.roles import Role
    from cardroom.seats.models import Player, TableSeat, name_key
    from cardroom.tables.models import Table
    from cardroom.tables.services import create_table, start_hand
    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists.models import WaitlistEntry

    user, _ = User.objects.get_or_create(username="bench-manager")
    user.groups.add(Group.objects.get_or_create(name=Role.FLOOR_MANAGER.value)[0])
    for number in range(1, TABLES + 1):
        create_table(by=user, number=number, status="open", small_blind=1, big_blind=2,
                     min_buy_in=40, max_buy_in=200)  # fmt: skip
    tables = list(Table.objects.order_by("number"))
    # Typed-stack deals (no seat map) at the first half: the board's "running" rule reads them.
    typed = tables[: TABLES // 2]
    for table in typed:
        start_hand(table=table, by=user, button=1,
                   seats=[{"seat": s, "stack": 200} for s in range(1, 4)])  # fmt: skip
    seated_count = min(1000, 2 * (TABLES - len(typed)))
    people = Player.objects.bulk_create(
        Player(
            name=f"Player {n:05d}",
            name_key=name_key(f"Player {n:05d}"),
            alias="" if n % 3 else f"P{n}",
            alias_key="" if n % 3 else name_key(f"P{n}"),
        )
        for n in range(max(WAITING, seated_count) + 1)
    )
    seat_map_tables = tables[len(typed) :]
    # The first players on the list play at the seat-map tables (two a table): a seat there
    # never goes to them ("next" skips them), their rows say where they play.
    TableSeat.objects.bulk_create(
        TableSeat(
            table=seat_map_tables[i // 2], seat=1 + i % 2, player=people[i], stack=100, new=False
        )
        for i in range(seated_count)
    )
    game_list = waitlists.open_list(variant="holdem", structure="no_limit", small_blind=1,
                                    big_blind=2, by=user)  # fmt: skip
    other = waitlists.open_list(variant="omaha", structure="pot_limit", small_blind=1,
                                big_blind=2, by=user)  # fmt: skip
    now = timezone.now()
    WaitlistEntry.objects.bulk_create(
        WaitlistEntry(game_list=game_list, player=people[n], position=n + 1, added_at=now)
        for n in range(WAITING)
    )
    made = WaitlistEntry.objects.filter(game_list=game_list).count()
    expect_that("the list built", made == WAITING, made)
    return {"user": user, "list": game_list, "other": other, "first": people[0].name,
            "last": people[WAITING - 1].name}  # fmt: skip


def measure(call: Callable[[], Any], check: Callable[[Any], None], what: str) -> dict[str, float]:
    """Time ``call`` (median of ``REPEAT``), count its queries and bytes; ``check`` each answer."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    reset_queries()
    with deadline(what), CaptureQueriesContext(connection) as captured:
        answer = call()
    check(answer)
    times = []
    for _ in range(REPEAT - 1):
        start = time.perf_counter()
        with deadline(what):
            again = call()
        times.append(time.perf_counter() - start)
        check(again)
    body = getattr(answer, "content", None)
    size = len(body) if isinstance(body, bytes) else len(getattr(answer, "page", b""))
    return {
        f"{what}_ms": statistics.median(times) * 1000 if times else 0.0,
        f"{what}_bytes": size,
        f"{what}_queries": len(captured),
    }


def status(what: str, expected: int, *pieces: str) -> Callable[[Any], None]:
    def check(response: Any) -> None:
        expect_response(what, response, statuses=(expected,), contains=pieces)

    return check


def bench(room: dict[str, Any]) -> dict[str, float]:
    from django.conf import settings
    from django.test import Client

    from cardroom.screens import board
    from cardroom.waitlists.views import version

    user, game_list, other = room["user"], room["list"], room["other"]
    client = Client()
    client.force_login(user)
    figures: dict[str, float] = {}
    figures |= measure(lambda: client.get("/floor/waitlists/"),
                       status("GET /floor/waitlists/", 200, 'id="waitlists"', room["first"],
                              f"{WAITING:,} waiting", f"Next: {room['first']}"),
                       "page")  # fmt: skip
    htmx = {"HX-Request": "true"}
    figures |= measure(lambda: client.get("/floor/waitlists/", {"v": version()}, headers=htmx),
                       status("a quiet poll", 204), "poll_quiet")  # fmt: skip
    figures |= measure(lambda: client.get("/floor/waitlists/", {"v": "0"}, headers=htmx),
                       status("a poll after a change", 200, 'id="waitlists"', room["first"]),
                       "poll_changed")  # fmt: skip

    def api_lists(response: Any) -> None:
        expect_response("GET /api/v1/waitlists/", response, contains='"results"')
        mine = [row for row in response.json()["results"] if row["id"] == game_list.pk]
        expect_that("the API's lists", len(mine) == 1 and mine[0]["waiting"] == WAITING, mine)
        first = mine[0]["entries"][0]["name"]
        expect_that("the API's first player", first == room["first"], first)

    figures |= measure(lambda: client.get("/api/v1/waitlists/"), api_lists, "api_lists")

    rows = min(100, WAITING // 2)

    def api_page(response: Any) -> None:
        expect_response("GET the list's last page", response, contains='"results"')
        body = response.json()
        got = (body["count"], len(body["results"]), body["results"][-1]["name"])
        expect_that("the list's last page", got == (WAITING, rows, room["last"]), got)

    url = f"/api/v1/waitlists/{game_list.pk}/entries/?limit={rows}&offset={WAITING - rows}"
    figures |= measure(lambda: client.get(url), api_page, "api_entries_last_page")

    # The kiosk, with the caps raised past the list (the cost of a post at 10,000 waiting),
    # then at the room's caps (the refusal).
    caps = (settings.CARDROOM_WAITLIST_MAX_PER_LIST, settings.CARDROOM_WAITLIST_MAX_IN_ROOM)
    settings.CARDROOM_WAITLIST_MAX_PER_LIST = settings.CARDROOM_WAITLIST_MAX_IN_ROOM = 10**6
    kiosk = Client()
    names = (f"Kiosk {n}" for n in range(10**6))
    addresses = (f"10.9.{n >> 8 & 255}.{n & 255}" for n in range(1, 60000))
    figures |= measure(
        lambda: kiosk.post("/kiosk/", {"name": next(names), "lists": [game_list.pk]},
                           REMOTE_ADDR=next(addresses)),
        status("POST /kiosk/", 200, "on the list, "), "kiosk_post",
    )  # fmt: skip
    figures |= measure(
        lambda: kiosk.post("/api/v1/kiosk/entries/",
                           json.dumps({"name": next(names), "lists": [game_list.pk]}),
                           content_type="application/json", REMOTE_ADDR=next(addresses)),
        status("POST /api/v1/kiosk/entries/", 201, "public_name"), "kiosk_api_post",
    )  # fmt: skip
    # The room's cap (at most the names already down, so a small run is refused too).
    settings.CARDROOM_WAITLIST_MAX_PER_LIST = caps[0]
    settings.CARDROOM_WAITLIST_MAX_IN_ROOM = min(caps[1], WAITING)
    figures |= measure(
        lambda: kiosk.post("/kiosk/", {"name": next(names), "lists": [other.pk]},
                           REMOTE_ADDR=next(addresses)),
        status("POST /kiosk/ (the room full)", 422, "the room holds at most"),
        "kiosk_post_refused",
    )  # fmt: skip
    settings.CARDROOM_WAITLIST_MAX_IN_ROOM = caps[1]

    def built(answer: Any) -> None:
        page = answer.page.decode()
        running = re.search(rf"Table {TABLES} <span[^>]*>2/9<", page) is not None
        expect_that("the board's running tables", running, page[:400])
        expect_that("the board's waiting players", "<li>P3</li>" in page, page[:400])

    figures |= measure(lambda: board.build(), built, "board_build")
    figures |= measure(lambda: client.get("/floor/"),
                       status("GET /floor/", 200, 'class="card table-card'),
                       "dashboard")  # fmt: skip
    return figures


def run() -> dict[str, float]:
    _setup()
    import resource

    started = time.perf_counter()
    room = build_room()
    figures: dict[str, float] = {"waiting": WAITING, "tables": TABLES}
    figures["build_room_s"] = time.perf_counter() - started
    figures |= bench(room)
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name:36} {value:12.2f}")
