"""How long a tournament's writes wait for each other's locks (PostgreSQL only: SQLite has no row
locks and queues every writer for the whole file).

One tournament at a big event's size: ``TABLES`` tables in play (700 in a full run), nine
entrants a table, its clock running, a hand dealt at every table, all made through the
project's services. ``THREADS`` desks (8; each its own thread and database connection, as the
application's workers are) then play at their own tables of that tournament at once, round
after round, and every write is one of these families:

- ``deal``: the next hand at a table (``table_hands.deal_tournament_hand``);
- ``award``: its pots pushed, nobody out (``table_hands.settle_tournament_hand``);
- ``award_bust``: its pots pushed, a player out (a short stack all in, called and beaten): the
  finishing place, the seat opened, the seating version;
- ``count``: a director's chip count correction at the table (``chip_counts.correct_count``):
  a write of the seating's chips, the tournament locked exclusive;
- ``balance_check``: a balancing check (``balance_checks.check_balance``), another exclusive
  write. A bust queues one for a worker; here each desk asks for one every few rounds, and the
  queued ones are not run (the same work, timed as its own family).

Per write: the time spent in lock statements (a tournament's queue, ``FOR UPDATE``,
``FOR SHARE``: an execute wrapper times each), which is the time it waited for the others
plus a round trip, and the whole write's wall time. Wall-clock figures on a machine other work
shares are noisy: compare runs made side by side. Every write is checked (a hand dealt, a
hand awarded, the player out) and a wrong answer stops the run.

``BENCH_LOCKS_TABLES`` and ``BENCH_LOCKS_THREADS`` change the sizes. ``BENCH_QUICK=1``: 8
tables, 4 desks, 2 rounds.
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

from bench.harness import WrongAnswer, expect_that, sized  # noqa: E402

SEATS = 9
FAMILIES = ("deal", "award", "award_bust", "count", "balance_check")
#: The lock statements timed: a tournament's queue, a row locked or held shared.
LOCKING = ("pg_advisory_xact_lock", "FOR UPDATE", "FOR SHARE")
#: A short stack, set by a count before a hand that puts it out (the blinds and ante of the
#: first level are 100, 200 and 200).
SHORT = 1_000


def number_from(variable: str, full: int, small: int, least: int, most: int) -> int:
    text = os.environ.get(variable, "").strip()
    if not text:
        return sized(full, small)
    if not (text.isascii() and text.isdecimal()) or not least <= int(text) <= most:
        raise WrongAnswer(f"{variable}={text!r}: a number, {least} to {most}")
    return int(text)


def _setup() -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "postgresql":
        raise WrongAnswer("bench_locks measures PostgreSQL's locks: set DATABASE_URL")
    call_command("migrate", verbosity=0)
    settings.DEBUG = False
    settings.CARDROOM_LOCK_TIMEOUT_MS = 0  # every wait measured to its end, none refused


class LockTimer:
    """An execute wrapper timing the lock statements of the write under way, per thread."""

    def __init__(self) -> None:
        self.waited = 0.0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if not any(word in sql for word in LOCKING):
            return execute(sql, params, many, context)
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.waited += time.perf_counter() - started


class Figures:
    """Per family: each write's lock wait and wall time, in milliseconds."""

    def __init__(self) -> None:
        self.waits: dict[str, list[float]] = defaultdict(list)
        self.walls: dict[str, list[float]] = defaultdict(list)
        self.guard = threading.Lock()

    @contextmanager
    def write(self, family: str, timer: LockTimer) -> Iterator[None]:
        timer.waited = 0.0
        started = time.perf_counter()
        yield
        wall = (time.perf_counter() - started) * 1000
        with self.guard:
            self.waits[family].append(timer.waited * 1000)
            self.walls[family].append(wall)

    def result(self) -> dict[str, float]:
        figures: dict[str, float] = {}
        for family in FAMILIES:
            waits, walls = sorted(self.waits[family]), sorted(self.walls[family])
            expect_that(f"{family}: measured", bool(waits))
            figures[f"{family}_writes"] = len(waits)
            figures[f"{family}_wait_ms_median"] = statistics.median(waits)
            figures[f"{family}_wait_ms_p95"] = waits[min(len(waits) - 1, len(waits) * 95 // 100)]
            figures[f"{family}_wait_ms_max"] = waits[-1]
            figures[f"{family}_wall_ms_median"] = statistics.median(walls)
        return figures


def build(count: int, director: Any) -> Any:
    """One tournament on ``count`` tables, nine entrants each, its clock running, a hand dealt
    at every table."""
    from cardroom.tables.choices import TableKind
    from cardroom.tables.models import Table
    from tournaments.clock.services import start_clock
    from tournaments.draw_services import draw_initial_seating
    from tournaments.eliminations import close_registration
    from tournaments.setup import create_tournament, register_entrants
    from tournaments.table_hands import deal_tournament_hand

    tables = [
        Table.objects.create(number=n, kind=TableKind.TOURNAMENT, status="open", seats=SEATS)
        for n in range(1001, 1001 + count)
    ]
    tournament = create_tournament(
        by=director, name="Bench locks", tables=tables, seats_per_table=SEATS,
        levels=[
            {"small_blind": 100 * k, "big_blind": 200 * k, "ante": 200 * k, "minutes": 600}
            for k in range(1, 4)
        ],
    )  # fmt: skip
    register_entrants(
        tournament=tournament,
        names=[f"Entrant {n}" for n in range(1, SEATS * count + 1)],
        by=director,
    )
    draw_initial_seating(tournament=tournament, by=director)
    close_registration(tournament=tournament, by=director)
    start_clock(tournament=tournament, by=director)
    for table in tables:
        deal_tournament_hand(table=table, by=director)
    return tournament


def play(hand: Any, by: Any, intents: dict[int, str]) -> Any:
    """The betting played out: each seat as ``intents`` says (all in; call), the others fold
    (or check when free). Not timed: actions lock the hand alone."""
    from cardroom.tables.services import engine_state, record_action
    from rules.engine.errors import IllegalAction

    while (seat := engine_state(hand).to_act) is not None:
        tries = {"all_in": ["all_in"], "call": ["call", "check"]}.get(intents.get(seat, ""), [])
        for action in [*tries, "fold", "check"]:
            try:
                record_action(hand=hand, by=by, expected_seq=hand.seq, seat=seat, action=action)
                break
            except IllegalAction:
                continue
        else:
            raise WrongAnswer(f"{hand}: seat {seat} could not act")
        hand.refresh_from_db()
    return hand


class Desk:
    """One desk's thread: its tables, round after round."""

    def __init__(self, tournament: Any, tables: list[Any], director: Any, figures: Figures):
        self.tournament, self.tables, self.director = tournament, tables, director
        self.figures, self.timer = figures, LockTimer()

    def timed[T](self, family: str, write: Callable[[], T]) -> T:
        with self.figures.write(family, self.timer):
            return write()

    def round(self, number: int) -> None:
        from cardroom.tables.models import Hand
        from tournaments import balance_checks, chip_counts, table_hands
        from tournaments.models import EntrantStatus, SeatAssignment

        for k, table in enumerate(self.tables):
            hand = Hand.objects.filter(table=table).order_by("-number").first()
            if hand is None or hand.awarded_at is not None:
                raise WrongAnswer(f"{table}: no hand in progress")
            bust = (number + k) % 3 == 1 and len(hand.seats) > 3
            self.award(play(hand, self.director, {}), "award")
            if bust:
                # The next hand puts a short stack out: its count corrected first (exclusive).
                proposal = table_hands.propose_tournament_hand(table)
                blinds = (proposal["blinds"]["small"], proposal["blinds"]["big"])
                others = [s["seat"] for s in proposal["seats"] if s["seat"] not in blinds]
                short, caller = others[0], others[1]
                entrant = SeatAssignment.objects.get(
                    table__table=table, seat=short, ended_at__isnull=True
                ).entrant
                recount = partial(
                    chip_counts.correct_count,
                    entrant=entrant, chips=SHORT, reason="Bench: a recount", by=self.director,
                )  # fmt: skip
                self.timed("count", recount)
                hand = play(self.deal(table), self.director, {short: "all_in", caller: "call"})
                self.award(hand, "award_bust", [[caller], [short]])
                entrant.refresh_from_db()
                out = entrant.status == EntrantStatus.ELIMINATED
                expect_that(f"{table}: the short stack out", out, entrant.status)
            self.deal(table)
        if number % 2 == 0:
            self.timed(
                "balance_check",
                lambda: balance_checks.check_balance(tournament_id=self.tournament.pk),
            )

    def deal(self, table: Any) -> Any:
        from tournaments.table_hands import deal_tournament_hand

        hand = self.timed("deal", lambda: deal_tournament_hand(table=table, by=self.director))
        expect_that(f"{table}: a hand dealt", hand.pk is not None and hand.awarded_at is None)
        return hand

    def award(self, hand: Any, family: str, ranking: list[list[int]] | None = None) -> None:
        from tournaments.table_hands import settle_tournament_hand

        showdown = {"ranking": ranking} if ranking is not None else None
        settled = self.timed(
            family,
            lambda: settle_tournament_hand(
                hand=hand, by=self.director, expected_seq=hand.seq, showdown=showdown
            ),
        )
        expect_that(f"{hand}: awarded", settled.awarded_at is not None)


def bench_locks() -> dict[str, float]:
    from django.contrib.auth.models import Group, User
    from django.db import connection

    from cardroom.core.roles import Role

    count = number_from("BENCH_LOCKS_TABLES", 700, 8, 2, 5000)
    threads = number_from("BENCH_LOCKS_THREADS", 8, 4, 1, 64)
    rounds = sized(6, 2)
    expect_that("a table a desk at least", threads <= count, (threads, count))
    director, _ = User.objects.get_or_create(username="bench-locks-director")
    director.groups.add(Group.objects.get_or_create(name=Role.DIRECTOR.value)[0])
    started = time.perf_counter()
    tournament = build(count, director)
    built = time.perf_counter() - started
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    rooms = [t.table for t in tournament.tables.select_related("table").order_by("number")]
    figures = Figures()
    # The desks play their first tables only (at most three each): a round is a few hands.
    desks = [Desk(tournament, rooms[k::threads][:3], director, figures) for k in range(threads)]
    failures: list[BaseException] = []
    gate = threading.Barrier(threads)

    def run(desk: Desk) -> None:
        try:
            with connection.execute_wrapper(desk.timer):
                gate.wait(timeout=60)
                for number in range(rounds):
                    desk.round(number)
        except BaseException as exc:  # the run stops with the first wrong answer
            failures.append(exc)
        finally:
            connection.close()

    workers = [threading.Thread(target=run, args=(desk,)) for desk in desks]
    started = time.perf_counter()
    # A bust queues a balancing check for a worker: here each desk asks for its own instead.
    with mock.patch("tournaments.seating.queue_balance_check"):
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    played = time.perf_counter() - started
    if failures:
        raise failures[0]
    result: dict[str, float] = {
        "tables": count, "threads": threads, "build_s": built, "played_s": played,
    }  # fmt: skip
    result.update(figures.result())
    return result


def run() -> dict[str, float]:
    _setup()
    return bench_locks()


def table(result: dict[str, Any]) -> str:
    """Per family: the writes made, their lock waits (median, 95th percentile, most) and their
    median wall time, in milliseconds."""
    lines = [
        f"{int(result['tables'])} tables of one tournament, {int(result['threads'])} desks at once,"
        f" {result['played_s']:.1f} s of play",
        f"{'family':<15}{'writes':>7}{'wait med':>10}{'wait p95':>10}{'wait max':>10}"
        f"{'wall med':>10}",
    ]
    for family in FAMILIES:
        lines.append(
            f"{family:<15}{int(result[f'{family}_writes']):>7}"
            + "".join(
                f"{result[f'{family}_{figure}']:>10.1f}"
                for figure in ("wait_ms_median", "wait_ms_p95", "wait_ms_max", "wall_ms_median")
            )
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(run()))
