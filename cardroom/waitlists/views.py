"""The cash-game floor's waitlist pages: the floor's page ``/floor/waitlists/``
(every open list, its players in order, the open seats of its game with "Call next" and
"Seat", must-move tables, starting a table) and the kiosk ``/kiosk/`` (a tablet at the
podium: a player puts their own name down, no log-in).

Thin views: the role check, a form, one service call of ``cardroom.waitlists.services``, render. Staff
and floor managers run the lists; moving a player up or down the list is a floor manager's
(with a reason); directors read. The page polls every 3 s with a version of everything it
shows: 204 while nothing changed, so two floor devices see each other within a poll.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from cardroom.core import changes
from cardroom.core.api_errors import Conflict
from cardroom.core.changes import Topic
from cardroom.core.converters import typed_id
from cardroom.core.numbers import grouped
from cardroom.core.parsers import whole_number
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import READERS, Role, has_role, role_required
from cardroom.seats.models import TableSeat
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tables as waitlist_tables
from cardroom.waitlists.forms import (
    AddForm,
    MustMoveForm,
    OpenListForm,
    ReasonForm,
    ReleaseForm,
    ReorderForm,
    SeatForm,
    buy_in_errors,
    start_buy_ins,
    table_games,
    typed_buy_ins,
)
from cardroom.waitlists.models import (
    LIVE_STATUSES,
    EntrySource,
    EntryStatus,
    GameList,
    MustMove,
    RoomSettings,
    WaitlistEntry,
    WaitlistEvent,
    WaitlistEventKind,
    entry_facts,
)

#: Who runs the lists (add, call, seat, check in, remove, must-move, start a table).
LIST_RUNNERS: tuple[Role, ...] = (Role.FLOOR_MANAGER, Role.STAFF)
PAGE = "cardroom/waitlists.html"
#: Open tables a list shows a row for (each with its Call next and Seat forms), after every
#: seat under a running offer: the seats are taken from the top, so these are the ones the
#: floor fills next; the rest are counted and named by number. At 500 open tables one row each
#: made a 950 KB page.
OPEN_SEAT_ROWS = 12
#: Table numbers named in the line under the rows; past these, how many more.
MORE_TABLES_NAMED = 40


# --- what the page shows --------------------------------------------------------------------


@dataclass
class OpenSeat:
    table: Table
    seat: int
    called: WaitlistEntry | None = None  # the player offered this seat, if any
    #: A must-move player this seat goes to first (the longest at a must-move table).
    mover: dict[str, Any] | None = None
    #: The table's other open seats (not offered): shown on this one's row, taken in turn.
    others: list[int] = field(default_factory=list)
    #: The player this seat's form seats, when they play at another table: they move with
    #: their chips (``text``: "Moves with 1,250 from Table 1"), the form's chips are added
    #: (``add``: what the minimum needs; ``add_max``: up to the table's maximum).
    moving: dict[str, Any] | None = None
    #: Who this seat goes to when it is not offered (``waitlists.next_for_seat``).
    next: WaitlistEntry | None = None
    #: A refused Seat: the buy-in as typed (``value``) and the refusal beside it (``error``).
    kept: dict[str, str] | None = None

    @property
    def field(self) -> str:
        """The stem of the ids of its buy-in's hints ("seat-3-5": Table 3, seat 5)."""
        return f"seat-{self.table.number}-{self.seat}"


