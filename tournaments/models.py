"""Tournaments: structure and clock, entrants, tables, where everyone sits, and the audit trail.

Where a player sits is a ``SeatAssignment``: a live row per seated player (the database refuses
two live rows on one seat, or two for one player), ended when the player moves or busts, never
deleted. Every draw is a ``Draw`` (committed seed, recorded inputs, result, rules applied) and
every seat change a ``SeatMove``; both are append-only.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from cardroom.core.append_only import AppendOnly, AppendOnlyQuerySet, chain_unique
from cardroom.core.audit import Chain
from cardroom.core.changes import Feed, Topic
from cardroom.core.numbers import grouped
from cardroom.core.transitions import Transitions
from cardroom.tables.choices import Structure, Variant, choice_check

#: The rulebook edition every seating reference is written against.
RULEBOOK_EDITION = "TDA 2024"

#: Variants seated by stud rules (TDA 11: fill the last seat opened); the others are button games.
STUD_VARIANTS = frozenset({Variant.STUD, Variant.STUD_HILO, Variant.RAZZ})


class TournamentStatus(models.TextChoices):
    REGISTERING = "registering", "Registering"
    RUNNING = "running", "Running"
    FINAL_TABLE = "final_table", "Final table"
    COMPLETE = "complete", "Complete"


#: How a tournament's status moves (``cardroom/core/transitions.py``: every write goes through
#: ``move``), each with the rule or reason that moves it.
TRANSITIONS = Transitions(
    {
        TournamentStatus.REGISTERING: {
            TournamentStatus.RUNNING: "The initial seat draw is dealt (TDA-7)",
        },
        TournamentStatus.RUNNING: {
            TournamentStatus.FINAL_TABLE: "The final table redraw is dealt (TDA-RP-9)",
            TournamentStatus.COMPLETE: "The heads-up bust: one player left, the winner",
        },
        TournamentStatus.FINAL_TABLE: {
            TournamentStatus.COMPLETE: "The heads-up bust: one player left, the winner",
        },
        TournamentStatus.COMPLETE: {
            TournamentStatus.RUNNING: "The last bust corrected: the player reinstated before"
            " any final table redraw (TDA-1)",
            TournamentStatus.FINAL_TABLE: "The last bust corrected: the player reinstated at the"
            " final table (TDA-1)",
        },
    },
    conflict="tournament_changed",
)


class BalancingPolicy(models.TextChoices):
    TDA = "tda", "TDA Rule 11 (big blind next moves to the worst position)"
    FEWEST_MOVES = "fewest_moves", "Fewest moves, keeping position relative to the button"


class TournamentAnte(models.TextChoices):
    """Who pays a level's ante (the values of ``cardroom.tables.choices.AnteType``; a level
    with no ante has none either way)."""

    EACH = "each", "Per player: every player antes"
    BIG_BLIND = "big_blind", "Big-blind ante: the big blind antes for the table (CR-DM.2)"


class ClockState(models.TextChoices):
    STOPPED = "stopped", "Not started"
    RUNNING = "running", "Running"
    PAUSED = "paused", "Paused"
    #: The structure ran out with players left: play goes on at the last level's blinds, its
    #: time run out, until the director adds levels (``clock.structure.add_levels``). Not the
    #: tournament's end (``ENDED``): the words say the structure ran out, never "finished".
    FINISHED = "finished", "Last level: no more levels scheduled"
    ENDED = "ended", "Tournament over"


#: Why a clock ends: whatever it was doing, it stops for good with the tournament.
OVER = "The heads-up bust: the tournament is complete, the clock stops where it stands"

#: How the clock's state moves (``move(tournament, to, field="clock_state")``), each with the
#: director's action or the time that moves it (``tournaments/clock/services.py``). A clock
#: never goes back to "not started"; it ends with the tournament (``end_clock``).
CLOCK_TRANSITIONS = Transitions(
    {
        ClockState.STOPPED: {
            ClockState.RUNNING: "The director starts the clock (level 1)",
            ClockState.ENDED: OVER,
        },
        ClockState.RUNNING: {
            ClockState.PAUSED: "The director pauses the clock",
            ClockState.FINISHED: "The last level's time runs out (the tick, the sweep, or the"
            " next clock action catching up)",
            ClockState.ENDED: OVER,
        },
        ClockState.PAUSED: {
            ClockState.RUNNING: "The director resumes the clock",
            ClockState.ENDED: OVER,
        },
        ClockState.FINISHED: {
            ClockState.PAUSED: "The director moves a finished clock to a level: it waits paused",
            ClockState.RUNNING: "The director adds levels to a structure that ran out: the"
            " first one added starts at once",
            ClockState.ENDED: OVER,
        },
        ClockState.ENDED: {
            ClockState.PAUSED: "The last bust corrected (TDA-1): the clock waits paused where"
            " it stopped",
        },
    },
    conflict="clock_changed",
)


class Tournament(models.Model):
    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.TOURNAMENT, "id")

    name = models.CharField(max_length=120)
    variant = models.CharField(max_length=20, choices=Variant, default=Variant.HOLDEM)
    structure = models.CharField(max_length=12, choices=Structure, default=Structure.NO_LIMIT)
    mixed_game = models.BooleanField(
        default=False, help_text="A rotation of games: the button freezes when balancing (11-B)."
    )
    seats_per_table = models.PositiveSmallIntegerField(
        default=9, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    starting_stack = models.PositiveIntegerField(default=20_000)
    status = models.CharField(
        max_length=12, choices=TournamentStatus, default=TournamentStatus.REGISTERING
    )
    #: Its status and its clock move only as declared (``TRANSITIONS``, ``CLOCK_TRANSITIONS``).
    transitions: ClassVar[Mapping[str, Transitions]] = {
        "status": TRANSITIONS,
        "clock_state": CLOCK_TRANSITIONS,
    }
    balancing_policy = models.CharField(
        max_length=14, choices=BalancingPolicy, default=BalancingPolicy.TDA
    )
    #: Who pays the levels' antes. Rows from before the setting keep the per-player ante they
    #: were dealt with; the create form and the API default to the big-blind ante.
    ante_type = models.CharField(max_length=10, choices=TournamentAnte, default=TournamentAnte.EACH)
    #: TDA 11-C: the order tables break and give up players, published before play starts.
    break_order = models.JSONField(default=list, help_text="Table numbers, first to break first.")
    balancing_order = models.JSONField(
        default=list, help_text="Table numbers, first to give up a player first (ties)."
    )
    final_table_size = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Blank: seats per table (RP-9 may make it smaller)."
    )

    # Hand-for-hand (TDA RP-8): busts on the same hand share the place.
    hand_for_hand = models.BooleanField(default=False)
    hand_for_hand_announced_at = models.DateTimeField(null=True, blank=True)
    hand_for_hand_hand = models.PositiveIntegerField(default=0)

    # The clock: the level running, and how far into it (paused time does not count).
    clock_state = models.CharField(max_length=10, choices=ClockState, default=ClockState.STOPPED)
    level_number = models.PositiveSmallIntegerField(default=1)
    level_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the clock last started running in this level."
    )
    level_elapsed = models.DurationField(
        default=timedelta(0), help_text="Time played in this level before the last start."
    )
    #: Bumped on every clock change: a scheduled tick for an older clock does nothing.
    clock_version = models.PositiveIntegerField(default=0)
    #: Bumped on every seat change: a balancing suggestion made before it is stale.
    seating_version = models.PositiveIntegerField(default=0)

    #: Late registration and re-entry end here (set by the director, or at the final table
    #: redraw): finishing places are fixed from then on, not before (``registration_open``).
    registration_closed_at = models.DateTimeField(null=True, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats_per_table__gte=2, seats_per_table__lte=10),
                name="tournament_seats_2_to_10",
            ),
            choice_check("variant", Variant),
            choice_check("structure", Structure),
            choice_check("status", TournamentStatus),
            choice_check("balancing_policy", BalancingPolicy),
            choice_check("ante_type", TournamentAnte),
            choice_check("clock_state", ClockState),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def registration_open(self) -> bool:
        """New entries and re-entries are taken: before the final table, until closed."""
        return self.registration_closed_at is None and self.status in (
            TournamentStatus.REGISTERING,
            TournamentStatus.RUNNING,
        )

    @property
    def big_blind_ante(self) -> bool:
        """The levels' antes are one big-blind ante for the table (CR-DM.2), not one each."""
        return self.ante_type == TournamentAnte.BIG_BLIND

    @property
    def is_stud(self) -> bool:
        return self.variant in STUD_VARIANTS

    @property
    def game_label(self) -> str:
        return f"{self.get_structure_display()} {self.get_variant_display()}" + (
            " (mixed)" if self.mixed_game else ""
        )

    def level_elapsed_at(self, now: datetime | None = None) -> timedelta:
        """Time played in the current level (the clock as it stands, not yet advanced)."""
        elapsed = self.level_elapsed
        if self.clock_state == ClockState.RUNNING and self.level_started_at is not None:
            elapsed += (now or timezone.now()) - self.level_started_at
        return elapsed


