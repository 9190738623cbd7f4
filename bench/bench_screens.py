"""The room's public screens, per poll: the public board's live fragment (``/board/live/``) and
the room display's state (the clock on the wall, ``…/clock/display/state/`` by its TV link).

Each is timed as a web process answers it, in-process through Django's request handler (the
middleware included; not the test client, whose per-request signal hooks cost more than a
cached answer): CPU milliseconds (``time.process_time``) and database queries per poll,

- ``unchanged``: nothing changed since the last poll, in the process that built the last answer
  (``board_unchanged_*``) and in another one (``board_other_process_*``: its own copy dropped,
  as a poll landing on another web process), the board's conditional poll (``board_304_*``);
- ``changed``: a change the screen shows committed before each poll (a player added to a list,
  the tournament's clock paused or resumed); the change itself is not timed, and each answer
  is checked to show it.

Every timed answer is checked (``bench.harness.expect_response``): a redirect, an error page or
an answer without what the screen shows stops the run. ``BENCH_QUICK=1``: a small room and a
few polls. Runs against the configured database (``DATABASE_URL``; a scratch SQLite file
otherwise) and the configured cache (the broker's Redis with ``CELERY_BROKER_URL``).
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
if "DATABASE_URL" not in os.environ:  # a fresh scratch database each run
    (ROOT / "var" / "bench-screens.sqlite3").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = "sqlite:///var/bench-screens.sqlite3"
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver,localhost")

from bench.harness import expect_response, expect_that, sized  # noqa: E402


def _setup() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _room(cash_tables: int, waiting: int, entrants: int) -> tuple[Any, Any, Any]:
    """Cash tables with players seated, a list with players waiting, a tournament seated with
    its clock running. Returns the director, the list and the tournament."""
    from django.contrib.auth.models import User

    from cardroom.seats.models import Player, TableSeat, name_key
    from cardroom.tables.choices import TableKind
    from cardroom.tables.models import Table
    from cardroom.waitlists import services as waitlists
    from tournaments import draw_services
    from tournaments.clock.services import start_clock
    from tournaments.setup import create_tournament, register_entrants

    director, _ = User.objects.get_or_create(username="bench-director")
    tables = Table.objects.bulk_create(
        Table(number=n, kind=TableKind.CASH, status="open", seats=9, small_blind=1, big_blind=2)
        for n in range(1, cash_tables + 1)
    )
    players = Player.objects.bulk_create(
        Player(name=f"Cash Player{n}", name_key=name_key(f"Cash Player{n}"))
        for n in range(cash_tables * 6)
    )
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=s + 1, player=players[i * 6 + s], stack=200)
        for i, table in enumerate(tables)
        for s in range(6)
    )
    game_list = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=director
    )
    for n in range(waiting):
        waitlists.add_to_list(game_list=game_list, name=f"Wait P{n}", source="floor", by=director)
    rooms = Table.objects.bulk_create(
        Table(number=1000 + i, kind=TableKind.TOURNAMENT, status="open", seats=9)
        for i in range(-(-entrants // 9))
    )
    tournament = create_tournament(
        by=director,
        name="Bench Main Event",
        tables=rooms,
        levels=[
            {"small_blind": 100, "big_blind": 200, "minutes": 60},
            {"small_blind": 200, "big_blind": 400, "minutes": 60},
        ],
    )
    register_entrants(
        tournament=tournament, names=[f"Entrant {n}" for n in range(entrants)], by=director
    )
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    start_clock(tournament=tournament, by=director)
    return director, game_list, tournament


def _per_poll(
    poll: Callable[[], Any], polls: int, before: Callable[[], None] | None = None
) -> tuple[float, float]:
    """CPU ms and queries per poll over ``polls`` polls; ``before`` runs untimed before each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    gc.collect()
    cpu = 0.0
    queries = 0
    for _ in range(polls):
        if before is not None:
            before()
        with CaptureQueriesContext(connection) as captured:
            started = time.process_time()
            poll()
            cpu += time.process_time() - started
        queries += len(captured.captured_queries)
    return cpu * 1000 / polls, queries / polls


def run() -> dict[str, Any]:
    _setup()
    from django.test import RequestFactory
    from django.test.client import ClientHandler
    from django.urls import reverse

    from cardroom.screens import board
    from tournaments.clock.display import tv_link_token
    from tournaments.clock.services import pause_clock, resume_clock
    from tournaments.models import ClockState, Tournament

    polls = sized(300, 5)
    director, game_list, tournament = _room(sized(100, 4), sized(40, 3), sized(900, 20))
    handler = ClientHandler(enforce_csrf_checks=False)
    factory = RequestFactory()

    def get(url: str, headers: dict[str, str] | None = None) -> Any:
        return handler(factory.get(url, headers=headers).environ)

    live_url = reverse("cardroom:board_live")
    state_url = reverse("tournaments:clock_state", args=[tournament.pk])
    state_url += f"?tv={tv_link_token(tournament)}"
    figures: dict[str, Any] = {}
    last: dict[str, Any] = {}

    def board_poll(statuses: tuple[int, ...] = (200,), inm: str | None = None) -> Any:
        headers = {"If-None-Match": inm} if inm else {}
        response = get(live_url, headers)
        contains = "Bench Main Event" if response.status_code == 200 else ()
        expect_response(f"GET {live_url}", response, statuses=statuses, contains=contains)
        last["board"] = response
        return response

    board_poll()
    board_poll()
    cpu, queries = _per_poll(board_poll, polls)
    figures |= {"board_unchanged_cpu_ms": cpu, "board_unchanged_queries": queries}
    cpu, queries = _per_poll(board_poll, polls, before=board.forget)
    figures |= {"board_other_process_cpu_ms": cpu, "board_other_process_queries": queries}
    etag = last["board"]["ETag"]
    cpu, queries = _per_poll(lambda: board_poll((304,), etag), polls)
    figures |= {"board_304_cpu_ms": cpu, "board_304_queries": queries}

    added = [0]

    def add_one() -> None:
        from cardroom.waitlists import services as waitlists

        added[0] += 1
        waitlists.add_to_list(
            game_list=game_list, name=f"Late P{added[0]}", source="floor", by=director
        )

    def board_changed() -> None:
        before = last["board"]["ETag"]
        board_poll()
        expect_that(
            "the board after a player joined a list",
            last["board"]["ETag"] != before,
            "the same ETag as before the change",
        )

    cpu, queries = _per_poll(board_changed, polls, before=add_one)
    figures |= {"board_changed_cpu_ms": cpu, "board_changed_queries": queries}

    def state_poll() -> dict[str, Any]:
        response = get(state_url)
        expect_response(f"GET {state_url}", response, contains='"server_now"')
        state: dict[str, Any] = json.loads(response.content)
        last["state"] = state
        return state

    state_poll()
    state_poll()
    cpu, queries = _per_poll(state_poll, polls)
    figures |= {"display_unchanged_cpu_ms": cpu, "display_unchanged_queries": queries}
    expect_that("the clock runs", last["state"]["state"] == ClockState.RUNNING, last["state"])

    def toggle() -> None:
        current = Tournament.objects.get(pk=tournament.pk)
        change = pause_clock if current.clock_state == ClockState.RUNNING else resume_clock
        last["wanted"] = change(tournament=current, by=director).clock_state

    def state_changed() -> None:
        state = state_poll()
        wanted = last["wanted"]
        expect_that("the display after a pause or resume", state["state"] == wanted, state)

    cpu, queries = _per_poll(state_changed, polls, before=toggle)
    figures |= {"display_changed_cpu_ms": cpu, "display_changed_queries": queries}
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:34} {value:10.3f}")