@dataclass
class Panel:
    """One list as the floor sees it: at most ``CARDROOM_WAITLIST_PAGE_ROWS`` of its players
    (the first, or a page further down, or those a search finds), with how many wait in all."""

    game_list: GameList
    entries: list[WaitlistEntry]
    waited: list[str]  # how long each entry has waited, in the entries' order
    seats: list[OpenSeat]
    tables: list[Table]
    proposal: dict[str, Any] = field(default_factory=dict)
    started: dict[str, Any] | None = None
    #: By entry id: ``playing_at`` ("Table 1 seat 3"), ``last_missed_at`` (entry_facts).
    facts: dict[int, dict[str, Any]] = field(default_factory=dict)
    error: str = ""
    notice: str = ""
    #: Everyone on the list (``entries`` is a page of it).
    waiting: int = 0
    browse: Browse | None = None
    #: The open tables past ``OPEN_SEAT_ROWS``, by number (they get rows as the first fill).
    more_tables: list[int] = field(default_factory=list)

    @property
    def more_tables_named(self) -> str:
        named = ", ".join(str(number) for number in self.more_tables[:MORE_TABLES_NAMED])
        left = len(self.more_tables) - MORE_TABLES_NAMED
        return named + (f" and {left} more" if left > 0 else "")

    @property
    def rows(self) -> list[tuple[WaitlistEntry, str, dict[str, Any], int]]:
        facts = [self.facts.get(entry.pk, {}) for entry in self.entries]
        places = [getattr(entry, "place", n) for n, entry in enumerate(self.entries, 1)]
        return list(zip(self.entries, self.waited, facts, places, strict=True))

    @property
    def first_place(self) -> int:
        return self.rows[0][3] if self.rows else 0

    @property
    def last_place(self) -> int:
        return self.rows[-1][3] if self.rows else 0

    @property
    def more(self) -> int:
        """How many wait after the last row shown ("and 9,950 more")."""
        return max(0, self.waiting - self.last_place) if not self.searching else 0

    @property
    def searching(self) -> str:
        return self.browse.search if self.browse else ""

    @property
    def page(self) -> int:
        return self.browse.page if self.browse else 1


@dataclass(frozen=True)
class Browse:
    """Which part of one list the page shows (``?list=3&page=2`` or ``?list=3&q=ann``)."""

    list_id: int
    page: int = 1
    search: str = ""

    @classmethod
    def read(cls, query: Any) -> Browse | None:
        list_id = typed_id(query.get("list"))
        if list_id is None:
            return None
        page = whole_number(query.get("page") or "1", 6) or 1
        search = " ".join(str(query.get("q", "")).split())[:60]
        return cls(list_id, max(1, page), search)

    def query(self) -> str:
        """The poll's parameters, so that a poll keeps the part of the list being read."""
        params = {"list": self.list_id, "page": self.page} | (
            {"q": self.search} if self.search else {}
        )
        return "&" + urlencode(params)


def panels(
    movers: list[dict[str, Any]],
    *,
    errors: dict[int, str] | None = None,
    notices: dict[int, str] | None = None,
    browse: Browse | None = None,
) -> list[Panel]:
    """The open lists; ``movers``: the page's ``must_move_rows()`` (read once per page). The
    queries are a few per list, none per player or per seat (1,000 waiting and 500
    open tables ran past 30 s)."""
    errors, notices = errors or {}, notices or {}
    rows_shown = settings.CARDROOM_WAITLIST_PAGE_ROWS
    lists_waiting = waitlists.open_lists_waiting()
    lists = [game_list for game_list, _ in lists_waiting]
    called = waitlists.called_entries(lists)
    now = timezone.now()
    shown = []
    for game_list, waiting in lists_waiting:
        part = browse if browse is not None and browse.list_id == game_list.pk else None
        page = part.page if part else 1
        mine = waitlists.live_page(
            game_list,
            offset=0 if part and part.search else (page - 1) * rows_shown,
            limit=rows_shown,
            search=part.search if part else "",
        )
        seats: list[OpenSeat] = []
        for table, seat in waitlists.open_seats(game_list):
            if seats and seats[-1].table.pk == table.pk and not seats[-1].called:
                seats[-1].others.append(seat)
            else:
                seats.append(OpenSeat(table, seat))
        seats += [
            OpenSeat(e.called_table, e.called_seat, e)
            for e in called
            if e.game_list_id == game_list.pk and e.called_table and e.called_seat
        ]
        seats.sort(key=lambda s: (s.table.number, s.seat))
        not_offered = [s for s in seats if not s.called]
        more_tables = [s.table.number for s in not_offered[OPEN_SEAT_ROWS:]]
        shown_rows = not_offered[:OPEN_SEAT_ROWS]
        seats = [s for s in seats if s.called or s in shown_rows]
        # Never one who plays at that table or missed this seat: one pass for every seat.
        nexts = waitlists.next_for_seats(
            game_list, [(s.table, s.seat) for s in seats if not s.called]
        )
        for open_seat in seats:
            if not open_seat.called:
                open_seat.next = nexts.get((open_seat.table.pk, open_seat.seat))
        for row in movers:  # a must-move player takes the main game's next open seat first
            free = [s for s in seats if not s.called and not s.mover]
            free = [s for s in free if s.table.pk != row["must_move"].table_id]
            if row["must_move"].main_id == game_list.pk and row["next"] and free:
                free[0].mover = row
        shown.append(
            Panel(
                game_list=game_list,
                entries=mine,
                waited=[waited(e.added_at, now) for e in mine],
                seats=seats,
                tables=list(game_list.tables()),
                proposal=waitlist_tables.start_table_proposal(game_list),
                started=waitlist_tables.last_start(game_list),
                facts=entry_facts(mine),
                error=errors.get(game_list.pk, ""),
                notice=notices.get(game_list.pk, ""),
                waiting=waiting,
                browse=part,
                more_tables=more_tables,
            )
        )
    # Who plays where, for every player a row or a seat names: one query for the page.
    named = [e for p in shown for e in p.entries] + [
        e for p in shown for s in p.seats for e in (s.called, s.next) if e is not None
    ]
    playing = {
        live.player_id: live
        for live in TableSeat.objects.filter(
            player_id__in={e.player_id for e in named}, left_at=None
        ).select_related("table")
    }
    elsewhere = offers_elsewhere(named, called)
    for panel in shown:
        for open_seat in panel.seats:
            open_seat.moving = moving(open_seat.called or open_seat.next, open_seat.table, playing)
        panel.facts = {pk: {**f, "also_called": elsewhere[pk]} for pk, f in panel.facts.items()}
    return shown