class Level(models.Model):
    """One level of the structure: blinds and ante, or a break, and how long it lasts."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.TOURNAMENT, "tournament_id")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="levels")
    number = models.PositiveSmallIntegerField()
    small_blind = models.PositiveIntegerField(default=0)
    big_blind = models.PositiveIntegerField(default=0)
    ante = models.PositiveIntegerField(default=0)
    duration = models.DurationField(default=timedelta(minutes=20))
    is_break = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_level_number"),
            models.CheckConstraint(
                condition=models.Q(duration__gt=timedelta(0)), name="level_lasts"
            ),
        ]

    def __str__(self) -> str:
        # No "Level n" here: ``number`` is the step of the structure, breaks included, and a
        # level's name depends on the breaks before it (``clock_reading.level_names``).
        if self.is_break:
            return f"Break ({self.minutes_label})"
        ante = f" ante {self.ante}" if self.ante else ""
        return f"{self.small_blind}/{self.big_blind}{ante} ({self.minutes_label})"

    @property
    def minutes_label(self) -> str:
        seconds = int(self.duration.total_seconds())
        return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "seconds": int(self.duration.total_seconds()),
            "is_break": self.is_break,
        }


class ChipDenomination(models.Model):
    """One chip of the tournament's chip set: its value, its colour, and the break at which it
    leaves play (empty: it plays to the end). Each value divides the next larger one and a
    removal never leaves a level unpayable (CR-CU.1, ``tournaments/colour_ups.py``)."""

    #: What its rows change on the screens (``cardroom/core/changes.py``): the room display
    #: announces a colour-up (CR-CU.2).
    change_feed = Feed(Topic.TOURNAMENT, "tournament_id")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chip_set")
    value = models.PositiveIntegerField()
    colour = models.CharField(max_length=30)
    #: The break (a step of the structure) at which the chip is raced off and leaves play. A
    #: break with a colour-up is kept while it is scheduled: deleting it is refused.
    removed_at = models.ForeignKey(
        Level, null=True, blank=True, on_delete=models.PROTECT, related_name="colour_ups"
    )

    class Meta:
        ordering = ["tournament", "value"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "value"], name="one_chip_value"),
            models.CheckConstraint(condition=models.Q(value__gt=0), name="chip_has_value"),
        ]

    def __str__(self) -> str:
        return f"{grouped(self.value)} ({self.colour})"


class EntrantStatus(models.TextChoices):
    REGISTERED = "registered", "Registered"
    SEATED = "seated", "Seated"
    ELIMINATED = "eliminated", "Eliminated"
    #: An entry refunded before the initial draw (``money.payments.refund_entry``): never
    #: drawn, placed or counted in the field, kept on the list so the refund stays on view.
    WITHDRAWN = "withdrawn", "Withdrawn (refunded)"


#: Entrants no longer in the tournament: put out, or refunded before they played.
OUT_OF_PLAY = (EntrantStatus.ELIMINATED, EntrantStatus.WITHDRAWN)


class Entrant(models.Model):
    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.ENTRANTS, "tournament_id")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entrants")
    number = models.PositiveIntegerField(help_text="Entry number in this tournament.")
    #: The person (the room's one record, shared with the cash floor): found or created at
    #: registration; a re-entry points at the same person.
    player = models.ForeignKey("cardroom.Player", on_delete=models.PROTECT, related_name="entries")
    #: The name as it was entered: the printed record (seat cards, results, payouts) says what
    #: the entry was registered as, whatever later corrections make of the player's record.
    name = models.CharField(max_length=120)
    status = models.CharField(
        max_length=10, choices=EntrantStatus, default=EntrantStatus.REGISTERED
    )
    late = models.BooleanField(default=False, help_text="Registered after play began (8-A).")
    alternate = models.BooleanField(default=False, help_text="Seated from the alternate list.")
    reentry_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reentries"
    )
    special_needs = models.CharField(
        max_length=200, blank=True, help_text="Why a seat is reserved (TDA 9)."
    )
    place = models.PositiveIntegerField(null=True, blank=True)
    #: The chip count: the starting stack at registration (re-entries, alternates and late
    #: entries included), then what each hand dealt at the desk leaves (``table_hands``). The
    #: chips travel with the player, so a balancing move or a table break carries them.
    chips = models.PositiveBigIntegerField(default=0)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_entry_number"),
            # However registrations race: a person has one live entry in a tournament.
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=~models.Q(status__in=["eliminated", "withdrawn"]),
                name="one_live_entry_per_player",
            ),
            choice_check("status", EntrantStatus),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.name} (#{self.number})"

    @property
    def is_reentry(self) -> bool:
        return self.reentry_of_id is not None


class TournamentTableStatus(models.TextChoices):
    ACTIVE = "active", "In play"
    BROKEN = "broken", "Broken"


class TournamentTableQuerySet(models.QuerySet["TournamentTable"]):
    def in_play(self) -> TournamentTableQuerySet:
        """Tables not broken, in tournaments not complete: where a tournament plays now."""
        return self.filter(status=TournamentTableStatus.ACTIVE).exclude(
            tournament__status=TournamentStatus.COMPLETE
        )


class TournamentTable(models.Model):
    """A room table (``cardroom.Table`` of kind "tournament") in one tournament. It has one
    name everywhere, the room's ("Table 101", on the felt): ``number`` (1..n) is the
    tournament's own numbering, which the draws, the break order and their records use, and
    which no page, printout or message shows."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.TOURNAMENT_TABLE, "id")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    table = models.ForeignKey(
        "cardroom.Table", on_delete=models.PROTECT, related_name="tournament_uses"
    )
    number = models.PositiveIntegerField()
    seats = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    status = models.CharField(
        max_length=10, choices=TournamentTableStatus, default=TournamentTableStatus.ACTIVE
    )
    #: TDA 11-C: position in the published break order (1 breaks first).
    break_position = models.PositiveIntegerField()
    button = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Seat with the dealer button, as the dealer reports it."
    )
    broken_at = models.DateTimeField(null=True, blank=True)

    objects = TournamentTableQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_table_number"),
            models.UniqueConstraint(fields=["tournament", "table"], name="room_table_once"),
            choice_check("status", TournamentTableStatus),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def room_number(self) -> int:
        """The room's number for the table: the one people see."""
        return int(self.table.number)

    @property
    def name(self) -> str:
        """ "Table 101": the table's one name, the room's."""
        return f"Table {self.room_number}"


