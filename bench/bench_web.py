"""Web-side figures: the evaluate endpoint against a trivial DRF endpoint on the same
payload, and the floor dashboard's queries and render time at 10, 100 and 400 tables: the
page, and the polls a browser on it makes with the cursor the page (then each answer) gives:
quiet (``dashboard_updates_<n>_ms``), after one change, and with an unreadable cursor (the grid).
The room is cash tables, half with a hand in progress (no rulings, no tournament playing).
Every timed request is checked (``bench.harness.expect``): its status and a piece of the answer
it means to measure. ``BENCH_QUICK=1``: a few requests at 4 tables.

Runs against the configured database (``DATABASE_URL``; a scratch SQLite file otherwise).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
if "DATABASE_URL" not in os.environ:  # a fresh scratch database each run
    (ROOT / "var" / "bench.sqlite3").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = "sqlite:///var/bench.sqlite3"
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost")

from bench.harness import WrongAnswer, expect_response, floor_poll_url, sized  # noqa: E402

PAYLOAD = {
    "game": {"structure": "no_limit", "small_blind": 100, "big_blind": 200},
    "button": 6,
    "seats": [{"seat": n, "stack": 20000} for n in range(1, 10)],
    "actions": [
        {"seat": 9, "action": "raise", "to": 600},
        {"seat": 1, "action": "call"},
        {"seat": 2, "action": "fold"},
        {"seat": 3, "action": "raise", "to": 1800},
        {"seat": 4, "action": "fold"},
        {"seat": 5, "action": "call"},
    ],
}


def _setup() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _timed(fn: Any, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e6)
    return times


def bench_evaluate(repeat: int | None = None) -> dict[str, float]:
    from django.urls import path
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.test import APIClient
    from rest_framework.views import APIView

    import cardroom.urls

    repeat = repeat or sized(2000, 20)

    class Echo(APIView):
        """The trivial endpoint: same parsing and rendering, no work."""

        permission_classes = [AllowAny]
        authentication_classes: list[Any] = []

        def post(self, request: Any) -> Response:
            return Response({"seats": len(request.data["seats"])})

    if not any(getattr(p, "name", "") == "bench-echo" for p in cardroom.urls.urlpatterns):
        cardroom.urls.urlpatterns.append(path("bench/echo", Echo.as_view(), name="bench-echo"))
    client = APIClient()
    # Every request from a client address of its own: the rate limit's cache read and write
    # are paid (as by every client) and no answer is a 429.
    addresses = (f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}" for n in range(1, 10**6))

    def evaluate() -> None:
        response = client.post(
            "/api/v1/betting/evaluate", PAYLOAD, format="json", REMOTE_ADDR=next(addresses)
        )
        # Seat 1 faces seat 3's raise to 1,800 (the payload's last actions).
        expect_response(
            "POST /api/v1/betting/evaluate", response, contains=('"to_act":6', '"pots":')
        )

    def echo() -> None:
        response = client.post("/bench/echo", PAYLOAD, format="json")
        expect_response("POST /bench/echo", response, contains='{"seats":9}')

    evaluate()  # warm up
    echo()
    evaluated, echoed = _timed(evaluate, repeat), _timed(echo, repeat)
    e, t = statistics.median(evaluated), statistics.median(echoed)
    return {"evaluate_us_p50": e, "trivial_us_p50": t, "evaluate_over_trivial": e / t}


def worst_bodies() -> dict[str, dict[str, Any]]:
    """The worst requests the betting contract's limits allow (12 seats, 1,000 actions, every
    number up to 10^15 and the stacks' total up to 2^53 - 1, lists of at most 1,000 chips, a
    body of at most 256 KB): twelve stacks as deep as that total allows, a 1,000-raise
    war among twelve players, the same hand read by the chip reader with 1,000 chips pushed
    over 1,000 left in front (judged by the 50% standard), and twelve all-ins for different
    amounts (twelve pots)."""
    seats = [{"seat": n, "stack": (2**53 - 1) // 12 - n} for n in range(1, 13)]
    order = [*range(4, 13), 1, 2, 3]
    raises = [{"seat": order[i % 12], "action": "raise", "to": 400 + 200 * i} for i in range(1000)]
    game = {"structure": "no_limit", "small_blind": 100, "big_blind": 200}
    war = {"game": game, "button": 1, "seats": seats, "actions": raises}
    # Seat 8 faces a raise to 200,200 with 198,000 in front: 1,000 chips of 198 left there and
    # 1,000 of 3 pushed out make a raise to 201,000.
    reader = {**war, "physical": {"chips": [3] * 1000, "prior_chips": [198] * 1000}}
    all_in = {
        "game": game,
        "button": 1,
        "seats": seats,
        "actions": [{"seat": seat, "action": "all_in"} for seat in order],
    }
    return {"raise_war": war, "chip_reader": reader, "all_ins": all_in}


#: What each worst request's answer must hold: the hand read to its end, not a refusal.
WORST_ANSWERS = {
    "raise_war": ('"to_act":8', '"call":2200'),
    "chip_reader": ('"action":"raise"', '"to":201000'),
    "all_ins": ('"street":"showdown"', '"eligible":[1,2]}'),
}


def bench_worst_request(repeat: int | None = None) -> dict[str, float]:
    """Time the worst requests the limits allow through the whole stack (parse, throttle,
    engine, render): the work per request is bounded, and this says by how much."""
    from django.conf import settings
    from rest_framework.test import APIClient

    repeat = repeat or sized(20, 2)
    rates = settings.CARDROOM_THROTTLE_RATES
    settings.CARDROOM_THROTTLE_RATES = {"betting": None, "rulebook": None}  # the engine's work
    client = APIClient()
    figures: dict[str, float] = {}
    for name, body in worst_bodies().items():
        raw = json.dumps(body).encode()
        assert len(raw) <= 262_144, (name, len(raw))
        path = "interpret" if "physical" in body else "evaluate"
        url = f"/api/v1/betting/{path}"

        def post(url: str = url, raw: bytes = raw, name: str = name) -> int:
            response = client.post(url, raw, content_type="application/json")
            expect_response(f"POST {url} ({name})", response, contains=WORST_ANSWERS[name])
            return len(response.content)

        size = post()
        times = _timed(post, repeat)
        figures[f"worst_{name}_ms_p50"] = statistics.median(times) / 1000
        figures[f"worst_{name}_ms_max"] = max(times) / 1000
        figures[f"worst_{name}_answer_bytes"] = size
    settings.CARDROOM_THROTTLE_RATES = rates
    return figures


def age_everything(minutes: int = 5) -> None:
    """Stamp every card's rows some minutes ago: the room as a dashboard sees it between two
    changes. The feed last: the updates here write changes of their own."""
    from django.utils import timezone

    from cardroom.core.changes import Change
    from cardroom.tables.models import Hand, Table
    from tournaments.models import SeatAssignment, Tournament

    past = timezone.now() - timedelta(minutes=minutes)
    Table.objects.update(updated_at=past)
    Hand.objects.update(updated_at=past)
    SeatAssignment.objects.update(started_at=past)
    SeatAssignment.objects.filter(ended_at__isnull=False).update(ended_at=past)
    Tournament.objects.update(updated_at=past)
    Change.objects.update(at=past)


def bench_dashboard(sizes: tuple[int, ...] | None = None) -> dict[str, float]:
    """The page, then the polls a browser on it makes: each with the cursor the page (then the
    answer before it) gave, as htmx does. Figures per size: the page's queries and time; the
    quiet poll's (nothing changed since the last one: the usual poll); a poll after one table
    changed (one card sent); a poll with a cursor the server cannot read (the whole grid).
    Every answer is checked: the page with a card per table and its poller, a quiet poll with
    its poller and no card, a change with that one card, the grid with every card."""
    from django.contrib.auth.models import Group, User
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from cardroom.core.roles import Role
    from cardroom.tables.models import Table
    from cardroom.tables.services import create_table, record_action, set_table_status, start_hand

    sizes = sizes or sized((10, 100, 400), (4,))
    user, _ = User.objects.get_or_create(username="bench-manager")
    user.groups.add(Group.objects.get_or_create(name=Role.FLOOR_MANAGER.value)[0])
    client = Client()
    client.force_login(user)

    def get(url: str, cards: int | None, *pieces: str) -> str:
        """The answer to ``url``: a 200 with the poller, ``cards`` table cards (None: any)."""
        html = expect_response(f"GET {url}", client.get(url), contains=('id="poller"', *pieces))
        found = html.count('class="card table-card')
        if cards is not None and found != cards:
            raise WrongAnswer(f"GET {url} sent {found} table cards, not {cards}: {html[:400]!r}")
        return html

    def counted(url: str, cards: int | None, *pieces: str) -> tuple[int, str]:
        reset_queries()  # the query log is capped; a full one would count nothing
        with CaptureQueriesContext(connection) as captured:
            html = get(url, cards, *pieces)
        return len(captured), html

    figures: dict[str, float] = {}
    for size in sizes:
        for number in range(Table.objects.count() + 1, size + 1):
            table = create_table(by=user, number=number, status="open", small_blind=1,
                                 big_blind=2, min_buy_in=40, max_buy_in=200)  # fmt: skip
            if number % 2:
                seats = [{"seat": s, "stack": 200} for s in range(1, 7)]
                hand = start_hand(table=table, by=user, button=1, seats=seats)
                record_action(hand=hand, by=user, expected_seq=0, seat=4, action="raise", to=6)
        assert Table.objects.count() == size
        age_everything()
        get("/floor/", size)  # warm up
        page_queries, html = counted("/floor/", size, 'id="floor-cards"')
        poll_url = floor_poll_url(html)
        # The quiet poll sends no card: it would measure something else.
        quiet_queries, answer = counted(poll_url, 0)

        def quiet() -> None:
            nonlocal poll_url
            # The answer's poller replaces the old one.
            poll_url = floor_poll_url(get(poll_url, 0))

        # One change between two polls: the table that changes (no hand there, so it may
        # close) is the same each time, so each poll sends that one card.
        changing = Table.objects.get(number=2)
        change_times: list[float] = []
        for rep in range(sized(21, 3)):
            status = "closed" if changing.status == "open" else "open"
            changing = set_table_status(table=changing, by=user, status=status)
            if rep == 0:
                change_queries, answer = counted(poll_url, 1, 'id="card-2"')
            else:
                start = time.perf_counter()
                answer = get(poll_url, 1, 'id="card-2"')
                change_times.append((time.perf_counter() - start) * 1e6)
            poll_url = floor_poll_url(answer)
        # The change was read by the last poll (the cursor marks the change feed exactly): the
        # next poll is quiet.
        quiet_url = poll_url
        quiet()
        times = _timed(lambda size=size: get("/floor/", size), sized(5, 2))
        quiet_times = _timed(quiet, sized(20, 3))
        stale = re.sub(r"v=[^&]*", "v=1.abcdefabcdef", quiet_url)
        grid_queries, answer = counted(stale, size)
        grid_times = _timed(lambda url=stale, size=size: get(url, size), sized(5, 2))
        figures[f"dashboard_{size}_queries"] = page_queries
        figures[f"dashboard_poll_quiet_{size}_queries"] = quiet_queries
        figures[f"dashboard_poll_one_change_{size}_queries"] = change_queries
        figures[f"dashboard_poll_grid_{size}_queries"] = grid_queries
        figures[f"dashboard_{size}_ms"] = statistics.median(times) / 1000
        figures[f"dashboard_updates_{size}_ms"] = statistics.median(quiet_times) / 1000
        figures[f"dashboard_updates_one_change_{size}_ms"] = statistics.median(change_times) / 1000
        figures[f"dashboard_updates_grid_{size}_ms"] = statistics.median(grid_times) / 1000
    return figures


def run() -> dict[str, float]:
    _setup()
    import resource

    figures = {**bench_evaluate(), **bench_worst_request(), **bench_dashboard()}
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name:36} {value:12.2f}")
