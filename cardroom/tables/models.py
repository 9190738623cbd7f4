"""The floor: tables, the game each one spreads, and the history of their configuration."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from cardroom.core.append_only import AppendOnly, chain_unique
from cardroom.core.audit import Chain
from cardroom.core.changes import Feed, Topic
from cardroom.tables.choices import (
    DESK_VARIANTS,
    STANDARD_CHIPS,
    AnteType,
    ButtonRule,
    MissedBlindRule,
    Structure,
    TableKind,
    TableStatus,
    Variant,
    choice_check,
    default_raise_cap,
    rule,
    smallest_chip_in_play,
    variant_refusal,
)
from rules.engine import citations
from rules.engine.state import HandState


def new_button_seed() -> str:
    """A table's seed for the draw for the button (CR-BB.9): 256 bits from the operating
    system's secure source, drawn when the table is made, never shown before a deal."""
    return secrets.token_hex(32)


class Table(models.Model):
    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.TABLE, "id")

    number = models.PositiveIntegerField(unique=True, validators=[MinValueValidator(1)])
    name = models.CharField(
        max_length=60, blank=True, help_text="Optional label, e.g. 'Feature table'."
    )
    status = models.CharField(max_length=10, choices=TableStatus, default=TableStatus.CLOSED)
    kind = models.CharField(max_length=12, choices=TableKind, default=TableKind.CASH)
    seats = models.PositiveSmallIntegerField(
        default=9, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )

    variant = models.CharField(max_length=20, choices=Variant, default=Variant.HOLDEM)
    structure = models.CharField(max_length=12, choices=Structure, default=Structure.NO_LIMIT)
    small_blind = models.PositiveIntegerField(default=1)
    big_blind = models.PositiveIntegerField(default=2)
    ante_type = models.CharField(max_length=10, choices=AnteType, default=AnteType.NONE)
    ante = models.PositiveIntegerField(default=0)
    small_bet = models.PositiveIntegerField(null=True, blank=True, help_text="Fixed-limit only.")
    big_bet = models.PositiveIntegerField(null=True, blank=True, help_text="Fixed-limit only.")
    raise_cap = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Fixed-limit only: raises allowed after the bet."
    )
    straddle = models.PositiveIntegerField(
        default=0,
        help_text="0 for no straddle; otherwise one live straddle of twice the big blind.",
    )
    min_buy_in = models.PositiveIntegerField(default=40)
    max_buy_in = models.PositiveIntegerField(default=200)
    min_chip = models.PositiveIntegerField(
        null=True, blank=True, help_text="Smallest chip that plays; blank = smallest in the blinds."
    )
    pot_limit_small_blind_as_big = models.BooleanField(default=False)
    pot_round_unit = models.PositiveIntegerField(
        default=0, help_text="Pot-limit: round the pot size up to this unit (0 = exact)."
    )
    action_clock_seconds = models.PositiveSmallIntegerField(
        default=60, validators=[MinValueValidator(10), MaxValueValidator(600)]
    )
    clock_warning_seconds = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(0), MaxValueValidator(60)]
    )
    run_it_twice = models.BooleanField(default=False)
    #: Between hands: how the button moves at a cash table (a tournament table
    #: always uses the dead button, CR-BB.1), and whether a player owing blinds may post them.
    button_rule = models.CharField(max_length=8, choices=ButtonRule, default=ButtonRule.DEAD)
    missed_blinds = models.CharField(
        max_length=8, choices=MissedBlindRule, default=MissedBlindRule.POST
    )
    #: The seed of the draw for the button when a game starts with no hand before it
    #: (CR-BB.9): fixed before any deal, so every proposal shows the same draw; the hand dealt
    #: keeps the draw with its seed (``Hand.button_draw``), replayable afterwards. Not a
    #: setting: no form or API shows it.
    button_seed = models.CharField(max_length=64, default=new_button_seed, editable=False)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    #: Fields that make up "the game": changing any of them with a hand in progress is refused.
    GAME_FIELDS = (
        "variant", "structure", "small_blind", "big_blind", "ante_type", "ante", "small_bet",
        "big_bet", "raise_cap", "straddle", "min_chip", "pot_limit_small_blind_as_big",
        "pot_round_unit",
    )  # fmt: skip

    class Meta:
        ordering = ["number"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(big_blind__gt=models.F("small_blind")),
                name="big_blind_over_small",
            ),
            models.CheckConstraint(
                condition=models.Q(max_buy_in__gte=models.F("min_buy_in")), name="buy_in_range"
            ),
            models.CheckConstraint(
                condition=models.Q(seats__gte=2, seats__lte=10), name="seats_2_to_10"
            ),
            choice_check("status", TableStatus),
            choice_check("kind", TableKind),
            # Only the games the desk deals (CR-GM.1), not every Variant a waitlist once named.
            models.CheckConstraint(
                condition=models.Q(variant__in=list(DESK_VARIANTS)),
                name="%(app_label)s_%(class)s_variant_dealt",
            ),
            choice_check("structure", Structure),
            choice_check("ante_type", AnteType),
            choice_check("button_rule", ButtonRule),
            choice_check("missed_blinds", MissedBlindRule),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"

    # --- derived values ------------------------------------------------------------------

    @property
    def chip_that_plays(self) -> int:
        return self.min_chip or smallest_chip_in_play(self.small_blind, self.big_blind, self.ante)

    @property
    def chip_set(self) -> list[int]:
        """Denominations offered at this table (for the 'what does this count as?' helper)."""
        return [chip for chip in STANDARD_CHIPS if chip >= self.chip_that_plays][:6]

    @property
    def stakes_label(self) -> str:
        label = f"{self.small_blind}/{self.big_blind}"
        if self.structure == Structure.FIXED_LIMIT and self.small_bet and self.big_bet:
            label = f"{self.small_bet}/{self.big_bet}"
        return label

    @property
    def game_label(self) -> str:
        short = {
            Structure.NO_LIMIT: "NL",
            Structure.POT_LIMIT: "PL",
            Structure.FIXED_LIMIT: "Limit",
        }
        return (
            f"{self.stakes_label} {short[Structure(self.structure)]} {self.get_variant_display()}"
        )

    def engine_game(self) -> dict[str, Any]:
        """The table's game as the betting contract's ``game`` object (plus ``big_blind_ante``
        and ``pot_round_unit`` at tables that use them)."""
        game: dict[str, Any] = {
            "structure": self.structure,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante if self.ante_type == AnteType.EACH else 0,
            "straddle": self.straddle,
            "min_chip": self.chip_that_plays,
        }
        if self.structure == Structure.FIXED_LIMIT:
            game["small_bet"] = self.small_bet or self.big_blind
            game["big_bet"] = self.big_bet or 2 * self.big_blind
            game["raise_cap"] = (
                self.raise_cap if self.raise_cap is not None else default_raise_cap(self.variant)
            )
        if self.structure == Structure.POT_LIMIT:
            game["pot_limit_small_blind_as_big"] = self.pot_limit_small_blind_as_big
            if self.pot_round_unit:
                game["pot_round_unit"] = self.pot_round_unit
        if self.ante_type == AnteType.BIG_BLIND:
            # The engine's extensions of the contract's game object (absent otherwise).
            game["big_blind_ante"] = self.ante
        return game

    # --- validation: the one implementation used by forms, the API and the admin -----------

    def clean(self) -> None:
        """Every check below, in this order; each refusal is kept under its field."""
        errors: dict[str, list[str]] = {}
        for check in (
            self._check_variant,
            self._check_blinds,
            self._check_ante,
            self._check_limit_bets,
            self._check_pot_limit_options,
            self._check_straddle,
            self._check_run_it_twice,
            self._check_chips,
            self._check_buy_ins,
            self._check_pot_rounding,
            self._check_action_clock,
        ):
            for field, message in check():
                errors.setdefault(field, []).append(message)
        if errors:
            raise ValidationError(errors)

    def _check_variant(self) -> list[tuple[str, str]]:
        """Only a game the desk deals (``citations.GAMES_AT_THE_DESK``)."""
        refusal = variant_refusal(self.variant)
        return [("variant", refusal)] if refusal else []

    def _check_blinds(self) -> list[tuple[str, str]]:
        """A small blind above 0, a big blind above it (``citations.BRING_IN_AND_SHORT_BLIND``)."""
        sb, bb = self.small_blind or 0, self.big_blind or 0
        refusals = []
        if sb <= 0:
            refusals.append(("small_blind", "The small blind must be more than 0."))
        if bb <= sb:
            refusals.append((
                "big_blind",
                "The big blind must be larger than the small blind"
                + rule(citations.BRING_IN_AND_SHORT_BLIND)
                + ".",
            ))  # fmt: skip
        return refusals

    def _check_ante(self) -> list[tuple[str, str]]:
        """An ante amount exactly when there is an ante type; a big-blind ante only in no-limit
        and pot-limit games (the engine's ``big_blind_ante`` extension)."""
        refusals = []
        if self.ante_type == AnteType.NONE and self.ante:
            refusals.append(("ante", "Choose an ante type, or set the ante to 0."))
        if self.ante_type != AnteType.NONE and not self.ante:
            refusals.append(("ante", "Give the ante amount for this ante type."))
        if self.ante_type == AnteType.BIG_BLIND and self.structure == Structure.FIXED_LIMIT:
            refusals.append(("ante_type", "A big-blind ante is for no-limit and pot-limit games."))
        return refusals

    def _check_limit_bets(self) -> list[tuple[str, str]]:
        """Fixed-limit games need a small bet, a big bet and a raise cap
        (``citations.LIMIT_RAISE_CAP``); other structures have none of them."""
        if self.structure != Structure.FIXED_LIMIT:
            return [
                (field, "Small bet, big bet and raise cap are for fixed-limit games only.")
                for field in ("small_bet", "big_bet", "raise_cap")
                if getattr(self, field) not in (None, 0)
            ]
        bb = self.big_blind or 0
        refusals = []
        if not self.small_bet:
            refusals.append((
                "small_bet",
                "Fixed-limit games need a small bet" + rule(citations.LIMIT_RAISE_CAP) + ".",
            ))  # fmt: skip
        if not self.big_bet:
            refusals.append(("big_bet", "Fixed-limit games need a big bet."))
        if self.small_bet and self.big_bet and self.big_bet < self.small_bet:
            refusals.append(("big_bet", "The big bet cannot be smaller than the small bet."))
        if self.small_bet and bb and self.small_bet < bb:
            refusals.append(("small_bet", "The small bet cannot be smaller than the big blind."))
        if self.raise_cap is None:
            refusals.append((
                "raise_cap",
                f"Fixed-limit games need a raise cap (a bet and {default_raise_cap(self.variant)} raises for this game"
                + rule(citations.LIMIT_RAISE_CAP)
                + ").",
            ))  # fmt: skip
        elif not 1 <= self.raise_cap <= 10:
            refusals.append(("raise_cap", "The raise cap must be between 1 and 10 raises."))
        return refusals

    def _check_pot_limit_options(self) -> list[tuple[str, str]]:
        """The small blind counted as a big one (``citations.PL_SMALL_BLIND_AS_BIG``) and pot
        rounding (``citations.PL_POT_SIZE``) are pot-limit options only."""
        if self.structure == Structure.POT_LIMIT:
            return []
        refusals = []
        if self.pot_limit_small_blind_as_big:
            refusals.append((
                "pot_limit_small_blind_as_big",
                "This option is for pot-limit games only"
                + rule(citations.PL_SMALL_BLIND_AS_BIG)
                + ".",
            ))  # fmt: skip
        if self.pot_round_unit:
            refusals.append((
                "pot_round_unit",
                "Pot rounding is for pot-limit games only" + rule(citations.PL_POT_SIZE) + ".",
            ))  # fmt: skip
        return refusals

    def _check_straddle(self) -> list[tuple[str, str]]:
        """A live straddle (``citations.NL_STRADDLE``): no-limit and pot-limit cash games only,
        exactly twice the big blind."""
        if not self.straddle:
            return []
        bb = self.big_blind or 0
        refusals = []
        if self.structure == Structure.FIXED_LIMIT:
            refusals.append((
                "straddle",
                "A live straddle is a no-limit and pot-limit rule"
                + rule(citations.NL_STRADDLE)
                + ".",
            ))  # fmt: skip
        if self.kind == TableKind.TOURNAMENT:
            refusals.append((
                "straddle",
                "Straddles are not allowed at tournament tables"
                + rule(citations.NL_STRADDLE)
                + ".",
            ))  # fmt: skip
        if bb and self.straddle != 2 * bb:
            refusals.append((
                "straddle",
                f"A straddle must be exactly twice the big blind ({2 * bb})"
                + rule(citations.NL_STRADDLE)
                + ".",
            ))  # fmt: skip
        return refusals

    def _check_run_it_twice(self) -> list[tuple[str, str]]:
        """Running it twice (``citations.NL_RUN_IT_TWICE``) is for cash games only."""
        if self.run_it_twice and self.kind == TableKind.TOURNAMENT:
            return [(
                "run_it_twice",
                "Running it twice is for cash games only" + rule(citations.NL_RUN_IT_TWICE) + ".",
            )]  # fmt: skip
        return []

    def _check_chips(self) -> list[tuple[str, str]]:
        """The smallest chip that plays is no larger than the smallest in the blinds and antes,
        and every amount can be made with chips that play (``citations.SMALLEST_CHIP``)."""
        sb, bb = self.small_blind or 0, self.big_blind or 0
        chip = self.chip_that_plays
        refusals = []
        if self.min_chip and sb and bb:
            used = smallest_chip_in_play(sb, bb, self.ante or 0)
            if self.min_chip > used:
                refusals.append((
                    "min_chip",
                    f"The smallest chip that plays cannot be larger than the smallest chip in the blinds and antes ({used})"
                    + rule(citations.SMALLEST_CHIP)
                    + ".",
                ))  # fmt: skip
        for field in ("small_blind", "big_blind", "ante", "small_bet", "big_bet", "straddle"):
            amount = getattr(self, field) or 0
            if amount and chip and amount % chip:
                refusals.append((
                    field,
                    f"{amount} cannot be made with chips that play (smallest: {chip})"
                    + rule(citations.SMALLEST_CHIP)
                    + ".",
                ))  # fmt: skip
        return refusals

    def _check_buy_ins(self) -> list[tuple[str, str]]:
        """A minimum buy-in of at least the big blind, a maximum not below it
        (``citations.NL_TABLE_STAKES_MAX_BUY_IN``), both in chips that play
        (``citations.SMALLEST_CHIP``)."""
        bb, chip = self.big_blind or 0, self.chip_that_plays
        refusals = []
        if self.min_buy_in is not None and bb and self.min_buy_in < bb:
            refusals.append(("min_buy_in", "The minimum buy-in must be at least the big blind."))
        if (
            self.min_buy_in is not None
            and self.max_buy_in is not None
            and self.max_buy_in < self.min_buy_in
        ):
            refusals.append((
                "max_buy_in",
                "The maximum buy-in cannot be below the minimum"
                + rule(citations.NL_TABLE_STAKES_MAX_BUY_IN)
                + ".",
            ))  # fmt: skip
        for field in ("min_buy_in", "max_buy_in"):
            amount = getattr(self, field) or 0
            if amount and chip and amount % chip:
                refusals.append((
                    field,
                    f"A buy-in must be a multiple of the smallest chip that plays ({chip})"
                    + rule(citations.SMALLEST_CHIP)
                    + ".",
                ))  # fmt: skip
        return refusals

    def _check_pot_rounding(self) -> list[tuple[str, str]]:
        """Pot-limit rounding (``citations.PL_POT_SIZE``) in chips that play."""
        chip = self.chip_that_plays
        if (
            self.structure == Structure.POT_LIMIT
            and self.pot_round_unit
            and chip
            and self.pot_round_unit % chip
        ):
            return [
                ("pot_round_unit", f"Round the pot to a multiple of the smallest chip ({chip}).")
            ]
        return []

    def _check_action_clock(self) -> list[tuple[str, str]]:
        """The action clock's warning comes before its time runs out."""
        if (
            self.clock_warning_seconds is not None
            and self.action_clock_seconds is not None
            and self.clock_warning_seconds >= self.action_clock_seconds
        ):
            return [("clock_warning_seconds", "The warning must come before the clock runs out.")]
        return []