class DrawKind(models.TextChoices):
    INITIAL = "initial", "Initial seating"
    LATE_ENTRY = "late_entry", "Late entry, alternate or re-entry"
    BREAK_TABLE = "break_table", "Breaking a table"
    FINAL_TABLE = "final_table", "Final table redraw"


class DrawStatus(models.TextChoices):
    COMMITTED = "committed", "Committed (seed sealed)"
    REVEALED = "revealed", "Dealt and revealed"
    ABANDONED = "abandoned", "Abandoned (the field changed before the deal)"


class Draw(AppendOnly):
    """One random draw. The commitment (SHA-256 of the sealed seed and the inputs) is stored and
    shown before the cards are revealed; the seed is revealed with the result so anyone can
    replay it. Append-only: once revealed or abandoned, the row never changes."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        (
            "tournament_id",
            "number",
            "kind",
            "commitment",
            "seed",
            "inputs",
            "rulebook_edition",
            "citations",
            "committed_by_id",
            "committed_at",
        ),
        sealed=("status", "result", "revealed_at"),
        unsealed=("status", DrawStatus.COMMITTED),
        sealed_at="revealed_at",
    )

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="draws")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=DrawKind)
    status = models.CharField(max_length=10, choices=DrawStatus, default=DrawStatus.COMMITTED)
    commitment = models.CharField(max_length=64, help_text="SHA-256, hex.")
    #: Sealed until the draw is revealed: never shown or served while ``status`` is committed.
    seed = models.CharField(max_length=64)
    inputs = models.JSONField()
    result = models.JSONField(null=True, blank=True)
    rulebook_edition = models.CharField(max_length=20, default=RULEBOOK_EDITION)
    citations = models.JSONField(default=list, help_text="Rules applied, with the edition.")
    committed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    committed_at = models.DateTimeField(default=timezone.now, editable=False)
    revealed_at = models.DateTimeField(null=True, blank=True)
    #: The deal (or the abandonment) sets status, result and revealed_at once: sealed here.
    seal_hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    append_only_message = "Draws are append-only."
    sealed_message = "A revealed or abandoned draw is never changed."

    class Meta:
        ordering = ["tournament", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_draw_number"),
            choice_check("kind", DrawKind),
            choice_check("status", DrawStatus),
            chain_unique("tournament"),
        ]

    def __str__(self) -> str:
        return f"Draw {self.number}: {self.get_kind_display()}"

    @property
    def is_revealed(self) -> bool:
        return self.status == DrawStatus.REVEALED

    @property
    def public_seed(self) -> str | None:
        return self.seed if self.is_revealed else None


class MoveReason(models.TextChoices):
    INITIAL_DRAW = "initial_draw", "Initial draw"
    LATE_ENTRY = "late_entry", "Late entry, alternate or re-entry draw"
    BREAK_TABLE = "break_table", "Table broken"
    BALANCE = "balance", "Balancing"
    FINAL_TABLE = "final_table", "Final table redraw"
    RESERVED = "reserved", "Seat reserved"
    WRONG_SEAT = "wrong_seat", "Found in the wrong seat"
    ELIMINATED = "eliminated", "Eliminated"
    REINSTATED = "reinstated", "Elimination undone"


class SeatAssignment(models.Model):
    """Who sits where. A live row (``ended_at`` empty) per seated player; ending it is the only
    change ever made, so the rows are the full seating history of the tournament."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.TOURNAMENT_TABLE, "table_id")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="assignments")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="assignments")
    table = models.ForeignKey(TournamentTable, on_delete=models.PROTECT, related_name="assignments")
    seat = models.PositiveSmallIntegerField()
    draw = models.ForeignKey(
        Draw, null=True, blank=True, on_delete=models.PROTECT, related_name="assignments"
    )
    reason = models.CharField(max_length=14, choices=MoveReason)
    #: TDA 8-A/10-A: a seat between the small blind and the button waits for the button.
    waits_for_button = models.BooleanField(default=False)
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table__number", "seat"]
        constraints = [
            # However the application races, one live player per seat, one live seat per player.
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=models.Q(ended_at__isnull=True),
                name="one_player_per_live_seat",
            ),
            models.UniqueConstraint(
                fields=["entrant"],
                condition=models.Q(ended_at__isnull=True),
                name="one_live_seat_per_player",
            ),
            models.CheckConstraint(condition=models.Q(seat__gte=1), name="seat_numbers_from_1"),
            choice_check("reason", MoveReason),
        ]
        indexes = [models.Index(fields=["tournament", "ended_at"])]

    def __str__(self) -> str:
        return f"{self.entrant} at {self.table} seat {self.seat}"


