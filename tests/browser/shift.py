"""A shift in the browser, on the production stack: the scenario shared by
``tests/browser/test_shift.py`` (a few minutes in CI) and ``bench/soak.py`` (``make soak``, an
hour).

Six browser contexts are open at once, each logged in through the real form:

- the floor (staff) stays on ``/floor/`` the whole time and is never reloaded;
- desk 1 (a floor manager) and desk 2 (a director) deal and play full hands at two cash
  tables with real clicks (raise box, Raise/Bet, Call, Check, Fold);
- a second director logs rulings through the ruling form and runs the tournament from its
  page: eliminations, the balancing moves the Celery worker's check proposes, table breaks
  with the double-blind draw;
- the tournament clock (staff) stays on the clock page while levels run out (short levels),
  and the room display (``/clock/display/``, a TV in the room) beside it: the level and the
  players left.

After every change the floor page must show it (pot, street, hand state, seats, the
tournament at the table, the ruling in the feed) within one poll interval plus a margin, and
the clock pages the new level within their own polls. The time from the change (committed, seen
from the database) to its appearance is recorded as the poll latency. Every request, every
4xx/5xx answer, console error, page error and failed request of every page is recorded too.

The expected state is read from the models directly (the engine's snapshot of the hand, the
open seat assignments, the clock reading), never from the floor's own code.
"""

from __future__ import annotations

import random
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

#: The floor polls ``/floor/updates/`` every 3 s (``templates/cardroom/floor.html``), the clock
#: page every second; the margin covers one poll's request, render and swap on a busy machine.
FLOOR_POLL_SECONDS = 3.0
CLOCK_POLL_SECONDS = 1.0
#: The room display (static/js/clock.js) re-syncs every 3 s and counts down in between.
ROOM_POLL_SECONDS = 3.0
MARGIN_SECONDS = 2.0
PASSWORD = "shift-pw-4-the-floor"
CASH_TABLES = (11, 12)
ROOM_TABLES = (21, 22, 23)
ENTRANTS = 18
#: Launch flags for Debian's Chromium (the same as the browser tests' fixture).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
#: Seats dealt in at each desk, 200 chips each.
SEATS = (1, 2, 3)
#: Two full hands, played in turn. The first goes to showdown: a raise pre-flop, a fold, a call,
#: a bet and a call on the flop, checked down. The second: a raise called twice, the flop is
#: checked to the last player, who bets, and both fold.
HANDS = (
    ("raise", "fold", "call", "bet", "call", "check", "check", "check", "check"),
    ("raise", "call", "call", "check", "check", "bet", "fold", "fold"),
)
USERS = {  # username: role (cardroom.core.roles.Role values)
    "shift-floor": "Staff",
    "shift-clock": "Staff",
    "shift-manager": "Floor manager",
    "shift-director": "Tournament director",
    "shift-judge": "Tournament director",
}


class ShiftFailure(AssertionError):
    """What a person at one of the pages would have noticed."""


@dataclass
class Watch:
    """One page's part of a change: what it must come to show, and how soon."""

    page: str
    what: str
    kind: str  # the latency it measures
    check: Callable[[], tuple[bool, str]]
    seconds: float


# --- data -----------------------------------------------------------------------------------


