"""Fault drills on the production stack (gunicorn + PostgreSQL + Redis), scripted and repeatable.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_load \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/5 .venv/bin/python bench/drills.py

1. Redis down: the broker is stopped; pages and the betting API keep answering, /healthz says
   the broker is down (200 "degraded"), and it comes back when Redis does.
2. PostgreSQL restart under load: hand actions keep being entered at 10 tables while the
   cluster restarts; requests in flight get a clean 503 (never a 500), the app recovers by
   itself, and no action is lost or written twice (each carries its expected sequence number).
   A director logs rulings meanwhile, retrying each unanswered post with its idempotency key
   until it is answered: every ruling is stored exactly once.
3. Celery worker killed holding a clock tick: nothing happens while no worker runs; a new
   worker (with its beat) moves the level on within the sweep's 5 s, although the broker keeps
   the lost tick for the 3-hour visibility timeout, and the level moves exactly once.

Needs root on the machine for ``pg_ctlcluster`` and ``redis-server`` (as CI has). It stops the
machine's own Redis and restarts its PostgreSQL cluster: never run it beside anything else
using them (another test run, another session).

Every answer is checked (``bench.harness.expect``): the health, the betting API and the tables
while Redis is down; each hand read (200 with its ``seq``) and each action (201, 409 stale or
a clean 503 while the database restarts); each ruling post (201, 200 replayed, or 503). Any
other answer (a 500, a log-in page) stops the drill with its message. ``--quick``
(``BENCH_QUICK=1``): 5 seconds of desk traffic around the restart instead of 12.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import stack
from bench.harness import WrongAnswer, expect, set_quick, sized
from bench.load import PORT, Client, seed

REDIS_START = [
    "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379",
    "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log",
]  # fmt: skip


def pg_cluster() -> str:
    return sorted(os.listdir("/etc/postgresql"))[-1]


def drill_redis(client: Client) -> dict[str, object]:
    subprocess.run(["redis-cli", "-p", "6379", "shutdown", "nosave"], check=False)
    time.sleep(0.5)
    status, raw = client.request("GET", "/healthz")
    health = json.loads(expect("GET /healthz", status, raw, contains='"status":'))
    status, raw = client.request(
        "POST", "/api/v1/betting/evaluate",
        {"game": {"structure": "no_limit", "small_blind": 1, "big_blind": 2}, "button": 1,
         "seats": [{"seat": 1, "stack": 100}, {"seat": 2, "stack": 100}], "actions": []},
    )  # fmt: skip
    expect("POST /api/v1/betting/evaluate", status, raw, contains='"to_act":')
    evaluate = status
    status, raw = client.request("GET", "/api/v1/tables/")
    expect("GET /api/v1/tables/", status, raw, contains='"number":')
    tables = status
    subprocess.run(REDIS_START, check=True)
    recovered = stack.wait_healthy(client)
    return {"health_while_down": health["status"], "broker_ok": health["broker"]["ok"],
            "evaluate": evaluate, "tables_api": tables, "recovered_s": round(recovered, 2)}  # fmt: skip


def drill_postgres(seeded: dict[str, object], client: Client) -> dict[str, object]:
    hands = list(seeded["hands"])[:10]  # type: ignore[call-overload]
    statuses: Counter[int] = Counter()
    accepted: Counter[int] = Counter()
    stop = time.perf_counter() + sized(12, 5)
    wrong: list[str] = []

    def checked(what: str, status: int, raw: bytes, ok: tuple[int, ...], piece: str) -> None:
        """A 503 while the database restarts, or a refused connection, is the drill's point;
        anything else but ``ok`` with ``piece`` is a wrong answer."""
        if status in (503, 599):
            return
        try:
            expect(what, status, raw, statuses=ok, contains=piece)
        except WrongAnswer as problem:
            wrong.append(str(problem))

    def desk(hand: int) -> None:
        me = Client(str(seeded["director"]))
        while time.perf_counter() < stop:
            status, raw = me.request("GET", f"/api/v1/hands/{hand}/")
            statuses[status] += 1
            checked(f"GET /api/v1/hands/{hand}/", status, raw, (200,), '"seq":')
            if status != 200:
                time.sleep(0.2)
                continue
            data = json.loads(raw)
            betting = data.get("betting") or {}
            if not betting.get("to_act"):
                return
            action = "check" if betting["options"]["check"] else "call"
            body = {"expected_seq": data["seq"], "seat": betting["to_act"], "action": action}
            status, raw = me.request("POST", f"/api/v1/hands/{hand}/actions/", body)
            statuses[status] += 1
            checked(
                f"POST /api/v1/hands/{hand}/actions/",
                status,
                raw,
                (201, 409),
                '"code":"stale"' if status == 409 else '"seq":',
            )
            if status == 201:
                accepted[hand] += 1
            time.sleep(0.05)

    rulings: Counter[str] = Counter()
    situations: list[str] = []

    def clerk() -> None:
        me = Client(str(seeded["director"]))
        table = next(iter(seeded["tables"]))  # type: ignore[call-overload]
        while time.perf_counter() < stop:
            key = str(uuid.uuid4())
            body = {"table": table, "situation": f"PG drill {key}", "decision": "Call stands.",
                    "citations": [{"rule": "TDA-45", "note": ""}]}  # fmt: skip
            situations.append(body["situation"])
            while True:  # the same post, same key, until it is answered
                status, raw = me.request(
                    "POST", "/api/v1/rulings/", body, headers={"Idempotency-Key": key}
                )
                rulings[str(status)] += 1
                checked("POST /api/v1/rulings/", status, raw, (200, 201), body["situation"])
                if status in (200, 201) or time.perf_counter() > stop + 30:
                    break
                time.sleep(0.2)
            time.sleep(0.2)

    threads = [threading.Thread(target=desk, args=(h,)) for h in hands]
    threads.append(threading.Thread(target=clerk))
    for thread in threads:
        thread.start()
    time.sleep(3)
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", pg_cluster(), "main", "restart"], check=True
    )
    for thread in threads:
        thread.join()
    if wrong:
        raise WrongAnswer(f"{len(wrong)} wrong answers during the restart; the first: {wrong[0]}")
    recovered = stack.wait_healthy(client)
    # Every 201 is exactly one stored action, and the sequence numbers have no gaps or repeats.
    from django.db import connection

    from cardroom.rulings.models import Ruling
    from cardroom.tables.models import Hand

    connection.close()  # this process's own connection died with the restart too
    stored, gaps = 0, 0
    for hand in Hand.objects.filter(pk__in=hands):
        seqs = list(hand.actions.values_list("seq", flat=True))
        stored += len(seqs)
        gaps += int(seqs != list(range(1, len(seqs) + 1)))
    # stored - accepted: committed, but the answer died with the connection. A retry carries the
    # same expected_seq and gets 409, so nothing is written twice (unique (hand, seq) too).
    stored_rulings = Counter(
        Ruling.objects.filter(situation__in=situations).values_list("situation", flat=True)
    )
    return {"ruling_posts": dict(rulings), "rulings_meant": len(situations),
            "rulings_stored_once": sum(1 for s in situations if stored_rulings[s] == 1),
            "rulings_lost_or_doubled": sum(1 for s in situations if stored_rulings[s] != 1),
            "statuses": dict(statuses), "accepted_201": sum(accepted.values()),
            "stored_actions": stored, "lost_acknowledgements": stored - sum(accepted.values()),
            "hands_with_gaps_or_repeats": gaps, "recovered_s": round(recovered, 2)}  # fmt: skip


def drill_celery(env: dict[str, str]) -> dict[str, object]:
    """A worker holding a clock tick is killed (SIGKILL, no goodbye) before the tick is due. The
    level must not move while no worker runs; a new worker's beat sweeps the running clocks
    (every 5 s) and the level moves exactly once, long before the broker would hand the lost
    tick back (the 3-hour visibility timeout)."""
    import signal

    from django.contrib.auth.models import User
    from django.db import connection

    from cardroom.tables.services import create_table
    from tournaments.clock.services import start_clock
    from tournaments.models import ClockEvent, Tournament
    from tournaments.setup import create_tournament

    manager = User.objects.get(username="manager")
    number = 900 + Tournament.objects.count()
    table = create_table(by=manager, number=number, kind="tournament", status="open",
                         small_blind=25, big_blind=50, min_buy_in=50, max_buy_in=50)  # fmt: skip
    levels = [{"small_blind": 25, "big_blind": 50, "seconds": 4},
              {"small_blind": 50, "big_blind": 100, "seconds": 600}]  # fmt: skip
    tournament = create_tournament(
        by=manager, name=f"Drill {number}", tables=[table], levels=levels
    )
    first = stack.start_worker(env)
    time.sleep(4)  # the worker is up
    start_clock(tournament=tournament, by=manager)  # queues the tick, due in 4 s
    time.sleep(1.5)  # the worker has reserved it (unacknowledged)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    time.sleep(5)  # the tick is now due, and nobody runs it
    connection.close()
    before = Tournament.objects.get(pk=tournament.pk).level_number
    second = stack.start_worker(env)
    waited = 0.0
    try:
        while waited < 40:
            connection.close()
            if Tournament.objects.get(pk=tournament.pk).level_number == 2:
                break
            time.sleep(0.5)
            waited += 0.5
    finally:
        stack.stop([second], seconds=30)
    after = Tournament.objects.get(pk=tournament.pk).level_number
    ticks = ClockEvent.objects.filter(tournament=tournament, action="tick").count()
    return {"level_while_no_worker": before, "level_after_new_worker": after,
            "tick_events": ticks, "redelivered_after_s": waited}  # fmt: skip


def main() -> int:
    if "--quick" in sys.argv[1:]:
        set_quick()
    env = stack.production_env("drill")  # the 3-hour visibility timeout: the sweep recovers
    os.environ.update(env)
    stack.django_setup()
    seeded = seed()
    with stack.running(env, PORT, worker=False):
        client = Client(str(seeded["staff"]))
        print("redis down:", drill_redis(client))
        print("postgres restart:", drill_postgres(seeded, client))
        print("celery worker killed:", drill_celery(env))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