def offers_elsewhere(
    entries: list[WaitlistEntry], called: list[WaitlistEntry]
) -> dict[int, list[str]]:
    """By entry id: the seats the same player is offered from their other lists ("Table 3
    seat 2"; ``called``: every running offer of the open lists). A player may wait on several
    lists, so two offers at once are allowed, but the floor sees it on the row (and on the
    call) before calling them across the room again."""
    offered: dict[int, list[WaitlistEntry]] = {}
    for offer in called:
        if offer.called_table:
            offered.setdefault(offer.player_id, []).append(offer)
    return {
        e.pk: [
            f"{o.called_table} seat {o.called_seat}"
            for o in offered.get(e.player_id, [])
            if o.pk != e.pk
        ]
        for e in entries
    }


def moving(
    entry: WaitlistEntry | None, table: Table, playing: dict[int, TableSeat]
) -> dict[str, Any] | None:
    """What the seat form says of a player playing at another table (``seat_from_list``
    moves them with their chips)."""
    live = playing.get(entry.player_id) if entry is not None else None
    if live is None or live.table_id == table.pk:
        return None
    return {
        "text": f"Moves with {grouped(live.stack)} from {live.table}",
        "add": max(0, table.min_buy_in - live.stack),
        "add_max": max(0, table.max_buy_in - live.stack),
    }