class SeatMove(AppendOnly):
    """One change of seat: from, to, why (with the rule), when, by whom, which draw."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        (
            "tournament_id",
            "entrant_id",
            "from_table",
            "from_seat",
            "to_table",
            "to_seat",
            "reason",
            "note",
            "citations",
            "draw_id",
            "by_id",
            "at",
        ),
    )

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="moves")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="moves")
    from_table = models.PositiveIntegerField(null=True, blank=True)
    from_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    to_table = models.PositiveIntegerField(null=True, blank=True)
    to_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=14, choices=MoveReason)
    note = models.CharField(max_length=300, blank=True)
    citations = models.JSONField(default=list)
    draw = models.ForeignKey(
        Draw, null=True, blank=True, on_delete=models.PROTECT, related_name="moves"
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [choice_check("reason", MoveReason), chain_unique("tournament")]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.from_label} → {self.to_label}"

    @property
    def from_label(self) -> str:
        return f"T{self.from_table} S{self.from_seat}" if self.from_table else "—"

    @property
    def to_label(self) -> str:
        return f"T{self.to_table} S{self.to_seat}" if self.to_table else "—"


class SeatReservation(AppendOnly):
    """TDA 9: a seat set aside for a player with special needs, kept out of every draw."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        ("tournament_id", "entrant_id", "table_id", "seat", "reason", "by_id", "at"),
    )

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="reservations"
    )
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="reservations")
    table = models.ForeignKey(
        TournamentTable, on_delete=models.PROTECT, related_name="reservations"
    )
    seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-at"]
        constraints = [chain_unique("tournament")]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat} reserved for {self.entrant}"


