"""The betting desk's writes, per request: the queries each makes and the CPU it takes in this
process (``time.thread_time`` around the test client's call: the view, the engine, the
templates and serializers, and on SQLite the database's own work too). On PostgreSQL, also the
CPU its backend spent on them (``_pg_cpu_ms``: read from ``/proc``, the family's total over its
requests; ``bench.harness.backend_cpu_ms``): a request's CPU is the two together.

Two tables of six players, each hand played the same way (the first to act on a street bets
or raises, everyone calls: six actions a street, 24 to the showdown): a cash table dealt from
its seat map and a tournament's table dealt from its entrants. Per family, on each table:

- ``action_htmx`` and ``action_api``: an action entered at the desk (htmx) and through the API,
  with 4 actions in the hand (``_4``) and with 20 (``_20``, on the river);
- ``deal_htmx`` and ``deal_api``: the next hand dealt from the proposal (after a 24-action hand);
- ``proposal_api``: the next hand's proposal read;
- ``award_htmx`` and ``award_api``: the pots pushed at the showdown of a 24-action hand.

A family's queries are the same for every request of it (the bench says so when they are not)
and must not grow with the hand: ``_4`` and ``_20`` side by side show it. Every timed request is
checked (``bench.harness.expect``): its status and a piece of the answer it means to measure, so
a redirect or an error page stops the run instead of reporting a fast answer.
``BENCH_QUICK=1``: two hands a table after one to warm up.

Runs against the configured database (``DATABASE_URL``; a scratch SQLite file otherwise).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
if "DATABASE_URL" not in os.environ:  # a fresh scratch database each run
    (ROOT / "var" / "bench-desk.sqlite3").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = "sqlite:///var/bench-desk.sqlite3"
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost")

from bench.harness import (  # noqa: E402
    Measured,
    WrongAnswer,
    expect_response,
    expect_that,
    sized,
)

#: Players at each table; a hand's actions to its showdown (six a street).
PLAYERS = 6
HAND_ACTIONS = 4 * PLAYERS
#: The hand lengths an action is timed at: early (preflop) and late (the river).
LENGTHS = (4, 20)
FAMILIES = (
    "action_htmx_4", "action_api_4", "action_htmx_20", "action_api_20", "deal_htmx",
    "deal_api", "proposal_api", "award_htmx", "award_api",
)  # fmt: skip
KINDS = ("cash", "tournament")


def _setup() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # Measured as production runs (no query log kept, no template debugging); the counts come
    # from an execute wrapper of their own.
    settings.DEBUG = False


class Figures(Measured):
    """Per family and table kind: each request's queries and CPU milliseconds."""

    def result(self) -> dict[str, float]:
        figures: dict[str, float] = {}
        for family, counts in self.queries.items():
            # A family's work does not depend on the hand: the same queries every time.
            expect_that(
                f"{family}: the same queries for each request", len(set(counts)) == 1, counts
            )
            figures[f"{family}_queries"] = counts[0]
            figures[f"{family}_cpu_ms"] = statistics.median(self.cpu_ms[family])
            if (backend := self.backend_per_request(family)) is not None:
                figures[f"{family}_pg_cpu_ms"] = backend
        return figures


