"""The cash-game floor's waitlists: players on a list per game and stakes, seat
offers with a timer, seating from the list (through the seat map's ``cardroom.seats.services``),
must-move tables and new tables started from a list. Every change writes a ``WaitlistEvent``.

Room policy applied here (the room's settings hold the numbers):

* First come, first served: a list is called in the order players were added; a call-in who
  has not checked in is passed over (not yet in the room) and lapses at ``check_in_by``. Only a
  floor manager reorders, with a reason, recorded.
* A seat offer lasts ``offer_minutes``. When it runs out (``offer_expired``) the next eligible
  player is called to the same seat (never one who already missed that seat: with nobody else
  in the room it waits for the floor); the player who missed it keeps their place for the next
  seat, but a second missed offer takes them off the list (``passed``): the usual floor practice
  of "one pass, then you are re-added at the bottom".
* Locks, always in this order (``cardroom/core/locks.py``): table rows, then the list, then
  entries, each by id. Two floor people seating one seat or one player: exactly one wins, the
  other gets a 409."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, IntegerField, Max, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from cardroom.core.api_errors import Conflict
from cardroom.core.deadlines import due_first
from cardroom.core.locks import lock_row, lock_rows
from cardroom.core.numbers import grouped
from cardroom.core.reasons import clean_reason
from cardroom.core.transitions import move
from cardroom.seats import services as players
from cardroom.seats.models import Player, TableSeat
from cardroom.tables.choices import Structure, TableStatus, Variant, rule, variant_refusal
from cardroom.tables.models import Table
from cardroom.waitlists.base import WaitlistRefused as WaitlistRefused
from cardroom.waitlists.base import lock_cash_table as lock_cash_table
from cardroom.waitlists.base import lock_entry as lock_entry
from cardroom.waitlists.base import lock_list as lock_list
from cardroom.waitlists.base import record_event as record_event
from cardroom.waitlists.base import require_live as require_live
from cardroom.waitlists.base import same_game as same_game
from cardroom.waitlists.models import (
    LIVE_STATUSES,
    EntrySource,
    EntryStatus,
    GameList,
    RoomSettings,
    WaitlistEntry,
    WaitlistEventKind,
)
from cardroom.waitlists.models import game_label as game_label
from cardroom.waitlists.schedule import OFFERS

#: Missed offers after which a player is taken off the list.
PASSES_ALLOWED = 2
MISSED_SEAT = (WaitlistEventKind.OFFER_EXPIRED, WaitlistEventKind.PASSED)  # ran out; released


# --- lists ----------------------------------------------------------------------------------


def open_list(
    *,
    variant: str,
    structure: str,
    small_blind: int,
    big_blind: int,
    by: User | None,
    label: str = "",
    start_threshold: int = 9,
) -> GameList:
    """A new list for a game and stakes (from a table's game or one the room wants to start)."""
    errors: dict[str, str] = {}
    if variant not in Variant.values:
        errors["variant"] = f"Unknown game {variant!r}."
    elif refusal := variant_refusal(variant):  # no list for a game no table deals
        errors["variant"] = refusal
    if structure not in Structure.values:
        errors["structure"] = f"Unknown betting structure {structure!r}."
    for field, value in (("small_blind", small_blind), ("big_blind", big_blind)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < 2**31:
            errors[field] = "A whole number of chips, above 0."
    if not errors and big_blind <= small_blind:
        errors["big_blind"] = "The big blind is more than the small blind."
    if not isinstance(start_threshold, int) or not 2 <= start_threshold <= 10:
        errors["start_threshold"] = "Between 2 and 10 players."
    if len(str(label)) > 60:
        errors["label"] = "At most 60 characters."
    if errors:
        raise ValidationError(errors)
    game: dict[str, Any] = {"variant": variant, "structure": structure}
    game |= {"small_blind": small_blind, "big_blind": big_blind}
    label = " ".join(str(label).split()) or game_label(**game, bets=GameList(**game).bets())
    try:
        with transaction.atomic():
            if GameList.objects.filter(closed_at__isnull=True, **game).exists():
                raise WaitlistRefused("game", f"A {label} list is already open.")
            made = GameList.objects.create(
                label=label, start_threshold=start_threshold, created_by=by, **game
            )
            return made
    except IntegrityError as exc:
        raise Conflict("list_exists", f"A {label} list was just opened.") from exc


def close_list(*, game_list: GameList, by: User | None) -> GameList:
    """Close a list; players still on it are removed (recorded)."""
    with transaction.atomic():
        locked = lock_list(game_list)
        for entry in lock_rows(locked.entries.filter(status__in=LIVE_STATUSES)):
            _end(entry, EntryStatus.REMOVED)
            record_event(
                locked, WaitlistEventKind.REMOVED, by, entry=entry, note="The list closed."
            )
        locked.closed_at = timezone.now()
        locked.save(update_fields=["closed_at"])
        return locked


def open_lists() -> list[GameList]:
    return list(GameList.objects.filter(closed_at__isnull=True))


def live_entries(game_list: GameList) -> list[WaitlistEntry]:
    """The list in order: waiting and called players."""
    query = game_list.entries.filter(status__in=LIVE_STATUSES).select_related("player")
    return list(query.order_by("position", "id"))


def live_page(
    game_list: GameList, *, offset: int = 0, limit: int = 50, search: str = ""
) -> list[WaitlistEntry]:
    """``limit`` players of the list in order from ``offset`` (or, with ``search``, the first
    whose name or alias holds it), each with ``place`` (1 = next): one query for a page, two
    for a search, however long the list (the page and the API read 10,000 rows to
    show them all)."""
    query = game_list.entries.filter(status__in=LIVE_STATUSES)
    query = query.select_related("player", "called_table").order_by("position", "id")
    text = " ".join(str(search).split())[:60]
    if not text:
        found: list[WaitlistEntry] = list(query[offset : offset + limit])
        for place, entry in enumerate(found, offset + 1):
            entry.place = place  # type: ignore[attr-defined]
        return found
    found = list(query.filter(player__in=Player.objects.matching(text))[offset : offset + limit])
    # Each one's place on the whole list: a count of those before it, for these rows only.
    ahead = Coalesce(Subquery(_ahead(), output_field=IntegerField()), 0)
    places = dict(
        WaitlistEntry.objects.filter(pk__in=[e.pk for e in found])
        .annotate(ahead=ahead)
        .values_list("pk", "ahead")
    )
    for entry in found:
        entry.place = places[entry.pk] + 1  # type: ignore[attr-defined]
    return found


def _ahead() -> QuerySet[Any, Any]:
    """How many live entries of the outer entry's list stand before it (a subquery)."""
    before = Q(position__lt=OuterRef("position")) | Q(
        position=OuterRef("position"), id__lt=OuterRef("id")
    )
    return (
        WaitlistEntry.objects.filter(
            before, game_list_id=OuterRef("game_list_id"), status__in=LIVE_STATUSES
        )
        .order_by()
        .values("game_list_id")
        .annotate(n=Count("id"))
        .values("n")
    )


def called_entries(lists: Collection[GameList]) -> list[WaitlistEntry]:
    """The running offers of ``lists`` (at most one a seat, whatever the lists' length)."""
    called = WaitlistEntry.objects.filter(game_list__in=lists, status=EntryStatus.CALLED)
    return list(called.select_related("player", "called_table").order_by("position", "id"))


def place_of(entry: WaitlistEntry) -> int:
    """Where the entry stands among the live entries of its list (1 = next)."""
    ahead = WaitlistEntry.objects.filter(
        game_list_id=entry.game_list_id, status__in=LIVE_STATUSES
    ).filter(Q(position__lt=entry.position) | Q(position=entry.position, id__lt=entry.pk))
    return int(ahead.count()) + 1


def open_lists_waiting() -> list[tuple[GameList, int]]:
    """The open lists, each with how many players are on it now (one query)."""
    now = timezone.now()
    lists = GameList.objects.filter(closed_at__isnull=True).annotate(waiting=waiting_on(now))
    return [(game_list, game_list.waiting) for game_list in lists]


def _end(entry: WaitlistEntry, status: str) -> None:
    move(entry, status)
    entry.ended_at = timezone.now()
    entry.called_table, entry.called_seat, entry.call_expires_at = None, None, None
    entry.save()


#: What the kiosk says for a name the floor must see to (a bar, several people of the name).
KIOSK_ASK_THE_FLOOR = "Please ask the floor to put your name down."


def add_to_list(
    *,
    game_list: GameList,
    name: str,
    alias: str = "",
    source: str = EntrySource.FLOOR,
    by: User | None = None,
) -> WaitlistEntry:
    """Put a player (found by name, or new) at the bottom of a list. A call-in must check in
    within the room's ``call_in_minutes``. The kiosk (``by`` None) adds only when enabled.

    The kiosk cannot tell who stands at the podium, so it must not answer differently for a
    name already on the list (that would tell anyone whether a named person is waiting): for
    the kiosk, a name already down is the player putting their name down again, and their
    entry is returned as it is (their place kept, nothing recorded). Nor does a name typed at
    the kiosk give an alias to a player the room already knows (the board would show it)."""
    if source not in EntrySource.values:
        raise ValidationError({"source": f"Unknown source {source!r}."})
    room = RoomSettings.current()
    kiosk = source == EntrySource.KIOSK
    if kiosk and not room.kiosk_enabled:
        raise WaitlistRefused("source", "The kiosk is closed: ask the floor to add you.")
    with transaction.atomic():  # an add refused (full, already down) leaves no new player
        try:  # the name's check (``players.name_refusal``), said as the list's refusal
            player = players.find_or_create_player(
                name=name, alias=alias, by=by, alias_if_new=kiosk
            )
            # The room's row first: adds to different lists are counted one at a time (the
            # caps); then the list, then the player (a bar written meanwhile is read as it is).
            lock_row(RoomSettings, room.pk)
            locked = lock_list(game_list)
            players.refuse_barred(lock_row(Player, player.pk))
        except (players.PlayerBarred, players.PlayerAmbiguous) as exc:
            if kiosk:  # a public screen: never the staff's words (a bar, others' contacts)
                raise WaitlistRefused("name", KIOSK_ASK_THE_FLOOR) from exc
            raise WaitlistRefused(exc.message_dict, "", *exc.citations) from exc
        except players.SeatRefused as exc:
            raise WaitlistRefused(exc.message_dict, "", *exc.citations) from exc
        already = locked.entries.filter(player=player, status__in=LIVE_STATUSES).first()
        if already is not None and kiosk:
            return already
        if already is not None:
            place = place_of(already)
            raise WaitlistRefused(
                "name", f"{player.public_name} is already on the {locked.label} list (#{place})."
            )
        refuse_when_full(locked)
        last = locked.entries.aggregate(last=Max("position"))["last"] or 0
        now = timezone.now()
        entry = WaitlistEntry.objects.create(
            game_list=locked,
            player=player,
            source=source,
            position=last + 1,
            added_at=now,
            check_in_by=(
                now + timedelta(minutes=room.call_in_minutes)
                if source == EntrySource.CALL_IN
                else None
            ),
        )
        note = EntrySource(source).label
        if entry.check_in_by is not None:
            note += f": check in within {room.call_in_minutes} minutes"
            queue_deadline(locked, entry.check_in_by)
        record_event(locked, WaitlistEventKind.ADDED, by, entry=entry, note=note)
        return entry


@dataclass(frozen=True)
class ListAdds:
    """What ``add_to_lists`` did: the entries on the lists that took the name, in the order
    asked, and each list that did not with its refusal."""

    added: list[WaitlistEntry]
    refused: list[tuple[GameList, ValidationError | Conflict]]


def add_to_lists(
    *,
    game_lists: Sequence[GameList],
    name: str,
    alias: str = "",
    source: str = EntrySource.FLOOR,
    by: User | None = None,
) -> ListAdds:
    """Put a name on several lists at once (the floor's page, the kiosk's page and API): each
    list is joined on its own (``add_to_list``), so a player is down for every game that could
    take them and told which could not and why (full, already down). A name the board could not
    show (``players.name_refusal``) is refused before any list, for all of them at once.
    A caller that must add to all or none (the kiosk's API) runs this in a transaction and
    raises the first refusal."""
    if (why := players.name_refusal(name)) is not None:
        raise WaitlistRefused("name", why)
    adds = ListAdds(added=[], refused=[])
    for game_list in game_lists:
        try:
            entry = add_to_list(game_list=game_list, name=name, alias=alias, source=source, by=by)
        except (ValidationError, Conflict) as exc:
            adds.refused.append((game_list, exc))
        else:
            adds.added.append(entry)
    return adds


def refuse_when_full(game_list: GameList) -> None:
    """House policy: a list holds at most ``CARDROOM_WAITLIST_MAX_PER_LIST`` names
    and the room's open lists together ``CARDROOM_WAITLIST_MAX_IN_ROOM``: more than the room
    can call in a night only hides the players who will be called, and the kiosk adds names
    without a log-in. Over either, the add is refused (422) with the policy in words."""
    per_list = settings.CARDROOM_WAITLIST_MAX_PER_LIST
    in_room = settings.CARDROOM_WAITLIST_MAX_IN_ROOM
    live = WaitlistEntry.objects.filter(status__in=LIVE_STATUSES)
    if live.filter(game_list=game_list).count() >= per_list:
        raise WaitlistRefused(
            "game_list",
            f"The {game_list.label} list is full: house policy, a list holds at most"
            f" {grouped(per_list)} names (more than the room can call in a night). Ask the floor.",
        )
    if live.filter(game_list__closed_at__isnull=True).count() >= in_room:
        raise WaitlistRefused(
            "game_list",
            f"The waitlists are full: house policy, the room holds at most {grouped(in_room)} names"
            " on all its lists together. Ask the floor.",
        )


def check_in(*, entry: WaitlistEntry, by: User | None) -> WaitlistEntry:
    """A call-in arrives: they keep their place and can be called."""
    with transaction.atomic():
        locked_list = lock_list(entry.game_list)
        entry = lock_entry(entry)
        require_live(entry, "check in")
        if entry.checked_in_at is not None or entry.source != EntrySource.CALL_IN:
            raise WaitlistRefused("entry", f"{entry.player} is already in the room.")
        entry.checked_in_at = timezone.now()
        entry.save(update_fields=["checked_in_at"])
        record_event(locked_list, WaitlistEventKind.CHECKED_IN, by, entry=entry)
        return entry


def remove_entry(*, entry: WaitlistEntry, reason: str, by: User | None) -> WaitlistEntry:
    text = clean_reason(reason)
    with transaction.atomic():
        locked_list = lock_list(entry.game_list)
        entry = lock_entry(entry)
        require_live(entry, "remove them")
        _end(entry, EntryStatus.REMOVED)
        record_event(locked_list, WaitlistEventKind.REMOVED, by, entry=entry, note=text)
        return entry


def reorder(*, entry: WaitlistEntry, position: int, reason: str, by: User | None) -> WaitlistEntry:
    """Move a player to ``position`` (1 = first) on their list: a floor manager's call, with
    the reason recorded. The others keep their order."""
    text = clean_reason(reason)
    if isinstance(position, bool) or not isinstance(position, int) or position < 1:
        raise ValidationError({"position": "A place on the list: 1 or more."})
    with transaction.atomic():
        locked_list = lock_list(entry.game_list)
        live = lock_rows(locked_list.entries.filter(status__in=LIVE_STATUSES))
        entries = sorted(live, key=lambda e: (e.position, e.pk))
        moving = next((e for e in entries if e.pk == entry.pk), None)
        if moving is None:
            raise Conflict("entry_changed", f"{entry.player} is no longer on the list.")
        if position > len(entries):
            raise WaitlistRefused("position", f"The list has {len(entries)} players.")
        old = entries.index(moving) + 1
        slots = [e.position for e in entries]
        entries.remove(moving)
        entries.insert(position - 1, moving)
        for slot, item in zip(slots, entries, strict=True):
            if item.position != slot:
                item.position = slot
                item.save(update_fields=["position"])
        note = f"From #{old} to #{position}: {text}"
        record_event(locked_list, WaitlistEventKind.REORDERED, by, entry=moving, note=note)
        return moving


# --- seats and offers -----------------------------------------------------------------------


def _offered(tables: list[Table]) -> set[tuple[int, int]]:
    called = WaitlistEntry.objects.filter(status=EntryStatus.CALLED, called_table__in=tables)
    return set(called.values_list("called_table_id", "called_seat"))  # type: ignore[arg-type]


def open_seats(game_list: GameList, *, exclude: Table | None = None) -> list[tuple[Table, int]]:
    """Empty seats at the open tables of the list's game not held by a running offer, in table
    and seat order."""
    tables = [t for t in game_list.tables() if exclude is None or t.pk != exclude.pk]
    taken = set(
        TableSeat.objects.filter(table__in=tables, left_at__isnull=True).values_list(
            "table_id", "seat"
        )
    )
    taken |= _offered(tables)
    return [(t, s) for t in tables for s in range(1, t.seats + 1) if (t.pk, s) not in taken]


def eligible(entry: WaitlistEntry) -> bool:
    return entry.status == EntryStatus.WAITING and (
        entry.source != EntrySource.CALL_IN or entry.checked_in_at is not None
    )


def next_for_seat(
    game_list: GameList,
    table: Table,
    seat: int,
    *,
    skip: Collection[int] = (),
    automatic: bool = False,
) -> WaitlistEntry | None:
    """Who this seat goes to: the first eligible player, never one who already plays at its
    table (a move there is a seat change, not a call: the seat would be held for the offer's
    minutes for a player already at that table, then "Seat" refused), and not one who missed an
    offer of this seat or was released from it while anyone else waits (the seat would bounce
    between two players). An ``automatic`` call never goes back to them: it waits for the
    floor, who may still call them when nobody else is waiting."""
    found = next_for_seats(game_list, [(table, seat)], skip=skip, automatic=automatic)
    return found[(table.pk, seat)]


def next_eligible(game_list: GameList, *, skip: Collection[int] = ()) -> WaitlistEntry | None:
    """The first waiting player in the room (a call-in who has not checked in is passed over),
    leaving out the entries in ``skip``."""
    return eligible_entries(game_list).exclude(pk__in=list(skip)).first()


def eligible_entries(game_list: GameList) -> QuerySet[WaitlistEntry]:
    """The entries ``eligible`` says yes to, as a query, in list order."""
    waiting = game_list.entries.filter(status=EntryStatus.WAITING)
    ready = waiting.filter(~Q(source=EntrySource.CALL_IN) | Q(checked_in_at__isnull=False))
    return ready.select_related("player").order_by("position", "id")


def next_for_seats(
    game_list: GameList,
    seats: Sequence[tuple[Table, int]],
    *,
    skip: Collection[int] = (),
    automatic: bool = False,
) -> dict[tuple[int, int], WaitlistEntry | None]:
    """``next_for_seat`` of each seat, by (table id, seat), in three queries whatever the
    list's length and the number of seats (the floor's page asked it seat by seat, reading the
    whole list each time: 1,000 waiting and 500 open tables ran past 30 s): the list's players
    seated now (by table), the seats each live entry missed or was released from, then only
    as many of the first eligible players as the longest of those exclusions needs."""
    if not seats:
        return {}
    there: dict[int, set[int]] = defaultdict(set)
    seated = game_list.entries.filter(status__in=LIVE_STATUSES, player__seats__left_at=None)
    for entry_id, table_id in seated.values_list("pk", "player__seats__table_id"):
        there[table_id].add(entry_id)
    missed: dict[tuple[int | None, int | None], set[int]] = defaultdict(set)
    events = game_list.events.filter(kind__in=MISSED_SEAT, entry__status__in=LIVE_STATUSES)
    for entry_id, number, seat_number in events.values_list("entry_id", "table_number", "seat"):
        if entry_id is not None:
            missed[(number, seat_number)].add(entry_id)
    need = 1 + len(skip) + max(len(there[t.pk] | missed[(t.number, s)]) for t, s in seats)
    first = list(eligible_entries(game_list)[:need])
    found: dict[tuple[int, int], WaitlistEntry | None] = {}
    for table, seat in seats:
        away = there[table.pk] | set(skip)
        passed = away | missed[(table.number, seat)]
        pick = next((e for e in first if e.pk not in passed), None)
        if pick is None and not automatic:
            pick = next((e for e in first if e.pk not in away), None)
        found[(table.pk, seat)] = pick
    return found


def free_seat(table: Table, seat: int, *, offered_to: int | None = None) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seats:
        raise ValidationError({"seat": f"Seats at {table} are numbered 1 to {table.seats}."})
    occupant = table.seated.filter(seat=seat, left_at__isnull=True).select_related("player")
    if (taken := occupant.first()) is not None:
        raise Conflict("seat_taken", f"Seat {seat} at {table} is taken by {taken.player}.")
    offer = WaitlistEntry.objects.filter(
        status=EntryStatus.CALLED, called_table=table, called_seat=seat
    ).exclude(pk=offered_to or 0)
    if (other := offer.select_related("player").first()) is not None:
        raise Conflict("seat_offered", f"Seat {seat} at {table} is offered to {other.player}.")


def _first_or_called(entry: WaitlistEntry, doing: str, table: Table, seat: int) -> None:
    if entry.status == EntryStatus.CALLED:
        return
    if table.seated.filter(player_id=entry.player_id, left_at=None).exists():
        raise WaitlistRefused(
            "entry", f"{entry.player} already plays at {table}: a move there is a seat change."
        )
    first = next_for_seat(entry.game_list, table, seat)
    if first is None or first.pk != entry.pk:
        ahead = f"{first.player} is first" if first else "They are not in the room yet"
        raise WaitlistRefused(
            "entry",
            f"{ahead} on the {entry.game_list.label} list (first come, first served): "
            f"{doing} them, or a floor manager moves {entry.player} up with a reason.",
        )


def call_player(*, entry: WaitlistEntry, table: Table, seat: int, by: User | None) -> WaitlistEntry:
    """Offer ``seat`` at ``table`` to the first eligible player; the offer lasts the room's
    ``offer_minutes``."""
    minutes = RoomSettings.current().offer_minutes
    with deadlines_first(entry.game_list, tables=[table.pk]):
        locked_table = lock_cash_table(table, entry.game_list)
        locked_list = lock_list(entry.game_list)
        entry = lock_entry(entry)
        require_live(entry, "call them")
        if entry.status == EntryStatus.CALLED:
            raise Conflict("already_called", f"{entry.player} has just been called.")
        _first_or_called(entry, "call", locked_table, seat)
        free_seat(locked_table, seat)
        return _call(locked_list, entry, locked_table, seat, by, minutes)


def _call(
    game_list: GameList,
    entry: WaitlistEntry,
    table: Table,
    seat: int,
    by: User | None,
    minutes: int,
) -> WaitlistEntry:
    now = timezone.now()
    move(entry, EntryStatus.CALLED)
    entry.called_at, entry.call_expires_at = now, now + timedelta(minutes=minutes)
    entry.called_table, entry.called_seat = table, seat
    entry.save()
    queue_deadline(game_list, entry.call_expires_at)
    note = f"Offer for {minutes} minutes"
    record_event(
        game_list, WaitlistEventKind.CALLED, by, entry=entry, table=table, seat=seat, note=note
    )
    return entry


def seat_from_list(
    *, entry: WaitlistEntry, table: Table, seat: int, buy_in: int | None, by: User | None
) -> WaitlistEntry:
    """One tap: the player takes the seat and leaves the list, in one transaction.

    A player new to the room sits down with ``buy_in`` (``players.seat_player`` checks it;
    None: the table's minimum). A player already playing at another table (waiting for a
    bigger game while playing a smaller one, the common case) is moved with their chips
    (``players.move_to_table``: not while dealt into an unsettled hand there), and ``buy_in`` is then
    the chips they ADD (0 allowed, None: what the minimum needs): added chips follow the
    table's maximum as any chips added do (RRoP-14.16), and the stack they bring plus what
    they add must reach the table's minimum buy-in."""
    # Where the player sits now, read before the locks so both tables are locked in id order
    # (the order every writer takes them), then checked again under the locks.
    seen = TableSeat.objects.filter(player_id=entry.player_id, left_at=None).first()
    ids = sorted({table.pk, *([seen.table_id] if seen else [])})
    with deadlines_first(entry.game_list, tables=ids):
        lock_rows(Table, ids)
        locked_table = lock_cash_table(table, entry.game_list)
        locked_list = lock_list(entry.game_list)
        entry = lock_entry(entry)
        require_live(entry, "seat them")
        _first_or_called(entry, "seat", locked_table, seat)
        free_seat(locked_table, seat, offered_to=entry.pk)
        elsewhere = (
            TableSeat.objects.filter(player=entry.player, left_at=None)
            .select_related("table", "player")
            .first()
        )
        if (elsewhere and elsewhere.pk) != (seen and seen.pk):
            raise Conflict("player_moved", f"{entry.player} has just changed seats: look again.")
        if elsewhere is not None:
            return _seat_moving(locked_list, entry, elsewhere, locked_table, seat, buy_in, by)
        amount = locked_table.min_buy_in if buy_in is None else buy_in
        if isinstance(amount, int) and not isinstance(amount, bool):  # else seat_player says
            players.check_buy_in(locked_table, amount, "buy_in", player=entry.player)
        live = players.seat_player(
            table=locked_table, player=entry.player, seat=seat, buy_in=amount, by=by
        )
        return mark_seated(locked_list, entry, live, by, f"Buy-in {grouped(amount)}")


def _seat_moving(
    game_list: GameList,
    entry: WaitlistEntry,
    elsewhere: TableSeat,
    table: Table,
    seat: int,
    add: int | None,
    by: User | None,
) -> WaitlistEntry:
    """Seat a player from the list who is playing at another table: they move with their
    stack, adding ``add`` chips (the caller holds both tables, the list and the entry)."""
    stack, needed = elsewhere.stack, max(0, table.min_buy_in - elsewhere.stack)
    add = needed if add is None else add
    if isinstance(add, bool) or not isinstance(add, int) or add < 0:
        raise players.SeatRefused("buy_in", "Chips to add: a whole number, 0 or more.")
    if stack + add < table.min_buy_in:
        raise players.SeatRefused(
            "buy_in",
            f"{entry.player} has {grouped(stack)} at {elsewhere.table}: add at least {grouped(needed)} to"
            f" reach {table}'s minimum buy-in of {grouped(table.min_buy_in)}.",
        )
    if add and stack + add > table.max_buy_in:
        raise players.SeatRefused(
            "buy_in",
            f"{entry.player}: {grouped(stack + add)} in front is above {table}'s maximum of"
            f" {grouped(table.max_buy_in)}"
            f"{rule(players.MAX_BUY_IN)}. Add at most {grouped(max(0, table.max_buy_in - stack))}.",
            players.MAX_BUY_IN,
        )
    moved = players.move_to_table(seat=elsewhere, to_table=table, to_seat=seat, by=by)
    if add:
        moved = players.add_chips(seat=moved, amount=add, by=by)
    note = f"Moved from {elsewhere.table} seat {elsewhere.seat} with {grouped(stack)}"
    return mark_seated(
        game_list, entry, moved, by, note + (f", added {grouped(add)}" if add else "")
    )


def mark_seated(
    game_list: GameList, entry: WaitlistEntry, live: TableSeat, by: User | None, note: str
) -> WaitlistEntry:
    entry.seat, entry.seated_at = live, timezone.now()
    _end(entry, EntryStatus.SEATED)
    record_event(
        game_list,
        WaitlistEventKind.SEATED,
        by,
        entry=entry,
        table=live.table,
        seat=live.seat,
        note=note,
    )
    return entry


def overdue_call_ins(now: datetime) -> Q:
    """Call-ins not checked in by their deadline: off the list (lapsed) as of ``now``."""
    return Q(
        status=EntryStatus.WAITING,
        source=EntrySource.CALL_IN,
        checked_in_at__isnull=True,
        check_in_by__lte=now,
    )


def due(now: datetime) -> Q:
    """What the timers move on as of ``now``: offers past their time or whose seat was taken,
    call-ins past their check-in deadline."""
    taken = TableSeat.objects.filter(
        table_id=OuterRef("called_table_id"), seat=OuterRef("called_seat"), left_at=None
    )
    called_due = Q(status=EntryStatus.CALLED) & (Q(call_expires_at__lte=now) | Exists(taken))
    return called_due | overdue_call_ins(now)


def on_the_list(now: datetime) -> Q:
    """Entries on a list as of ``now``, as a read counts them before the timers have moved on
    (reads never write): live, less a call-in past its deadline and a player whose last
    allowed offer has run out (``lapse_due`` takes both off)."""
    last_offer_out = Q(
        status=EntryStatus.CALLED, call_expires_at__lte=now, passes__gte=PASSES_ALLOWED - 1
    )
    return Q(status__in=LIVE_STATUSES) & ~overdue_call_ins(now) & ~last_offer_out


def waiting_on(now: datetime) -> Coalesce:
    """How many are on the outer query's list as of ``now`` (``on_the_list``): an
    annotation for a query of lists."""
    count = (
        WaitlistEntry.objects.filter(on_the_list(now), game_list_id=OuterRef("pk"))
        .order_by()
        .values("game_list_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    return Coalesce(Subquery(count, output_field=IntegerField()), 0)


def lapse_due(now: datetime | None = None) -> int:
    """The timers (the beat's sweep, every few seconds): call-ins past their check-in
    deadline lapse; offers past their time expire (the next eligible player is called to the
    same seat; a second miss takes the player off the list); an offer whose seat was taken
    ends. Reads never run it: they show what ran out as ran out (``on_the_list``,
    ``WaitlistEntry.offer_ran_out``). Returns how many entries changed."""
    now = now or timezone.now()
    lists = set(WaitlistEntry.objects.filter(due(now)).values_list("game_list_id", flat=True))
    minutes = RoomSettings.current().offer_minutes if lists else 0
    changed = 0
    for list_id in sorted(lists):
        with transaction.atomic():
            changed += _lapse_list(list_id, now, minutes)
    return changed


def lapse_list_due(game_list: GameList, *, tables: Collection[int] = ()) -> int:
    """``lapse_due`` for one list: a deadline's own task, and a write's first step
    (``deadlines_first``). ``tables``: the tables the caller is about to lock, locked here with
    the ones the timers need, in the one order (tables by id, then the list), so the caller's
    own locks that follow take nothing new out of order."""
    now = timezone.now()
    if not WaitlistEntry.objects.filter(due(now), game_list_id=game_list.pk).exists():
        return 0
    with transaction.atomic():
        return _lapse_list(game_list.pk, now, RoomSettings.current().offer_minutes, tables)


def deadlines_first(
    game_list: GameList, *, tables: Collection[int] = ()
) -> AbstractContextManager[None]:
    """The transaction of a write that decides who is offered a seat or takes one
    (``cardroom.core.deadlines.due_first``): the list's deadlines that passed are acted on
    first, once, under the write's own locks (an offer that ran out no longer holds its seat,
    nor a late call-in its place), then the write runs; refused, it leaves what ran out
    recorded (and its refusal can say so). ``tables``: the tables the write locks."""
    return due_first(lambda: lapse_list_due(game_list, tables=tables))


def queue_deadline(game_list: GameList, at: datetime) -> None:
    """A seat offer's end or a call-in's check-in deadline, set in this transaction: the
    list's timers run at ``at`` (``OFFERS``, after commit), unless the sweep or a write comes
    first."""
    OFFERS.queue(game_list.pk, at.timestamp(), at=at)


def lapse_on_time(*, list_id: int, at: datetime) -> int:
    """A deadline's own task at its time: the list's timers move on (what is due, re-checked
    under the list's locks: nothing if the sweep or a write came first). Run early (the
    worker's clock behind the database's), it waits for its time again."""
    if timezone.now() < at:
        OFFERS.queue(list_id, at.timestamp(), at=at)
        return 0
    game_list = GameList.objects.filter(pk=list_id).first()
    return lapse_list_due(game_list) if game_list is not None else 0


def _lapse_list(list_id: int, now: datetime, minutes: int, tables: Collection[int] = ()) -> int:
    """One list's timers, in the caller's transaction."""
    ripe = due(now)
    held = WaitlistEntry.objects.filter(ripe, game_list_id=list_id, called_table__isnull=False)
    ids = set(tables) | set(held.values_list("called_table_id", flat=True))
    ids |= set(GameList.objects.get(pk=list_id).tables().values_list("pk", flat=True))
    # Tables first (the order every writer locks in), then the list, then entries.
    lock_rows(Table, ids)
    game_list = lock_row(GameList, list_id)
    rows = lock_rows(game_list.entries.filter(ripe).select_related("player", "called_table"))
    changed = 0
    for entry in sorted(rows, key=lambda e: (e.position, e.pk)):
        changed += 1
        if entry.status == EntryStatus.WAITING:
            _end(entry, EntryStatus.LAPSED)
            note = "Call-in not checked in by the deadline"
            record_event(game_list, WaitlistEventKind.LAPSED, None, entry=entry, note=note)
            continue
        if entry.call_expires_at is not None and entry.call_expires_at <= now:
            _expire(game_list, entry, minutes)
        else:
            _seat_taken(game_list, entry, minutes)
    return changed


def _expire(game_list: GameList, entry: WaitlistEntry, minutes: int) -> None:
    table, seat = entry.called_table, entry.called_seat
    entry.passes += 1
    kind = WaitlistEventKind.OFFER_EXPIRED
    record_event(
        game_list, kind, None, entry=entry, table=table, seat=seat, note="Did not take the seat"
    )
    if entry.passes >= PASSES_ALLOWED:
        _end(entry, EntryStatus.LAPSED)
        note = f"Missed {entry.passes} offers: off the list"
        record_event(game_list, WaitlistEventKind.PASSED, None, entry=entry, note=note)
    else:
        move(entry, EntryStatus.WAITING)
        entry.called_table, entry.called_seat, entry.call_expires_at = None, None, None
        entry.save()
    if table is None or seat is None or game_list.closed_at is not None:
        return
    # The seat goes to the next player, if it is still free and the table still open (the
    # table row was locked before the list).
    locked = Table.objects.get(pk=table.pk)
    if locked.status != TableStatus.OPEN or locked.seated.filter(seat=seat, left_at=None).exists():
        return
    # The automatic re-call goes down the list, past whoever missed or was released from the
    # seat (they keep their place for another seat); with nobody else in the room it waits.
    following = next_for_seat(game_list, locked, seat, skip={entry.pk}, automatic=True)
    if following is not None:
        _call(game_list, lock_entry(following), locked, seat, None, minutes)


def _seat_taken(game_list: GameList, entry: WaitlistEntry, minutes: int) -> None:
    """The seat offered to ``entry`` was taken before the offer ran out (by them at the desk:
    they are seated; by someone else: the offer ends now, they keep their place and are
    offered the next open seat)."""
    live = TableSeat.objects.get(
        table_id=entry.called_table_id or 0, seat=entry.called_seat or 0, left_at=None
    )
    if live.player_id == entry.player_id:
        mark_seated(game_list, entry, live, None, "Seated at the desk")
        return
    note = f"Seat {live.seat} at {entry.called_table} was taken by {live.player}"
    _back_in_place(game_list, entry, None, f"{note}: the offer ended; keeps their place")
    _offer_next(game_list, minutes)


def _back_in_place(game_list: GameList, entry: WaitlistEntry, by: User | None, note: str) -> None:
    table, seat = entry.called_table, entry.called_seat
    move(entry, EntryStatus.WAITING)
    entry.called_table, entry.called_seat, entry.call_expires_at = None, None, None
    entry.save()
    kind = WaitlistEventKind.PASSED
    record_event(game_list, kind, by, entry=entry, table=table, seat=seat, note=note)


def _offer_next(
    game_list: GameList, minutes: int, *, not_seat: tuple[int, int] | None = None, skip: int = 0
) -> None:
    """Call the first eligible player (but ``skip``, an entry id) to the first open seat of the
    list's game, if any (the caller holds the game's table rows and the list)."""
    seats = [(t, s) for t, s in open_seats(game_list) if (t.pk, s) != not_seat]
    following = next_for_seat(game_list, *seats[0], skip={skip}, automatic=True) if seats else None
    if following is not None:
        _call(game_list, lock_entry(following), seats[0][0], seats[0][1], None, minutes)


def release_offer(*, entry: WaitlistEntry, by: User | None, reason: str = "") -> WaitlistEntry:
    """End a running seat offer before its time (the floor gives that seat to someone else):
    recorded, the player keeps their place for the next seat (no missed call counted), and the
    next player in the room after them is called to another open seat of the game, if any.
    A ``reason``, optional, is recorded; at most ``REASON_MAX`` characters, as every reason."""
    note = clean_reason(reason, optional=True)
    minutes = RoomSettings.current().offer_minutes
    ids = set(entry.game_list.tables().values_list("pk", flat=True))
    ids |= {entry.called_table_id} if entry.called_table_id else set()
    with deadlines_first(entry.game_list, tables=ids):
        lock_rows(Table, ids)
        locked_list = lock_list(entry.game_list)
        entry = lock_entry(entry)
        if entry.status != EntryStatus.CALLED or entry.called_table_id is None:
            raise Conflict("entry_changed", f"{entry.player} has no seat offer running.")
        released = (entry.called_table_id, entry.called_seat or 0)
        text = f"Offer of seat {entry.called_seat} at {entry.called_table} released by the floor"
        _back_in_place(locked_list, entry, by, f"{text}: {note}" if note else text)
        _offer_next(locked_list, minutes, not_seat=released, skip=entry.pk)
        return entry