class EliminationQuerySet(AppendOnlyQuerySet):
    def standing(self) -> EliminationQuerySet:
        """Eliminations not undone by a ``Reinstatement``."""
        return self.filter(reinstatement__isnull=True)


class Elimination(AppendOnly):
    """A bust-out. During hand-for-hand (RP-8) busts on the same hand share the place.

    Never changed: a mistaken elimination is undone by a ``Reinstatement`` row, and the player
    may bust again later (a new row), so an entrant can have several, at most one standing."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        (
            "tournament_id",
            "entrant_id",
            "place",
            "hand_for_hand_hand",
            "table_number",
            "seat",
            "by_id",
            "at",
            "hand_id",
        ),
        later={"hand_id": None},
    )

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="eliminations"
    )
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="eliminations")
    place = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Players left when this one busted; empty while registration was open "
        "(the finishing place is set when it closes, on the entrant).",
    )
    hand_for_hand_hand = models.PositiveIntegerField(null=True, blank=True)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The hand at the desk that took the player's last chips; empty when the director put
    #: them out by hand ("Out"), and for busts recorded before the desk said which.
    hand = models.ForeignKey(
        "cardroom.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    objects: ClassVar[models.Manager[Elimination]] = EliminationQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [chain_unique("tournament")]

    def __str__(self) -> str:
        return f"{self.entrant} out" + (f" in place {self.place}" if self.place else "")


class Reinstatement(AppendOnly):
    """The director's audited correction of a mistaken elimination (a misclicked "Out"): who,
    when, why, and the seat the player went back to. The elimination row stays as it was; this
    row says it no longer stands (at most one per elimination, enforced by the database)."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        (
            "tournament_id",
            "elimination_id",
            "entrant_id",
            "table_number",
            "seat",
            "reason",
            "by_id",
            "at",
        ),
    )

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="reinstatements"
    )
    elimination = models.OneToOneField(
        Elimination, on_delete=models.PROTECT, related_name="reinstatement"
    )
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="reinstatements")
    table_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    reason = models.CharField(max_length=200)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [chain_unique("tournament")]

    def __str__(self) -> str:
        return f"{self.entrant} reinstated at table {self.table_number} seat {self.seat}"


