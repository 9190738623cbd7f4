"""Money taken from players and put in by the room, each payment a line of the ledger
(``MoneyMove``) at the price list's split (``tournaments.money.prices``):

- ``take_entry``: the entry (or re-entry) paid as the player registers, in the registration's
  own transaction (``setup.register_entrants``): no entry without its payment, no payment
  without its entry. Re-entries are limited per player and end at a level (TDA 8-A).
- ``take_rebuy`` / ``take_addon``: chips bought during play, within the limit per player and
  the window of levels; a rebuy only at or below the ceiling stack. The chips go onto the
  player's count at once and the ledger line records them, so the chips bought
  (``chip_counts.bought_in``) and the counts stay equal.
- ``refund_entry``: an entry paid back before it was ever played; the entry is then withdrawn
  (``EntrantStatus.WITHDRAWN``), the one mark of a refund every other reader goes by
  (``with_refunds`` adds the amount and the time for the pages and the API).
- ``add_room_money``: added money or an overlay, the room's own money into the pool.

Every payment locks the tournament row first, exclusive (``seating.lock_tournament``): two
cashiers taking one player's last rebuy, or a rebuy and the clock passing the last rebuy level,
are served one after the other, and the ledger's chain never forks; a rebuy's chips wait for the
deals and awards holding the row shared (``table_hands``), which read and write the counts. A refusal the state decides (a limit
reached, a window closed, the player in a hand) is a 409 with the rule; a bad amount or method
is a 422.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.numbers import grouped
from tournaments.chip_counts import MAX_CHIPS
from tournaments.clock.services import catch_up, levels_of
from tournaments.draws.errors import ALTERNATES_AND_LATE_ENTRIES, DrawError
from tournaments.models import (
    Entrant,
    EntrantStatus,
    SeatAssignment,
    SeatReservation,
    Tournament,
    TournamentStatus,
)
from tournaments.money.models import Method, MoneyMove, MoveKind, Prices
from tournaments.seating import lock_tournament, refuse_if_in_hand

#: TDA 8-A: late registration and re-entry, each limited by the event's published terms.
REENTRY = ALTERNATES_AND_LATE_ENTRIES
#: TDA 27: chips bought are declared before a hand is dealt; a player in a hand buys for the
#: next one (the chips never join a hand already being played).
BEFORE_THE_DEAL = "TDA-27"
#: No rule of the seeds names refunds: the published practice (WSOP, MSPT terms of entry) is a
#: buy-in paid back only before the player has been dealt a hand, and here only before the
#: initial draw, while nobody has a seat yet.
REFUND_PRACTICE = "House: refund before the initial draw"

#: What a player pays with at the cage (the room's own money is ``Method.ROOM``).
PAID_WITH = (Method.CASH, Method.CARD, Method.VOUCHER)


class PaymentRefused(Conflict):
    """A payment the state refuses (a limit reached, a window closed, a stack above the
    ceiling, a player out or in a hand): 409 with its code, message and the rule it applies."""

    def __init__(self, code: str, message: str, *citations: str) -> None:
        super().__init__(code, message, citations=list(citations))
        self.citations = citations


class PaymentInvalid(Refusal):
    """A payment asked for wrongly (a method not taken, an amount not positive): 422."""

    code = "payment_invalid"


def check_method(method: str, *, room: bool = False) -> str:
    allowed = (Method.ROOM,) if room else PAID_WITH
    if method not in allowed:
        taken = ", ".join(str(Method(m).label).lower() for m in allowed)
        raise PaymentInvalid("method", f"Paid with {taken}.")
    return method


def level_now(locked: Tournament) -> int:
    """The level being played: the clock's, with any level whose time ran out while it ran
    passed (read only: the clock writes its own row)."""
    reading = copy.copy(locked)
    catch_up(reading, levels_of(locked), timezone.now())
    return reading.level_number


def _line(locked: Tournament, *, by: User, **fields: object) -> MoneyMove:
    return MoneyMove.objects.create(tournament=locked, by=by, **fields)


# --- entries -------------------------------------------------------------------------------


def entries_of(entrant: Entrant) -> int:
    """A player's re-entries in the tournament so far (the first entry not counted)."""
    return Entrant.objects.filter(
        tournament_id=entrant.tournament_id, player_id=entrant.player_id, reentry_of__isnull=False
    ).count()


