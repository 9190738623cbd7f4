"""A tournament's money: its price list, the room's payout templates, its payout tables, the
deals its players agree, and the money ledger every payment is written to.

Every amount is an integer in the currency's minor unit (cents for the dollar, whole won for
the won), never a float; the currency and its minor units are copied onto the price list when
it is made, so a tournament's records keep the currency they were taken in.

The ledger (``MoneyMove``) is double-entry in one row: what came in or went out of the box
(from players, from the room) equals what the row did to the places the money is held (the
prize pool, the house fee, the staff fee, the bounties, and what is owed to players). The
database refuses a row that does not balance, so the ledger balances at every moment, however
it is written; the reconciliation (``tournaments.money.ledger``) adds the rows up.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from cardroom.core.append_only import AppendOnly, chain_unique
from cardroom.core.audit import Chain
from cardroom.tables.choices import choice_check

#: A currency's minor units (ISO 4217) for the codes a room is likely to use; any other code
#: is taken with 2 unless the room says otherwise (``CARDROOM_CURRENCY_MINOR_UNITS``).
MINOR_UNITS = {
    "USD": 2, "EUR": 2, "GBP": 2, "CAD": 2, "AUD": 2, "NZD": 2, "CHF": 2, "SEK": 2, "NOK": 2,
    "DKK": 2, "PLN": 2, "CZK": 2, "MXN": 2, "BRL": 2, "PHP": 2, "SGD": 2, "HKD": 2, "MOP": 2,
    "ZAR": 2, "INR": 2, "CNY": 2, "KRW": 0, "JPY": 0, "VND": 0, "CLP": 0, "ISK": 0, "HUF": 2,
    "BHD": 3, "KWD": 3, "JOD": 3, "OMR": 3, "TND": 3,
}  # fmt: skip


class BountyKind(models.TextChoices):
    NONE = "none", "No bounty"
    FIXED = "fixed", "Fixed bounty: the whole bounty to the eliminator"
    PROGRESSIVE = "progressive", "Progressive knockout: half in cash, half onto their own head"


class Prices(models.Model):
    """What a tournament costs and pays: the entry, re-entry, rebuy and add-on (each split into
    its prize-pool part, house fee, staff fee and bounty), their chips, limits and windows
    (levels), added money and a guarantee, and how the payouts are worked out. Changed by the
    director until the first payment; after that it is what every payment was taken at."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="prices"
    )
    currency = models.CharField(max_length=3, default="USD")
    minor_units = models.PositiveSmallIntegerField(default=2)

    entry_prize = models.PositiveBigIntegerField(default=0)
    entry_fee = models.PositiveBigIntegerField(default=0)
    entry_staff = models.PositiveBigIntegerField(default=0)
    entry_bounty = models.PositiveBigIntegerField(default=0)
    bounty_kind = models.CharField(max_length=12, choices=BountyKind, default=BountyKind.NONE)
    #: Re-entries a player may make (0: none), and the last level they are taken in (0: until
    #: registration closes).
    reentry_limit = models.PositiveSmallIntegerField(default=0)
    reentry_last_level = models.PositiveSmallIntegerField(default=0)

    rebuy_prize = models.PositiveBigIntegerField(default=0)
    rebuy_fee = models.PositiveBigIntegerField(default=0)
    rebuy_staff = models.PositiveBigIntegerField(default=0)
    rebuy_chips = models.PositiveBigIntegerField(default=0)
    #: Rebuys a player may make (0: a freezeout), up to the end of this level.
    rebuy_limit = models.PositiveSmallIntegerField(default=0)
    rebuy_last_level = models.PositiveSmallIntegerField(default=0)
    #: A rebuy is taken only at or below this many chips (0: the starting stack).
    rebuy_at_most = models.PositiveBigIntegerField(default=0)

    addon_prize = models.PositiveBigIntegerField(default=0)
    addon_fee = models.PositiveBigIntegerField(default=0)
    addon_staff = models.PositiveBigIntegerField(default=0)
    addon_chips = models.PositiveBigIntegerField(default=0)
    addon_limit = models.PositiveSmallIntegerField(default=0)
    addon_first_level = models.PositiveSmallIntegerField(default=0)
    addon_last_level = models.PositiveSmallIntegerField(default=0)

    added_money = models.PositiveBigIntegerField(default=0)
    guarantee = models.PositiveBigIntegerField(default=0)

    #: Places paid: a fixed number, or a share of the entries in basis points (1,500: 15%).
    places_fixed = models.PositiveIntegerField(default=0)
    places_share = models.PositiveIntegerField(default=1500)
    #: The room's template the prizes follow; none: the curve below.
    template = models.ForeignKey(
        "PayoutTemplate", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    #: The curve's steepness in hundredths (100: prizes fall as 1/place), and the minimum cash
    #: as a multiple of the entry's price in tenths (20: twice the buy-in).
    curve_steepness = models.PositiveSmallIntegerField(default=100)
    min_cash_tenths = models.PositiveSmallIntegerField(default=0)
    #: Every prize rounded down to this, the remainder to first place.
    rounding = models.PositiveBigIntegerField(default=1)
    #: A satellite: seats of this value (0: not a satellite).
    seat_value = models.PositiveBigIntegerField(default=0)
    #: The room's deal policy: the least share of the remaining prizes left to play for, in
    #: basis points (0: none).
    deal_min_play_for = models.PositiveIntegerField(default=0)

    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "prices"
        constraints = [choice_check("bounty_kind", BountyKind)]

    def __str__(self) -> str:
        return f"Prices of tournament {self.tournament_id}"

    @property
    def entry_price(self) -> int:
        return self.entry_prize + self.entry_fee + self.entry_staff + self.entry_bounty

    @property
    def rebuy_price(self) -> int:
        return self.rebuy_prize + self.rebuy_fee + self.rebuy_staff

    @property
    def addon_price(self) -> int:
        return self.addon_prize + self.addon_fee + self.addon_staff


class PayoutTemplate(models.Model):
    """The room's own payout table: the share of the pool each place takes, in basis points,
    first place first, for fields of ``entries_from`` to ``entries_to`` entries."""

    name = models.CharField(max_length=80, unique=True)
    #: Basis points per place, first place first, non-increasing, summing to 10,000.
    shares = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PayoutTable(AppendOnly):
    """One version of a tournament's prizes by place (first place first). Each edit is a new
    row; the newest is the table in force. The row that locks it (``locked``, written when
    the bubble bursts or by the director) is the last: no edit follows it."""

    audit_chain = Chain(
        "tournament_id",
        ("tournament_id", "version", "pool", "prizes", "seats", "basis", "locked", "note",
         "by_id", "at"),
    )  # fmt: skip

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="payout_tables"
    )
    version = models.PositiveIntegerField()
    #: The prize pool the prizes share out, when worked out.
    pool = models.PositiveBigIntegerField()
    #: Per place, first place first (a satellite's seats first, each worth ``seat_value``).
    prizes = models.JSONField(default=list)
    #: A satellite: how many of the first places win a seat.
    seats = models.PositiveIntegerField(default=0)
    #: How the prizes were worked out (template, curve and its parameters, or typed in).
    basis = models.JSONField(default=dict)
    locked = models.BooleanField(default=False)
    note = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    append_only_message = "A payout table is changed by a new version, never rewritten."

    class Meta:
        ordering = ["-id"]
        constraints = [
            chain_unique("tournament"),
            models.UniqueConstraint(fields=["tournament", "version"], name="one_payout_version"),
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(locked=True), name="one_payout_lock"
            ),
        ]

    def __str__(self) -> str:
        return f"Payouts v{self.version} of tournament {self.tournament_id}"