class Desk:
    """One table's desk, driven as a dealer drives it: the htmx desk as a floor manager's
    browser, the API with a director's log-in (every post checked)."""

    def __init__(self, kind: str, table: Any, figures: Figures) -> None:
        from django.contrib.auth.models import User
        from django.test import Client
        from rest_framework.test import APIClient

        self.kind, self.table, self.figures = kind, table, figures
        self.browser = Client()
        self.browser.force_login(User.objects.get(username="bench-desk-manager"))
        self.director = User.objects.get(username="bench-desk-director")
        self.api = APIClient()
        self.api.force_authenticate(self.director)
        # The API's log-in keeps its roles once read (as a token's user does for a request):
        # read them before anything is counted.
        expect_response("GET /api/v1/tables/", self.api.get("/api/v1/tables/"))

    def family(self, name: str) -> str:
        return f"{name}_{self.kind}"

    def hand(self) -> Any:
        return self.table.hands.order_by("-number").first()

    def next_action(self, hand: Any) -> dict[str, Any]:
        """The scripted hand: the first to act on a street bets (raises preflop), the others
        call, so every street has six actions."""
        from cardroom.tables.services import engine_state

        state = engine_state(hand)
        seat = state.to_act
        expect_that(f"{hand}: a seat to act", seat is not None, state.street)
        big = hand.game["big_blind"]
        if state.street == "preflop" and state.current_bet == big:
            return {"seat": seat, "action": "raise", "to": 3 * big}
        if state.current_bet == 0:
            return {"seat": seat, "action": "bet", "to": 2 * big}
        return {"seat": seat, "action": "call"}

    def act_by_service(self, hand: Any) -> None:
        from cardroom.tables.services import record_action

        entry = self.next_action(hand)
        record_action(hand=hand, by=self.director, expected_seq=hand.seq, **entry)
        hand.refresh_from_db()

    def act_timed(self, hand: Any, door: str, length: int) -> None:
        entry = self.next_action(hand)
        if door == "htmx":
            url = f"/hands/{hand.pk}/act/"
            data = {"expected_seq": hand.seq, **entry}
            response = self.figures.timed(
                self.family(f"action_htmx_{length}"),
                lambda: self.browser.post(url, data, HTTP_HX_REQUEST="true"),
            )
            expect_response(f"POST {url}", response, contains='id="desk"')
        else:
            url = f"/api/v1/hands/{hand.pk}/actions/"
            body = {"expected_seq": hand.seq, **entry}
            response = self.figures.timed(
                self.family(f"action_api_{length}"),
                lambda: self.api.post(url, body, format="json"),
            )
            expect_response(f"POST {url}", response, statuses=(201,), contains='"betting":')
        hand.refresh_from_db()
        expect_that(f"{hand}: the action went in", hand.actions.count() == length + 1)

    def proposal(self) -> str:
        url = f"/api/v1/tables/{self.table.pk}/next-hand/"
        response = self.figures.timed(self.family("proposal_api"), lambda: self.api.get(url))
        text = expect_response(f"GET {url}", response, contains='"version":')
        return str(json.loads(text)["version"])

    def deal(self, door: str, version: str) -> Any:
        before = self.hand()
        if door == "htmx":
            url = f"/tables/{self.table.number}/desk/next/"
            response = self.figures.timed(
                self.family("deal_htmx"),
                lambda: self.browser.post(url, {"version": version}, HTTP_HX_REQUEST="true"),
            )
            expect_response(f"POST {url}", response, contains='id="desk"')
        else:
            url = f"/api/v1/tables/{self.table.pk}/next-hand/"
            response = self.figures.timed(
                self.family("deal_api"),
                lambda: self.api.post(url, {"version": version}, format="json"),
            )
            expect_response(f"POST {url}", response, statuses=(201,), contains='"betting":')
        hand = self.hand()
        expect_that(f"{url}: a new hand", hand is not None and hand != before, hand)
        return hand

    def award(self, hand: Any, door: str, winner: int) -> None:
        others = [e["seat"] for e in hand.seats if e["seat"] != winner]
        if door == "htmx":
            url = f"/hands/{hand.pk}/award/"
            data = {"expected_seq": hand.seq, "1-high-0": winner}
            response = self.figures.timed(
                self.family("award_htmx"),
                lambda: self.browser.post(url, data, HTTP_HX_REQUEST="true"),
            )
            expect_response(f"POST {url}", response, contains='id="desk"')
        else:
            url = f"/api/v1/hands/{hand.pk}/award/"
            body = {"expected_seq": hand.seq, "showdown": {"ranking": [[winner], others]}}
            response = self.figures.timed(
                self.family("award_api"), lambda: self.api.post(url, body, format="json")
            )
            expect_response(f"POST {url}", response, contains='"awarded_at":"')
        hand.refresh_from_db()
        expect_that(f"{hand}: awarded", hand.awarded_at is not None)

    def play_hands(self, count: int) -> None:
        """``count`` hands, each dealt, played to its showdown and awarded; the doors
        alternate hand by hand (htmx, then the API)."""
        for number in range(count):
            door = ("htmx", "api")[number % 2]
            hand = self.deal(door, self.proposal())
            for length in range(HAND_ACTIONS):
                if length in LENGTHS:
                    self.act_timed(hand, door, length)
                else:
                    self.act_by_service(hand)
            expect_that(f"{hand}: at the showdown", hand.actions.count() == HAND_ACTIONS)
            # Each player wins in turn: no stack runs dry however many hands are played.
            self.award(hand, door, winner=hand.seats[number % PLAYERS]["seat"])


