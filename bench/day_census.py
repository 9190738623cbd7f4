"""``make day``'s census: what each request family of the mix costs, in this process, against
the day ``bench/day_build.py`` built, and the cores the WSOP mix would need.

Each timed request goes through Django's test client with the production settings (DEBUG
off), and is checked (``bench.harness.expect``: a redirect, an error page or an answer
without its content stops the run). Its cost is this thread's CPU (``time.thread_time``: the
view, the engine, templates, serializers and the driver) plus its PostgreSQL backend's CPU
(``bench.harness.backend_cpu_ms``, read before and after each timed request; the family's
figure is the mean over its batch), and its queries. Per family:

- ``desk action``: the API's action (``POST /api/v1/hands/<id>/actions/`` with a dealer's
  token), early (the hand's first actions) and late (past its 18th), each at half the rate;
- ``award``, ``proposal``, ``deal``: the API's (``…/award/``, ``GET`` and ``POST
  /api/v1/tables/<id>/next-hand/``);
- ``board poll``: the public board's live fragment, unchanged since the last poll (most are),
  answered from the board built last (those polls of the batch that found it expired and
  built it afresh count as builds);
- ``board build``: a poll after a change the board shows: the room builds it once a change,
  or once its shared copy expires (``SHARED_TTL``, 2 s), whatever the number of viewers;
- ``floor poll``: a floor manager's dashboard poll after the writes the mix makes in one
  3-second poll interval (0.3 writes a table: 70 a second at 700 tables), each at a table
  drawn at random, so a poll carries a realistic number of changed cards;
- ``room display``: a tournament clock's TV display state poll.

The cores are the WSOP rates (700 tables: 60 actions, 5 awards, deals and proposals, 200
board polls and a board build every 2 s, 10 floor polls and 6.7 display polls a second) times
the CPU measured here, at the size built. CPU figures by ``thread_time`` and ``/proc`` hold on
a busy machine better than wall times, though a loaded machine's shared caches inflate them.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from typing import Any

from bench.bench_floor import Dashboard
from bench.day_play import award_body, next_action
from bench.harness import Measured, backend_cpu_ms, expect_response, expect_that, sized
from cardroom.screens.board import SHARED_TTL

#: family -> requests a second in the WSOP mix (700 tables).
RATES = {
    "desk action (early)": 30.0,
    "desk action (late)": 30.0,
    "award": 5.0,
    "deal": 5.0,
    "proposal": 5.0,
    "board poll": 200.0,
    "board build": 1 / SHARED_TTL,
    "floor poll": 10.0,
    "room display": 6.7,
}
#: Writes at the tables a second per table in the WSOP mix (actions, awards, deals: 70 a
#: second at 700 tables), and a dashboard's seconds between polls.
WRITES_PER_TABLE = 70 / 700
FLOOR_INTERVAL = 3.0


class Census(Measured):
    """``Measured`` plus the PostgreSQL backend's CPU of each timed request."""

    def __init__(self) -> None:
        from django.db import connection

        super().__init__()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.pid = int(cursor.fetchone()[0])
        self.pg_ms: dict[str, list[float]] = defaultdict(list)
        self.cards: dict[str, list[int]] = defaultdict(list)  # what ``Dashboard`` counts

    def timed(self, family: str, request: Callable[[], Any]) -> Any:
        before = backend_cpu_ms() or 0.0
        response = super().timed(family, request)
        self.pg_ms[family].append((backend_cpu_ms() or 0.0) - before)
        return response

    def move_builds(self, family: str, builds: str) -> None:
        """``family``'s requests that ran queries (the board built afresh: its shared copy
        expired) counted as ``builds``: the room builds the board once a change or an expiry
        whatever the number of viewers, and the other polls are answered from the copy."""
        rows = list(zip(self.queries[family], self.cpu_ms[family], self.pg_ms[family], strict=True))
        self.queries[family], self.cpu_ms[family], self.pg_ms[family] = [], [], []
        for queries, cpu, pg in rows:
            to = builds if queries else family
            self.queries[to].append(queries)
            self.cpu_ms[to].append(cpu)
            self.pg_ms[to].append(pg)

    def clear(self) -> None:
        self.queries.clear()
        self.cpu_ms.clear()
        self.pg_ms.clear()

    def rows(self) -> list[dict[str, Any]]:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            expect_that("one backend all along", cursor.fetchone()[0] == self.pid)
        rows = []
        for family, rate in RATES.items():
            expect_that(f"{family}: measured", bool(self.cpu_ms.get(family)))
            count = len(self.cpu_ms[family])
            python = statistics.fmean(self.cpu_ms[family])
            pg = statistics.fmean(self.pg_ms[family])
            rows.append(
                {
                    "family": family, "rate": rate, "count": count, "python_ms": python,
                    "pg_ms": pg, "queries": statistics.fmean(self.queries[family]),
                    "cores": rate * (python + pg) / 1000,
                }
            )  # fmt: skip
        return rows