class Deal(AppendOnly):
    """A deal the remaining players agreed: the counts it was made from, the prizes it shared,
    the method, the shares, an amount left to play for, and each player's consent (who asked
    them and when). Their payouts come from it from then on."""

    audit_chain = Chain(
        "tournament_id",
        ("tournament_id", "method", "players", "prizes", "play_for", "unit", "citations",
         "by_id", "at"),
    )  # fmt: skip

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="deals"
    )
    method = models.CharField(max_length=20)
    #: Per player: entrant id, name, chips, share, and the consent (``consented``, ``asked_by``).
    players = models.JSONField(default=list)
    #: The remaining prizes shared, first place first.
    prizes = models.JSONField(default=list)
    #: Left to play for: taken off first place, paid to the eventual winner.
    play_for = models.PositiveBigIntegerField(default=0)
    unit = models.PositiveBigIntegerField(default=1)
    citations = models.JSONField(default=list)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False)

    append_only_message = "A deal is on record as agreed."

    class Meta:
        ordering = ["-id"]
        constraints = [
            chain_unique("tournament"),
            models.UniqueConstraint(fields=["tournament"], name="one_deal_a_tournament"),
        ]

    def __str__(self) -> str:
        return f"Deal in tournament {self.tournament_id} ({self.method})"