def cash_table(manager: Any) -> Any:
    """A cash table with six players seated from its seat map."""
    from cardroom.seats import services as players
    from cardroom.tables.services import create_table

    table = create_table(
        by=manager, number=1, status="open", seats=PLAYERS, small_blind=1, big_blind=2,
        min_buy_in=40, max_buy_in=1000,
    )  # fmt: skip
    for seat in range(1, PLAYERS + 1):
        player = players.find_or_create_player(name=f"Cash Player {seat}", by=manager)
        players.seat_player(table=table, player=player, seat=seat, buy_in=1000, by=manager)
    return table


def tournament_table(director: Any) -> Any:
    """A tournament's only table, its six entrants drawn to it, registration closed."""
    from cardroom.tables.choices import TableKind
    from cardroom.tables.models import Table
    from tournaments.draw_services import draw_initial_seating
    from tournaments.eliminations import close_registration
    from tournaments.setup import create_tournament, register_entrants

    room = Table.objects.create(number=101, kind=TableKind.TOURNAMENT, status="open", seats=9)
    tournament = create_tournament(
        by=director, name="Bench desk", tables=[room], seats_per_table=PLAYERS,
        levels=[{"small_blind": 100, "big_blind": 200, "ante": 0, "minutes": 60}],
    )  # fmt: skip
    register_entrants(
        tournament=tournament, names=[f"Entrant {n}" for n in range(1, PLAYERS + 1)], by=director
    )
    draw_initial_seating(tournament=tournament, by=director)
    close_registration(tournament=tournament, by=director)
    return room


def bench_desk(hands: int | None = None) -> dict[str, float]:
    from django.contrib.auth.models import Group, User

    from cardroom.core.roles import Role

    hands = hands or sized(16, 2)
    manager, _ = User.objects.get_or_create(username="bench-desk-manager")
    manager.groups.add(Group.objects.get_or_create(name=Role.FLOOR_MANAGER.value)[0])
    director, _ = User.objects.get_or_create(username="bench-desk-director")
    director.groups.add(Group.objects.get_or_create(name=Role.DIRECTOR.value)[0])
    figures = Figures()
    desks = [
        Desk("cash", cash_table(manager), figures),
        Desk("tournament", tournament_table(director), figures),
    ]
    # Warm-up hands at each table first, not counted: a table's first hand draws for its
    # button, and the first request through each door loads templates, URL resolvers and
    # serializers (quick mode: one hand, whose figures only show that every family ran and
    # answered as it should).
    for desk in desks:
        desk.play_hands(sized(2, 1))
    figures.clear()
    for desk in desks:
        desk.play_hands(hands)
    result = figures.result()
    missing = [
        f"{family}_{kind}"
        for family in FAMILIES
        for kind in KINDS
        if f"{family}_{kind}_queries" not in result
    ]
    if missing:
        raise WrongAnswer(f"nothing measured for {', '.join(missing)}")
    return result


def run() -> dict[str, float]:
    _setup()
    import resource

    figures = bench_desk()
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


def table(result: dict[str, Any]) -> str:
    """Per family and table: the queries of one request and its CPU milliseconds, this
    process's (``ms``) and, on PostgreSQL, its backend's (``pg ms``; "-" on SQLite)."""
    head = "".join(f"{kind + ' q':>14}{'ms':>8}{'pg ms':>8}" for kind in KINDS)
    lines = [f"{'family':<18}{head}"]
    for family in FAMILIES:
        cells = ""
        for kind in KINDS:
            key = f"{family}_{kind}"
            backend = result.get(f"{key}_pg_cpu_ms")
            pg = "-" if backend is None else f"{backend:.2f}"
            cells += f"{result[f'{key}_queries']:>14}{result[f'{key}_cpu_ms']:>8.2f}{pg:>8}"
        lines.append(f"{family:<18}{cells}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(run()))
