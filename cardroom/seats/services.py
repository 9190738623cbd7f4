"""The cash table's seat map: seating players with a buy-in, chips added between
hands, sitting out and coming back, leaving with the chips (the hands dealt from the seat map
and settled back into it are ``cardroom.seats.hands``). Every change locks the table row (two devices never interleave
their changes) and writes a ``SeatEvent`` (who, when, how many chips, the stack after).

Refusals of a request the rules forbid are ``SeatRefused`` (a ``ValidationError`` keyed by the
field, with the rule cited: a form shows it on the field, the API answers 422); a change made
stale by another device, or one the hand in progress forbids, is a ``Conflict`` (409)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.locks import lock_row, lock_rows
from cardroom.core.numbers import grouped
from cardroom.core.reasons import clean_reason
from cardroom.seats.models import (
    Player,
    PlayerChange,
    PlayerChangeKind,
    SeatEvent,
    TableSeat,
    contact_key,
    initials,
    name_key,
    split_contact,
)
from cardroom.tables.choices import SeatEventKind, SeatStatus, TableKind, TableStatus, rule
from cardroom.tables.desk import MAX_STACK
from cardroom.tables.models import Hand, Table
from cardroom.waitlists.models import live_offer, offer_text
from rules.engine import citations

#: RRoP-14.16: the house may set a maximum buy-in (and so a ceiling on chips added).
MAX_BUY_IN = citations.NL_TABLE_STAKES_MAX_BUY_IN


class SeatRefused(Refusal):
    """A seat-map request the rules refuse (a buy-in over the maximum...): keyed by the field,
    so a form shows it there, with the rules cited; the API answers 422 ``seat_refused``."""

    code = "seat_refused"

    @classmethod
    def together(cls, refusals: list[SeatRefused]) -> SeatRefused:
        """Several fields refused at once (each player's buy-in when a table starts), so the
        page says each beside its field; every rule they apply is cited."""
        first, *rest = refusals
        for other in rest:
            first.error_dict.update(other.error_dict)
            first.citations += tuple(c for c in other.citations if c not in first.citations)
        return first


def _whole(value: Any, field: str, *, allow_zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < (0 if allow_zero else 1):
        raise SeatRefused(field, "A whole number of chips" + ("." if allow_zero else ", above 0."))
    if value > MAX_STACK:
        raise SeatRefused(field, f"At most {grouped(MAX_STACK)} chips.")
    return value


def cash_only(table: Table) -> Table:
    if table.kind != TableKind.CASH:
        raise SeatRefused(
            "table",
            f"{table} is a tournament table: its seats are the tournament's (seat draws and"
            " balancing), not a cash seat map.",
        )
    return table


def lock_table(table: Table) -> Table:
    """The table row, locked for the rest of the transaction: every seat-map write takes it."""
    return cash_only(lock_row(Table, table.pk))


def _lock_seat(seat: TableSeat) -> tuple[Table, TableSeat]:
    """The table locked, then the seat as it is now: it must still be the same live seat."""
    table = lock_table(seat.table)
    live = TableSeat.objects.select_related("player").filter(pk=seat.pk).first()
    if live is None or live.left_at is not None:
        raise Conflict(
            "seat_changed",
            f"{seat.player} has left seat {seat.seat} at {table}: check the table and try again.",
        )
    return table, live


def _unsettled_hand(table: Table) -> Hand | None:
    """The table's last hand when it was dealt from the seat map and is not settled yet."""
    last = table.hands.order_by("-number").first()
    return last if last is not None and last.names and not last.settled else None


def _refuse_in_hand(table: Table, live: TableSeat, doing: str) -> None:
    """Chips in front of a player dealt into an unsettled hand are in play: they are not
    added to, taken away or corrected until the hand's pots are pushed (or it is voided)."""
    hand = _unsettled_hand(table)
    if hand is not None and any(entry["seat"] == live.seat for entry in hand.seats):
        raise Conflict(
            "in_hand",
            f"Seat {live.seat} ({live.player}) is dealt into {hand}, which is not settled: "
            f"award or void it before you {doing}.",
        )


def seat_event(
    live: TableSeat, kind: str, by: User | None, *, amount: int = 0, hand: Hand | None = None,
    note: str = "",
) -> SeatEvent:  # fmt: skip
    """The seat map's log: ``stack`` is what the player has after the change."""
    event = new_seat_event(live, kind, by, amount=amount, hand=hand, note=note)
    event.save()
    return event


def new_seat_event(
    live: TableSeat, kind: str, by: User | None, *, amount: int = 0, hand: Hand | None = None,
    note: str = "",
) -> SeatEvent:  # fmt: skip
    """``seat_event``'s row, not written yet: a write of many (an award's) adds them at once
    (``SeatEvent.objects.bulk_create`` chains them in their order)."""
    stack = 0 if kind == SeatEventKind.LEFT else live.stack
    return SeatEvent(
        table_id=live.table_id, seat=live.seat, player=live.player, kind=kind, amount=amount,
        stack=stack, hand=hand, note=note[:300], by=by,
    )  # fmt: skip


# --- players ----------------------------------------------------------------------------


def name_refusal(name: str) -> str | None:
    """Why a typed name cannot be a player's, else None: the one check of a player's name on
    every path (the seat map, the floor's and the kiosk's pages and APIs). A name must have
    initials: the public board shows a player without an alias by them (``initials``), so
    "!!!" would be a blank line there."""
    clean = " ".join(str(name).split())
    if not clean or len(clean) > 120:
        return "Enter the player's name (at most 120 characters)."
    if not initials(clean):
        return (
            "Type a name or initials (letters or numbers): the public board shows a player by"
            " the initials of their name."
        )
    return None


#: At most this many players of one name are named in a refusal asking which one is meant.
AMBIGUOUS_SHOWN = 6


class PlayerBarred(SeatRefused):
    """A barred player refused (``barred_refusal``): the staff's words, for staff screens."""


class PlayerAmbiguous(SeatRefused):
    """A name without a contact when the room knows several people of that name: the staff
    are shown them told apart (the contact's last digits, the notes) and type the contact."""


def contact_refusal(contact: str) -> str | None:
    """Why a typed contact cannot be a player's, else None: blank (no contact) is fine; else a
    phone (with digits) or an e-mail (with an "@"), at most 120 characters."""
    if not contact:
        return None
    if len(contact) > 120:
        return "A contact is at most 120 characters."
    if not contact_key(contact):
        return "Give a phone number (with its digits) or an e-mail (with an @), or nothing."
    return None


def barred_refusal(player: Player) -> str | None:
    """Why a barred player is refused (the staff's words: the reason, who barred them and
    when), else None. Barring is the house's decision (no rulebook covers it): shown to the
    staff only, never on a public screen."""
    if not player.barred:
        return None
    when = timezone.localtime(player.barred_at).strftime("%d %b %Y") if player.barred_at else ""
    by = f" by {player.barred_by}" if player.barred_by_id else ""
    on = f" on {when}" if when else ""
    return f"{player} is barred from the room{by}{on}: {player.barred_reason}"


def refuse_barred(player: Player, field: str = "name") -> None:
    """``SeatRefused`` on ``field`` when the player is barred (``barred_refusal``)."""
    if (why := barred_refusal(player)) is not None:
        raise PlayerBarred(field, why)


def find_or_create_player(
    *, name: str, alias: str = "", by: User | None, alias_if_new: bool = False, contact: str = ""
) -> Player:
    """The person of that name (trimmed, spaces collapsed, any case: ``name_key``) and
    contact (``contact_key``), else a new one: the record is reused from visit to visit. A
    contact may be typed after the name, "Ana Ruiz, 600 123 456" (``split_contact``).

    The room's duplicate rules: the same name and contact is one person; one name with
    different contacts is two people. A name typed without a contact is the one player of
    that name when there is one; when there are several, it is refused naming them by what
    tells them apart (the contact's last digits, the notes): the staff type the contact.

    An alias given to a player without one is kept (only to a new player with
    ``alias_if_new``: the kiosk's, so a name typed there gives no alias to a player the room
    knows). A barred player is found (their page, a search): the services that seat, list or
    register a player refuse them (``refuse_barred``).

    Race-safe: the unique name-and-contact key lets one of two devices creating that person
    at once insert the row; the other's insert fails (on PostgreSQL it waits for the first
    to commit) and it finds the first's player, so one person never makes two players."""
    clean = " ".join(str(name).split())
    contact = " ".join(str(contact).split())
    if not contact:
        clean, contact = split_contact(clean)
    alias = " ".join(str(alias).split())
    if (why := name_refusal(clean)) is not None:
        raise SeatRefused("name", why)
    if (why := contact_refusal(contact)) is not None:
        raise SeatRefused("name", why)
    if len(alias) > 40:
        raise SeatRefused("alias", "An alias is at most 40 characters.")
    key, reach = name_key(clean), contact_key(contact)
    found = _one_of(clean, Player.objects.filter(name_key=key), reach)
    if found is None:
        try:
            with transaction.atomic():
                return Player.objects.create(
                    name=clean, alias=alias, contact=contact, created_by=by
                )
        except IntegrityError:
            # Another device created this person a moment ago: it is that player.
            found = Player.objects.get(name_key=key, contact_key=reach)
    if alias and not found.alias and not alias_if_new:
        found.alias = alias
        found.save(update_fields=["alias"])
    return found


def _one_of(name: str, same_name: QuerySet[Player], reach: str) -> Player | None:
    """Of the players of one name, the one meant: the one with that contact; without a
    contact, the only one (several: refused, naming them), else nobody (a new player)."""
    if reach:
        return same_name.filter(contact_key=reach).first()
    many = list(same_name.order_by("id")[: AMBIGUOUS_SHOWN + 1])
    if len(many) <= 1:
        return many[0] if many else None
    shown = ", ".join(p.told_apart for p in many[:AMBIGUOUS_SHOWN])
    more = " and more" if len(many) > AMBIGUOUS_SHOWN else ""
    raise PlayerAmbiguous(
        "name",
        f"The room knows several players called {name}: {shown}{more}. Type the name with"
        f' the player\'s phone or e-mail ("{name}, 600 123 456") to say which, or a new'
        " contact for a new player.",
    )


def _record(player: Player, kind: str, by: User, reason: str = "") -> PlayerChange:
    return PlayerChange.objects.create(
        player=player, kind=kind, name=player.name, alias=player.alias, contact=player.contact,
        notes=player.notes, barred=player.barred, reason=reason, by=by,
    )  # fmt: skip


def edit_player(
    *, player: Player, name: str, alias: str, contact: str, notes: str, by: User
) -> Player:
    """The floor corrects a player's record: name, alias, contact, notes (each checked as at
    creation). Refused when another person already has that name and contact (one person,
    one record: the floor finds that one instead). Recorded in the player's log
    (``PlayerChange``: the record as it then is, who and when)."""
    clean = " ".join(str(name).split())
    contact, alias = " ".join(str(contact).split()), " ".join(str(alias).split())
    notes = " ".join(str(notes).split())
    errors: dict[str, str] = {}
    if (why := name_refusal(clean)) is not None:
        errors["name"] = why
    if (why := contact_refusal(contact)) is not None:
        errors["contact"] = why
    if len(alias) > 40:
        errors["alias"] = "An alias is at most 40 characters."
    if len(notes) > 500:
        errors["notes"] = "Notes are at most 500 characters."
    if errors:
        raise SeatRefused(errors)
    try:
        with transaction.atomic():
            locked = lock_row(Player, player.pk)
            same = Player.objects.filter(name_key=name_key(clean), contact_key=contact_key(contact))
            if (other := same.exclude(pk=locked.pk).first()) is not None:
                raise SeatRefused(
                    "contact", f"{other.told_apart} already has that name and contact: one person,"
                    " one record.",
                )  # fmt: skip
            locked.name, locked.alias, locked.contact, locked.notes = clean, alias, contact, notes
            locked.save(update_fields=["name", "alias", "contact", "notes"])
            _record(locked, PlayerChangeKind.EDITED, by)
            return locked
    except IntegrityError as exc:  # the other record was written a moment ago
        raise Conflict(
            "player_exists", f"A player named {clean} with that contact was just recorded."
        ) from exc


def bar_player(*, player: Player, reason: Any, by: User, barred: bool = True) -> Player:
    """The house bars a player (``barred``) or lifts the bar (``barred=False``), with the
    reason; from then on they are refused a seat, a list and a tournament entry
    (``refuse_barred``). The house's decision, not a rulebook's. Recorded on the player (who,
    when, why) and in their log (``PlayerChange``)."""
    why = clean_reason(reason, "Give the reason: it is recorded and shown to the staff.",
                       error=SeatRefused)  # fmt: skip
    with transaction.atomic():
        locked = lock_row(Player, player.pk)
        if locked.barred == barred:
            state = "already barred" if barred else "not barred"
            raise Conflict("player_changed", f"{locked} is {state}: check the page again.")
        locked.barred = barred
        locked.barred_reason = why if barred else ""
        locked.barred_by = by if barred else None
        locked.barred_at = timezone.now() if barred else None
        locked.save(update_fields=["barred", "barred_reason", "barred_by", "barred_at"])
        _record(locked, PlayerChangeKind.BARRED if barred else PlayerChangeKind.UNBARRED, by, why)
        return locked


# --- the seat map ---------------------------------------------------------------------------


def check_buy_in(
    table: Table, amount: int, field: str, *, stack: int = 0, player: object = None
) -> None:
    """A buy-in (or chips added to ``stack``) within the table's limits and in chips that
    play. The minimum applies to a buy-in and a rebuy; the maximum (RRoP-14.16) to the
    stack the chips make. ``player``: named at the head of the refusal (a page or a start
    asking several players' buy-ins at once says whose is refused)."""
    chip = table.chip_that_plays
    lead = f"{player}: " if player else ""
    buy_in = "buy-in" if player else "Buy-in"
    if amount % chip:
        raise SeatRefused(
            field,
            f"{lead}{grouped(amount)} is not a whole number of the smallest chip that plays here"
            f" ({grouped(chip)}){rule(citations.SMALLEST_CHIP)}.",
            citations.SMALLEST_CHIP,
        )
    if stack == 0 and amount < table.min_buy_in:
        raise SeatRefused(
            field,
            f"{lead}{buy_in} {grouped(amount)} is below this table's minimum of"
            f" {grouped(table.min_buy_in)} (the house's minimum buy-in for the game).",
        )
    if stack + amount > table.max_buy_in:
        what = (
            f"{buy_in} {grouped(amount)}" if stack == 0 else f"{grouped(stack + amount)} in front"
        )
        raise SeatRefused(
            field,
            f"{lead}{what} is above this table's maximum of {grouped(table.max_buy_in)}"
            f"{rule(MAX_BUY_IN)}."
            + (f" Add at most {grouped(table.max_buy_in - stack)}." if stack else ""),
            MAX_BUY_IN,
        )


def seat_player(
    *, table: Table, player: Player, seat: int, buy_in: int, by: User | None,
    waits_for_big_blind: bool = False,
) -> TableSeat:  # fmt: skip
    """Seat ``player`` in ``seat`` with ``buy_in`` chips. Refused (``SeatRefused``) outside
    the buy-in limits or the table's seats; a seat taken or a player seated elsewhere, even a
    moment ago by another device, is a ``Conflict`` (409); so is a seat offered to another
    player from a waitlist while the offer runs (``waitlists.release_offer`` frees it)."""
    buy_in = _whole(buy_in, "buy_in")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise SeatRefused("seat", "A seat number.")

    try:
        with transaction.atomic():
            locked = lock_table(table)
            if locked.status == TableStatus.BROKEN:
                raise SeatRefused("table", f"{locked} is broken: seat the player at another table.")
            if not 1 <= seat <= locked.seats:
                raise SeatRefused("seat", f"Seats at {locked} are numbered 1 to {locked.seats}.")
            check_buy_in(locked, buy_in, "buy_in")
            # The player's row is locked too: seating them at two tables at once serializes
            # here, and a bar written meanwhile is read as it now is.
            for person in lock_rows(Player, [player.pk]):
                refuse_barred(person)
            taken = locked.seated.filter(seat=seat, left_at__isnull=True).select_related("player")
            if (occupant := taken.first()) is not None:
                raise Conflict(
                    "seat_taken", f"Seat {seat} at {locked} is taken by {occupant.player}."
                )
            offer = live_offer(locked.pk, seat)
            if offer is not None and offer.player_id != player.pk:
                raise Conflict(
                    "seat_offered",
                    f"{offer_text(offer)}: seat them from the list, or release the offer first.",
                    entry=offer.pk,
                )
            elsewhere = (
                TableSeat.objects.filter(player=player, left_at__isnull=True)
                .select_related("table")
                .first()
            )
            if elsewhere is not None:
                raise Conflict(
                    "player_seated",
                    f"{player} is already in seat {elsewhere.seat} at {elsewhere.table}: they"
                    " leave that seat first (another person of that name is told apart by"
                    f' their phone or e-mail: type "{player}, 600 123 456").',
                )
            live = TableSeat.objects.create(
                table=locked, seat=seat, player=player, stack=buy_in,
                waits_for_big_blind=waits_for_big_blind,
            )  # fmt: skip
            seat_event(live, SeatEventKind.SEATED, by, amount=buy_in)
            return live
    except IntegrityError as exc:
        # Without row locks (SQLite) the unique live seat and live player still pick one.
        raise Conflict("seat_taken", f"Seat {seat} or {player} was just seated.") from exc


@transaction.atomic
def add_chips(*, seat: TableSeat, amount: int, by: User | None) -> TableSeat:
    """Chips bought between hands: the stack after is at most the maximum buy-in
    (RRoP-14.16). With nothing in front it is a rebuy, at least the minimum buy-in."""
    amount = _whole(amount, "amount")
    table, live = _lock_seat(seat)
    _refuse_in_hand(table, live, "add chips")
    check_buy_in(table, amount, "amount", stack=live.stack)
    kind = SeatEventKind.REBUY if live.stack == 0 else SeatEventKind.ADDED
    live.stack += amount
    live.save(update_fields=["stack"])
    seat_event(live, kind, by, amount=amount)
    return live


@transaction.atomic
def sit_out(*, seat: TableSeat, by: User | None) -> TableSeat:
    """The player keeps the seat and the chips but is not dealt in; blinds passing the seat
    are owed (CR-BB.5)."""
    _table, live = _lock_seat(seat)
    if live.status == SeatStatus.SITTING_OUT:
        raise Conflict("sitting_out", f"{live.player} is already sitting out.")
    live.status, live.away_since = SeatStatus.SITTING_OUT, timezone.now()
    live.save(update_fields=["status", "away_since"])
    seat_event(live, SeatEventKind.SAT_OUT, by)
    return live


@transaction.atomic
def return_to_play(
    *, seat: TableSeat, by: User | None, wait_for_big_blind: bool = False
) -> TableSeat:
    """Back in: dealt in from the next hand, posting what they owe, or waiting for the big
    blind (their choice, or the table's rule) (CR-BB.3, CR-BB.5)."""
    _table, live = _lock_seat(seat)
    if live.status == SeatStatus.PLAYING:
        raise Conflict("playing", f"{live.player} is already playing.")
    live.status, live.away_since = SeatStatus.PLAYING, None
    live.waits_for_big_blind = wait_for_big_blind
    live.save(update_fields=["status", "away_since", "waits_for_big_blind"])
    seat_event(
        live,
        SeatEventKind.RETURNED,
        by,
        note="Waits for the big blind." if wait_for_big_blind else "",
    )
    return live


@transaction.atomic
def leave_seat(*, seat: TableSeat, by: User | None) -> TableSeat:
    """The player leaves and cashes out every chip in front of them (the event's amount is
    minus the stack); the seat is free."""
    table, live = _lock_seat(seat)
    _refuse_in_hand(table, live, "free the seat")
    live.left_at = timezone.now()
    live.save(update_fields=["left_at"])
    seat_event(live, SeatEventKind.LEFT, by, amount=-live.stack)
    return live


@transaction.atomic
def correct_stack(*, seat: TableSeat, stack: int, reason: str, by: User | None) -> TableSeat:
    """Set the chips in front of a player to a count made at the table, saying why."""
    stack = _whole(stack, "stack", allow_zero=True)
    note = clean_reason(reason, "Say why the stack is corrected.", error=SeatRefused)
    table, live = _lock_seat(seat)
    _refuse_in_hand(table, live, "correct the stack")
    change = stack - live.stack
    live.stack = stack
    live.save(update_fields=["stack"])
    seat_event(live, SeatEventKind.CORRECTED, by, amount=change, note=note)
    return live


def move_to_table(*, seat: TableSeat, to_table: Table, to_seat: int, by: User | None) -> TableSeat:
    """Move a seated cash player, stack and all, to another table's empty seat: the old seat
    ends (``moved_out``), the new one starts (``moved_in``) as a new player there (they post
    or wait for the big blind by the table's rule, CR-BB.3). Refused while they are dealt into
    an unsettled hand at the old table. Both tables are locked, lower id first (the order
    every writer takes them), so two moves the other way round never deadlock."""
    if isinstance(to_seat, bool) or not isinstance(to_seat, int):
        raise ValidationError({"to_seat": "A seat number."})
    with transaction.atomic():
        tables = {t.pk: t for t in lock_rows(Table, [seat.table_id, to_table.pk])}
        source, target = tables[seat.table_id], tables[to_table.pk]
        live = TableSeat.objects.select_related("player").filter(pk=seat.pk, left_at=None).first()
        if live is None:
            raise Conflict("seat_changed", f"Seat {seat.seat} at {source} has changed: look again.")
        if target.kind != TableKind.CASH or target.status != TableStatus.OPEN:
            raise SeatRefused("to_table", f"{target} is not an open cash table.")
        if target.pk == source.pk:
            raise SeatRefused("to_table", "Moving to the same table: use a seat change.")
        if not 1 <= to_seat <= target.seats:
            raise SeatRefused("to_seat", f"Seats at {target} are numbered 1 to {target.seats}.")
        hand = _unsettled_hand(source)
        if hand is not None and any(entry["seat"] == live.seat for entry in hand.seats):
            raise Conflict(
                "in_hand", f"{live.player} is dealt into the hand at {source}: move them after it."
            )
        taken = Conflict("seat_taken", f"Seat {to_seat} at {target} was just taken.")
        if target.seated.filter(seat=to_seat, left_at=None).exists():
            raise taken
        now, stack = timezone.now(), live.stack
        live.left_at = now
        live.save(update_fields=["left_at"])
        SeatEvent.objects.create(
            table=source, seat=live.seat, player=live.player, kind=SeatEventKind.MOVED_OUT,
            amount=-stack, stack=0, note=f"To {target} seat {to_seat}", by=by,
        )  # fmt: skip
        try:
            with transaction.atomic():
                moved = TableSeat.objects.create(
                    table=target, seat=to_seat, player=live.player, stack=stack, seated_at=now
                )
        except IntegrityError as exc:
            raise taken from exc
        note = f"From {source} seat {live.seat}"
        seat_event(moved, SeatEventKind.MOVED_IN, by, amount=stack, note=note)
        return moved


def live_seats(table: Table) -> list[TableSeat]:
    return list(
        TableSeat.objects.filter(table_id=table.pk, left_at__isnull=True)
        .select_related("player")
        .order_by("seat")
    )


def seat_summaries(tables: Iterable[Table]) -> dict[int, dict[str, Any]]:
    """The floor cards' reading of each cash table's seat map, by table id, in one query:
    "seated 7/9", the open seats, who is sitting out, who has no chips."""
    tables = list(tables)
    taken: dict[int, list[TableSeat]] = {table.pk: [] for table in tables}
    for live in TableSeat.objects.filter(table_id__in=taken, left_at__isnull=True):
        taken[live.table_id].append(live)
    return {table.pk: _summary(table, taken[table.pk]) for table in tables}


def _summary(table: Table, seated: list[TableSeat]) -> dict[str, Any]:
    numbers = {live.seat for live in seated}
    return {
        "seats": table.seats,
        "seated": len(seated),
        "open": [n for n in range(1, table.seats + 1) if n not in numbers],
        "sitting_out": sum(1 for live in seated if live.status == SeatStatus.SITTING_OUT),
        "busted": sum(1 for live in seated if live.stack == 0),
    }