class MoveKind(models.TextChoices):
    ENTRY = "entry", "Entry"
    REENTRY = "reentry", "Re-entry"
    REBUY = "rebuy", "Rebuy"
    ADDON = "addon", "Add-on"
    REFUND = "refund", "Refund"
    ADDED = "added", "Added money"
    OVERLAY = "overlay", "Overlay"
    BOUNTY_WON = "bounty_won", "Bounty won"
    BOUNTY_PAID = "bounty_paid", "Bounty paid"
    PAYOUT = "payout", "Prize paid"
    FEES_TAKEN = "fees_taken", "Fees taken"
    DEAL = "deal", "Deal"


class Method(models.TextChoices):
    CASH = "cash", "Cash"
    CARD = "card", "Card"
    VOUCHER = "voucher", "Voucher"
    #: The room's own money (added money, an overlay), and rows with no money across the desk.
    ROOM = "room", "The room"


class MoneyMove(AppendOnly):
    """One line of a tournament's money ledger. ``player_in``/``room_in`` came into the box,
    ``player_out``/``room_out`` left it; ``pool``, ``house``, ``staff``, ``bounty`` and ``owed``
    are what the line did to each place the money is held (signed). The database refuses a
    line whose two sides differ, so the ledger balances at every moment."""

    audit_chain = Chain(
        "tournament_id",
        ("tournament_id", "kind", "entrant_id", "method", "player_in", "room_in", "player_out",
         "room_out", "pool", "house", "staff", "bounty", "owed", "chips", "place",
         "refund_of_id", "deal_id", "from_entrant_id", "hand_id", "note", "by_id", "at"),
    )  # fmt: skip

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.PROTECT, related_name="money"
    )
    kind = models.CharField(max_length=12, choices=MoveKind)
    entrant = models.ForeignKey(
        "tournaments.Entrant", null=True, blank=True, on_delete=models.PROTECT,
        related_name="money",
    )  # fmt: skip
    method = models.CharField(max_length=8, choices=Method)
    player_in = models.BigIntegerField(default=0)
    room_in = models.BigIntegerField(default=0)
    player_out = models.BigIntegerField(default=0)
    room_out = models.BigIntegerField(default=0)
    pool = models.BigIntegerField(default=0)
    house = models.BigIntegerField(default=0)
    staff = models.BigIntegerField(default=0)
    bounty = models.BigIntegerField(default=0)
    owed = models.BigIntegerField(default=0)
    #: Chips the payment put in play (an entry's stack, a rebuy's, an add-on's).
    chips = models.PositiveBigIntegerField(default=0)
    #: A prize: the place it pays (the best of a shared place).
    place = models.PositiveIntegerField(null=True, blank=True)
    refund_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="refund"
    )
    deal = models.ForeignKey(
        Deal, null=True, blank=True, on_delete=models.PROTECT, related_name="money"
    )
    #: A bounty: the player whose head it was, and the hand that put them out.
    from_entrant = models.ForeignKey(
        "tournaments.Entrant", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    hand = models.ForeignKey(
        "cardroom.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)

    append_only_message = "The money ledger is append-only: a correction is a new line."

    class Meta:
        ordering = ["-id"]
        constraints = [
            choice_check("kind", MoveKind),
            choice_check("method", Method),
            chain_unique("tournament"),
            models.CheckConstraint(
                condition=Q(player_in__gte=0, room_in__gte=0, player_out__gte=0, room_out__gte=0),
                name="money_across_the_desk_never_negative",
            ),
            models.CheckConstraint(
                condition=Q(
                    player_in=F("pool") + F("house") + F("staff") + F("bounty") + F("owed")
                    - F("room_in") + F("player_out") + F("room_out")
                ),
                name="money_line_balances",
            ),
            # One prize a player: two cashiers paying the same player, the second is refused.
            models.UniqueConstraint(
                fields=["entrant"], condition=Q(kind="payout"), name="one_prize_a_player"
            ),
            # A bounty is won once from each head by each winner of the pot (split pots).
            models.UniqueConstraint(
                fields=["from_entrant", "entrant"], condition=Q(kind="bounty_won"),
                name="one_bounty_a_head_a_winner",
            ),
        ]  # fmt: skip
        indexes = [models.Index(fields=["tournament", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} in tournament {self.tournament_id}"

    @property
    def paid_in(self) -> int:
        return self.player_in + self.room_in

    @property
    def paid_out(self) -> int:
        return self.player_out + self.room_out
