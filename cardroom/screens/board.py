"""The public board: what is running and who is waiting, for a TV in the room
and for players' phones. No log-in; never a full name (a waiting player is shown by alias or
initials, ``Player.public_name``; seated players not at all).

What counts as running (the users' loudest complaint is phantom games): an **open cash table
with at least two players seated** in its seat map (sitting out still holds the seat), or,
for a table dealt without a seat map (typed stacks at the desk), **a hand started there in the
last** ``RECENT_HAND_MINUTES`` (its dealt seats are the seats taken). A voided hand counts for
nothing: a misdeal called dead is not a game, and its seats are not seats taken. A table dealt
from its seat map whose players have all left is not running, however recent its last hand. An open
table with one player or none, a closed, reserved or broken table, and a tournament table are
never a cash game running. A list with nobody running its game is shown as "not running yet".

The lists are read here (two queries, names through ``Player.public_name``); a public read
writes nothing (the timers' own task lapses entries; a call-in past its deadline is simply not
shown meanwhile).

Cost: thousands of phones polling every few seconds must cost almost nothing. The board is
built (a handful of queries and one render) once for every web process together, in the shared
cache (the broker's Redis when one is configured, the alias the public rate limits use; else
the database cache), keyed by the versions of the topics it shows (``changes.versions``: bumped
by the commit of any write of a table, a seat map, a list, a tournament, …), so a change shows
at the next poll; each process also keeps its last copy in memory. An unchanged poll reads the
versions (one cache read, no database) and answers from memory. A build is kept at most
``SHARED_TTL`` seconds: what changes with time alone (a level reached on time, a hand's
recency, a call-in's deadline) and a write made outside Django show then. Answers carry a strong ``ETag`` (a hash of the exact
bytes) and ``Cache-Control: public, max-age`` of the TTL: a poll whose copy is current gets a
bodiless 304. Setting ``CARDROOM_BOARD_CACHE = False`` (the load test's comparison) builds
every answer afresh with no ETag.

Nothing on the board ticks by itself in the HTML: a running clock is sent as the instant its
level ends (``data-ends-at``, and "ends at 20:15" for a screen without JavaScript), so the
bytes, hence the ETag, change only when something on the floor does; static/js/board.js counts
down from the server's time (the answer's ``Date``).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.db.models import Count, F, IntegerField, Max, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_safe

from cardroom.core import changes
from cardroom.core.changes import Topic
from cardroom.core.numbers import grouped
from cardroom.seats.models import TableSeat
from cardroom.tables.choices import DESK_VARIANTS, Structure, TableKind, TableStatus, Variant
from cardroom.tables.models import Hand, HandStatus, Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import GameList, WaitlistEntry
from tournaments.clock.display import level_line, room_state
from tournaments.clock.reading import read_clock
from tournaments.models import (
    ClockState,
    EntrantStatus,
    Tournament,
    TournamentStatus,
    TournamentTableStatus,
)
from tournaments.results import public_names, winner

logger = logging.getLogger(__name__)

#: A table dealt without a seat map counts as running this long after its last hand started.
RECENT_HAND_MINUTES = 10
#: Seconds a built board is served (from the shared cache or a process's memory) at most.
SHARED_TTL = 2
#: What browsers and proxies may keep without asking again (seconds).
MAX_AGE = 2
#: The most tournaments shown (the TV has room for a few; the day's are rarely more).
MAX_TOURNAMENTS = 6

MS = timedelta(milliseconds=1)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
SHORT_STRUCTURE = {
    Structure.NO_LIMIT: "No-limit",
    Structure.POT_LIMIT: "Pot-limit",
    Structure.FIXED_LIMIT: "Limit",
}

#: The clock, in seconds; tests move it.
clock: Callable[[], float] = time.time


# --- the snapshot: plain data, no full names --------------------------------------------------


def _game_key(variant: str, structure: str, small: int, big: int) -> tuple[str, str, int, int]:
    return (variant, structure, small, big)


def running_tables(now: datetime) -> list[dict[str, Any]]:
    """Every cash table running now (the rule above), with its seats taken and open."""
    seated = (
        TableSeat.objects.filter(table=OuterRef("pk"), left_at__isnull=True)
        .order_by()
        .values("table")
        .annotate(n=Count("id"))
        .values("n")
    )
    # A voided hand is no sign of play (a one-off misdeal ran a phantom game).
    dealt = Hand.objects.filter(table=OuterRef("pk")).exclude(state=HandStatus.VOIDED)
    tables = list(
        Table.objects.filter(status=TableStatus.OPEN, kind=TableKind.CASH)
        .annotate(
            players=Subquery(seated, output_field=IntegerField()),
            last_hand_at=Max("hands__started_at", filter=~Q(hands__state=HandStatus.VOIDED)),
            last_hand_id=Subquery(dealt.order_by("-started_at", "-id").values("id")[:1]),
        )
        .order_by("number")
    )
    recent = now - timedelta(minutes=RECENT_HAND_MINUTES)
    # Dealt without a seat map (typed stacks: the hand has no names): the seats dealt in its
    # latest hand are the seats taken. A seat-map table's latest hand says nothing once its
    # players have left: the seat map is the truth there. One query for every such table (it
    # was one a table: 254 queries after 250 typed-stack deals).
    typed = [
        t.last_hand_id
        for t in tables
        if not t.players and t.last_hand_at and t.last_hand_at >= recent
    ]
    last_deals = {
        table_id: len(seats) if not names else 0
        for table_id, seats, names in Hand.objects.filter(pk__in=typed).values_list(
            "table_id", "seats", "names"
        )
    }
    rows = []
    for table in tables:
        players = table.players or 0
        if players == 0:
            players = last_deals.get(table.pk, 0)
        if players < 2:
            continue
        rows.append(
            {
                "number": table.number,
                "name": table.name,
                "seats": table.seats,
                "players": min(players, table.seats),
                "open": max(0, table.seats - players),
                "game": _game_key(
                    table.variant, table.structure, table.small_blind, table.big_blind
                ),
                "game_name": _game_name(table.variant, table.structure),
                "stakes": table.stakes_label,
            }
        )
    return rows


def open_lists(now: datetime) -> list[dict[str, Any]]:
    """Each open list: its game, its label, and its live players' public names in list order
    (waiting, or called to a seat and not yet in it). Two queries."""
    # Only games the desk deals (CR-GM.1): a list opened before for stud or a draw game is
    # not advertised.
    lists = list(GameList.objects.filter(closed_at__isnull=True, variant__in=DESK_VARIANTS))
    names: dict[int, list[str]] = {game_list.pk: [] for game_list in lists}
    # A call-in past its check-in deadline, or a player whose last offer ran out, is off the
    # list even before the timers' task has recorded it (a public read writes nothing).
    live = WaitlistEntry.objects.filter(waitlists.on_the_list(now), game_list__in=lists)
    counts = dict(
        live.order_by()
        .values("game_list_id")
        .annotate(n=Count("id"))
        .values_list("game_list_id", "n")
    )
    # The first names of each list only (a list of 10,000 made a 14.9 MB page): the rest are
    # "and 9,950 more".
    place = Window(RowNumber(), partition_by=F("game_list_id"), order_by=[F("position"), F("id")])
    entries = (
        live.annotate(place=place)
        .filter(place__lte=settings.CARDROOM_WAITLIST_PAGE_ROWS)
        .select_related("player")
        .only("game_list_id", "position", "player__name", "player__alias")
        .order_by("game_list_id", "position", "id")
    )
    for entry in entries:
        names[entry.game_list_id].append(entry.player.public_name)
    return [
        {
            "game": _game_key(gl.variant, gl.structure, gl.small_blind, gl.big_blind),
            "game_name": _game_name(gl.variant, gl.structure),
            "stakes": "{}/{}".format(*(gl.bets() or (gl.small_blind, gl.big_blind))),
            "label": gl.label,
            "names": names[gl.pk],
            "count": counts.get(gl.pk, 0),
        }
        for gl in lists
    ]


def _game_name(variant: str, structure: str) -> str:
    return f"{SHORT_STRUCTURE[Structure(structure)]} {Variant(variant).label}"


def cash_games(now: datetime) -> list[dict[str, Any]]:
    """Running games (grouped by game and stakes) with their lists, then lists whose game is
    not running yet."""
    games: dict[tuple[str, str, int, int], dict[str, Any]] = {}
    for table in running_tables(now):
        game = games.setdefault(
            table["game"],
            {
                "game": table["game_name"],
                "stakes": table["stakes"],
                "label": "",
                "tables": [],
                "open_seats": 0,
                "waiting": [],
                "waiting_count": 0,
                "more": 0,
                "running": True,
            },
        )
        game["tables"].append({k: table[k] for k in ("number", "name", "seats", "players", "open")})
        game["open_seats"] += table["open"]
    for wait in open_lists(now):
        game = games.setdefault(
            wait["game"],
            {
                "game": wait["game_name"],
                "stakes": wait["stakes"],
                "tables": [],
                "open_seats": 0,
                "running": False,
            },
        )
        game["label"] = wait["label"]
        game["waiting"] = wait["names"]
        game["waiting_count"] = wait["count"]
        game["more"] = wait["count"] - len(wait["names"])
    ordered = sorted(
        games.items(), key=lambda kv: (not kv[1]["running"], kv[0][3], kv[0][2], kv[0])
    )
    return [game for _, game in ordered]


def _tournament_clock(tournament: Tournament, now: datetime) -> dict[str, Any]:
    if tournament.status == TournamentStatus.COMPLETE:
        return _tournament_finished(tournament)
    levels = list(tournament.levels.all())
    state = room_state(tournament, levels, now)
    level = state["level"]
    clock_state = state["state"]
    ends_at = None
    if clock_state == ClockState.RUNNING and level is not None:
        # now + the time left, in whole microseconds: now cancels out (the level's start, plus
        # the durations passed, minus the time played before it), the same instant at every read.
        ends = now + read_clock(tournament, levels, now).remaining
        ends_at = {"ms": (ends - EPOCH) // MS, "local": timezone.localtime(ends).strftime("%H:%M")}
    blinds = ""
    if level is not None and not level["is_break"]:
        blinds = f"{grouped(level['small_blind'])} / {grouped(level['big_blind'])}"
        if level["ante"]:
            blinds += f" · ante {grouped(level['ante'])}"
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game_label,
        "status": _tournament_status(tournament, clock_state),
        "clock": clock_state,
        "clock_label": ClockState(clock_state).label,
        "level": (level or {}).get("name", ""),
        "on_break": bool(level and level["is_break"]),
        "blinds": blinds,
        "next": level_line(state["next_level"]) if state["next_level"] else "",
        "ends_at": ends_at,
        # Paused (or stopped): the time left does not move, so it can be printed.
        "left": _left_label(state["remaining_ms"]) if ends_at is None and level else "",
        "players_left": state["players_left"],
        "entries": state["entries"],
        # Where it plays, by the tables' one name, the room's numbers (the tables in play).
        "tables": sorted(
            t.room_number
            for t in tournament.tables.all()
            if t.status == TournamentTableStatus.ACTIVE
        ),
    }


def _tournament_finished(tournament: Tournament) -> dict[str, Any]:
    """A finished tournament: no clock, no level, the winner by alias or initials (never a
    full name) and the size of the field."""
    first = winner(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game_label,
        "status": "Finished",
        "finished": True,
        "winner": public_names([first])[first.pk] if first is not None else "",
        "clock": ClockState.ENDED.value,
        # The field: a withdrawn entry (refunded before the draw) never played.
        "entries": tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN).count(),
    }


def _tournament_status(tournament: Tournament, clock_state: str) -> str:
    """One state on the board: a tournament whose players are seated but whose clock has
    not started reads "Seated" (its clock line says "Not started"), never "Running" above a
    clock that is not."""
    if tournament.status == TournamentStatus.RUNNING and clock_state == ClockState.STOPPED:
        return "Seated"
    return tournament.get_status_display()


def _left_label(ms: int) -> str:
    seconds = max(0, -(-ms // 1000))
    hours, minutes = seconds // 3600, seconds // 60 % 60
    return f"{hours}:{minutes:02d}:{seconds % 60:02d}" if hours else f"{minutes}:{seconds % 60:02d}"


def tournaments_today(now: datetime) -> list[dict[str, Any]]:
    """Tournaments in play or registering, and those finished today (the room's day)."""
    today = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    in_play = (TournamentStatus.REGISTERING, TournamentStatus.RUNNING, TournamentStatus.FINAL_TABLE)
    found = (
        Tournament.objects.filter(
            Q(status__in=in_play) | Q(status=TournamentStatus.COMPLETE, updated_at__gte=today)
        )
        .prefetch_related("levels", "tables__table")
        .order_by("status", "created_at", "id")[:MAX_TOURNAMENTS]
    )
    order = {s: i for i, s in enumerate((*in_play[1:], in_play[0], TournamentStatus.COMPLETE))}
    return [
        _tournament_clock(t, now)
        for t in sorted(found, key=lambda t: (order[TournamentStatus(t.status)], t.pk))
    ]


def snapshot(now: datetime | None = None) -> dict[str, Any]:
    now = now or timezone.now()
    return {"games": cash_games(now), "tournaments": tournaments_today(now)}


# --- serving: a shared cache, a process memo, strong ETags ------------------------------------


@dataclass(frozen=True, slots=True)
class Built:
    """One build of the board: the page and its live fragment, each with its ETag."""

    page: bytes
    page_etag: str
    live: bytes
    live_etag: str
    built_at: float


def etag_of(body: bytes) -> str:
    """A strong validator: the same bytes, the same tag."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


#: What the board shows: the tables, their seat maps, the lists and the room's settings, the
#: tournaments, their seating and their players.
BOARD_TOPICS = (
    Topic.TABLE, Topic.SEATS, Topic.LIST, Topic.ROOM, Topic.TOURNAMENT, Topic.TOURNAMENT_TABLE,
    Topic.ENTRANTS,
)  # fmt: skip


def board_version() -> str:
    """The versions of the topics the board shows (``changes.versions``: the shared cache, no
    database), so a change is shown at the next poll rather than when the cached board expires."""
    try:
        return "-".join(map(str, changes.versions(BOARD_TOPICS)))
    except Exception:  # a cache outage: the board expires on its time to live alone
        logger.warning("board version unreadable", exc_info=True)
        return "?"


def build(now: datetime | None = None) -> Built:
    context: dict[str, Any] = {"board": snapshot(now), "room": settings.CARDROOM_NAME}
    live = render_to_string("cardroom/board.html#live", context).encode()
    live_etag = etag_of(live)
    page = render_to_string("cardroom/board.html", {**context, "live_etag": live_etag}).encode()
    return Built(page, etag_of(page), live, live_etag, clock())


_memo: tuple[str, Built] | None = None


def current() -> Built:
    """The board as of the versions it shows, built at most ``SHARED_TTL`` seconds ago, built
    once for all processes (modulo two processes missing at the same instant)."""
    global _memo
    now = clock()
    key = f"cardroom-board:{board_version()}"
    memo = _memo
    if memo is not None and memo[0] == key and 0 <= now - memo[1].built_at < SHARED_TTL:
        return memo[1]
    cache = changes.shared_cache()
    found: Built | None = None
    try:
        found = cache.get(key)
    except Exception:  # a cache outage costs a build, never the board
        logger.warning("board cache unreadable", exc_info=True)
    if not isinstance(found, Built) or not 0 <= now - found.built_at < SHARED_TTL:
        found = build()
        try:
            cache.set(key, found, SHARED_TTL)
        except Exception:
            logger.warning("board cache unwritable", exc_info=True)
    _memo = (key, found)
    return found


def forget() -> None:
    """Drop this process's copy (tests)."""
    global _memo
    _memo = None


def answer(request: HttpRequest, body: bytes, etag: str) -> HttpResponse:
    """The body with its ETag, or Django's own conditional answer to the request's
    validators (``get_conditional_response``: a 304 for a matching If-None-Match, compared
    weakly as RFC 9110 13.1.2 says for GET and HEAD, with the ETag and Cache-Control kept)."""
    response = HttpResponse(body)
    if not getattr(settings, "CARDROOM_BOARD_CACHE", True):
        response["Cache-Control"] = "no-store"
        return response
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    return get_conditional_response(request, etag=etag, response=response) or response


def _serve(request: HttpRequest, part: str) -> HttpResponse:
    if not getattr(settings, "CARDROOM_BOARD_CACHE", True):
        # No cache, no ETag (the load test's comparison): what a plain view would do, build
        # the snapshot and render the part asked for, on every request.
        context = {"board": snapshot(), "room": settings.CARDROOM_NAME, "live_etag": ""}
        name = "cardroom/board.html#live" if part == "live" else "cardroom/board.html"
        return answer(request, render_to_string(name, context).encode(), "")
    built = current()
    if part == "live":
        return answer(request, built.live, built.live_etag)
    return answer(request, built.page, built.page_etag)


@require_safe
@login_not_required
def board(request: HttpRequest) -> HttpResponse:
    """The board, for a TV or a phone. The query string is ignored (it never reaches the
    cache key: no one can make the server build the board by varying it)."""
    return _serve(request, "page")


@require_safe
@login_not_required
def board_live(request: HttpRequest) -> HttpResponse:
    """What the board's script polls: the board's changing part."""
    return _serve(request, "live")