def waited(since: datetime, now: datetime) -> str:
    """How long a player has waited, as the floor says it: "just now", "12 min", "1 h 05"."""
    minutes = max(0, int((now - since).total_seconds() // 60))
    if minutes < 1:
        return "just now"
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d}"


def must_move_rows() -> list[dict[str, Any]]:
    """Each live must-move table: who moves next (longest there) and the main game's seat."""
    rows = []
    for must_move in MustMove.objects.filter(ended_at__isnull=True).select_related("table", "main"):
        seats = waitlists.open_seats(must_move.main, exclude=must_move.table)
        rows.append(
            {
                "must_move": must_move,
                "next": waitlist_tables.must_move_next(must_move),
                "to": seats[0] if seats else None,
            }
        )
    return rows


#: How long an offer that ran out stays on the page for its poll to tell the floor (the poll
#: may be held meanwhile while someone types), and how many of the latest it keeps.
RAN_OUT_FOR, RAN_OUT_SHOWN = timedelta(minutes=10), 5


def offers_ran_out(now: datetime) -> list[dict[str, Any]]:
    """The seat offers that ran out lately (recorded by ``waitlists.lapse_due``: the beat's
    sweep, or a write on the list),
    newest first, each with the player the timer called to that seat in its place, if any:
    static/js/waitlists.js tells the floor of each one new to the page (a chime, the called
    rows lit, a status line). Two queries. The timer writes the call right after the expiry,
    under the list's lock (past the second miss's PASSED), so it is the list's next event."""
    following = (
        WaitlistEvent.objects.filter(game_list=OuterRef("game_list"), id__gt=OuterRef("id"))
        .exclude(kind=WaitlistEventKind.PASSED, entry=OuterRef("entry"))
        .order_by("id")
        .values("id")[:1]
    )
    expired = list(
        WaitlistEvent.objects.filter(
            kind=WaitlistEventKind.OFFER_EXPIRED, at__gte=now - RAN_OUT_FOR
        )
        .annotate(following=Subquery(following))
        .select_related("player")
        .order_by("-id")[:RAN_OUT_SHOWN]
    )
    ids = [e.following for e in expired if e.following]
    calls = WaitlistEvent.objects.filter(pk__in=ids, kind=WaitlistEventKind.CALLED, by=None)
    called = {c.pk: c for c in calls.select_related("player")} if ids else {}
    shown = []
    for event in expired:
        call = called.get(event.following)
        if call is not None and (call.table_number, call.seat) == (event.table_number, event.seat):
            text = f"{call.player} called to Table {call.table_number}, seat {call.seat}."
        else:
            call, text = None, f"Table {event.table_number}, seat {event.seat}: nobody to call."
        said = f"Offer to {event.player} ran out: {text}"
        shown.append({"id": event.pk, "entry": call.entry_id if call else None, "text": said})
    return shown


#: What the page shows: the lists, the seat maps, the tables and their must-moves, the room.
PAGE_TOPICS = (Topic.LIST, Topic.SEATS, Topic.TABLE, Topic.MUST_MOVE, Topic.ROOM)


def version(now: datetime | None = None) -> str:
    """Everything the page shows: the newest change to it in the room's change feed
    (``cardroom/core/changes.py``), the offers and call-ins whose time has passed (shown as ran
    out before the timers record it), and the minute (the times waited tick)."""
    now = now or timezone.now()
    due = WaitlistEntry.objects.filter(waitlists.due(now)).count()
    return f"{changes.latest(PAGE_TOPICS)}-{due}-{int(now.timestamp() // 60)}"


def page_context(request: HtmxRequest, *, seen: str | None = None, **extra: Any) -> dict[str, Any]:
    """``seen``: the version the caller has just read (a poll's), not read a second time."""
    settings_row = RoomSettings.current()
    # The version before the read: a change landing in between shows at the next poll.
    before = seen or version()
    movers = must_move_rows()
    browse = Browse.read(request.GET)
    shown = panels(
        movers,
        errors=extra.pop("errors", None),
        notices=extra.pop("notices", None),
        browse=browse,
    )
    keep_typed(shown, extra.pop("kept", None))
    context: dict[str, Any] = {
        "panels": shown,
        "browse_query": browse.query() if browse else "",
        "rows_shown": settings.CARDROOM_WAITLIST_PAGE_ROWS,
        "room": settings_row,
        "version": before,
        "can_run": has_role(request.user, *LIST_RUNNERS),
        "can_reorder": has_role(request.user, Role.FLOOR_MANAGER),
        "add_form": AddForm(),
        "list_ids": ",".join(str(p.game_list.pk) for p in shown),
        "must_moves": movers,
        "must_move_form": MustMoveForm(),
        "open_form": OpenListForm(),
        "table_games": table_games(),
        "now": timezone.now(),
        "ran_out": offers_ran_out(timezone.now()),
    }
    context.update(extra)
    return context


def keep_typed(shown: list[Panel], kept: dict[str, Any] | None) -> None:
    """The buy-in fields of each start proposal (one per player, the table's minimum unless
    typed) and of a refused Seat: after a refusal they come back as typed, each with its
    refusal beside it. ``kept``: ``start`` (the list, ``typed`` and ``errors`` by entry id)
    or ``seat`` (``at``: entry id, table number and seat; ``value``; ``error``)."""
    kept = kept or {}
    start, seat = kept.get("start") or {}, kept.get("seat") or {}
    for panel in shown:
        proposal, mine = panel.proposal, start.get("list") == panel.game_list.pk
        typed, errors = (start["typed"], start["errors"]) if mine else ({}, {})
        table = proposal.get("table")
        proposal["buy_ins"] = [
            {
                "entry": entry,
                "field": f"start-{entry.pk}",
                "value": typed.get(entry.pk, table.min_buy_in),
                "error": errors.get(entry.pk, ""),
            }
            for entry in proposal.get("players", [])
            if table is not None
        ]
        for open_seat in panel.seats:
            who = open_seat.called or open_seat.next
            if who is not None and seat.get("at") == (
                who.pk,
                open_seat.table.number,
                open_seat.seat,
            ):
                open_seat.kept = {"value": seat["value"], "error": seat["error"]}


def render_lists(
    request: HtmxRequest, *, status: int = 200, part: str = "lists-response", **extra: Any
) -> HttpResponse:
    """The page, or after an htmx post its lists with the poller (their version moved on)."""
    template = f"{PAGE}#{part}" if request.htmx else PAGE
    return render(request, template, page_context(request, **extra), status=status)


#: The Conflict codes the waitlist services raise (``waitlists``, ``waitlist_tables``,
#: ``waitlist_base`` and the ``players`` they seat through), each put in one of two sets; a
#: test keeps every code they raise in one of them. A race lost: another device (or an offer's
#: timer) changed the list, the seat or the must-move since the page showed it.
#: ``player_seated``: the page seats a player playing elsewhere by moving them, so it reaches
#: the page only when someone seated them meanwhile.
RACES = frozenset(
    {
        "list_exists", "entry_changed", "already_called", "seat_taken", "seat_offered",
        "player_moved", "ended", "seat_changed", "player_seated", "sitting_out", "playing",
        # The person's record: another device recorded that name and contact, or barred or
        # lifted the bar, a moment before.
        "player_exists", "player_changed",
    }
)  # fmt: skip
#: The table's state refusing it now, nobody else's doing: a player dealt into the hand being
#: played is not moved until it is over. Said "Not now", as the desk says it (seat_views).
NOT_NOW = frozenset({"in_hand"})


def refusal_text(exc: Exception, *, ran_out: str = "") -> str:
    """``ran_out``: the tap was on a seat offer that has since run out (``offer_ran_out``),
    which says what happened instead of "someone else changed this". "Someone else changed
    this first" only for a race lost (``RACES``); any other Conflict is "Not now"."""
    if ran_out:
        detail = exc.message if isinstance(exc, Conflict) else " ".join(_messages(exc))
        return f"{ran_out} {detail} The list below is up to date."
    if isinstance(exc, Conflict) and exc.code in RACES:
        return f"Someone else changed this first: {exc.message} The list below is up to date."
    if isinstance(exc, Conflict):
        return f"Not now: {exc.message}"
    if isinstance(exc, ValidationError):
        return " ".join(exc.messages)
    return str(exc)


def _messages(exc: Exception) -> list[str]:
    return exc.messages if isinstance(exc, ValidationError) else [str(exc)]


def offer_ran_out(entry: WaitlistEntry, data: dict[str, Any], *, any_seat: bool = False) -> str:
    """When the seat tapped (``data``'s table and seat) was offered to ``entry`` and the
    offer ran out since (the timer's ``offer_expired``, with no new offer after it): what
    happened, in the floor's words; else "". ``any_seat``: the tap was on the entry's running
    offer itself (Release), whichever seat it was."""
    if entry.status == EntryStatus.CALLED:
        return ""
    if not any_seat and (not data.get("table") or not data.get("seat")):
        return ""
    last = (
        entry.events.filter(kind__in=[WaitlistEventKind.CALLED, WaitlistEventKind.OFFER_EXPIRED])
        .order_by("-id")
        .first()
    )
    if last is None or last.kind != WaitlistEventKind.OFFER_EXPIRED:
        return ""
    if not any_seat and (last.table_number, last.seat) != (data["table"], data["seat"]):
        return ""
    at = timezone.localtime(last.at).strftime("%H:%M")
    said = (
        f"The offer of Table {last.table_number}, seat {last.seat} to {entry.player} ran out"
        f" at {at} (not taken in time)"
    )
    if entry.status in LIVE_STATUSES:
        return f"{said}: they keep their place on the list."
    return f"{said}: a second missed offer, so they are off the list."


# --- the floor's page -----------------------------------------------------------------------


@require_GET
@never_cache
@role_required(*READERS)
def waitlist_page(request: AuthenticatedRequest) -> HttpResponse:
    """The page; polled (htmx) with ``v``: 204 when nothing it shows has changed."""
    if request.htmx and "v" in request.GET:
        now_version = version()
        if request.GET["v"] == now_version:
            return HttpResponse(status=204)
        return render(request, f"{PAGE}#poll-response", page_context(request, seen=now_version))
    return render(request, PAGE, page_context(request))


@require_POST
@role_required(*LIST_RUNNERS)
def waitlist_add(request: AuthenticatedRequest) -> HttpResponse:
    form = AddForm(request.POST)
    if not form.is_valid():
        return render_lists(request, status=422, part="add-response", add_form=form)
    data = form.cleaned_data
    source = EntrySource.CALL_IN if data["call_in"] else EntrySource.FLOOR
    adds = waitlists.add_to_lists(
        game_lists=data["lists"], name=data["name"], alias=data["alias"], source=source,
        by=request.user,
    )  # fmt: skip
    added = [f"{e.game_list.label} ({ordinal(waitlists.place_of(e))})" for e in adds.added]
    for game_list, exc in adds.refused:
        form.add_error(None, f"{game_list.label}: {refusal_text(exc)}")
    refused = bool(adds.refused)
    status = 422 if refused else 200
    shown = AddForm() if not refused else form
    notice = f"{data['name']} added to {', '.join(added)}." if added else ""
    return render_lists(request, status=status, part="add-response", add_form=shown, added=notice)


@require_POST
@role_required(*LIST_RUNNERS)
def list_open(request: AuthenticatedRequest) -> HttpResponse:
    """Open a list: one tap for a game the tables are set up for, or any game and stakes."""
    if game := request.POST.get("game"):
        parts = game.split(":")
        if len(parts) != 4 or not all(typed_id(p) for p in parts[2:]):
            return render_lists(request, status=422, open_error="Pick a game to open a list for.")
        data: dict[str, Any] = {"variant": parts[0], "structure": parts[1]}
        data |= {"small_blind": int(parts[2]), "big_blind": int(parts[3])}
    else:
        form = OpenListForm(request.POST)
        if not form.is_valid():
            errors = "; ".join(
                f"{form.fields[k].label}: {' '.join(map(str, v))}" for k, v in form.errors.items()
            )
            return render_lists(request, status=422, open_form=form, open_error=errors)
        data = form.cleaned_data
    try:
        opened = waitlists.open_list(by=request.user, **data)
    except Conflict as exc:
        return render_lists(request, status=409, open_error=refusal_text(exc))
    except ValidationError as exc:
        return render_lists(request, status=422, open_error=refusal_text(exc))
    return render_lists(request, notices={opened.pk: f"The {opened.label} list is open."})


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def entry_action(
    request: AuthenticatedRequest,
    entry_id: int,
    run: Any,
    *,
    form_class: type[forms.Form] | None = None,
    keep_buy_in: bool = False,
    on_offer: bool = False,
) -> HttpResponse:
    """An action on one entry: its form checked, the service run; a refusal (422) or a race
    lost (409) is said on the entry's list, which comes back up to date. ``keep_buy_in``: a
    refused Seat comes back with the buy-in as typed, a refusal of it beside the field.
    ``on_offer``: the action is on the entry's running offer (``offer_ran_out``'s ``any_seat``)."""
    entry = get_object_or_404(
        WaitlistEntry.objects.select_related("game_list", "player", "called_table"),
        pk=entry_id,
    )
    data: dict[str, Any] = {}
    if form_class is not None:
        form = form_class(request.POST)
        if not form.is_valid():
            message = " ".join(
                f"{form.fields[k].label or k}: {' '.join(map(str, v))}"
                for k, v in form.errors.items()
            )
            if keep_buy_in and "buy_in" in form.errors:
                said = f"{entry.player}: type the buy-in as a whole number of chips."
                return render_lists(request, status=422, kept=kept_seat(request, entry, said))
            return render_lists(request, status=422, errors={entry.game_list_id: message})
        data = form.cleaned_data
    try:
        notice = run(entry, data)
    except (Conflict, ValidationError) as exc:
        entry.refresh_from_db()
        text = refusal_text(exc, ran_out=offer_ran_out(entry, data, any_seat=on_offer))
        status = 409 if isinstance(exc, Conflict) else 422
        if not keep_buy_in:
            return render_lists(request, status=status, errors={entry.game_list_id: text})
        if "buy_in" in getattr(exc, "error_dict", {}):  # said beside the field, not twice
            return render_lists(request, status=status, kept=kept_seat(request, entry, text))
        kept = kept_seat(request, entry, "")
        return render_lists(request, status=status, errors={entry.game_list_id: text}, kept=kept)
    return render_lists(request, notices={entry.game_list_id: notice})


def kept_seat(request: HttpRequest, entry: WaitlistEntry, error: str) -> dict[str, Any]:
    """A refused Seat's buy-in as typed, for the same seat's form (``keep_typed``)."""
    at = (
        entry.pk,
        whole_number(request.POST.get("table", "")),
        whole_number(request.POST.get("seat", ""), 2),
    )
    return {"seat": {"at": at, "value": request.POST.get("buy_in", "")[:20], "error": error}}


def seat_target(data: dict[str, Any]) -> Table:
    table = Table.objects.filter(number=data["table"]).first()
    if table is None:
        raise ValidationError(f"There is no table {data['table']}.")
    return table


@require_POST
@role_required(*LIST_RUNNERS)
def entry_call(request: AuthenticatedRequest, entry_id: int) -> HttpResponse:
    def run(entry: WaitlistEntry, data: dict[str, Any]) -> str:
        table = seat_target(data)
        waitlists.call_player(entry=entry, table=table, seat=data["seat"], by=request.user)
        minutes = RoomSettings.current().offer_minutes
        said = (
            f"{entry.player} called to {table}, seat {data['seat']}: {minutes} minutes to take it."
        )
        live = entry.player.waitlist_entries.filter(status=EntryStatus.CALLED).exclude(pk=entry.pk)
        also = [
            f"{e.called_table} seat {e.called_seat}" for e in live.select_related("called_table")
        ]
        return f"{said} Also called to {', '.join(also)}." if also else said

    return entry_action(request, entry_id, run, form_class=SeatForm)


@require_POST
@role_required(*LIST_RUNNERS)
def entry_seat(request: AuthenticatedRequest, entry_id: int) -> HttpResponse:
    def run(entry: WaitlistEntry, data: dict[str, Any]) -> str:
        table = seat_target(data)
        seated = waitlists.seat_from_list(
            entry=entry, table=table, seat=data["seat"], buy_in=data["buy_in"], by=request.user
        )
        stack = seated.seat.stack if seated.seat else 0
        moved = seated.events.filter(kind=WaitlistEventKind.SEATED).order_by("-id").first()
        if moved is not None and moved.note.startswith("Moved from "):
            where = moved.note.removeprefix("Moved from ").split(" with ", 1)[0]
            return (
                f"{entry.player} moved from {where} to {table}, seat {data['seat']}:"
                f" {grouped(stack)} in front."
            )
        return f"{entry.player} seated at {table}, seat {data['seat']}, with {grouped(stack)}."

    return entry_action(request, entry_id, run, form_class=SeatForm, keep_buy_in=True)


@require_POST
@role_required(*LIST_RUNNERS)
def entry_release(request: AuthenticatedRequest, entry_id: int) -> HttpResponse:
    """End a running seat offer from the page (``waitlists.release_offer``): the player keeps
    their place; the reason, optional, is recorded."""

    def run(entry: WaitlistEntry, data: dict[str, Any]) -> str:
        table, seat = entry.called_table, entry.called_seat
        waitlists.release_offer(entry=entry, by=request.user, reason=data["reason"])
        said = f"Offer of {table}, seat {seat} to {entry.player} released: they keep their place"
        # The call that went out with the release (the log's next call on the list), if any.
        mark = entry.events.filter(kind=WaitlistEventKind.PASSED).latest("id")
        calls = entry.game_list.events.filter(kind=WaitlistEventKind.CALLED, id__gt=mark.pk)
        if (call := calls.select_related("player").first()) is None:
            return f"{said}."
        offered = f"Table {call.table_number}, seat {call.seat} offered to {call.player}"
        return f"{said} for the next seat. {offered}."

    return entry_action(request, entry_id, run, form_class=ReleaseForm, on_offer=True)


@require_POST
@role_required(*LIST_RUNNERS)
def entry_check_in(request: AuthenticatedRequest, entry_id: int) -> HttpResponse:
    def run(entry: WaitlistEntry, data: dict[str, Any]) -> str:
        waitlists.check_in(entry=entry, by=request.user)
        return f"{entry.player} checked in."

    return entry_action(request, entry_id, run)


@require_POST
@role_required(*LIST_RUNNERS)
def entry_remove(request: AuthenticatedRequest, entry_id: int) -> HttpResponse:
    def run(entry: WaitlistEntry, data: dict[str, Any]) -> str:
        waitlists.remove_entry(entry=entry, reason=data["reason"], by=request.user)
        return f"{entry.player} taken off the list ({data['reason']})."

    return entry_action(request, entry_id, run, form_class=ReasonForm)


@require_POST
@role_required(Role.FLOOR_MANAGER)
def entry_reorder(request: AuthenticatedRequest, entry_id: int) -> HttpResponse:
    def run(entry: WaitlistEntry, data: dict[str, Any]) -> str:
        waitlists.reorder(
            entry=entry, position=data["position"], reason=data["reason"], by=request.user
        )
        return f"{entry.player} moved to {ordinal(data['position'])} place ({data['reason']})."

    return entry_action(request, entry_id, run, form_class=ReorderForm)


@require_POST
@role_required(*LIST_RUNNERS)
def list_start(request: AuthenticatedRequest, list_id: int) -> HttpResponse:
    game_list = get_object_or_404(GameList, pk=list_id)
    number = typed_id(request.POST.get("table"))
    table = Table.objects.filter(number=number).first() if number else None
    if table is None:
        return render_lists(request, status=422, errors={game_list.pk: "Pick a table to start."})
    typed = typed_buy_ins(request.POST)
    amounts, wrong = start_buy_ins(typed, game_list)
    start = {"list": game_list.pk, "typed": typed, "errors": wrong}
    try:
        if wrong:
            raise ValidationError(list(wrong.values()))
        waitlist_tables.start_game(
            game_list=game_list, table=table, by=request.user, buy_ins=amounts
        )
    except Conflict as exc:
        errors = {game_list.pk: refusal_text(exc)}
        return render_lists(request, status=409, errors=errors, kept={"start": start})
    except ValidationError as exc:
        start["errors"] = wrong or buy_in_errors(exc)
        said = f"{table} is not started: correct the buy-ins marked below."
        errors = {game_list.pk: said if start["errors"] else refusal_text(exc)}
        return render_lists(request, status=422, errors=errors, kept={"start": start})
    return render_lists(request, notices={game_list.pk: f"{table} is open: players seated."})


@require_POST
@role_required(*LIST_RUNNERS)
def must_move_create(request: AuthenticatedRequest) -> HttpResponse:
    form = MustMoveForm(request.POST)
    if form.is_valid():
        try:
            waitlist_tables.create_must_move(by=request.user, **form.cleaned_data)
        except (ValidationError, Conflict) as exc:
            form.add_error(None, refusal_text(exc))
        else:
            return render_lists(
                request, must_move_notice=f"{form.cleaned_data['table']} is now a must-move."
            )
    return render_lists(request, status=422, must_move_form=form)


@require_POST
@role_required(*LIST_RUNNERS)
def must_move_action(request: AuthenticatedRequest, must_move_id: int, what: str) -> HttpResponse:
    must_move = get_object_or_404(MustMove.objects.select_related("table", "main"), pk=must_move_id)
    try:
        if what == "move":
            moved = waitlist_tables.move_must_move_player(
                must_move=must_move, by=request.user, **move_target(request)
            )
            notice = (
                f"{moved.player} moved from {must_move.table} to {moved.table}, seat {moved.seat}."
            )
        elif what == "end":
            waitlist_tables.end_must_move(must_move=must_move, by=request.user)
            notice = f"{must_move.table} is no longer a must-move."
        else:
            raise ValidationError("Unknown must-move action.")
    except Conflict as exc:
        return render_lists(request, status=409, must_move_error=refusal_text(exc))
    except ValidationError as exc:
        return render_lists(request, status=422, must_move_error=refusal_text(exc))
    return render_lists(request, must_move_notice=notice)


def move_target(request: HttpRequest) -> dict[str, Any]:
    """The seat a "Move here" button names (else the main game's next open seat)."""
    number, seat = typed_id(request.POST.get("table")), typed_id(request.POST.get("seat"))
    table = Table.objects.filter(number=number).first() if number else None
    if table is None or seat is None:
        return {}
    return {"to_table": table, "to_seat": seat}