class BalanceCheck(AppendOnly):
    """What the balancing check found after a change: moves to make, tables to break, tables
    to halt (11-D). The director applies a check with one click; a newer check supersedes."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        (
            "tournament_id",
            "moves",
            "tables_to_break",
            "tables_to_halt",
            "final_table",
            "citations",
            "counts",
            "seating_version",
            "at",
        ),
    )

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="balance_checks"
    )
    moves = models.JSONField(default=list)
    tables_to_break = models.JSONField(default=list)
    tables_to_halt = models.JSONField(default=list)
    final_table = models.BooleanField(default=False)
    citations = models.JSONField(default=list)
    counts = models.JSONField(default=dict, help_text="Players per table when checked.")
    seating_version = models.PositiveIntegerField(default=0)
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [chain_unique("tournament")]
        get_latest_by = ["at", "id"]

    def __str__(self) -> str:
        return f"Balance check {self.pk} of {self.tournament}"

    @property
    def needs_action(self) -> bool:
        return bool(self.moves or self.tables_to_break or self.final_table)


class ClockEvent(AppendOnly):
    """The clock's log: starts, pauses, resumes, levels reached (on time or by hand)."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.TOURNAMENT, "tournament_id")

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain("tournament_id", ("tournament_id", "action", "level_number", "by_id", "at"))

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="clock_events"
    )
    action = models.CharField(max_length=20)
    level_number = models.PositiveSmallIntegerField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [chain_unique("tournament")]

    def __str__(self) -> str:
        return f"{self.action} (level {self.level_number})"