def hand_state(hand_id: int) -> tuple[int, dict[str, Any]]:
    """A hand's seq and betting snapshot, read by the services (untimed)."""
    from cardroom.tables.models import Hand
    from cardroom.tables.services import engine_state
    from rules.engine.state import snapshot

    hand = Hand.objects.get(pk=hand_id)
    return hand.seq, snapshot(engine_state(hand))


def act_untimed(hand_id: int, director: Any, rng: random.Random) -> bool:
    """One action by the service (a write the census does not time); False when the hand has
    nobody to act."""
    from cardroom.tables.models import Hand
    from cardroom.tables.services import record_action

    seq, betting = hand_state(hand_id)
    entry = next_action(betting, rng)
    if entry is None:
        return False
    hand = Hand.objects.get(pk=hand_id)
    record_action(hand=hand, by=director, expected_seq=seq, **entry)
    return True


class Desks:
    """The desks of some tables, each with its dealer's token, driven through the API."""

    def __init__(self, tables: list[dict[str, Any]], census: Census, director: Any) -> None:
        from django.test import Client

        self.tables, self.census, self.director = tables, census, director
        self.client = Client()
        self.rng = random.Random(7)

    def post(self, family: str, table: dict[str, Any], url: str, body: Any, **check: Any) -> Any:
        headers = {"Authorization": f"Token {table['token']}"}
        response = self.census.timed(
            family,
            lambda: self.client.post(url, body, content_type="application/json", headers=headers),
        )
        return json.loads(expect_response(f"POST {url}", response, **check))

    def actions(self, family: str, rounds: int) -> None:
        """``rounds`` timed actions at each table, one table after another."""
        for _ in range(rounds):
            for table in self.tables:
                seq, betting = hand_state(table["hand"])
                # Called preflop, checked after: every hand lasts past its 18th action.
                entry = {
                    "seat": betting["to_act"],
                    "action": "check" if betting["options"]["check"] else "call",
                }
                url = f"/api/v1/hands/{table['hand']}/actions/"
                body = {"expected_seq": seq, **entry}
                self.post(family, table, url, body, statuses=(201,), contains='"betting":')

    def advance(self, to: int | None) -> None:
        """Each table's hand to ``to`` actions, or to its end (None), by the service."""
        from cardroom.tables.models import Hand
        from cardroom.tables.services import record_action

        for table in self.tables:
            hand = Hand.objects.get(pk=table["hand"])
            while to is None or hand.actions.count() < to:
                seq, betting = hand_state(hand.pk)
                if betting["to_act"] is None:
                    break
                action = "check" if betting["options"]["check"] else "call"
                record_action(
                    hand=hand, by=self.director, expected_seq=seq, seat=betting["to_act"],
                    action=action,
                )  # fmt: skip
                hand.refresh_from_db()

    def award_and_deal(self) -> None:
        """At each table (each hand at its showdown): the award, the next hand's proposal,
        and its deal."""
        for number, table in enumerate(self.tables):
            seq, betting = hand_state(table["hand"])
            expect_that(f"hand {table['hand']}: over", betting["to_act"] is None, betting)
            url = f"/api/v1/hands/{table['hand']}/award/"
            body = award_body(seq, betting, number)
            self.post("award", table, url, body, contains='"awarded_at":"')
        for table in self.tables:
            url = f"/api/v1/tables/{table['table']}/next-hand/"
            headers = {"Authorization": f"Token {table['token']}"}
            response = self.census.timed("proposal", partial(self.client.get, url, headers=headers))
            version = json.loads(expect_response(f"GET {url}", response, contains='"version":'))
            dealt = self.post(
                "deal", table, url, {"version": version["version"]}, statuses=(201,),
                contains='"betting":',
            )  # fmt: skip
            table["hand"] = dealt["id"]


