"""A bounded load test on the production stack: gunicorn (2 workers) + PostgreSQL + Redis +
a Celery worker, all on loopback, driven for a fixed time by a mix of floor traffic.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_load \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/load.py --seconds 60

It migrates the database, seeds 40 open cash tables with hands in progress,
a tournament of 36 players on 8 tables and the demo users, starts gunicorn and a worker, runs
the mix (the tournament loses a player every 4 s and breaks three tables with the double-blind
draw while the floor is busy; each change queues a balancing check the Celery worker runs),
stops them, and prints per kind of request: count, throughput, p50/p95/p99 latency (ms),
errors (5xx or refused connections) and 409s (a stale hand step: the protocol working), then how
many balancing checks the worker ran.

Every answer is checked (``bench.harness.expect``): its status and a piece of what it is meant
to be (the floor page with its table cards and poller, a poll with its poller, the hand, the
pots, the rules found, the ruling, the elimination, the draw). A redirect to the log-in page,
a refusal or an error page is a wrong answer: the run prints the first ones and exits 1, as it
does when a kind of request was never answered at all. ``--quick`` (or ``BENCH_QUICK=1``): 4
tables, a few devices of each kind for 6 seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import stack
from bench.harness import WrongAnswer, expect, floor_poll_url, set_quick, sized

PORT = 8765


def tables() -> int:
    """The cash tables with a hand in progress (quick: 4)."""
    return sized(40, 4)


def seed() -> dict[str, Any]:
    """40 open tables with a hand in progress each (quick: 4); tokens for a director and
    staff; a session for the dashboards."""
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from cardroom.tables.models import Hand, HandStatus, Table
    from cardroom.tables.services import create_table, start_hand, void_hand

    call_command("migrate", verbosity=0)
    call_command("demo_data", verbosity=0)
    manager = User.objects.get(username="manager")
    director = User.objects.get(username="director")
    staff = User.objects.get(username="staff")
    hands = []
    for number in range(101, 101 + tables()):
        table = Table.objects.filter(number=number).first() or create_table(
            by=manager, number=number, status="open", small_blind=1, big_blind=2,
            min_buy_in=40, max_buy_in=200,
        )  # fmt: skip
        for hand in table.hands.filter(state=HandStatus.IN_PROGRESS):
            void_hand(hand=hand, by=manager, expected_seq=hand.seq, reason="load test reset")
        seats = [{"seat": s, "stack": 100000} for s in range(1, 10)]
        hands.append(start_hand(table=table, by=director, button=1, seats=seats).pk)
    tournament = seed_tournament(manager, director)
    # The dashboards are pages: they poll with a logged-in session, made as a log-in makes it
    # (the configured back-end and session store, whatever they are).
    from django.conf import settings
    from django.test import Client as DjangoClient

    browser = DjangoClient()
    browser.force_login(staff)
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    return {
        "session": session,
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
    from cardroom.tables.models import Table
    from cardroom.tables.services import create_table
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


def mix() -> dict[str, tuple[int, float]]:
    """The Saturday-night mix: kind -> (devices, seconds between requests of one device). Quick
    mode: a few devices, more often, so that every kind is timed within its few seconds."""
    return {
        # 50 open dashboards: each opens the floor page, then polls its partial with the cursor the
        # page, then each answer, gives (as htmx swaps the #poller); page loads count as floor_page.
        "dashboard": sized((50, 3.0), (3, 1.0)),
        "hand_action": sized((40, 5.0), (4, 1.0)),  # one desk per table entering actions
        "evaluate": sized((5, 1.0), (1, 0.5)),
        "search": sized((2, 1.0), (1, 0.5)),
        "ruling": sized((1, 5.0), (1, 1.0)),
        "eliminate": sized((1, 4.0), (1, 1.0)),  # the tournament loses a player every 4 s
        "table_break": sized(
            (1, 15.0), (1, 1.5)
        ),  # and breaks tables 8, 7 and 6 (double-blind draw)
    }


#: The tournament's tables (tournament numbering), the first being how many it starts with.
BREAK_TABLES = (8, 7, 6)
#: What each kind's answers must hold (statuses, pieces of the body); a 409 on a hand step is a
#: stale expected_seq (another desk acted first): the protocol working, counted apart.
ANSWERS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "floor_page": ((200,), ('id="floor-cards"', 'class="card table-card', 'id="poller"')),
    "dashboard": ((200,), ('id="poller"',)),
    "hand": ((200,), ('"seq":', '"betting":')),
    "hand_action": ((201, 409), ('"seq":',)),
    "evaluate": ((200,), ('"to_act":2', '"pots":')),
    "search": ((200,), ('"results":[{', '"citation_id":')),
    "ruling": ((201,), ('"situation":"Load test"',)),
    "eliminate": ((201,), ('"entrant":',)),
    "table_break": ((201,), ('"kind":"break_table"',)),
}
#: A 409 answers a stale hand step with the error's code.
STALE = '"code":"stale"'


def check(answer: str, what: str, status: int, raw: bytes) -> None:
    """``expect`` with the statuses and pieces ``ANSWERS`` gives this kind of answer."""
    statuses, pieces = ANSWERS[answer]
    if status == 409:
        expect(what, status, raw, statuses=statuses, contains=STALE)
    else:
        expect(what, status, raw, statuses=statuses, contains=pieces)


def worker(kind: str, seeded: dict[str, Any], stop: float, record: Any, index: int = 0) -> None:
    director = Client(seeded["director"])
    staff = Client(seeded["staff"])
    browser = Client(session=seeded["session"])
    rng = random.Random(hash(kind) ^ threading.get_ident())
    interval = mix()[kind][1]
    poll_url: str | None = None  # a dashboard's #poller hx-get: filter and cursor
    time.sleep(rng.uniform(0, interval))  # devices don't start in step
    while time.perf_counter() < stop:
        start = time.perf_counter()
        answer, status = kind, 0
        try:
            if kind == "dashboard":  # the partial every open dashboard polls
                if poll_url is None:  # the page first, as a browser opens it: it gives the poller
                    answer = "floor_page"
                    status, raw = browser.request("GET", "/floor/", headers={"HX-Request": "false"})
                    check(answer, "GET /floor/", status, raw)
                    poll_url = floor_poll_url(raw)
                else:
                    status, raw = browser.request("GET", poll_url)
                    check(answer, f"GET {poll_url}", status, raw)
                    # The answer's poller replaces the one that asked (htmx swaps it).
                    poll_url = floor_poll_url(raw)
            elif kind == "evaluate":
                status, raw = staff.request("POST", "/api/v1/betting/evaluate", EVALUATE)
                check(answer, "POST /api/v1/betting/evaluate", status, raw)
            elif kind == "search":
                url = f"/api/v1/rules/?q={rng.choice(SEARCHES).replace(' ', '+')}"
                status, raw = staff.request("GET", url)
                check(answer, f"GET {url}", status, raw)
            elif kind == "ruling":
                body = {"table": rng.choice(seeded["tables"]), "situation": "Load test",
                        "decision": "Call stands.", "citations": [{"rule": "TDA-45", "note": ""}]}  # fmt: skip
                status, raw = director.request("POST", "/api/v1/rulings/", body)
                check(answer, "POST /api/v1/rulings/", status, raw)
            elif kind == "eliminate":
                if not seeded["entrants"]:
                    break
                number = seeded["entrants"].pop(rng.randrange(len(seeded["entrants"])))
                entrant = f"/api/v1/tournaments/{seeded['tournament']}/entrants/{number}"
                # A player holding chips is not put out: the count goes to 0 first, as the
                # desk's last hand would leave it.
                body = {"chips": 0, "reason": "Load test: busted"}
                status, raw = director.request("POST", f"{entrant}/count/", body)
                check(answer, f"POST {entrant}/count/", status, raw)
                status, raw = director.request("POST", f"{entrant}/eliminate/")
                check(answer, f"POST {entrant}/eliminate/", status, raw)
            elif kind == "table_break":
                if seeded["breaks_done"] == len(BREAK_TABLES):
                    break
                table = BREAK_TABLES[seeded["breaks_done"]]
                seeded["breaks_done"] += 1
                url = f"/api/v1/tournaments/{seeded['tournament']}/draws/"
                body = {"kind": "break_table", "table": table, "deal": True}
                status, raw = director.request("POST", url, body)
                check(answer, f"POST {url}", status, raw)
            else:  # a hand action at its table
                hand = seeded["hands"][index % len(seeded["hands"])]
                status, raw = director.request("GET", f"/api/v1/hands/{hand}/")
                check("hand", f"GET /api/v1/hands/{hand}/", status, raw)
                data = json.loads(raw)
                options = (data.get("betting") or {}).get("options")
                seat = (data.get("betting") or {}).get("to_act")
                if options and seat:
                    action = "check" if options["check"] else "call"
                    url = f"/api/v1/hands/{hand}/actions/"
                    body = {"expected_seq": data["seq"], "seat": seat, "action": action}
                    status, raw = director.request("POST", url, body)
                    check(answer, f"POST {url}", status, raw)
        except WrongAnswer as wrong:
            elapsed = time.perf_counter() - start
            record(answer, status, elapsed * 1000, str(wrong))
            # A wrong page keeps no cursor: the dashboard opens the page again, as a person would.
            poll_url = None
        else:
            elapsed = time.perf_counter() - start
            record(answer, status, elapsed * 1000, None)
        time.sleep(max(0.0, interval * rng.uniform(0.8, 1.2) - elapsed))


def main() -> int:
    global PORT
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=None, help="default 60 (quick: 6)")
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--quick", action="store_true", help="4 tables, a few devices, 6 s")
    args = parser.parse_args()
    if args.quick:
        set_quick()
    seconds = args.seconds or sized(60, 6)
    PORT = args.port
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("Set DATABASE_URL to a PostgreSQL database (the production stack).", file=sys.stderr)
        return 2
    env = stack.production_env("load-test")
    os.environ.update(env)
    stack.django_setup()
    started = time.perf_counter()
    seeded = seed()
    seeded["breaks_done"] = 0
    stack.collectstatic(env)  # the pages' static URLs come from its manifest
    print(f"seeded in {time.perf_counter() - started:.0f} s", flush=True)
    with stack.running(env, PORT):
        results: dict[str, list[float]] = defaultdict(list)
        statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        wrong: dict[str, list[str]] = defaultdict(list)
        lock = threading.Lock()

        def record(kind: str, status: int, ms: float, problem: str | None) -> None:
            with lock:
                statuses[kind][status] += 1
                if problem is None:
                    results[kind].append(ms)
                else:
                    wrong[kind].append(problem)

        stop = time.perf_counter() + seconds
        threads = [
            threading.Thread(target=worker, args=(kind, seeded, stop, record, i))
            for kind, (devices, _) in mix().items()
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
        print(f"{kind:12} {len(times):7} {len(times) / seconds:8.1f} {q[49]:8.1f} {q[94]:8.1f}"
              f" {q[98]:8.1f} {errors:7} {statuses[kind].get(409, 0):5}")  # fmt: skip
    print("statuses:", {k: dict(v) for k, v in statuses.items()})
    changes = statuses["eliminate"].get(201, 0) + statuses["table_break"].get(201, 0)
    print(
        f"tournament: {changes} seating changes; balancing checks run by the Celery worker: "
        f"{balance_checks_run(seeded['tournament'])}"
    )
    # Every kind of request was timed, and every answer was the one meant.
    unmeasured = [kind for kind in ("floor_page", *mix()) if not results[kind]]
    for kind, problems in sorted(wrong.items()):
        print(
            f"!! {len(problems)} wrong answers to {kind}; the first: {problems[0]}", file=sys.stderr
        )
    if unmeasured:
        print(f"!! nothing measured for {', '.join(unmeasured)}", file=sys.stderr)
    return 1 if wrong or unmeasured else 0


if __name__ == "__main__":
    raise SystemExit(main())
