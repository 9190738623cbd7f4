"""A bounded load test on the production stack: gunicorn (2 workers) + PostgreSQL + Redis +
a Celery worker, all on loopback, driven for a fixed time by a mix of floor traffic.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_load \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/load.py --seconds 60

It creates the database if needed, migrates, seeds 40 open cash tables with hands in progress,
a tournament of 36 players on 8 tables and the demo users, starts gunicorn and a worker, runs
the mix (the tournament loses a player every 4 s and breaks three tables with the double-blind
draw while the floor is busy; each change queues a balancing check the Celery worker runs),
stops them, and prints per kind of request: count, throughput, p50/p95/p99 latency (ms) and
errors (5xx or refused connections; a 409 on a stale hand step is the protocol working,
counted apart), then how many balancing checks the worker ran.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import threading
import time
from collections import defaultdict
from html import unescape
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import stack

PORT = 8765
TABLES = 40


def seed() -> dict[str, Any]:
    """40 open tables with a hand in progress each; tokens for a director and staff."""
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from cardroom.models import Hand, HandStatus, Table
    from cardroom.services import create_table, start_hand, void_hand

    call_command("migrate", verbosity=0)
    call_command("demo_data", verbosity=0)
    manager = User.objects.get(username="manager")
    director = User.objects.get(username="director")
    staff = User.objects.get(username="staff")
    hands = []
    for number in range(101, 101 + TABLES):
        table = Table.objects.filter(number=number).first() or create_table(
            by=manager, number=number, status="open", small_blind=1, big_blind=2,
            min_buy_in=40, max_buy_in=200,
        )  # fmt: skip
        for hand in table.hands.filter(state=HandStatus.IN_PROGRESS):
            void_hand(hand=hand, by=manager, expected_seq=hand.seq, reason="load test reset")
        seats = [{"seat": s, "stack": 100000} for s in range(1, 10)]
        hands.append(start_hand(table=table, by=director, button=1, seats=seats).pk)
    tournament = seed_tournament(manager, director)
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()  # the dashboards are pages: they poll with a logged-in session
    session[SESSION_KEY] = str(staff.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = staff.get_session_auth_hash()
    session.save()
    return {
        "session": session.session_key,
        "director": Token.objects.get_or_create(user=director)[0].key,
        "staff": Token.objects.get_or_create(user=staff)[0].key,
        "hands": hands,
        "tables": list(Table.objects.filter(number__gte=101).values_list("number", flat=True)),
        "hand_model": Hand,
        "tournament": tournament.pk,
        "entrants": list(tournament.entrants.values_list("number", flat=True)),
    }


def seed_tournament(manager: Any, director: Any) -> Any:
    """A new tournament each run: 36 players drawn over 8 tournament tables (room 201-208)."""
    from cardroom.models import Table
    from cardroom.services import create_table
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import Tournament, TournamentStatus
    from tournaments.setup import create_tournament, register_entrants

    # Earlier runs' tournaments are over: their tables are free again.
    Tournament.objects.filter(name__startswith="Load test").update(status=TournamentStatus.COMPLETE)
    numbers = range(201, 201 + BREAK_TABLES[0])
    for number in numbers:
        if not Table.objects.filter(number=number).exists():
            create_table(
                by=manager, number=number, status="open", kind="tournament", small_blind=100,
                big_blind=200, min_buy_in=2000, max_buy_in=20000,
            )  # fmt: skip
    tournament = create_tournament(
        by=director, name=f"Load test {time.strftime('%Y-%m-%d %H:%M:%S')}",
        tables=list(Table.objects.filter(number__in=numbers)),
        levels=[{"small_blind": 100, "big_blind": 200, "minutes": 20}],
    )  # fmt: skip
    register_entrants(
        tournament=tournament, names=[f"Player {n}" for n in range(1, 37)], by=director
    )
    draw_initial_seating(tournament=tournament, by=director)
    return tournament


def balance_checks_run(tournament_id: int) -> int:
    from tournaments.models import BalanceCheck

    return BalanceCheck.objects.filter(tournament_id=tournament_id).count()


def poller_url(html: bytes) -> str | None:
    """The poll the page (then each answer) gives the browser: ``#poller``'s hx-get."""
    found = re.search(rb'id="poller" hx-get="([^"]+)"', html)
    return unescape(found.group(1).decode()) if found else None


class Client(stack.Client):
    """A device talking to the load test's server."""

    def __init__(self, token: str | None = None, session: str | None = None) -> None:
        super().__init__(PORT, token=token, session=session)


EVALUATE = {
    "game": {"structure": "no_limit", "small_blind": 100, "big_blind": 200},
    "button": 6,
    "seats": [{"seat": n, "stack": 20000} for n in range(1, 10)],
    "actions": [{"seat": 9, "action": "raise", "to": 600}, {"seat": 1, "action": "call"}],
}
SEARCHES = ["multiple chips", "straddle", "TDA 45", "re-opening", "oversized chip", "side pot"]


#: The Saturday-night mix: kind -> (devices, seconds between requests of one device).
MIX = {
    # 50 open dashboards: each opens the floor page, then polls its partial with the cursor the
    # page, then each answer, gives (as htmx swaps the #poller); page loads count as floor_page.
    "dashboard": (50, 3.0),
    "hand_action": (40, 5.0),  # one desk per table entering actions
    "evaluate": (5, 1.0),
    "search": (2, 1.0),
    "ruling": (1, 5.0),
    "eliminate": (1, 4.0),  # the tournament loses a player every 4 s
    "table_break": (1, 15.0),  # and breaks tables 8, 7 and 6 (double-blind draw, dealt at once)
}
#: The tournament's tables (tournament numbering), the first being how many it starts with.
BREAK_TABLES = (8, 7, 6)