def refuse_reentry(locked: Tournament, previous: Entrant) -> None:
    """A re-entry of ``previous`` within the event's terms (TDA 8-A): at most ``reentry_limit``
    a player, and none after ``reentry_last_level`` (0: until registration closes). Nothing is
    refused for a tournament with no price (a freeroll keeps the floor's own terms)."""
    prices = Prices.objects.filter(tournament_id=locked.pk).first()
    if prices is None or not prices.entry_price:
        return
    used = entries_of(previous)
    if used >= prices.reentry_limit:
        allowed = (
            "no re-entries" if not prices.reentry_limit
            else f"{prices.reentry_limit} re-entr{'y' if prices.reentry_limit == 1 else 'ies'}"
        )  # fmt: skip
        raise PaymentRefused(
            "reentry_limit", f"{previous.name} has re-entered {used} time(s): the event takes "
            f"{allowed} a player.", REENTRY,
        )  # fmt: skip
    level = level_now(locked)
    if prices.reentry_last_level and level > prices.reentry_last_level:
        raise PaymentRefused(
            "reentry_closed", f"Re-entry ended with level {prices.reentry_last_level}: this is "
            f"level {level}.", REENTRY,
        )  # fmt: skip


def take_entry(*, locked: Tournament, entrant: Entrant, method: str, by: User) -> MoneyMove | None:
    """The entry's payment, written in the registration's transaction with the tournament row
    already locked (``setup.register_entrants``): an ENTRY line (a re-entry: REENTRY) at the
    price list's split, with the starting stack as its chips. No line when the entry is free."""
    check_method(method)
    prices = Prices.objects.filter(tournament_id=locked.pk).first()
    if prices is None or not prices.entry_price:
        return None
    return _line(
        locked, by=by, entrant=entrant, method=method,
        kind=MoveKind.REENTRY if entrant.reentry_of_id else MoveKind.ENTRY,
        player_in=prices.entry_price, pool=prices.entry_prize, house=prices.entry_fee,
        staff=prices.entry_staff, bounty=prices.entry_bounty, chips=entrant.chips,
    )  # fmt: skip


# --- rebuys and add-ons ------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """What a player may buy now: how many used and allowed, and why not when refused."""

    used: int
    limit: int
    refusal: str = ""


def _refuse_not_playing(locked: Tournament, current: Entrant, what: str) -> None:
    if locked.status == TournamentStatus.COMPLETE:
        raise PaymentRefused("complete", f"{locked} is over: no {what} any more.")
    if current.tournament_id != locked.pk:
        raise PaymentRefused("not_in_play", f"{current} is not in {locked}.")
    if current.status == EntrantStatus.ELIMINATED:
        raise PaymentRefused(
            "not_in_play", f"{current.name} is out: a player coming back is a re-entry.", REENTRY
        )
    if current.status == EntrantStatus.WITHDRAWN:
        raise PaymentRefused("refunded", f"{current}'s entry was refunded: not in play.")


def _still_playing(locked: Tournament, entrant: Entrant, what: str) -> Entrant:
    current = Entrant.objects.get(pk=entrant.pk)
    _refuse_not_playing(locked, current, what)
    return current


def used(entrant: Entrant, kind: MoveKind) -> int:
    return MoneyMove.objects.filter(entrant_id=entrant.pk, kind=kind).count()


def _refuse_rebuy(
    locked: Tournament, prices: Prices, entrant: Entrant, *, count: int, level: int
) -> None:
    """``count``: the player's rebuys so far; ``level``: the level being played."""
    if not prices.rebuy_limit:
        raise PaymentRefused("no_rebuys", "This event takes no rebuys (a freezeout).")
    if count >= prices.rebuy_limit:
        raise PaymentRefused(
            "rebuy_limit", f"{entrant.name} has made {count} of {prices.rebuy_limit} rebuys."
        )
    if level > prices.rebuy_last_level:
        raise PaymentRefused(
            "rebuy_closed", f"Rebuys ended with level {prices.rebuy_last_level}: this is level "
            f"{level}.",
        )  # fmt: skip
    ceiling = prices.rebuy_at_most or locked.starting_stack
    if entrant.chips > ceiling:
        raise PaymentRefused(
            "rebuy_stack", f"{entrant.name} has {grouped(entrant.chips)} chips: a rebuy is taken "
            f"at {grouped(ceiling)} or fewer.",
        )  # fmt: skip