class TableChange(AppendOnly):
    """One configuration change of a table: who, when, and each field's old and new value.

    Append-only: a correction is a new change, never an edit of an old one.
    """

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "table_id", ("table_id", "changed_by_id", "changed_at", "action", "changes")
    )

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    changed_at = models.DateTimeField(default=timezone.now, editable=False)
    action = models.CharField(max_length=20)  # created, updated, opened, closed, …
    changes = models.JSONField(default=dict)  # {field: [old, new]}

    append_only_message = "Configuration history is append-only."

    class Meta:
        ordering = ["-changed_at", "-id"]
        constraints = [chain_unique("table")]

    def __str__(self) -> str:
        return (
            f"{self.table} {self.action} by {self.changed_by} at {self.changed_at:%Y-%m-%d %H:%M}"
        )


# --- live hands -----------------------------------------------------------------------------


class HandStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    COMPLETE = "complete", "Betting complete"
    VOIDED = "voided", "Voided"


class Hand(models.Model):
    """A hand dealt at a table. Street, pot and options are never stored: they are derived by
    replaying the live actions through the engine with the game as it was when dealt."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.HAND, "table_id")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    button = models.PositiveSmallIntegerField()
    #: ``[{"seat": 1, "stack": 200}, …]``: the players dealt in, chips before forced bets.
    seats = models.JSONField()
    #: The table's game (the betting contract's ``game`` object) frozen at the deal.
    game = models.JSONField()
    state = models.CharField(max_length=12, choices=HandStatus, default=HandStatus.IN_PROGRESS)
    #: Bumped by every change (an action, a void): clients send the value they saw.
    seq = models.PositiveIntegerField(default=0)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    #: Who posted (contract v2): ``{"small": 5 or None (dead), "big": 6}``; None: version 1,
    #: the blinds follow the button.
    blinds = models.JSONField(null=True, blank=True)
    #: Missed blinds made up: ``[{"seat": 2, "live": 100, "dead": 50}]`` (CR-BB.3).
    posts = models.JSONField(default=list, blank=True)
    #: Who sits where, by name, at the deal: ``{"3": "Ana Ruiz"}`` (the seat map's or the
    #: tournament's players; empty for a hand dealt with typed stacks).
    names = models.JSONField(default=dict, blank=True)
    #: What the desk proposed for this deal (button, blinds, posts, seats) when the dealer
    #: corrected it, and why: ``{"proposed": {...}, "reason": "..."}``; empty otherwise.
    correction = models.JSONField(default=dict, blank=True)
    #: The draw for the button that placed a table's first button (CR-BB.9): ``{"seed",
    #: "seats", "cards": {"3": "Ks"}, "button", "citations"}``, which
    #: ``rules.engine.button_draw.replay_button_draw`` deals again; empty for any other hand.
    button_draw = models.JSONField(default=dict, blank=True)
    #: The award (the betting contract's award response: pots, returned, stacks, citations)
    #: with the showdown it was made from; set once, when the pots are pushed.
    result = models.JSONField(null=True, blank=True)
    awarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    awarded_at = models.DateTimeField(null=True, blank=True)

    #: What this request has read of the hand at one step (``Replayed``: its actions and their
    #: replay), kept by ``cardroom.tables.services.read_hand``; not stored.
    replayed: Replayed | None = None

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_hand_number_per_table"),
            # At most one hand in progress per table, whatever the application does.
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(state="in_progress"),
                name="one_hand_in_progress_per_table",
            ),
            choice_check("state", HandStatus),
        ]
        # The floor dashboard reads each table's latest change on every poll.
        indexes = [models.Index(fields=["table", "updated_at"], name="hand_table_updated")]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}"

    @property
    def settled(self) -> bool:
        """Voided, or awarded: nothing more happens to the hand's chips."""
        return self.state == HandStatus.VOIDED or self.awarded_at is not None

    def logged_actions(self) -> list[LoggedAction]:
        """Every action entered, in order, voided ones too: as this request read them at the
        hand's step (``replayed``), else as the database has them (prefetched or not)."""
        if self.replayed is not None and self.replayed.seq == self.seq:
            return self.replayed.actions
        return [LoggedAction.of(action) for action in self.actions.all()]


