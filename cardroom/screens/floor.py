"""What the floor dashboard shows, read in a fixed number of queries however many tables.

Live updates. Every open dashboard polls ``/floor/updates/`` with its filter and one cursor
of fixed size, ``<server time in ms>.<mark, 19 digits>.<digest>``, which each answer replaces (never
appends), so a poll's work grows with what changed since the last one, not with the room:

* the mark is the room's change feed (``cardroom/core/changes.py``) as far as this page has
  read it, every change up to it included (``changes.changes_after``): a card is sent again
  when the feed has a change for it past the mark, and only then: its table, hands, rulings,
  seat map, must-moves, the waitlists of its game, the tournament seating at it, the
  tournament and its clock. The database's triggers write the feed from the rows themselves,
  so no write can forget it. A change still being written when the page last read (its id
  handed out, its transaction not committed) keeps the mark below it, so it is read when it
  commits: a card may be sent twice then, never missed.
* the time is when the server last answered this page: a level reached on time since, which
  no write records, is read from the running clocks. A cursor older than the feed keeps gets
  the whole grid.
* the digest names the cards the page holds (ids and numbers, in order, for its filter). When
  the filter's set of tables changes (a table opened under "open tables", renumbered, added
  to a tournament) the whole grid is sent instead: an update never names a card the page
  does not have. A cursor the server cannot read gets the whole grid too, so a page recovers
  from anything, a failed poll included (it simply polls again with the same cursor).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import django_filters
from django import forms
from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery
from django.http import QueryDict
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst

from cardroom.core import changes
from cardroom.core.changes import Topic
from cardroom.core.numbers import grouped
from cardroom.core.parsers import whole_number
from cardroom.rulings.models import Ruling
from cardroom.seats import services as players
from cardroom.tables.choices import TableKind, TableStatus, Variant
from cardroom.tables.filters import TableFilter, filtered
from cardroom.tables.models import Hand, HandStatus, Table
from cardroom.tables.services import played_actions, state_after
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import EntryStatus, GameList, MustMove, WaitlistEntry
from tournaments.clock.reading import ClockReading, read_clock
from tournaments.models import (
    ClockState,
    Level,
    SeatAssignment,
    Tournament,
    TournamentStatus,
    TournamentTable,
    TournamentTableStatus,
)


def live_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.exclude(status=TournamentStatus.COMPLETE).order_by("name")


def in_tournament(tables: QuerySet[Table], name: str, value: str) -> QuerySet[Table]:
    """``yes``: tournament tables; ``no``: cash tables; a tournament's id: its tables in play."""
    if (tournament_id := whole_number(value, 18)) is not None:
        in_play = TournamentTable.objects.in_play().filter(tournament_id=tournament_id)
        return tables.filter(pk__in=in_play.values("table_id"))
    return tables.filter(kind=TableKind.TOURNAMENT if value == "yes" else TableKind.CASH)


class FloorFilter(TableFilter):
    """The dashboard's filter: the tables' filter, plus cash or tournament tables (or one
    tournament still in play) and the game."""

    tournament = django_filters.ChoiceFilter(
        choices=[("yes", "Tournament tables"), ("no", "Cash tables")],
        empty_label="Cash and tournament",
        method=in_tournament,
    )
    variant = django_filters.ChoiceFilter(choices=Variant.choices, empty_label="Any game")

    class Meta(TableFilter.Meta):
        fields = [*TableFilter.Meta.fields, "tournament", "variant"]

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("queryset", Table.objects.order_by("number"))
        super().__init__(data, **kwargs)
        field = self.form.fields["tournament"]
        assert isinstance(field, forms.ChoiceField)
        # The field's choices already start with its empty label, which django-filters adds
        # again when choices are set: keep only the real ones (else "Cash and tournament" twice).
        kinds = [c for c in cast("Iterable[Any]", field.choices) if c[0] != ""]

        def choices() -> list[tuple[str, str]]:
            return [*kinds, *((str(t.pk), t.name) for t in live_tournaments().only("pk", "name"))]

        # Read when the form is shown or a tournament is asked for, not by every poll.
        field.choices = choices