def screens(manifest: dict[str, Any], census: Census, polls: int) -> None:
    """The board, unchanged, and the room displays, each polled ``polls`` times."""
    from django.test import Client

    from cardroom.core import changes
    from cardroom.screens.board import BOARD_TOPICS

    viewer = Client()
    board = manifest["board"]

    def poll(family: str) -> None:
        response = census.timed(family, lambda: viewer.get(board))
        expect_response(f"GET {board}", response, contains="Bench floor 1")

    for _ in range(2):
        poll("warm-up")
    for _ in range(polls):
        poll("board poll")
    for _ in range(sized(5, 2)):
        changes.bump(BOARD_TOPICS)  # as a write the board shows does, after its commit
        poll("board build")
    census.move_builds("board poll", "board build")
    displays = manifest["displays"]
    for family in ("warm-up", "room display"):
        for n in range(polls if family == "room display" else 2):
            url = displays[n % len(displays)]
            response = census.timed(family, partial(viewer.get, url))
            expect_response(f"GET {url}", response, contains='"server_now"')


def floor(manifest: dict[str, Any], census: Census, director: Any, polls: int) -> int:
    """A floor manager's dashboard: the page, then ``polls`` polls, each after the writes of
    one poll interval at tables drawn at random. Returns the writes a poll follows."""
    from django.contrib.auth.models import User
    from django.test import Client

    from cardroom.screens.floor import SECTION

    browser = Client()
    browser.force_login(User.objects.get(username=manifest["manager"]))
    dashboard = Dashboard(browser, census)  # type: ignore[arg-type]
    room = manifest["room"]
    shown = {t["number"] for t in room[:SECTION]}
    dashboard.page(len(shown))
    dashboard.poll_once("warm-up", [])
    writes = round(WRITES_PER_TABLE * FLOOR_INTERVAL * len(room))
    rng = random.Random(11)
    for _ in range(polls):
        changed = set()
        for table in rng.choices(room, k=writes):
            if act_untimed(table["hand"], director, rng):
                changed.add(table["number"])
        dashboard.poll_once("floor poll", sorted(changed & shown))
    return writes


def run(manifest: dict[str, Any]) -> dict[str, Any]:
    """The census of the day in ``manifest`` (its tables' hands move on: the manifest is
    updated with the hands dealt)."""
    from django.contrib.auth.models import User

    director = User.objects.get(username=manifest["director"])
    census = Census()
    # Tournament tables spread over the room, each hand fresh from the build (the cash
    # tables' first hands were dealt with typed stacks, which the seat map's award refuses).
    dealt = [table for table in manifest["room"] if table["kind"] == "tournament"]
    size = min(len(dealt), sized(40, 3))
    batch = dealt[:: max(1, len(dealt) // size)][:size]
    warm = Desks(batch[:1], census, director)
    warm.actions("warm-up", 1)
    warm.advance(None)
    warm.award_and_deal()
    desks = Desks(batch[1:], census, director)
    census.clear()
    desks.actions("desk action (early)", 3)
    desks.advance(18)
    desks.actions("desk action (late)", 3)
    desks.advance(None)
    desks.award_and_deal()
    polls = sized(200, 6)
    screens(manifest, census, polls)
    writes = floor(manifest, census, director, sized(12, 3))
    cards = census.cards["floor poll"]
    census.queries.pop("warm-up", None)
    census.cpu_ms.pop("warm-up", None)
    census.pg_ms.pop("warm-up", None)
    census.queries.pop("page", None)
    page_ms = census.cpu_ms.pop("page", [math.nan])
    page_pg = statistics.fmean(census.pg_ms.pop("page", [0.0]))
    return {
        "rows": census.rows(),
        "floor_writes": writes,
        "floor_cards": statistics.fmean(cards),
        "floor_page_ms": statistics.fmean(page_ms) + page_pg,
    }


def table(manifest: dict[str, Any], result: dict[str, Any]) -> str:
    """The census as the issue prints it, with the WSOP mix's total."""
    lines = [
        f"census at {manifest['tables']} tables, {manifest['entrants']} entrants "
        f"(CPU per request: this thread + its PostgreSQL backend)",
        f"{'family':<22}{'rate/s':>8}{'n':>6}{'CPU ms':>9}{'python':>9}{'PG':>8}"
        f"{'queries':>9}{'cores':>8}",
    ]
    for row in result["rows"]:
        lines.append(
            f"{row['family']:<22}{row['rate']:>8.1f}{row['count']:>6}"
            f"{row['python_ms'] + row['pg_ms']:>9.2f}{row['python_ms']:>9.2f}"
            f"{row['pg_ms']:>8.2f}{row['queries']:>9.1f}{row['cores']:>8.2f}"
        )
    total = sum(row["cores"] for row in result["rows"])
    lines.append(f"{'WSOP mix total':<22}{'':>49}{total:>8.2f} cores")
    lines.append(
        f"floor poll: {result['floor_writes']} writes before each poll, "
        f"{result['floor_cards']:.1f} cards a poll; the floor page "
        f"{result['floor_page_ms']:.1f} ms CPU"
    )
    return "\n".join(lines)
