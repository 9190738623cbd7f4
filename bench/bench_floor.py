"""The floor dashboard at a big event's size, per request: the queries each makes and the CPU it
takes in this process (``time.thread_time`` around the test client's call: the view, the
templates, and on SQLite the database's own work too).

``TABLES`` tables in play (700 in a full run, as the largest live events run), nearly all of
them tournament tables (a tournament of up to 100 tables each, nine entrants a table drawn
there, its clock running) and a few cash tables with players seated from their seat maps; a
hand in progress at every table, all made through the project's services. A floor manager's
dashboard then asks, per family:

- ``page``: the floor page (``GET /floor/``): the whole room up to ``SECTION`` tables, else
  its first section (``cardroom.screens.floor``);
- ``poll_unchanged``: a poll with nothing written since the last one;
- ``poll_changed_1``, ``poll_changed_10`` and ``poll_changed_50``: a poll after an action at
  1, 10 and 50 tables of the section shown (each changed table's card must be in the answer).
  50 is what a poll carries at the largest events' rate of change: 60 desk actions and 15
  deals and awards a second across 700 tables, polled every 3 s, a section of 200 tables.

Every timed request is checked (``bench.harness.expect``): a redirect, an error page or an
answer without what it is meant to hold stops the run. A poll's figures must not grow with the
number of tables: ``BENCH_FLOOR_TABLES=100`` (any size) runs at another size to compare.
``BENCH_QUICK=1``: 8 tables, two requests a family (a change at every table for 50).

On PostgreSQL the figures add the database's side: the CPU its backend spent on the requests
of each family (``bench.harness.backend_cpu_ms``, summed over the family's requests and
divided by their number: a mean, where the process's own figure is a median). On SQLite the database works in this process, inside its figure.

Runs against the configured database (``DATABASE_URL``; a scratch SQLite file otherwise),
``ANALYZE``d once the room is built, as a room's database is after a day's autovacuum.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
if "DATABASE_URL" not in os.environ:  # a fresh scratch database each run
    (ROOT / "var").mkdir(exist_ok=True)
    (ROOT / "var" / "bench-floor.sqlite3").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = "sqlite:///var/bench-floor.sqlite3"
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost")

from bench.harness import (  # noqa: E402
    Measured,
    WrongAnswer,
    expect_response,
    expect_that,
    floor_poll_url,
    sized,
)

#: Tables of one tournament at most; seats a tournament table; cash tables among them.
PER_TOURNAMENT = 100
SEATS = 9
CHANGED = (1, 10, 50)
FAMILIES = ("page", "poll_unchanged", *(f"poll_changed_{n}" for n in CHANGED))


def tables() -> int:
    """The tables in play: ``BENCH_FLOOR_TABLES`` when set, else 700 (quick: 8)."""
    text = os.environ.get("BENCH_FLOOR_TABLES", "").strip()
    if text:
        if not (text.isascii() and text.isdecimal()) or not 2 <= int(text) <= 5000:
            raise WrongAnswer(f"BENCH_FLOOR_TABLES={text!r}: a number of tables, 2 to 5000")
        return int(text)
    return sized(700, 8)


def _setup() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # Measured as production runs (no query log kept, no template debugging).
    settings.DEBUG = False


class Figures(Measured):
    """Per family: each request's queries, CPU milliseconds and cards, and the PostgreSQL
    backend's CPU over the family's requests."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, list[int]] = defaultdict(list)

    def clear(self) -> None:
        super().clear()
        self.cards.clear()

    def result(self) -> dict[str, float]:
        figures: dict[str, float] = {}
        for family in FAMILIES:
            expect_that(f"{family}: measured", bool(self.queries[family]))
            figures[f"{family}_queries"] = max(self.queries[family])
            figures[f"{family}_cpu_ms"] = statistics.median(self.cpu_ms[family])
            backend = self.backend_per_request(family)
            if backend is not None:
                figures[f"{family}_pg_cpu_ms"] = backend
            figures[f"{family}_cards"] = max(self.cards[family])
        return figures