def level_label(clock: ClockReading, levels: Sequence[Level]) -> str:
    """The level as the room calls it: breaks are steps of the structure but not levels."""
    level = clock.level
    if level is None:
        return "No levels"
    if level.is_break:
        return "Break"
    played = sum(1 for lv in levels if not lv.is_break and lv.number <= level.number)
    ante = f" ante {level.ante}" if level.ante else ""
    return f"Level {played}: {level.small_blind}/{level.big_blind}{ante}"


@dataclass(frozen=True)
class Stage:
    """What a tournament's cards say of it, worked out once for all its tables shown: its
    clock, the level as the room calls it, the game and the clock's badge (None while it runs)."""

    tournament: Tournament
    clock: ClockReading
    levels: tuple[Level, ...]
    level_label: str
    game_label: str
    clock_badge: str | None

    @classmethod
    def of(cls, tournament: Tournament, levels: tuple[Level, ...], now: datetime) -> Stage:
        clock = read_clock(tournament, list(levels), now)
        badge = None
        if clock.state == ClockState.FINISHED:
            badge = "No more levels"
        elif clock.state != ClockState.RUNNING:
            badge = capfirst(str(clock.state))
        label = level_label(clock, levels)
        return cls(tournament, clock, levels, label, tournament.game_label, badge)


@dataclass(frozen=True)
class Seating:
    """The tournament playing at a room table now: its table there, clock and seated players."""

    stage: Stage
    table: TournamentTable
    seats: frozenset[int] = field(default_factory=frozenset)

    @property
    def tournament(self) -> Tournament:
        return self.stage.tournament

    @property
    def clock(self) -> ClockReading:
        return self.stage.clock

    @property
    def level_label(self) -> str:
        return self.stage.level_label


def numbered(name: str) -> tuple[str, str]:
    """A URL taking one id (``cardroom:desk``), reversed once: what goes before and after it."""
    mark = "918273645546372819"  # an id no page has, as long as the ``id`` converter takes
    head, _, tail = reverse(name, args=[int(mark)]).partition(mark)
    return head, tail


@dataclass(frozen=True)
class Links:
    """Where the cards link, reversed once for all the cards of an answer (each card's number
    or ruling put in place): reversing five URLs a card was a fifth of rendering it."""

    desk: tuple[str, str]
    status: tuple[str, str]
    ruling: tuple[str, str]
    new_ruling: str
    waitlists: str

    @classmethod
    def reversed(cls) -> Links:
        return cls(
            numbered("cardroom:desk"),
            numbered("cardroom:table_status"),
            numbered("cardroom:ruling_detail"),
            reverse("cardroom:ruling_create"),
            reverse("cardroom:waitlists"),
        )

    @staticmethod
    def to(url: tuple[str, str], number: int) -> str:
        return f"{url[0]}{number}{url[1]}"