def worker(kind: str, seeded: dict[str, Any], stop: float, record: Any, index: int = 0) -> None:
    director = Client(seeded["director"])
    staff = Client(seeded["staff"])
    browser = Client(session=seeded["session"])
    rng = random.Random(hash(kind) ^ threading.get_ident())
    interval = MIX[kind][1]
    poll_url: str | None = None  # a dashboard's #poller hx-get: filter and cursor
    time.sleep(rng.uniform(0, interval))  # devices don't start in step
    while time.perf_counter() < stop:
        start = time.perf_counter()
        if kind == "dashboard":  # the partial every open dashboard polls
            if poll_url is None:  # the page first, as a browser opens it: it gives the poller
                status, raw = browser.request("GET", "/floor/", headers={"HX-Request": "false"})
                poll_url = poller_url(raw) if status == 200 else None
                record("floor_page", status, (time.perf_counter() - start) * 1000)
                time.sleep(max(0.0, interval * rng.uniform(0.8, 1.2)))
                continue
            status, raw = browser.request("GET", poll_url)
            # The answer's poller replaces the one that asked (htmx swaps it); a failed poll
            # keeps its cursor and is simply tried again.
            poll_url = (poller_url(raw) if status == 200 else None) or poll_url
        elif kind == "evaluate":
            status, _ = staff.request("POST", "/api/v1/betting/evaluate", EVALUATE)
        elif kind == "search":
            status, _ = staff.request(
                "GET", f"/api/v1/rules/?q={rng.choice(SEARCHES).replace(' ', '+')}"
            )
        elif kind == "ruling":
            body = {"table": rng.choice(seeded["tables"]), "situation": "Load test",
                    "decision": "Call stands.", "citations": [{"rule": "TDA-45", "note": ""}]}  # fmt: skip
            status, _ = director.request("POST", "/api/v1/rulings/", body)
        elif kind == "eliminate":
            if not seeded["entrants"]:
                break
            number = seeded["entrants"].pop(rng.randrange(len(seeded["entrants"])))
            status, _ = director.request(
                "POST", f"/api/v1/tournaments/{seeded['tournament']}/entrants/{number}/eliminate/"
            )
        elif kind == "table_break":
            if seeded["breaks_done"] == len(BREAK_TABLES):
                break
            table = BREAK_TABLES[seeded["breaks_done"]]
            seeded["breaks_done"] += 1
            status, _ = director.request(
                "POST", f"/api/v1/tournaments/{seeded['tournament']}/draws/",
                {"kind": "break_table", "table": table, "deal": True},
            )  # fmt: skip
        else:  # a hand action at a random table
            hand = seeded["hands"][index % len(seeded["hands"])]
            status, raw = director.request("GET", f"/api/v1/hands/{hand}/")
            if status == 200:
                data = json.loads(raw)
                options = (data.get("betting") or {}).get("options")
                seat = (data.get("betting") or {}).get("to_act")
                if options and seat:
                    action = "check" if options["check"] else "call"
                    status, _ = director.request(
                        "POST", f"/api/v1/hands/{hand}/actions/",
                        {"expected_seq": data["seq"], "seat": seat, "action": action},
                    )  # fmt: skip
        elapsed = time.perf_counter() - start
        record(kind, status, elapsed * 1000)
        time.sleep(max(0.0, interval * rng.uniform(0.8, 1.2) - elapsed))


def main() -> int:
    global PORT
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--port", type=int, default=PORT)
    args = parser.parse_args()
    PORT = args.port
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("Set DATABASE_URL to a PostgreSQL database (the production stack).", file=sys.stderr)
        return 2
    env = stack.production_env("load-test")
    os.environ.update(env)
    stack.django_setup()
    seeded = seed()
    seeded["breaks_done"] = 0
    with stack.running(env, PORT):
        results: dict[str, list[float]] = defaultdict(list)
        statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        lock = threading.Lock()

        def record(kind: str, status: int, ms: float) -> None:
            with lock:
                results[kind].append(ms)
                statuses[kind][status] += 1

        stop = time.perf_counter() + args.seconds
        threads = [
            threading.Thread(target=worker, args=(kind, seeded, stop, record, i))
            for kind, (devices, _) in MIX.items()
            for i in range(devices)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # Let the worker finish the checks the last changes queued before it is stopped.
        deadline, seen = time.monotonic() + 15, -1
        while time.monotonic() < deadline and seen != balance_checks_run(seeded["tournament"]):
            seen = balance_checks_run(seeded["tournament"])
            time.sleep(2)
    print(
        f"{'kind':12} {'count':>7} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'errors':>7} {'409':>5}"
    )
    for kind, times in sorted(results.items()):
        times.sort()
        q = statistics.quantiles(times, n=100) if len(times) > 1 else [times[0]] * 99
        errors = sum(n for s, n in statuses[kind].items() if s >= 500)
        print(f"{kind:12} {len(times):7} {len(times) / args.seconds:8.1f} {q[49]:8.1f} {q[94]:8.1f}"
              f" {q[98]:8.1f} {errors:7} {statuses[kind].get(409, 0):5}")  # fmt: skip
    print("statuses:", {k: dict(v) for k, v in statuses.items()})
    changes = statuses["eliminate"].get(201, 0) + statuses["table_break"].get(201, 0)
    print(
        f"tournament: {changes} seating changes; balancing checks run by the Celery worker: "
        f"{balance_checks_run(seeded['tournament'])}"
    )
    bad = sum(
        n for kind in statuses.values() for s, n in kind.items() if s >= 500 or s in (400, 403, 422)
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