def build_room(count: int, director: Any, manager: Any, *, alternates: int = 0) -> list[Any]:
    """``count`` tables in play, each with a hand in progress: the tournament tables first
    (their tournaments' clocks running), then the cash tables. ``alternates`` more entrants,
    shared out over the tournaments by their tables, are registered after the draw (the
    alternate list, waiting for a seat). The hands, in table order."""
    from cardroom.seats import services as players
    from cardroom.tables.choices import TableStatus
    from cardroom.tables.services import (
        create_table,
        create_tournament_tables,
        set_table_status,
        start_hand,
    )
    from tournaments.clock.services import start_clock
    from tournaments.draw_services import draw_initial_seating
    from tournaments.eliminations import close_registration
    from tournaments.setup import create_tournament, register_entrants
    from tournaments.table_hands import deal_tournament_hand

    cash = max(1, count // 50)
    room = []
    for start in range(0, count - cash, PER_TOURNAMENT):
        numbers = range(1001 + start, 1001 + min(start + PER_TOURNAMENT, count - cash))
        # Made and opened by the floor's services, each logged as any table is (verify_audit
        # names a table with no history).
        tables = [
            set_table_status(table=table, by=manager, status=TableStatus.OPEN)
            for table in create_tournament_tables(
                by=manager, count=len(numbers), seats=SEATS, first=numbers[0]
            )
        ]
        tournament = create_tournament(
            by=director, name=f"Bench floor {start // PER_TOURNAMENT + 1}", tables=tables,
            seats_per_table=SEATS,
            levels=[
                {"small_blind": 100 * k, "big_blind": 200 * k, "ante": 200 * k, "minutes": 60}
                for k in range(1, 6)
            ],
        )  # fmt: skip
        register_entrants(
            tournament=tournament,
            names=[f"Entrant {start + n}" for n in range(1, SEATS * len(tables) + 1)],
            by=director,
        )
        draw_initial_seating(tournament=tournament, by=director)
        end = start + len(tables)
        waiting = range(alternates * start // (count - cash), alternates * end // (count - cash))
        if waiting:
            register_entrants(
                tournament=tournament, names=[f"Alternate {n + 1}" for n in waiting],
                by=director, alternate=True,
            )  # fmt: skip
        close_registration(tournament=tournament, by=director)
        start_clock(tournament=tournament, by=director)
        room += [deal_tournament_hand(table=table, by=director) for table in tables]
    for number in range(1, cash + 1):
        table = create_table(
            by=manager, number=number, status="open", seats=6, small_blind=1, big_blind=2,
            min_buy_in=40, max_buy_in=1000,
        )  # fmt: skip
        for seat in range(1, 7):
            player = players.find_or_create_player(name=f"Cash {number}.{seat}", by=manager)
            players.seat_player(table=table, player=player, seat=seat, buy_in=1000, by=manager)
        seats = [{"seat": s, "stack": 1000} for s in range(1, 7)]
        room.append(start_hand(table=table, by=manager, button=1, seats=seats))
    return room


def act(hand: Any, by: Any) -> None:
    """One action at the hand's table (a call, or a check where nothing is to call)."""
    from cardroom.tables.services import engine_state, record_action

    hand.refresh_from_db()
    state = engine_state(hand)
    seat = state.to_act
    if seat is None:
        raise WrongAnswer(f"{hand}: no seat to act on the {state.street}")
    action = "call" if state.current_bet else "check"
    record_action(hand=hand, by=by, expected_seq=hand.seq, seat=seat, action=action)


class Dashboard:
    """A floor manager's dashboard, polling as the page tells it to."""

    def __init__(self, browser: Any, figures: Figures) -> None:
        self.browser, self.figures, self.poll = browser, figures, ""

    def page(self, expected_cards: int) -> None:
        response = self.figures.timed("page", lambda: self.browser.get("/floor/"))
        text = expect_response("GET /floor/", response, contains=('id="poller"', "table-card"))
        cards = len(re.findall(r'<article id="card-', text))
        expect_that("GET /floor/: a card a table", cards == expected_cards, cards)
        self.figures.cards["page"].append(cards)
        self.poll = floor_poll_url(text)

    def poll_once(self, family: str, numbers: list[int]) -> str:
        """A poll; every card of ``numbers`` must be in it (and, nothing changed, none)."""
        url = self.poll
        response = self.figures.timed(
            family, lambda: self.browser.get(url, headers={"HX-Request": "true"})
        )
        text = expect_response(f"GET {url}", response, contains='id="poller"')
        missing = [n for n in numbers if f'id="card-{n}"' not in text]
        expect_that(f"GET {url}: the changed tables' cards", not missing, missing)
        self.figures.cards[family].append(len(re.findall(r'<article id="card-', text)))
        self.poll = floor_poll_url(text)
        return text


def bench_floor() -> dict[str, float]:
    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.test import Client

    from cardroom.core.roles import Role
    from cardroom.screens.floor import SECTION

    count = tables()
    manager, _ = User.objects.get_or_create(username="bench-floor-manager")
    manager.groups.add(Group.objects.get_or_create(name=Role.FLOOR_MANAGER.value)[0])
    director, _ = User.objects.get_or_create(username="bench-floor-director")
    director.groups.add(Group.objects.get_or_create(name=Role.DIRECTOR.value)[0])
    started = time.perf_counter()
    # The page shows the room's first section (all of it when it fits one): the changes timed
    # are at its tables.
    hands = sorted(build_room(count, director, manager), key=lambda h: h.table.number)[:SECTION]
    shown = min(count, SECTION)
    built = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    browser = Client()
    browser.force_login(manager)
    figures = Figures()
    dashboard = Dashboard(browser, figures)
    # A warm-up page and poll, not counted: the first request loads templates and URLs.
    dashboard.page(shown)
    dashboard.poll_once("warm-up", [])
    figures.clear()
    for round_ in range(sized(5, 2)):
        dashboard.page(shown)
        dashboard.poll_once("warm-up", [])  # the page's first poll
        dashboard.poll_once("poll_unchanged", [])
        for changed in CHANGED:
            # Distinct tables, as many as the section has at most (61 is prime to 200 and to 8).
            at = min(changed, len(hands))
            picked = [hands[(round_ * 37 + k * 61) % len(hands)] for k in range(at)]
            for hand in picked:
                act(hand, director)
            dashboard.poll_once(f"poll_changed_{changed}", [h.table.number for h in picked])
    result: dict[str, float] = {"tables": count, "build_s": built}
    result.update(figures.result())
    return result


def run() -> dict[str, float]:
    _setup()
    import resource

    figures = bench_floor()
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


def table(result: dict[str, Any]) -> str:
    """Per family: the queries, the CPU milliseconds (this process; the PostgreSQL backend's
    where measured) and the cards sent of one request."""
    lines = [
        f"{int(result['tables'])} tables in play",
        f"{'family':<18}{'queries':>9}{'ms':>10}{'pg ms':>8}{'cards':>8}",
    ]
    for family in FAMILIES:
        queries, cpu = result[f"{family}_queries"], result[f"{family}_cpu_ms"]
        pg = result.get(f"{family}_pg_cpu_ms")
        backend = "-" if pg is None else f"{pg:.1f}"
        lines.append(
            f"{family:<18}{queries:>9}{cpu:>10.2f}{backend:>8}{result[f'{family}_cards']:>8}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(run()))