class StructureAction(models.TextChoices):
    TIME = "time", "Time added or removed"
    EDIT = "edit", "Level changed"
    INSERT = "insert", "Level inserted"
    DELETE = "delete", "Level deleted"
    APPEND = "append", "Levels added"


class StructureChange(AppendOnly):
    """A change to the structure while the event runs (``tournaments/clock/structure.py``):
    time added to or taken from the level in play, a later level's blinds or time changed, a
    level or break inserted or deleted, levels added when the structure ran out. Each row
    keeps the step it changed as it was (``before``) and as it became (``after``, both
    ``Level.as_dict()``, None for a step that did not exist), with who changed it and why.
    ``level_number`` is the step as numbered when the change was made: later insertions and
    deletions renumber the levels, never this record."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        (
            "tournament_id",
            "action",
            "level_number",
            "before",
            "after",
            "reason",
            "by_id",
            "at",
        ),
    )

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="structure_changes"
    )
    action = models.CharField(max_length=10, choices=StructureAction)
    level_number = models.PositiveSmallIntegerField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=200)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    append_only_message = "Structure changes are append-only: a correction is a new change."

    class Meta:
        ordering = ["-id"]
        constraints = [choice_check("action", StructureAction), chain_unique("tournament")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} (step {self.level_number})"


class TournamentRuling(AppendOnly):
    """A ruling made while this tournament played at the ruling's table: the tournament's own
    record of it, written in the ruling's transaction (``cardroom.rulings.services``). One
    row a ruling, its own stream: the ruling is new and unique, so no lock is needed."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain("ruling_id", ("ruling_id", "tournament_id"))

    ruling = models.OneToOneField(
        "cardroom.Ruling", on_delete=models.PROTECT, related_name="tournament_link"
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rulings")

    class Meta:
        constraints = [chain_unique("ruling")]

    def __str__(self) -> str:
        return f"{self.ruling} in {self.tournament}"


class ChipChange(models.TextChoices):
    """What a chip-count row records (``tournaments/chip_counts.py``)."""

    COUNT = "count", "Table count"
    CORRECTION = "correction", "Correction"
    TRANSFER_IN = "transfer_in", "Chips received"
    TRANSFER_OUT = "transfer_out", "Chips given"
    OUT_OF_PLAY = "out_of_play", "Taken out of play"


class ChipCount(AppendOnly):
    """One change to an entrant's count made away from the desk: a table's counts at a break,
    one player's count corrected after a dispute, chips given to another player (two rows,
    the giver's and the receiver's, naming each other and sharing ``transfer``), or chips
    taken out of play. Before and after are both kept, so the log says what the count was
    and the entrants' counts can be checked against it. The desk's awards write the counts
    themselves (``table_hands``): their record is the hand."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        (
            "tournament_id",
            "entrant_id",
            "kind",
            "chips_before",
            "chips_after",
            "other_id",
            "transfer",
            "table_number",
            "reason",
            "citations",
            "by_id",
            "at",
        ),
    )

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="chip_counts")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="chip_counts")
    kind = models.CharField(max_length=12, choices=ChipChange)
    chips_before = models.PositiveBigIntegerField()
    chips_after = models.PositiveBigIntegerField()
    #: A transfer's other side: the receiver on the giver's row, the giver on the receiver's.
    other = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    #: A transfer's two rows share it: the number of the transfer in its tournament.
    transfer = models.PositiveIntegerField(null=True, blank=True)
    #: A table's counts at a break: the tournament's table they were entered for.
    table_number = models.PositiveIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=200)
    citations = models.JSONField(default=list)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    append_only_message = "Chip counts are append-only: a correction is a new count."

    class Meta:
        ordering = ["-id"]
        constraints = [choice_check("kind", ChipChange), chain_unique("tournament")]
        indexes = [models.Index(fields=["tournament", "kind"])]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.chips_before} → {self.chips_after} ({self.kind})"

    @property
    def change(self) -> int:
        """What the row did to the count: chips added (positive) or taken (negative)."""
        return self.chips_after - self.chips_before


class ChipRaceMode(models.TextChoices):
    COUNTS = "counts", "From the chip counts"
    ENTERED = "entered", "Chips counted by the dealer"


class ChipRace(AppendOnly):
    """The chip race at one table at a colour-up break (CR-CU.3, CR-CU.4): the chips that
    left, the unit they were raced into, each player's odd chips as entered, the seed the
    cards were dealt from and what the race gave each seat (``tournaments.draws.chip_race``),
    so it replays. The counts it changed are ``ChipCount`` rows of their own."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "tournament_id",
        (
            "tournament_id",
            "table_id",
            "level_id",
            "level_number",
            "leaving",
            "unit",
            "mode",
            "odd_chips",
            "seed",
            "result",
            "by_id",
            "at",
        ),
    )

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="chip_races")
    table = models.ForeignKey(
        "TournamentTable", on_delete=models.PROTECT, related_name="chip_races"
    )
    level = models.ForeignKey(Level, on_delete=models.PROTECT, related_name="chip_races")
    #: The break's step when the race was run (the structure may be edited later).
    level_number = models.PositiveSmallIntegerField()
    leaving = models.JSONField(default=list)
    unit = models.PositiveIntegerField()
    mode = models.CharField(max_length=10, choices=ChipRaceMode)
    #: Per entry number, the chips of each leaving value the dealer counted (mode "entered").
    odd_chips = models.JSONField(default=dict)
    seed = models.CharField(max_length=200)
    result = models.JSONField(default=dict)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    append_only_message = "A chip race is on record as it was run."

    class Meta:
        ordering = ["-id"]
        constraints = [
            choice_check("mode", ChipRaceMode),
            chain_unique("tournament"),
            models.UniqueConstraint(fields=["table", "level"], name="one_race_a_table_a_break"),
        ]

    def __str__(self) -> str:
        return f"Chip race at {self.table} (step {self.level_number})"


# The money (``tournaments/money/``): its models are the tournaments app's, loaded with these.
from tournaments.money.models import (  # noqa: E402  (after the models they point at)
    BountyKind,
    Deal,
    Method,
    MoneyMove,
    MoveKind,
    PayoutTable,
    PayoutTemplate,
    Prices,
)

__all__ = [
    "BountyKind", "Deal", "Method", "MoneyMove", "MoveKind", "PayoutTable", "PayoutTemplate",
    "Prices",
]  # fmt: skip
