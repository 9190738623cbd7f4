"""The cash-game floor's waitlists: the room's settings, a list per game and stakes,
the players on it, the append-only log of every change to a list, and must-move tables.

The services that change them are in ``cardroom/waitlists/services.py``; the seats themselves are the
seat map's (``cardroom/seats/models.py``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Max
from django.utils import timezone

from cardroom.core.append_only import AppendOnly, chain_unique
from cardroom.core.audit import Chain
from cardroom.core.changes import Feed, Topic
from cardroom.core.numbers import grouped
from cardroom.core.transitions import Transitions
from cardroom.tables.choices import Structure, TableKind, TableStatus, Variant, choice_check

if TYPE_CHECKING:
    from cardroom.tables.models import Table


class StartRule(models.TextChoices):
    DRAW = "draw", "A verifiable seat draw"
    FIRST_COME = "first_come", "First come, first seated"


class EntrySource(models.TextChoices):
    FLOOR = "floor", "Added by the floor"
    KIOSK = "kiosk", "Added at the kiosk"
    CALL_IN = "call_in", "Call-in"


class EntryStatus(models.TextChoices):
    WAITING = "waiting", "Waiting"
    CALLED = "called", "Called to a seat"
    SEATED = "seated", "Seated"
    LAPSED = "lapsed", "Lapsed"
    REMOVED = "removed", "Removed"


#: An entry still on its list: waiting, or called and not yet seated.
LIVE_STATUSES = (EntryStatus.WAITING, EntryStatus.CALLED)

#: How an entry's status moves (``cardroom/core/transitions.py``: every write goes through
#: ``move``), each with the room's policy that moves it (``cardroom/waitlists/services.py``).
#: Seated, lapsed and removed are final: a player back on the list is a new entry.
TRANSITIONS = Transitions(
    {
        EntryStatus.WAITING: {
            EntryStatus.CALLED: "Called to a seat, first come first served (call_player; the"
            " timer's re-call of the seat when an offer runs out or ends)",
            EntryStatus.SEATED: "Seated from the list in one tap (seat_from_list), at a new"
            " table started from the list (start_game) or moved from a must-move table",
            EntryStatus.LAPSED: "A call-in not checked in by the deadline (the room's"
            " call_in_minutes)",
            EntryStatus.REMOVED: "Taken off by the floor with a reason, or the list closed",
        },
        EntryStatus.CALLED: {
            EntryStatus.WAITING: "The offer ran out (the first miss: they keep their place), the"
            " floor released it, or someone else took the seat",
            EntryStatus.SEATED: "Took the offered seat (seat_from_list, at the desk, or moved"
            " there from a must-move table)",
            EntryStatus.LAPSED: "A second offer ran out: off the list (one pass, then re-added"
            " at the bottom)",
            EntryStatus.REMOVED: "Taken off by the floor with a reason, or the list closed",
        },
    },
    conflict="entry_changed",
)


class WaitlistEventKind(models.TextChoices):
    ADDED = "added", "Added"
    CHECKED_IN = "checked_in", "Checked in"
    CALLED = "called", "Called to a seat"
    OFFER_EXPIRED = "offer_expired", "Seat offer expired"
    PASSED = "passed", "Passed"
    SEATED = "seated", "Seated"
    LAPSED = "lapsed", "Lapsed"
    REMOVED = "removed", "Removed"
    REORDERED = "reordered", "Reordered"
    MOVED = "moved", "Moved (must-move)"
    STARTED = "started", "New table started"


class RoomSettings(models.Model):
    """The room's waitlist settings: one row (``RoomSettings.current()``)."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.ROOM, "id")

    call_in_minutes = models.PositiveSmallIntegerField(
        default=60,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text="A call-in lapses unless checked in within this many minutes.",
    )
    offer_minutes = models.PositiveSmallIntegerField(
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text="A called player has this many minutes to take the seat.",
    )
    start_rule = models.CharField(max_length=12, choices=StartRule, default=StartRule.DRAW)
    kiosk_enabled = models.BooleanField(default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "room settings"
        constraints = [
            choice_check("start_rule", StartRule),
            models.CheckConstraint(condition=models.Q(call_in_minutes__gte=1), name="call_in_1"),
            models.CheckConstraint(condition=models.Q(offer_minutes__gte=1), name="offer_1"),
        ]

    def __str__(self) -> str:
        return "Room settings"

    @classmethod
    def current(cls) -> RoomSettings:
        row = cls.objects.order_by("id").first()
        if row is None:
            row, _ = cls.objects.get_or_create(id=1)
        return row


_SHORT = {
    Variant.HOLDEM: "HE", Variant.OMAHA: "O", Variant.OMAHA_HILO: "O8", Variant.STUD: "Stud",
    Variant.STUD_HILO: "Stud8", Variant.RAZZ: "Razz", Variant.BADUGI: "Badugi",
    Variant.TRIPLE_DRAW: "2-7 TD", Variant.SINGLE_DRAW: "2-7 SD", Variant.FIVE_CARD_DRAW: "5CD",
}  # fmt: skip
_PREFIX = {Structure.NO_LIMIT: "NL", Structure.POT_LIMIT: "PL", Structure.FIXED_LIMIT: "L"}


def game_label(
    variant: str,
    structure: str,
    small_blind: int,
    big_blind: int,
    bets: tuple[int, int] | None = None,
) -> str:
    """The list's name: "NLHE 1/2", "PLO 2/5"; a fixed-limit game is named by its bets, as the
    floor card and the board name it ("4/8 Limit Hold'em"): "LHE 4/8", "Limit Stud 5/10"
    (without ``bets``, the usual structure: the big blind and twice it)."""
    short = _SHORT.get(Variant(variant), variant)
    prefix = _PREFIX.get(Structure(structure), "")
    glue = " " if " " in short or len(short) > 2 else ""
    low, high = small_blind, big_blind
    if structure == Structure.FIXED_LIMIT:
        low, high = bets or (big_blind, 2 * big_blind)
        prefix = prefix if not glue else "Limit"
    return f"{prefix}{glue}{short} {grouped(low)}/{grouped(high)}"


class GameList(models.Model):
    """A waitlist for one game and stakes (NLHE 1/2). One open list per game and stakes."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.LIST, "id")

    variant = models.CharField(max_length=20, choices=Variant, default=Variant.HOLDEM)
    structure = models.CharField(max_length=12, choices=Structure, default=Structure.NO_LIMIT)
    small_blind = models.PositiveIntegerField()
    big_blind = models.PositiveIntegerField()
    label = models.CharField(max_length=60)
    start_threshold = models.PositiveSmallIntegerField(
        default=9,
        validators=[MinValueValidator(2), MaxValueValidator(10)],
        help_text="Waiting players at which the floor is offered a new table.",
    )
    opened_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["big_blind", "small_blind", "variant", "structure", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["variant", "structure", "small_blind", "big_blind"],
                condition=models.Q(closed_at__isnull=True),
                name="one_open_list_per_game",
            ),
            models.CheckConstraint(
                condition=models.Q(big_blind__gt=models.F("small_blind")),
                name="list_big_over_small",
            ),
            models.CheckConstraint(
                condition=models.Q(start_threshold__gte=2, start_threshold__lte=10),
                name="list_threshold_2_to_10",
            ),
            choice_check("variant", Variant),
            choice_check("structure", Structure),
        ]

    def __str__(self) -> str:
        return self.label

    def tables(self) -> models.QuerySet[Table]:
        """The open cash tables playing this list's game."""
        return self.game_tables().filter(status=TableStatus.OPEN)

    def bets(self) -> tuple[int, int] | None:
        """A fixed-limit game's small and big bets, from its tables (the first set up with
        both); None for a no-limit or pot-limit game."""
        if self.structure != Structure.FIXED_LIMIT:
            return None
        found = self.game_tables().filter(small_bet__isnull=False, big_bet__isnull=False)
        table = found.first()
        if table is None or table.small_bet is None or table.big_bet is None:
            return (self.big_blind, 2 * self.big_blind)
        return (table.small_bet, table.big_bet)

    def game_tables(self) -> models.QuerySet[Table]:
        """Every cash table (open or not) set up for this list's game."""
        from cardroom.tables.models import Table

        return Table.objects.filter(
            kind=TableKind.CASH,
            variant=self.variant,
            structure=self.structure,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
        ).order_by("number")


class WaitlistEntry(models.Model):
    """A player on a list. ``position`` orders the list (first come, first served; a floor
    manager may move an entry, with a reason recorded)."""

    game_list = models.ForeignKey(GameList, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey(
        "cardroom.Player", on_delete=models.PROTECT, related_name="waitlist_entries"
    )
    source = models.CharField(max_length=8, choices=EntrySource, default=EntrySource.FLOOR)
    status = models.CharField(max_length=8, choices=EntryStatus, default=EntryStatus.WAITING)
    #: Its status moves only as declared (``TRANSITIONS``).
    transitions: ClassVar[Mapping[str, Transitions]] = {"status": TRANSITIONS}
    position = models.PositiveIntegerField()
    added_at = models.DateTimeField(default=timezone.now)
    check_in_by = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    called_at = models.DateTimeField(null=True, blank=True)
    call_expires_at = models.DateTimeField(null=True, blank=True)
    called_table = models.ForeignKey(
        "cardroom.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    called_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Offers that ran out: a second one and the player loses their place.
    passes = models.PositiveSmallIntegerField(default=0)
    seated_at = models.DateTimeField(null=True, blank=True)
    seat = models.ForeignKey(
        "cardroom.TableSeat", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game_list", "position", "id"]
        verbose_name_plural = "waitlist entries"
        constraints = [
            models.UniqueConstraint(
                fields=["game_list", "player"],
                condition=models.Q(status__in=["waiting", "called"]),
                name="one_live_entry_per_list_player",
            ),
            choice_check("source", EntrySource),
            choice_check("status", EntryStatus),
        ]
        indexes = [models.Index(fields=["game_list", "status", "position"], name="entry_order")]

    def __str__(self) -> str:
        return f"{self.player} on {self.game_list}"

    @property
    def live(self) -> bool:
        return self.status in LIVE_STATUSES

    @property
    def offer_ran_out(self) -> bool:
        """Called, and the offer's time has passed: it ran out, whether or not the timers
        (``waitlists.lapse_due``) have recorded it yet. What a read shows; reads never write."""
        expires = self.call_expires_at
        return (
            self.status == EntryStatus.CALLED and expires is not None and expires <= timezone.now()
        )


def live_offer(table_id: int, seat: int) -> WaitlistEntry | None:
    """The running offer of ``seat`` at a table (a called player whose timer has not run
    out), if any: the seat map refuses that seat to anyone else (``cardroom.seats.services``)."""
    return (
        WaitlistEntry.objects.filter(
            status=EntryStatus.CALLED,
            called_table_id=table_id,
            called_seat=seat,
            call_expires_at__gt=timezone.now(),
        )
        .select_related("player", "called_table")
        .first()
    )


def offer_text(entry: WaitlistEntry) -> str:
    """ "Seat 9 at Table 1 is offered to Leo Ray (called 16:59, until 17:02)"."""
    called, until = entry.called_at, entry.call_expires_at
    when = ""
    if called is not None and until is not None:
        clock = "%H:%M"
        when = (
            f" (called {timezone.localtime(called).strftime(clock)},"
            f" until {timezone.localtime(until).strftime(clock)})"
        )
    return f"Seat {entry.called_seat} at {entry.called_table} is offered to {entry.player}{when}"


class WaitlistEvent(AppendOnly):
    """Every change to a list: added, checked in, called, offer expired, passed, seated,
    lapsed, removed, reordered (with the reason), moved, a table started. ``by`` is empty
    for the kiosk and the timer."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.LIST, "game_list_id")

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "game_list_id",
        (
            "game_list_id",
            "entry_id",
            "player_id",
            "kind",
            "table_number",
            "seat",
            "note",
            "by_id",
            "at",
        ),
    )

    append_only_message = "The waitlist log is append-only: record a new event instead."

    game_list = models.ForeignKey(GameList, on_delete=models.PROTECT, related_name="events")
    entry = models.ForeignKey(
        WaitlistEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )
    player = models.ForeignKey(
        "cardroom.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=14, choices=WaitlistEventKind)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    note = models.CharField(max_length=500, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)

    class Meta:
        ordering = ["at", "id"]
        constraints = [chain_unique("game_list"), choice_check("kind", WaitlistEventKind)]

    def __str__(self) -> str:
        return f"{self.game_list}: {self.get_kind_display().lower()}"


class MustMove(models.Model):
    """A must-move cash table feeding a main game's list: its players move to the main game's
    open seats, the longest at the must-move table first."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.MUST_MOVE, "table_id")

    table = models.ForeignKey("cardroom.Table", on_delete=models.PROTECT, related_name="+")
    main = models.ForeignKey(GameList, on_delete=models.PROTECT, related_name="must_moves")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(ended_at__isnull=True),
                name="one_live_must_move_per_table",
            )
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} must move to {self.main}"


def entry_facts(entries: Iterable[WaitlistEntry]) -> dict[int, dict[str, Any]]:
    """What a list's rows say besides the entry, by entry id: ``playing_at`` ("Table 1 seat 3":
    the player is seated at another table, so the floor knows before calling them across the
    room) and ``last_missed_at`` (when their latest seat offer ran out, from the log's
    ``offer_expired`` events: "missed call 16:59"). Two queries."""
    from cardroom.seats.models import TableSeat

    rows = list(entries)
    playing = {
        seat.player_id: f"{seat.table} seat {seat.seat}"
        for seat in TableSeat.objects.filter(
            player_id__in=[e.player_id for e in rows], left_at=None
        ).select_related("table")
    }
    expired = WaitlistEvent.objects.filter(entry__in=rows, kind=WaitlistEventKind.OFFER_EXPIRED)
    missed = dict(
        expired.values("entry_id").annotate(last=Max("at")).values_list("entry_id", "last")
    )
    return {
        e.pk: {"playing_at": playing.get(e.player_id), "last_missed_at": missed.get(e.pk)}
        for e in rows
    }