def _refuse_addon(
    locked: Tournament, prices: Prices, entrant: Entrant, *, count: int, level: int
) -> None:
    """``count``: the player's add-ons so far; ``level``: the level being played."""
    if not prices.addon_limit:
        raise PaymentRefused("no_addons", "This event takes no add-ons.")
    if count >= prices.addon_limit:
        raise PaymentRefused(
            "addon_limit", f"{entrant.name} has made {count} of {prices.addon_limit} add-ons."
        )
    if not prices.addon_first_level <= level <= prices.addon_last_level:
        raise PaymentRefused(
            "addon_closed", f"Add-ons are taken in levels {prices.addon_first_level} to "
            f"{prices.addon_last_level}: this is level {level}.",
        )  # fmt: skip


def offer(entrant: Entrant, kind: MoveKind, prices: Prices | None = None) -> Offer:
    """What the cashier's page offers a player, read afresh (without locking: the payment
    decides)."""
    current = Entrant.objects.select_related("tournament").get(pk=entrant.pk)
    prices = prices or Prices.objects.filter(tournament_id=current.tournament_id).first()
    rebuy, addon = offers(current.tournament, [current], prices)[current.pk]
    return rebuy if kind == MoveKind.REBUY else addon


def offers(
    tournament: Tournament, entrants: Sequence[Entrant], prices: Prices | None
) -> dict[int, tuple[Offer, Offer]]:
    """Each listed player's rebuy and add-on offers, by entrant id, read without locking (the
    payment decides) from the entrants as given: the same few queries whatever their number
    (the rebuys and add-ons made, the level being played; a refund is the entrant's status)."""
    ids = [entrant.pk for entrant in entrants]
    bought = (
        MoneyMove.objects.filter(entrant_id__in=ids, kind__in=[MoveKind.REBUY, MoveKind.ADDON])
        .values("entrant_id", "kind")
        .annotate(n=Count("id"))
    )
    made = {(row["entrant_id"], row["kind"]): row["n"] for row in bought}
    level = level_now(tournament) if prices is not None and ids else 0

    def one(entrant: Entrant, kind: MoveKind) -> Offer:
        rebuy = kind == MoveKind.REBUY
        limit = (prices.rebuy_limit if rebuy else prices.addon_limit) if prices else 0
        count = made.get((entrant.pk, kind.value), 0)
        try:
            if prices is None:
                raise PaymentRefused("no_prices", "The event has no prices yet.")
            _refuse_not_playing(tournament, entrant, "chips bought")
            refuse = _refuse_rebuy if rebuy else _refuse_addon
            refuse(tournament, prices, entrant, count=count, level=level)
        except PaymentRefused as refused:
            return Offer(count, limit, refused.message)
        return Offer(count, limit)

    return {e.pk: (one(e, MoveKind.REBUY), one(e, MoveKind.ADDON)) for e in entrants}


def _buy(*, entrant: Entrant, method: str, by: User, kind: MoveKind) -> MoneyMove:
    check_method(method)
    what = "rebuys" if kind == MoveKind.REBUY else "add-ons"
    with transaction.atomic():
        locked = lock_tournament(entrant.tournament_id)
        prices = Prices.objects.filter(tournament_id=locked.pk).first()
        current = _still_playing(locked, entrant, what)
        if prices is None:
            raise PaymentRefused("no_prices", "The event has no prices: nothing is sold.")
        count, level = used(current, kind), level_now(locked)
        if kind == MoveKind.REBUY:
            _refuse_rebuy(locked, prices, current, count=count, level=level)
            split = (prices.rebuy_prize, prices.rebuy_fee, prices.rebuy_staff)
            chips = prices.rebuy_chips
        else:
            _refuse_addon(locked, prices, current, count=count, level=level)
            split = (prices.addon_prize, prices.addon_fee, prices.addon_staff)
            chips = prices.addon_chips
        if current.chips + chips > MAX_CHIPS:
            raise PaymentRefused("too_many_chips", "That count is beyond what is recorded.")
        try:
            refuse_if_in_hand(locked, [current.pk], doing="take it")
        except DrawError as exc:
            raise DrawError(
                "in_hand", f"{exc} Chips bought are declared before a hand plays: declare it "
                "before the next deal.", BEFORE_THE_DEAL,
            ) from exc  # fmt: skip
        line = _line(
            locked, by=by, entrant=current, kind=kind, method=method, player_in=sum(split),
            pool=split[0], house=split[1], staff=split[2], chips=chips,
        )  # fmt: skip
        # The chips join the count now: the chips bought (``chip_counts.bought_in``) and the
        # counts (``chip_counts.reconcile``) both grow by the line's chips.
        Entrant.objects.filter(pk=current.pk).update(chips=F("chips") + chips)
    return line