def seed(*, level_seconds: int) -> int:
    """Users per role, two cash tables, three tournament room tables, the rulebook, and a
    running tournament; returns the tournament's id."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command

    from cardroom.tables.services import create_table
    from rules.models import Rule

    if not Rule.objects.exists():
        call_command("load_rulebook", verbosity=0)
    # The stack's own hasher (the test process may hash with something cheaper).
    hasher = PBKDF2PasswordHasher()
    password = hasher.encode(PASSWORD, hasher.salt())
    for username, role in USERS.items():
        user, _ = User.objects.update_or_create(username=username, defaults={"password": password})
        user.groups.set([Group.objects.get_or_create(name=role)[0]])
    manager = User.objects.get(username="shift-manager")
    for number in CASH_TABLES:
        create_table(by=manager, number=number, status="open", small_blind=1, big_blind=2,
                     min_buy_in=40, max_buy_in=200)  # fmt: skip
    for number in ROOM_TABLES:
        create_table(by=manager, number=number, status="open", kind="tournament",
                     small_blind=100, big_blind=200, min_buy_in=2000, max_buy_in=20000)  # fmt: skip
    return new_tournament(level_seconds=level_seconds)


def new_tournament(*, level_seconds: int) -> int:
    """A freezeout of 18 on the three room tables, seats drawn, the clock running."""
    from django.contrib.auth.models import User

    from cardroom.tables.models import Table
    from tournaments.clock.services import start_clock
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import Tournament
    from tournaments.setup import create_tournament, register_entrants

    judge = User.objects.get(username="shift-judge")
    number = Tournament.objects.count() + 1
    levels = [{"small_blind": 100 * n, "big_blind": 200 * n, "seconds": level_seconds}
              for n in range(1, 101)]  # fmt: skip
    tournament = create_tournament(
        by=judge, name=f"Shift Freezeout {number}",
        tables=list(Table.objects.filter(number__in=ROOM_TABLES)), levels=levels,
    )  # fmt: skip
    register_entrants(
        tournament=tournament, names=[f"Player {number}-{n}" for n in range(1, ENTRANTS + 1)],
        by=judge,
    )  # fmt: skip
    draw_initial_seating(tournament=tournament, by=judge)
    start_clock(tournament=tournament, by=judge)
    return tournament.pk


def clock_to_show(
    tournament: Any, levels: list[Any], wait_for_change: float, wait: Callable[[float], None]
) -> Any:
    """The clock reading both clock pages must come to show: the level running now, or, when it
    runs out within ``wait_for_change`` seconds, the next one, after ``wait(seconds)`` has waited
    for it. None when the clock is not running."""
    from django.utils import timezone

    from tournaments.clock.reading import read_clock

    now = timezone.now()
    reading = read_clock(tournament, levels, now)
    if reading.level is None or reading.state != "running":
        return None
    remaining = reading.remaining.total_seconds()
    if remaining < wait_for_change:
        ends = now + reading.remaining
        wait(remaining)
        # Read at the level's end at the earliest: Playwright's timer can wake a fraction of a
        # millisecond early (Node counts whole milliseconds), and the clock read just before the
        # end is the level ending, which the room display (counting down on the server's time,
        # 200 ms a tick) has already left: the soak's two "Level N not shown" errors.
        reading = read_clock(tournament, levels, max(timezone.now(), ends))
    return reading


def finish_tournament(tournament_id: int) -> None:
    """The last players bust away from the cameras: the tournament completes, its tables free."""
    from django.contrib.auth.models import User

    from tests.tournaments.factories import bust
    from tournaments.models import EntrantStatus, Tournament, TournamentStatus

    judge = User.objects.get(username="shift-judge")
    tournament = Tournament.objects.get(pk=tournament_id)
    while tournament.status != TournamentStatus.COMPLETE:
        entrant = tournament.entrants.filter(status=EntrantStatus.SEATED).order_by("number")[0]
        bust(entrant=entrant, by=judge)
        tournament.refresh_from_db()


# --- what each page must show, from the models --------------------------------------------


STREET_WORDS = {"preflop": r"pre-?flop", "flop": "flop", "turn": "turn", "river": "river"}


def card_expectation(number: int) -> tuple[str, list[re.Pattern[str]], list[re.Pattern[str]]]:
    """What the floor's card for room table ``number`` must show now: (a description, patterns
    that must match its text, patterns that must not)."""
    from cardroom.tables.models import HandStatus, Table
    from cardroom.tables.services import engine_state
    from rules.engine.state import snapshot
    from tournaments.models import SeatAssignment, TournamentTable

    table = Table.objects.get(number=number)
    hand = table.hands.filter(state=HandStatus.IN_PROGRESS).first()
    must: list[str] = []
    must_not: list[str] = []
    if hand is not None:
        state = snapshot(engine_state(hand))
        street = STREET_WORDS.get(state["street"], state["street"])
        must.append(rf"hand #{hand.number}\b.*\b{street}\b.*\bpot\W*{state['pot']}\b")
        what = f"hand #{hand.number}, {state['street']}, pot {state['pot']}"
    else:
        must.append(r"no hand in progress")
        what = "no hand in progress"
    playing = TournamentTable.objects.in_play().filter(table=table).select_related("tournament")
    current = playing.first()
    if current is not None:
        seated = SeatAssignment.objects.filter(table=current, ended_at__isnull=True).count()
        must += [
            re.escape(current.tournament.name) + r"(?!\d)",
            rf"seats\W*{seated}\s*/\s*{table.seats}\b",
        ]
        what += f", {current.tournament.name}, {seated} seated"
    elif table.kind == "tournament":
        must_not.append(r"shift freezeout")
        what += ", no tournament"
    ruling = table.rulings.order_by("-number").first()
    if ruling is not None:
        must.append(rf"\bruling {ruling.number}\b")
        what += f", ruling {ruling.number}"
    flags = re.IGNORECASE | re.DOTALL
    return what, [re.compile(p, flags) for p in must], [re.compile(p, flags) for p in must_not]


def squash(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


# --- what the pages did ----------------------------------------------------------------------


@dataclass
class Record:
    """Everything the pages did: requests, errors, poll URLs, latencies, memory samples."""

    requests: int = 0
    errors: list[str] = field(default_factory=list)
    poll_urls: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    page_latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    heap_mb: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    closing: bool = False
    #: Refusals a step asks for (the URL part of each, and as many console lines): a director
    #: pressing Eliminate for a player still holding chips is answered 409 with the ways out,
    #: by design; any other answer of 400 or more is an error.
    expected: list[str] = field(default_factory=list)
    expected_console: int = 0

    def expect_refusal(self, url_part: str) -> None:
        self.expected.append(url_part)
        self.expected_console += 1

    def watch(self, name: str, page: Any, poll_path: str | None) -> None:
        def on_request(request: Any) -> None:
            self.requests += 1
            polled = poll_path and poll_path in request.url and request.method == "GET"
            if polled and request.resource_type in ("xhr", "fetch"):
                self.poll_urls[name].append(len(request.url))

        def on_response(response: Any) -> None:
            wanted = [part for part in self.expected if part in response.url]
            if response.status == 409 and wanted:
                self.expected.remove(wanted[0])
                self.counts["refusals the step asked for"] += 1
                return
            if response.status >= 400:
                self.error(name, f"{response.status} {response.request.method} {response.url}")

        def on_console(message: Any) -> None:
            if message.type == "error" and self.expected_console and "409" in message.text:
                self.expected_console -= 1  # the browser's line for an expected refusal
                return
            if message.type == "error":
                self.error(name, f"console: {message.text}")

        def on_failed(request: Any) -> None:
            if self.closing:
                return
            if "ERR_ABORTED" in (request.failure or ""):
                # Cancelled by the page itself (a navigation, or htmx dropping the request of
                # an element a swap replaced): nothing went wrong on the wire.
                self.counts["requests cancelled by the page"] += 1
            else:
                self.error(name, f"request failed ({request.failure}): {request.url}")

        page.on("request", on_request)
        page.on("response", on_response)
        page.on("console", on_console)
        page.on("pageerror", lambda error: self.error(name, f"page error: {error}"))
        page.on("requestfailed", on_failed)

    def error(self, page: str, text: str) -> None:
        self.errors.append(f"{time.strftime('%H:%M:%S')} [{page}] {text}")

    def latency(self, kind: str, seconds: float, page: str) -> None:
        self.latencies[kind].append(seconds)
        self.page_latencies[page].append(seconds)

    def all_latencies(self) -> list[float]:
        return sorted(s for values in self.latencies.values() for s in values)

    def report(self) -> list[str]:
        """Markdown lines: counts, poll latency per kind, poll URL lengths, JS heap, errors."""
        lines = ["| what | count |", "|---|---|", f"| requests (every page) | {self.requests} |"]
        lines += [f"| {name} | {n} |" for name, n in sorted(self.counts.items())]
        lines += [f"| errors | {len(self.errors)} |", "",
                  "| poll latency, change to appearance (s) | n | p50 | p95 | p99 | max |",
                  "|---|---|---|---|---|---|"]  # fmt: skip
        kinds = [
            *sorted(self.latencies.items()),
            *((f"**{page}, every kind**", v) for page, v in sorted(self.page_latencies.items())),
            ("**every page**", self.all_latencies()),
        ]
        for kind, values in kinds:
            p50, p95, p99 = percentiles(sorted(values))
            top = max(values, default=float("nan"))
            lines.append(
                f"| {kind} | {len(values)} | {p50:.2f} | {p95:.2f} | {p99:.2f} | {top:.2f} |"
            )
        lines += [
            "",
            "| page | polls | poll URL length first | last | max |",
            "|---|---|---|---|---|",
        ]
        for page, lengths in sorted(self.poll_urls.items()):
            if lengths:
                lines.append(
                    f"| {page} | {len(lengths)} | {lengths[0]} | {lengths[-1]} | {max(lengths)} |"
                )
        lines += [
            "",
            "| page | JS heap used, first sample (MB) | last (MB) | samples |",
            "|---|---|---|---|",
        ]
        for page, values in sorted(self.heap_mb.items()):
            lines.append(f"| {page} | {values[0]:.1f} | {values[-1]:.1f} | {len(values)} |")
        lines += ["", f"Errors ({len(self.errors)}):" if self.errors else "Errors: none."]
        lines += [f"- {error}" for error in self.errors[:200]]
        if len(self.errors) > 200:
            lines.append(f"- … and {len(self.errors) - 200} more")
        return lines


def percentiles(values: list[float]) -> tuple[float, float, float]:
    """p50, p95, p99 of ``values`` (seconds)."""
    if not values:
        nan = float("nan")
        return nan, nan, nan
    if len(values) == 1:
        return values[0], values[0], values[0]
    q = statistics.quantiles(values, n=100, method="inclusive")
    return q[49], q[94], q[98]


# --- the shift ---------------------------------------------------------------------------------


class Shift:
    """The six pages of a shift, driven one change at a time."""

    def __init__(
        self, browser: Any, base_url: str, tournament_id: int, record: Record, strict: bool = True
    ) -> None:
        """``strict``: a change not shown in time fails at once (the test); otherwise it is
        recorded as an error and the shift goes on (the soak)."""
        self.browser, self.base, self.record, self.strict = browser, base_url, record, strict
        self.tournament_id = tournament_id
        self.contexts: list[Any] = []
        self.pages: dict[str, Any] = {}
        self.cdp: dict[str, Any] = {}
        self.hands_dealt = {number: 0 for number in CASH_TABLES}
        # People act when the table does, not in step with the floor's polls: a pause of up to
        # one poll before each change, so the latencies sample every phase of the poll.
        self.think = random.Random(tournament_id)
        self.levels_seen = 0

    # -- opening the pages ------------------------------------------------------------------

    def open(self) -> None:
        t = self.tournament_id
        for name, username, path, poll in (
            ("floor", "shift-floor", "/floor/", "/floor/updates/"),
            ("desk 1", "shift-manager", f"/tables/{CASH_TABLES[0]}/desk/", "/desk/"),
            ("desk 2", "shift-director", f"/tables/{CASH_TABLES[1]}/desk/", "/desk/"),
            ("director", "shift-judge", f"/tournaments/{t}/", None),
            ("clock", "shift-clock", f"/tournaments/{t}/clock/", "/clock/"),
            ("room display", "shift-clock", f"/tournaments/{t}/clock/display/", "/state/"),
        ):
            context = self.browser.new_context(base_url=self.base)
            context.set_default_timeout(15_000)
            self.contexts.append(context)
            page = context.new_page()
            self.record.watch(name, page, poll)
            self.log_in(page, username)
            page.goto(path)
            self.pages[name] = page
            self.cdp[name] = context.new_cdp_session(page)
            self.cdp[name].send("Performance.enable")
        # Eliminations ask "Eliminate <name>?" first (hx-confirm): the director says yes.
        self.pages["director"].on("dialog", lambda dialog: dialog.accept())
        self.expect_heading(self.pages["floor"], "Floor")

    def log_in(self, page: Any, username: str) -> None:
        page.goto("/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(re.compile(r"^(?!.*/login/)"))

    def close(self) -> None:
        self.record.closing = True
        for context in self.contexts:
            context.close()

    def expect_heading(self, page: Any, name: str | re.Pattern[str]) -> None:
        from playwright.sync_api import expect

        expect(page.get_by_role("heading", name=name).first).to_be_visible()

    # -- waiting for what a person sees --------------------------------------------------------

    def wait_until(
        self,
        page: Any,
        check: Callable[[], tuple[bool, str]],
        seconds: float,
        what: str,
    ) -> None:
        """Wait until ``check`` holds, looking every 50 ms; ShiftFailure after ``seconds``."""
        start = time.monotonic()
        while True:
            ok, seen = check()
            if ok:
                return
            if time.monotonic() - start > seconds:
                raise ShiftFailure(f"{what}: not seen after {seconds:.1f} s; it shows: {seen}")
            page.wait_for_timeout(50)  # lets the page's events run meanwhile

    def card_text(self, number: int) -> str:
        floor = self.pages["floor"]
        card = floor.get_by_role("article").filter(
            has=floor.get_by_role("heading", name=f"Table {number}", exact=True)
        )
        return squash(card.first.text_content(timeout=2_000) if card.count() else "")

    def card_watch(self, number: int, kind: str) -> Watch:
        """The floor's card for room table ``number`` must come to match the models."""
        what, must, must_not = card_expectation(number)

        def check() -> tuple[bool, str]:
            text = self.card_text(number)
            ok = all(p.search(text) for p in must) and not any(p.search(text) for p in must_not)
            return ok, text

        return Watch(
            "floor", f"floor card of table {number} ({what})", kind, check,
            FLOOR_POLL_SECONDS + MARGIN_SECONDS,
        )  # fmt: skip

    def shown_everywhere(self, watches: list[Watch]) -> set[str]:
        """Each page must show its part of a change just made, within its poll + margin. The
        time from the change to each page showing it is a latency; a page already showing it
        at the first look (that card did not change) is not counted. Returns the pages that
        changed in time."""
        changed = time.monotonic()
        pending = list(watches)
        first, pages = True, set()
        while pending:
            for watch in list(pending):
                ok, seen = watch.check()
                elapsed = time.monotonic() - changed
                if ok:
                    pending.remove(watch)
                    if not first:
                        self.record.latency(watch.kind, elapsed, watch.page)
                        pages.add(watch.page)
                elif elapsed > watch.seconds:
                    pending.remove(watch)
                    failure = (
                        f"{watch.what}: not shown after {watch.seconds:.1f} s; it shows: {seen}"
                    )
                    if self.strict:
                        raise ShiftFailure(failure)
                    self.record.error("late", failure)
                    self.record.counts["changes not shown in time"] += 1
            first = False
            if pending:
                self.pages["floor"].wait_for_timeout(50)  # lets the pages' events run meanwhile
        return pages

    def floor_shows_table(self, number: int, kind: str) -> None:
        self.shown_everywhere([self.card_watch(number, kind)])

    # -- the desks ------------------------------------------------------------------------------

    def hand_steps(self, desk: str, number: int) -> Iterator[None]:
        """Deal and play one full hand at ``number`` on ``desk``, one step per ``next()``."""
        from cardroom.tables.models import Table

        page = self.pages[desk]
        script = HANDS[self.hands_dealt[number] % len(HANDS)]
        button = SEATS[self.hands_dealt[number] % len(SEATS)]
        table = Table.objects.get(number=number)
        self.deal(page, table, button)
        self.hands_dealt[number] += 1
        self.floor_shows_table(number, "hand dealt")
        yield
        for action in script:
            self.act(page, table, action)
            self.floor_shows_table(number, "hand action")
            yield
        # Betting over: the desk offers the next deal (Fold is never the default, STYLE.md).
        from playwright.sync_api import expect

        expect(page.get_by_role("button", name=re.compile(r"^Deal\b"))).to_be_visible()
        self.record.counts["hands played"] += 1

    def live_hand(self, table: Any) -> Any:
        from cardroom.tables.models import HandStatus

        return table.hands.filter(state=HandStatus.IN_PROGRESS).first()

    def pause(self, page: Any) -> None:
        page.wait_for_timeout(self.think.uniform(0, FLOOR_POLL_SECONDS) * 1000)

    def deal(self, page: Any, table: Any, button: int) -> None:
        self.pause(page)
        before = table.hands.count()
        for seat in SEATS:
            page.get_by_role("spinbutton", name=f"Seat {seat}", exact=True).fill("200")
        page.get_by_label("Button").select_option(str(button))
        page.get_by_role("button", name=re.compile(r"^Deal\b")).click()
        self.wait_until(
            page, lambda: (table.hands.count() > before, squash(page.text_content("main"))),
            10, f"{table}: the deal",
        )  # fmt: skip

    def act(self, page: Any, table: Any, action: str) -> None:
        self.pause(page)
        hand = self.live_hand(table)
        if hand is None:
            raise ShiftFailure(f"{table}: no hand in progress for {action}")
        seq = hand.seq
        if action in ("raise", "bet"):
            box = page.get_by_label(re.compile(r"^(Raise to|Bet)\b"))
            lowest = int(box.input_value())  # the box opens at the minimum
            highest = int(box.get_attribute("max") or lowest)
            box.fill(str(min(lowest + 2, highest)))
            name = re.compile(r"^(Raise|Bet)\b")
        else:
            name = re.compile(rf"^{action}\b", re.IGNORECASE)
        page.get_by_role("button", name=name).click()

        def entered() -> tuple[bool, str]:
            hand.refresh_from_db(fields=["seq"])
            return hand.seq > seq, squash(page.text_content("#desk") or "")

        self.wait_until(page, entered, 10, f"{table}: {action} entered at the desk")
        self.record.counts["desk actions"] += 1

    def play_hands(self) -> None:
        """A full hand at each desk, their actions interleaved (two dealers at work at once)."""
        steps = [
            self.hand_steps("desk 1", CASH_TABLES[0]),
            self.hand_steps("desk 2", CASH_TABLES[1]),
        ]
        while steps:
            for step in list(steps):
                if next(step, StopIteration) is StopIteration:
                    steps.remove(step)

    # -- rulings -------------------------------------------------------------------------------

    def log_ruling(self) -> None:
        from playwright.sync_api import expect

        from cardroom.rulings.models import Ruling

        number = CASH_TABLES[self.record.counts["rulings"] % len(CASH_TABLES)]
        page = self.pages["director"]
        page.goto(f"/rulings/new/?table={number}")
        page.get_by_label("Situation").fill("Seat 3 put out one oversized chip facing a bet.")
        page.get_by_label("Decision").fill("A call: one oversized chip without a declaration.")
        page.get_by_label(re.compile(r"^Find a rule")).fill("oversized chip")
        page.get_by_role("option", name=re.compile(r"RRoP-|TDA-")).first.click()
        expect(page.locator("#cited").get_by_role("link").first).to_be_visible()
        before = Ruling.objects.count()
        self.pause(page)
        page.get_by_role("button", name=re.compile(r"^Log ruling")).click()
        self.expect_heading(page, re.compile(rf"Table {number} ruling \d+"))
        ruling = Ruling.objects.order_by("-pk").first()
        if ruling is None or Ruling.objects.count() != before + 1:
            raise ShiftFailure("the ruling form did not log exactly one ruling")
        feed_line = f"Table {number} · ruling {ruling.number}"

        def feed() -> tuple[bool, str]:
            box = self.pages["floor"].get_by_role("complementary", name="Recent rulings")
            text = squash(box.text_content(timeout=2_000))
            return feed_line in text, text[:200]

        self.shown_everywhere([
            Watch("floor", f"floor feed: {feed_line}", "ruling in feed", feed,
                  FLOOR_POLL_SECONDS + MARGIN_SECONDS),
            self.card_watch(number, "ruling on card"),
        ])  # fmt: skip
        self.record.counts["rulings"] += 1
        page.goto(f"/tournaments/{self.tournament_id}/")

    # -- the tournament ------------------------------------------------------------------------

    def room_tables_shown(self, kind: str, *others: Watch) -> None:
        self.shown_everywhere([*(self.card_watch(n, kind) for n in ROOM_TABLES), *others])

    def eliminate(self) -> bool:
        """Bust a player from the fullest table; then act on the worker's balancing check.
        False once the tournament is down to its final table (a new one starts)."""
        from playwright.sync_api import expect

        from tournaments.models import BalanceCheck, SeatAssignment, Tournament

        page = self.pages["director"]
        if f"/tournaments/{self.tournament_id}/" not in page.url or "/balance" in page.url:
            page.goto(f"/tournaments/{self.tournament_id}/")
        seats = SeatAssignment.objects.filter(
            tournament_id=self.tournament_id, ended_at__isnull=True
        ).select_related("entrant", "table")
        by_table: dict[int, list[Any]] = defaultdict(list)
        for seat in seats:
            by_table[seat.table.number].append(seat)
        fullest = max(by_table.values(), key=len)
        out = max(fullest, key=lambda s: s.entrant.number).entrant
        self.pause(page)
        if out.chips:  # refused while holding chips: they go out of play first
            from tests.browser.chips_out import put_out_holding_chips

            self.record.expect_refusal(f"/entrants/{out.number}/eliminate/")
            put_out_holding_chips(page, out.name)
        else:
            page.get_by_role("button", name=f"Eliminate {out.name}", exact=True).click()
        expect(page.get_by_text(f"{out.name} eliminated.")).to_be_visible()
        self.record.counts["eliminations"] += 1
        self.room_tables_shown("elimination", self.room_display_players())
        # The Celery worker runs the balancing check each change queues: wait for the one of
        # the seating as it is now (an older one, e.g. after a break, is stale).
        version = Tournament.objects.get(pk=self.tournament_id).seating_version
        checks = BalanceCheck.objects.filter(
            tournament_id=self.tournament_id, seating_version=version
        )
        self.wait_until(
            page, lambda: (checks.exists(), "no check yet"), 20, "the worker's balancing check"
        )
        check = checks.order_by("-pk").first()
        assert check is not None
        if check.final_table:
            return False
        if check.tables_to_break:
            self.break_table(check.tables_to_break[0])
        elif check.moves:
            page.goto(f"/tournaments/{self.tournament_id}/balance/")
            self.pause(page)
            page.get_by_role("button", name=re.compile(r"^Apply \d+ moves?")).click()
            self.expect_heading(page, re.compile(r"Shift Freezeout"))
            self.record.counts["balancing moves applied"] += 1
            self.room_tables_shown("seat move")
        return True

    def break_table(self, number: int) -> None:
        from tournaments.models import TournamentTable

        # The check names the table in the tournament's own numbering; the page, by its one
        # name, the room's number.
        room = TournamentTable.objects.get(tournament_id=self.tournament_id, number=number)
        page = self.pages["director"]
        page.goto(f"/tournaments/{self.tournament_id}/balance/")
        page.get_by_role("link", name=f"Break table {room.room_number}", exact=True).click()
        page.get_by_role("button", name=re.compile(r"^Step 1")).click()
        self.expect_heading(page, re.compile(r"^Step 1"))
        self.pause(page)
        page.get_by_role("button", name=re.compile(r"^Step 2")).click()
        self.expect_heading(page, re.compile(r"^Step 2"))
        self.record.counts["tables broken"] += 1
        self.room_tables_shown("table break")

    def next_tournament(self, level_seconds: int) -> None:
        """The field is down to its final table: it plays on away from the harness; the next
        tournament takes the room tables, and the director and the clock follow it."""
        finish_tournament(self.tournament_id)
        self.room_tables_shown("tournament over")
        self.tournament_id = new_tournament(level_seconds=level_seconds)
        self.room_tables_shown("tournament drawn")
        self.record.counts["tournaments"] += 1
        self.pages["director"].goto(f"/tournaments/{self.tournament_id}/")
        self.pages["clock"].goto(f"/tournaments/{self.tournament_id}/clock/")
        self.pages["room display"].goto(f"/tournaments/{self.tournament_id}/clock/display/")

    # -- the clock -----------------------------------------------------------------------------

    def level_shown(self, name: str) -> tuple[str, str]:
        """The level a clock page shows ("Level 3", "Break"), and the page's opening text."""
        page = self.pages[name]
        level = page.get_by_text(re.compile(r"^\s*(Level \d+|Break)\s*$")).first
        shown = squash(level.text_content(timeout=2_000)) if level.count() else ""
        return shown, squash(page.text_content("main") or "")[:160]

    def check_clock(self, wait_for_change: float) -> None:
        """Both clock pages show the level the clock is at; when the level runs out within
        ``wait_for_change`` seconds, wait for it and time the new level's appearance."""
        from tournaments.clock.reading import level_names
        from tournaments.models import Tournament

        tournament = Tournament.objects.get(pk=self.tournament_id)
        levels = list(tournament.levels.all())
        reading = clock_to_show(
            tournament, levels, wait_for_change,
            lambda seconds: self.pages["clock"].wait_for_timeout(seconds * 1000),
        )  # fmt: skip
        if reading is None or reading.level is None:
            return
        expected = level_names(levels)[reading.level.number]

        def watch(name: str, poll: float) -> Watch:
            def check() -> tuple[bool, str]:
                shown, context = self.level_shown(name)
                return shown == expected, context

            return Watch(
                name, f"{name}: {expected}", f"{name}: level", check, poll + MARGIN_SECONDS
            )

        changed = self.shown_everywhere(
            [watch("clock", CLOCK_POLL_SECONDS), watch("room display", ROOM_POLL_SECONDS)]
        )
        self.levels_seen += int("clock" in changed)

    def room_display_players(self) -> Watch:
        """The room display's "Players left" follows the eliminations (its 3 s sync)."""
        from tournaments.models import EntrantStatus, Tournament

        tournament = Tournament.objects.get(pk=self.tournament_id)
        entries = tournament.entrants.count()
        left = tournament.entrants.exclude(status=EntrantStatus.ELIMINATED).count()
        pattern = re.compile(rf"players left\W*{left}\s*/\s*{entries}\b", re.IGNORECASE)
        page = self.pages["room display"]

        def check() -> tuple[bool, str]:
            text = squash(page.text_content("main") or "")
            return bool(pattern.search(text)), text[:200]

        return Watch(
            "room display", f"room display: {left} / {entries} players left",
            "room display: players left", check, ROOM_POLL_SECONDS + MARGIN_SECONDS,
        )  # fmt: skip

    # -- one round and the measurements --------------------------------------------------------

    def round(self, level_seconds: int) -> None:
        """Two full hands (one per desk), a ruling, a tournament event, the clock."""
        self.play_hands()
        self.check_clock(wait_for_change=4)
        self.log_ruling()
        if not self.eliminate():
            self.next_tournament(level_seconds)
        self.check_clock(wait_for_change=4)
        self.record.counts["rounds"] += 1

    def sample_memory(self) -> dict[str, float]:
        """JS heap in use per page (MB), after a garbage collection (CDP Performance)."""
        sample = {}
        for name, cdp in self.cdp.items():
            cdp.send("HeapProfiler.collectGarbage")
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            sample[name] = metrics["JSHeapUsedSize"] / 1e6
            self.record.heap_mb[name].append(sample[name])
        return sample
