"""Web-side figures: the evaluate endpoint against a trivial DRF endpoint on the same
payload, and the floor dashboard's queries and render time at 10, 100 and 400 tables.

Runs against the configured database (``DATABASE_URL``; a scratch SQLite file otherwise).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
if "DATABASE_URL" not in os.environ:  # a fresh scratch database each run
    (ROOT / "var" / "bench.sqlite3").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = "sqlite:///var/bench.sqlite3"
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost")

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


def bench_evaluate(repeat: int = 2000) -> dict[str, float]:
    from django.urls import path
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.test import APIClient
    from rest_framework.views import APIView

    import cardroom.urls

    class Echo(APIView):
        """The trivial endpoint: same parsing and rendering, no work."""

        permission_classes = [AllowAny]
        authentication_classes: list[Any] = []

        def post(self, request: Any) -> Response:
            return Response({"seats": len(request.data["seats"])})

    if not any(getattr(p, "name", "") == "bench-echo" for p in cardroom.urls.urlpatterns):
        cardroom.urls.urlpatterns.append(path("bench/echo", Echo.as_view(), name="bench-echo"))
    client = APIClient()
    for url in ("/api/v1/betting/evaluate", "/bench/echo"):  # warm up
        assert client.post(url, PAYLOAD, format="json").status_code == 200
    evaluate = _timed(
        lambda: client.post("/api/v1/betting/evaluate", PAYLOAD, format="json"), repeat
    )
    echo = _timed(lambda: client.post("/bench/echo", PAYLOAD, format="json"), repeat)
    e, t = statistics.median(evaluate), statistics.median(echo)
    return {"evaluate_us_p50": e, "trivial_us_p50": t, "evaluate_over_trivial": e / t}


def bench_dashboard(sizes: tuple[int, ...] = (10, 100, 400)) -> dict[str, float]:
    from django.contrib.auth.models import Group, User
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from cardroom.models import Table
    from cardroom.roles import Role
    from cardroom.services import create_table, record_action, start_hand

    user, _ = User.objects.get_or_create(username="bench-manager")
    user.groups.add(Group.objects.get_or_create(name=Role.FLOOR_MANAGER.value)[0])
    client = Client()
    client.force_login(user)
    figures: dict[str, float] = {}
    for size in sizes:
        for number in range(Table.objects.count() + 1, size + 1):
            table = create_table(by=user, number=number, status="open", small_blind=1,
                                 big_blind=2, min_buy_in=40, max_buy_in=200)  # fmt: skip
            if number % 2:
                seats = [{"seat": s, "stack": 200} for s in range(1, 7)]
                hand = start_hand(table=table, by=user, button=1, seats=seats)
                record_action(hand=hand, by=user, expected_seq=0, seat=4, action="raise", to=6)
        client.get("/floor/")
        reset_queries()  # the query log is capped; a full one would count nothing
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/floor/").status_code == 200
        times = _timed(lambda: client.get("/floor/"), 5)
        updates = _timed(
            lambda: client.get("/floor/updates/", {"since": "2100-01-01T00:00:00+00:00"}), 20
        )
        figures[f"dashboard_{size}_queries"] = len(captured)
        figures[f"dashboard_{size}_ms"] = statistics.median(times) / 1000
        figures[f"dashboard_updates_{size}_ms"] = statistics.median(updates) / 1000
    return figures


def run() -> dict[str, float]:
    _setup()
    import resource

    figures = {**bench_evaluate(), **bench_dashboard()}
    figures["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return figures


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name:36} {value:12.2f}")