@dataclass(frozen=True)
class Card:
    table: Table
    links: Links
    hand: Hand | None
    street: str | None
    pot: int | None
    #: Seats with a player now: the tournament's seating at a tournament table; at a cash
    #: table those dealt into the hand in progress, or between hands into the last hand.
    seated: frozenset[int]
    seating: Seating | None = None
    #: A cash table's seat map (``players.seat_summaries``: seated, open, sitting out, busted),
    #: or None where the hands are dealt from typed stacks (no seat map).
    seat_map: dict[str, Any] | None = None
    #: Players on the open waitlist for this cash table's game (None: no list open for it).
    waiting: int | None = None
    #: The main game this table must move to (its list's label), while it is a must-move.
    must_move: str | None = None
    #: Seats of this cash table offered to a called player now, by seat (a player called from
    #: a waitlist with the offer's timer running): the floor sees the seat is spoken for.
    offers: tuple[WaitlistEntry, ...] = ()

    @property
    def seats_taken(self) -> int:
        return len(self.seated)

    @property
    def max_seats(self) -> int:
        return self.seating.table.seats if self.seating else self.table.seats

    @property
    def open_seats(self) -> list[int]:
        return [seat for seat in range(1, self.max_seats + 1) if seat not in self.seated]

    @property
    def number(self) -> str:
        """The table's number as text (what the template would make of it, without its
        localizing each of the number's five uses a card)."""
        return str(self.table.number)

    @property
    def seats_label(self) -> str:
        """Seats taken of the table's: "7/9"."""
        return f"{self.seats_taken}/{self.max_seats}"

    @property
    def open_label(self) -> str:
        """The open seats as the card lists them: "all open", "open 2, 7", "open none"."""
        if not self.seated:
            return "all open"
        return f"open {', '.join(map(str, self.open_seats)) or 'none'}"

    @property
    def level(self) -> Level | None:
        return self.seating.clock.level if self.seating else None

    @property
    def status_label(self) -> str:
        return TableStatus(self.table.status).label

    @property
    def kind_label(self) -> str:
        return TableKind(self.table.kind).label

    @property
    def buy_in(self) -> str:
        """A cash table's buy-in range, grouped, between an en dash: "40\u20131,000"."""
        return f"{grouped(self.table.min_buy_in)}\u2013{grouped(self.table.max_buy_in)}"

    @property
    def pot_text(self) -> str:
        """The hand's pot as the desk shows it, grouped: "1,200"."""
        return grouped(self.pot) if self.pot is not None else ""

    @property
    def desk_url(self) -> str:
        return self.links.to(self.links.desk, self.table.number)

    @property
    def status_url(self) -> str:
        return self.links.to(self.links.status, self.table.number)

    @property
    def new_ruling_url(self) -> str:
        """A new ruling at this table (and its hand in progress)."""
        hand = f"&hand={self.hand.pk}" if self.hand else ""
        return f"{self.links.new_ruling}?table={self.table.number}{hand}"

    @property
    def last_ruling_url(self) -> str:
        return self.links.to(self.links.ruling, getattr(self.table, "last_ruling_id", 0))

    @property
    def version(self) -> str:
        """Everything the card shows, in short: the page skips an update that changes nothing."""
        table, hand = self.table, self.hand
        live = f"{hand.pk}.{hand.seq}" if hand else "-"
        ruling = getattr(table, "last_ruling_id", None) or "-"
        seating = "-"
        if self.seating:
            clock = self.seating.clock
            number = clock.level.number if clock.level else "end"
            seating = f"{self.seating.tournament.name}.{number}.{clock.state}"
        seats = ",".join(map(str, sorted(self.seated)))
        if self.seat_map is not None:
            seats += f"/{self.seat_map['sitting_out']}.{self.seat_map['busted']}"
        stamp = table.updated_at.timestamp()
        offered = ",".join(f"{o.called_seat}.{o.player_id}.{o.pk}" for o in self.offers)
        waits = f"{self.waiting}:{self.must_move}:{offered}"
        return f"{table.number}:{stamp}:{live}:{ruling}:{seating}:{seats}:{waits}"


# --- which tables ---------------------------------------------------------------------------

#: The most cards one page shows: a bigger room is split in sections of this many tables (in
#: number order) that the floor person picks, so the page and its polls stay quick at any size.
SECTION = 200


def section_of(query: Mapping[str, Any]) -> int:
    """The section a query asks for (``section``, from 1), the first for anything else."""
    text = query.get("section")
    number = whole_number(text, 6) if isinstance(text, str) else None
    return number if number else 1


@dataclass(frozen=True)
class Section:
    """One of the sections a filter's tables are split in: its number and its tables' range."""

    number: int
    first: int
    last: int