def take_rebuy(*, entrant: Entrant, method: str, by: User) -> MoneyMove:
    """A rebuy: within the limit per player, up to the end of the last rebuy level, and only at
    or below the ceiling stack (``rebuy_at_most``; 0: the starting stack). Refused while the
    player is in a hand at the desk not yet pushed (TDA 27: declare it before the next deal)."""
    return _buy(entrant=entrant, method=method, by=by, kind=MoveKind.REBUY)


def take_addon(*, entrant: Entrant, method: str, by: User) -> MoneyMove:
    """An add-on: within the limit per player, from the first to the last add-on level, at any
    stack. Refused while the player is in a hand not yet pushed (TDA 27)."""
    return _buy(entrant=entrant, method=method, by=by, kind=MoveKind.ADDON)


# --- refunds and the room's money ----------------------------------------------------------


def refund_entry(*, entrant: Entrant, by: User, reason: str) -> MoneyMove:
    """An entry paid back: only before the initial draw, while the player has no seat and so
    has never been dealt a hand (``REFUND_PRACTICE``), and only an entry with nothing bought on
    it since. The REFUND line pays out what was paid and takes the split back; the player's
    starting stack leaves play (count 0) and the entry is no longer drawn, placed or counted
    (the initial draw, the places and the chips bought leave it out)."""
    reason = " ".join(reason.split())
    if not reason:
        raise PaymentInvalid("reason", "Say why the entry is refunded: it goes on record.")
    if len(reason) > 200:
        raise PaymentInvalid("reason", "At most 200 characters.")
    with transaction.atomic():
        locked = lock_tournament(entrant.tournament_id)
        current = Entrant.objects.get(pk=entrant.pk)
        paid = MoneyMove.objects.filter(
            entrant_id=current.pk, kind__in=[MoveKind.ENTRY, MoveKind.REENTRY]
        ).first()
        if current.tournament_id != locked.pk or paid is None:
            raise PaymentRefused("not_paid", f"{current} has no paid entry to refund.")
        if MoneyMove.objects.filter(refund_of=paid).exists():
            raise PaymentRefused("refunded", f"{current}'s entry has been refunded already.")
        if MoneyMove.objects.filter(
            entrant_id=current.pk, kind__in=[MoveKind.REBUY, MoveKind.ADDON]
        ).exists():
            raise PaymentRefused("played", f"{current} has bought chips since: the entry stands.")
        seated = (
            SeatAssignment.objects.filter(entrant_id=current.pk).exists()
            or SeatReservation.objects.filter(entrant_id=current.pk).exists()
        )
        if (
            locked.status != TournamentStatus.REGISTERING
            or current.status != EntrantStatus.REGISTERED
            or seated
        ):
            raise PaymentRefused(
                "played", f"{current} has a seat (or one held): an entry is refunded only "
                "before the initial draw.", REFUND_PRACTICE,
            )  # fmt: skip
        line = _line(
            locked, by=by, entrant=current, kind=MoveKind.REFUND, method=paid.method,
            player_out=paid.player_in, pool=-paid.pool, house=-paid.house, staff=-paid.staff,
            bounty=-paid.bounty, refund_of=paid, note=reason,
        )  # fmt: skip
        Entrant.objects.filter(pk=current.pk).update(chips=0, status=EntrantStatus.WITHDRAWN)
    return line


def with_refunds(entrants: QuerySet[Entrant]) -> QuerySet[Entrant]:
    """The entrants, each with what a withdrawn entry was paid back: ``refunded`` (the refund
    line's amount to the player, in the minor unit; 0 for an entry not refunded) and
    ``withdrawn_at`` (when; None). Read in the entrants' own query, whatever their number."""
    line = MoneyMove.objects.filter(entrant_id=OuterRef("pk"), kind=MoveKind.REFUND)
    return entrants.annotate(
        refunded=Coalesce(Subquery(line.values("player_out")[:1]), 0),
        withdrawn_at=Subquery(line.values("at")[:1]),
    )


def add_room_money(
    *, tournament: Tournament, amount: int, by: User, note: str, kind: str = MoveKind.ADDED
) -> MoneyMove:
    """The room's own money into the prize pool: added money, or an overlay (the guarantee's
    shortfall). Any amount above 0, with a note."""
    if kind not in (MoveKind.ADDED, MoveKind.OVERLAY):
        raise PaymentInvalid("kind", "The room adds money or pays an overlay.")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise PaymentInvalid("amount", "An amount above 0.")
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        return _line(
            locked, by=by, kind=kind, method=Method.ROOM, room_in=amount, pool=amount,
            note=" ".join(note.split())[:200],
        )  # fmt: skip