class ActionWords:
    """What an action says ("seat 3 raise to 600 out of turn") and what the engine replays,
    alike for a row (``HandAction``) and a request's plain record of one (``LoggedAction``)."""

    __slots__ = ()
    seat: int
    action: str
    to: int | None
    out_of_turn: bool

    def __str__(self) -> str:
        amount = f" to {self.to}" if self.to is not None else ""
        late = " out of turn" if self.out_of_turn else ""
        return f"seat {self.seat} {self.action}{amount}{late}"

    def as_engine_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"seat": self.seat, "action": self.action}
        if self.to is not None:
            entry["to"] = self.to
        if self.out_of_turn:
            entry["out_of_turn"] = True
        return entry


class HandAction(ActionWords, AppendOnly):
    """One action entered at the table. Never edited: a void marks it (who, when, why) and the
    hand replays without it."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "hand_id",
        ("hand_id", "seq", "seat", "action", "to", "entered_by_id", "entered_at", "out_of_turn"),
        sealed=("voided_by_id", "voided_at", "void_reason"),
        later={"out_of_turn": False},
        unsealed=("voided_at", None),
        sealed_at="voided_at",
    )

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="actions")
    seq = models.PositiveIntegerField(help_text="The hand's sequence number this action made.")
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=10)
    to = models.PositiveIntegerField(null=True, blank=True)
    out_of_turn = models.BooleanField(
        default=False,
        help_text="Made out of turn: held until the turn reaches the seat, then binding or "
        "void (TDA-53).",
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    entered_at = models.DateTimeField(default=timezone.now, editable=False)
    # The one change an action ever gets, once (its chain's ``unsealed``): sealed in ``seal_hash``.
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True)
    seal_hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    append_only_message = "Hand actions are never edited: void the action instead."

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name="one_action_per_hand_seq"),
            chain_unique("hand"),
        ]
        # The voids since the last audit checkpoint, read each minute
        # (``cardroom/core/checkpoints.py``): a few rows among every action of the day.
        indexes = [
            models.Index(
                fields=["voided_at"],
                name="handaction_voided_at",
                condition=models.Q(voided_at__isnull=False),
            )
        ]


class HandRecordKind(models.TextChoices):
    DEALT = "dealt", "Dealt"
    AWARDED = "awarded", "Awarded"
    VOIDED = "voided", "Voided"


class HandRecord(AppendOnly):
    """What decided a hand's chips, as it was decided, one row each time: the deal (who was
    dealt in with what, the button, the blinds and posts, the game, the dealer's correction,
    the draw for the button), the award (the pots, who won them, the stacks after) and a void
    (who, why). The hand row keeps the same values for the desk to read; ``verify_audit`` holds
    each hand against its records (``cardroom.tables.hand_records``). Chained per table, so a
    hand's records cannot go missing from the middle of a table's history unseen."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "table_id", ("table_id", "hand_id", "number", "kind", "record", "by_id", "at")
    )

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="records")
    #: The hand's number at its table, as dealt.
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=HandRecordKind)
    #: The deal's, the award's or the void's columns of the hand as they were written
    #: (``cardroom.tables.hand_records.RECORDED``).
    record = models.JSONField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    append_only_message = "A hand's record is append-only: what decided its chips stays as it was."

    class Meta:
        ordering = ["table", "id"]
        constraints = [
            chain_unique("table"),
            choice_check("kind", HandRecordKind),
            # A hand is dealt once, awarded at most once, voided at most once.
            models.UniqueConstraint(fields=["hand", "kind"], name="one_hand_record_of_a_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}: {self.get_kind_display().lower()}"


@dataclass(frozen=True, slots=True)
class LoggedAction(ActionWords):
    """One action of a hand as a request reads it for the desk, the API's answer and the
    replay: the row's values, with who entered and who voided it by username (what
    ``str(user)`` shows), read as plain values in one query rather than as three model
    instances a row (``cardroom.tables.services.read_hand``)."""

    #: The columns read, in this class's field order (``values_list``).
    COLUMNS: ClassVar[tuple[str, ...]] = (
        "id", "seq", "seat", "action", "to", "out_of_turn", "entered_by__username",
        "entered_at", "voided_by__username", "voided_at", "void_reason", "row_hash",
    )  # fmt: skip

    id: int
    seq: int
    seat: int
    action: str
    to: int | None
    out_of_turn: bool
    entered_by: str
    entered_at: datetime
    voided_by: str | None
    voided_at: datetime | None
    void_reason: str
    row_hash: str

    @classmethod
    def of(cls, row: HandAction) -> LoggedAction:
        """A row read as a model (its users loaded, or read here)."""
        voided_by = row.voided_by.get_username() if row.voided_by is not None else None
        return cls(
            row.pk, row.seq, row.seat, row.action, row.to, row.out_of_turn,
            row.entered_by.get_username(), row.entered_at, voided_by, row.voided_at,
            row.void_reason, row.row_hash,
        )  # fmt: skip


@dataclass
class Replayed:
    """A hand as one request has read it at step ``seq``: every action in order (voided ones
    too, with who entered and who voided each), the engine's state after the live ones, and
    the head of the actions' audit chain (the last row's ``row_hash``; "" before the first),
    which the next action links to. Kept on the ``Hand`` object (``Hand.replayed``) so that a
    request reads and replays a hand once, whoever asks (the write, the desk, the API's
    answer); any later step reads again."""

    seq: int
    actions: list[LoggedAction]
    state: HandState
    head: str