def sections(filters: FloorFilter) -> list[Section]:
    """The sections of the filter's tables, none when they fit one page: one query."""
    numbers = list(filtered_tables(filters).values_list("number", flat=True))
    if len(numbers) <= SECTION:
        return []
    return [
        Section(k // SECTION + 1, numbers[k], numbers[min(k + SECTION, len(numbers)) - 1])
        for k in range(0, len(numbers), SECTION)
    ]


def in_section(tables: QuerySet[Table], section: int) -> QuerySet[Table]:
    return tables[(section - 1) * SECTION : section * SECTION]


def filtered_tables(filters: FloorFilter | Mapping[str, Any] | None = None) -> QuerySet[Table]:
    """The tables a filter shows (a query's values, or the filter already read from one), in
    number order; none while the filter is wrong."""
    if not isinstance(filters, FloorFilter):
        filters = FloorFilter(filters or {})
    return filtered(filters)


def tables_for_floor(filters: FloorFilter | Mapping[str, Any] | None = None) -> QuerySet[Table]:
    last_ruling = Ruling.objects.filter(table=OuterRef("pk")).order_by("-created_at", "-id")
    last_deal = (
        Hand.objects.filter(table=OuterRef("pk"))
        .exclude(state=HandStatus.VOIDED)
        .order_by("-number")
    )
    return filtered_tables(filters).annotate(
        last_ruling_id=Subquery(last_ruling.values("id")[:1]),
        last_ruling_number=Subquery(last_ruling.values("number")[:1]),
        last_ruling_decision=Subquery(last_ruling.values("decision")[:1]),
        last_deal_id=Subquery(last_deal.values("id")[:1]),
    )


#: What a card reads of a hand in progress: the engine's replay of it, its number and step.
LIVE_HAND_FIELDS = ("id", "table_id", "number", "seq", "button", "seats", "game", "blinds", "posts")


def cards(
    tables: QuerySet[Table], now: datetime | None = None, tournaments: Iterable[Tournament] = ()
) -> list[Card]:
    """The cards for ``tables``: at most twelve queries more than the tables', however many
    there are (fewer without cash tables, or with their ``tournaments`` already read, as
    ``running_tournaments`` reads them). What a card shows is read once for all of them (each
    tournament's clock and levels, the hands' actions as values, the links); a card adds no
    query, and no URL reversed."""
    now = now or timezone.now()
    rows = list(tables)
    if not rows:
        return []
    hands = {
        hand.table_id: hand
        for hand in Hand.objects.filter(
            table_id__in=[t.pk for t in rows], state=HandStatus.IN_PROGRESS
        ).only(*LIVE_HAND_FIELDS)
    }
    played = played_actions(hand.pk for hand in hands.values())
    # The seats of a cash table's last hand, for a table dealt from typed stacks.
    cash = [t for t in rows if t.kind != TableKind.TOURNAMENT]
    last_deals = {
        table_id: (seats, names)
        for table_id, seats, names in Hand.objects.filter(
            pk__in=[t.last_deal_id for t in cash if t.last_deal_id]  # type: ignore[attr-defined]
        ).values_list("table_id", "seats", "names")
    }
    seatings = seatings_at([t.pk for t in rows], now, tournaments)
    seat_maps = players.seat_summaries(cash)
    lists = waitlists.open_lists_waiting() if cash else []  # only for cash tables' cards
    moving = {
        must_move.table_id: str(must_move.main)
        for must_move in MustMove.objects.filter(
            ended_at__isnull=True, table__in=cash
        ).select_related("main")
    }
    offers: dict[int, list[WaitlistEntry]] = defaultdict(list)
    for entry in (
        WaitlistEntry.objects.filter(
            status=EntryStatus.CALLED, called_table__in=cash, call_expires_at__gt=now
        )
        .select_related("player")
        .order_by("called_seat", "pk")
    ):
        offers[cast(int, entry.called_table_id)].append(entry)
    links = Links.reversed()
    result = []
    for table in rows:
        hand = hands.get(table.pk)
        street = pot = None
        if hand is not None:
            state = state_after(hand, played.get(hand.pk, []))
            street, pot = state.street, state.pot
        seating = seatings.get(table.pk)
        seat_map = seat_maps.get(table.pk)
        dealt, names = last_deals.get(table.pk) or ([], {})
        if seat_map is not None and not seat_map["seated"] and dealt and not names:
            seat_map = None  # a table dealt from typed stacks, with no seat map
        if seating is not None:
            seated = seating.seats
        elif table.kind == TableKind.TOURNAMENT:
            seated = frozenset()  # no tournament plays here now: its last hand's seats are gone
        elif seat_map is not None:
            seated = frozenset(range(1, table.seats + 1)) - frozenset(seat_map["open"])
        else:
            dealt = hand.seats if hand is not None else dealt
            seated = frozenset(entry["seat"] for entry in dealt)
        on_list = None  # no list open for the table's game (one at most: one_open_list_per_game)
        if table.kind == TableKind.CASH:
            on_list = next((n for gl, n in lists if waitlists.same_game(table, gl)), None)
        result.append(
            Card(
                table,
                links,
                hand,
                street,
                pot,
                seated,
                seating,
                seat_map,
                on_list,
                moving.get(table.pk),
                tuple(offers.get(table.pk, ())),
            )
        )
    return result


#: A tournament's levels, in the structure's order.
LEVELS_IN_ORDER = Prefetch("levels", queryset=Level.objects.order_by("number"))


def running_tournaments() -> list[Tournament]:
    """The tournaments whose clock runs, their levels in order: read once a poll, both for the
    levels reached on time (``tables_changed``) and for their tables' cards (``cards``)."""
    running = Tournament.objects.filter(clock_state=ClockState.RUNNING).exclude(
        status=TournamentStatus.COMPLETE
    )
    return list(running.prefetch_related(LEVELS_IN_ORDER))


def seatings_at(
    table_ids: Sequence[int], now: datetime, known: Iterable[Tournament] = ()
) -> dict[int, Seating]:
    """The tournament in play at each room table: four queries for any number of tables (two
    when ``known``, read with ``LEVELS_IN_ORDER``, holds their tournaments). Each tournament,
    its levels and its clock are read once, however many of its tables are shown."""
    places = {
        place.pk: place
        for place in TournamentTable.objects.in_play().filter(table_id__in=table_ids)
    }
    if not places:
        return {}
    wanted = {place.tournament_id for place in places.values()}
    tournaments = {t.pk: t for t in known if t.pk in wanted}
    if missing := wanted - tournaments.keys():
        read = Tournament.objects.filter(pk__in=missing).prefetch_related(LEVELS_IN_ORDER)
        tournaments |= {t.pk: t for t in read}
    stages = {
        pk: Stage.of(tournament, tuple(tournament.levels.all()), now)
        for pk, tournament in tournaments.items()
    }
    seats: dict[int, set[int]] = defaultdict(set)
    for table_id, seat in SeatAssignment.objects.filter(
        table_id__in=places, ended_at__isnull=True
    ).values_list("table_id", "seat"):
        seats[table_id].add(seat)
    seatings = {}
    for place in places.values():
        stage = stages[place.tournament_id]
        place.tournament = stage.tournament  # the one read above, shared by its tables
        seatings[place.table_id] = Seating(stage, place, frozenset(seats[place.pk]))
    return seatings


# --- what changed ---------------------------------------------------------------------------

#: The topics whose item is a table.
AT_A_TABLE = (Topic.TABLE, Topic.HAND, Topic.RULING, Topic.SEATS, Topic.MUST_MOVE)


def tables_changed(
    found: Mapping[str, set[int]],
    since: datetime,
    now: datetime,
    shown: set[int],
    running: Iterable[Tournament],
) -> set[int]:
    """The shown tables whose card changed since the last read: ``found``, the change feed's
    changes since then (``cardroom/core/changes.py``), mapped to tables (a list's change to the
    tables of its game, a tournament's to its tables), and the tables where a running clock
    reached a level on time after ``since``, which no write recorded. A few queries, however
    many tables, each reading what changed only."""
    tables = set().union(*(found.get(topic, set()) for topic in AT_A_TABLE))
    if lists := found.get(Topic.LIST):
        games = Q()
        for variant, structure, small, big in GameList.objects.filter(pk__in=lists).values_list(
            "variant", "structure", "small_blind", "big_blind"
        ):
            games |= Q(variant=variant, structure=structure, small_blind=small, big_blind=big)
        tables |= set(Table.objects.filter(games).values_list("pk", flat=True))
    # The clocks are read from the time, not written: a level reached after the last read is
    # new to the page (no overlap: no transaction commits it late).
    reached = [t for t, at in levels_started(running, now).items() if at > since]
    moved = found.get(Topic.TOURNAMENT_TABLE, set())
    if moved or reached or found.get(Topic.TOURNAMENT):
        places = TournamentTable.objects.filter(
            Q(pk__in=moved)
            | Q(tournament_id__in=found.get(Topic.TOURNAMENT, set()))
            | Q(tournament_id__in=reached, status=TournamentTableStatus.ACTIVE)
        )
        tables |= set(places.values_list("table_id", flat=True))
    return tables & shown


def levels_started(tournaments: Iterable[Tournament], now: datetime) -> dict[int, datetime]:
    """When each running clock (``tournaments``, their levels read) entered the level it shows
    now (or ran out of levels): a level reached on time changes the cards even before the
    clock's tick records it."""
    started = {}
    for tournament in tournaments:
        if tournament.level_started_at is None:
            continue
        durations = {level.number: level.duration for level in tournament.levels.all()}
        at, number = tournament.level_started_at - tournament.level_elapsed, tournament.level_number
        while number in durations and at + durations[number] <= now:
            at, number = at + durations[number], number + 1
        started[tournament.pk] = at
    return started


def digest(cards_held: Iterable[tuple[int, int]]) -> str:
    """Which cards a page holds (id and number, in order), in 12 characters."""
    text = ";".join(f"{pk}:{number}" for pk, number in cards_held)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


#: The mark's digits in a cursor, zero-padded: every poll's request is the same size.
MARK_DIGITS = 19


def make_cursor(now: datetime, mark: int, held: str) -> str:
    return f"{int(now.timestamp() * 1000)}.{mark:0{MARK_DIGITS}d}.{held}"


#: A cursor past the start of 9999-12-31 is no time at all (``datetime`` ends that day, and a
#: float timestamp of its last microsecond rounds up into the year 10000).
LAST_MILLIS = int(datetime(9999, 12, 31, tzinfo=UTC).timestamp()) * 1000


def read_cursor(cursor: str) -> tuple[datetime, int, str] | None:
    """The time, the change feed's mark and the cards a cursor names, or None for one this
    server never made: its numbers in ASCII digits ("²²²" passed ``isdigit`` and failed
    ``int``, a 500) and its time within a date ("999999999999999" was "year out of range")."""
    text, _, rest = cursor.partition(".")
    marked, _, held = rest.partition(".")
    millis, mark = whole_number(text, 15), whole_number(marked, MARK_DIGITS)
    if millis is None or mark is None or millis > LAST_MILLIS or len(held) != 12:
        return None
    return datetime.fromtimestamp(millis / 1000, tz=UTC), mark, held


def page_cursor(shown: Sequence[Card], now: datetime, mark: int) -> str:
    return make_cursor(now, mark, digest((card.table.pk, card.table.number) for card in shown))


@dataclass(frozen=True)
class Update:
    """One poll's answer: the new cursor, then either the whole grid or the changed cards."""

    cursor: str
    grid: list[Card] | None
    changed: list[Card]
    feed: list[Ruling] | None


def poll(
    filters: FloorFilter | Mapping[str, Any] | None,
    cursor: str,
    now: datetime | None = None,
    section: int = 1,
) -> Update:
    now = now or timezone.now()
    shown = list(in_section(filtered_tables(filters), section).values_list("pk", "number"))
    held = digest(shown)
    read = read_cursor(cursor)
    # A cursor from the future (past the overlap any clock skew needs) was not made here; one
    # older than the feed keeps may have missed changes already dropped; one with more
    # changes since than a poll reads is better off with the grid.
    after = None
    if (
        read is not None
        and read[2] == held
        and read[0] <= now + changes.OVERLAP
        and not changes.stale(read[0], now)
        and read[1] <= changes.latest(Topic.values)
    ):
        after = changes.changes_after(read[1], now)
    if read is None or after is None:
        mark = changes.mark_now(now)  # before the cards are read: a change after is sent next
        grid = cards(in_section(tables_for_floor(filters), section), now)
        return Update(make_cursor(now, mark, held), grid, [], recent_rulings())
    found = after.found
    running = running_tournaments()
    changed = tables_changed(found, read[0], now, {pk for pk, _ in shown}, running)
    fresh = []
    if changed:
        fresh = cards(tables_for_floor(filters).filter(pk__in=changed), now, running)
    return Update(
        make_cursor(now, after.mark, held),
        None,
        fresh,
        recent_rulings() if Topic.RULING in found else None,
    )


def recent_rulings(limit: int = 10) -> list[Ruling]:
    return list(
        Ruling.objects.select_related("table", "director")
        .prefetch_related("citations__rule")
        .order_by("-created_at", "-id")[:limit]
    )


def filter_query(filters: FloorFilter, section: int = 1) -> str:
    """The page's filter and section as a query string (never a cursor)."""
    query = QueryDict(mutable=True)
    for name in filters.filters:
        if value := (filters.data or {}).get(name):
            query[name] = value
    if section > 1:
        query["section"] = str(section)
    return query.urlencode()
