"""A tournament's prizes: the prize pool as the ledger holds it, the places paid, the payout
table (worked out from the room's template or the curve, or typed by the director; versioned,
locked when the bubble bursts), what each finisher is owed, and paying it.

The arithmetic is ``tournaments.prizes.payouts`` (pure); this module reads its inputs from the
price list (``Prices``) and the ledger (``MoneyMove``) and writes the results: a new
``PayoutTable`` version, or a ``PAYOUT`` line. Every write locks the tournament row first,
exclusive (``seating.lock_tournament``), as every seating and money write does, so a payment,
an edit of the table and the bust that locks it are served one after the other (a desk award
that puts a player out is made with the row exclusive too: ``table_hands``).

The seeds say nothing of payouts; what is not the TDA's is published practice, named where it
is applied:

- places paid: a fixed number or a share of the entries, re-entries counted (the WSOP pays
  about 15% of entries);
- the table locks when the bubble bursts, the moment the players left are no more than the
  places paid once registration has closed (at a bust, or at the close itself when players
  went out while it was open; TDA 8: the places are fixed when registration closes, and a late
  entry still changes the pool before): from then on every place is money, and a table changed
  then would change a finisher's prize after the fact (WSOP, MSPT: the payouts are posted and
  fixed in the money);
- the table locks too when the first prize is paid, and no new version follows: what a
  finisher signed for is what the table says. A prize is paid only once registration has
  closed (TDA 8: no place before);
- a typed table carries the director's reason (the note), as a lock does;
- players out on one hand-for-hand hand share the prizes of the places they cover (TDA RP-8,
  RP-8-A: "All 3 players will share in the 50th place payout"), the odd units to the bigger
  stack at the start of that hand (CR-TP.3);
- a deal's shares replace the table's prizes of the places it covers, and the amount left to
  play for goes to the winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from cardroom.core.api_errors import Conflict, Refusal
from tournaments.models import (
    OUT_OF_PLAY,
    Elimination,
    Entrant,
    EntrantStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.money.currency import Currency, currency_of, format_money, room_currency
from tournaments.money.models import Deal, Method, MoneyMove, MoveKind, PayoutTable, Prices
from tournaments.money.payments import add_room_money
from tournaments.prizes import payouts as arithmetic
from tournaments.seating import lock_tournament

#: CR-TP.3: players out on the same hand finish by the chips they started it with; their
#: shared prize's odd units go to the bigger stack (``prizes.payouts.split_tie``).
SAME_HAND = "CR-TP.3"
#: TDA RP-8-A: players out on one hand-for-hand hand share the places they cover.
SHARED_PLACES = "TDA-RP-8-A"
#: How many versions of the table the page lists.
VERSIONS_SHOWN = 20
#: How the prize is handed over: a cash payout, a card refund, a voucher (never the room's).
PAY_METHODS = (Method.CASH, Method.CARD, Method.VOUCHER)


class PayoutRefused(Refusal):
    """A table or a prize the rules refuse (amounts that do not add up to the pool, a lower
    place paid more, nothing to share yet): a form error on its field, 422 ``payout_refused``."""

    code = "payout_refused"


# --- the pool ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolSummary:
    """The prize pool from the ledger's ``pool`` column, by kind (minor units; refunds are
    negative), the prizes paid out of it, and the guarantee."""

    entries: int = 0
    reentries: int = 0
    rebuys: int = 0
    addons: int = 0
    refunds: int = 0
    added: int = 0
    overlay: int = 0
    #: Prizes paid (positive: what left the pool).
    paid: int = 0
    guarantee: int = 0
    entry_count: int = 0
    currency: Currency = field(default_factory=room_currency)

    @property
    def collected(self) -> int:
        """What the players put in the pool (refunds taken off)."""
        return self.entries + self.reentries + self.rebuys + self.addons + self.refunds

    @property
    def total(self) -> int:
        """The pool as the ledger holds it before any prize: collected, added, overlay."""
        return self.collected + self.added + self.overlay

    @property
    def shortfall(self) -> int:
        """The overlay the guarantee still needs (0 when the pool reaches it)."""
        return max(0, self.guarantee - self.total)

    @property
    def to_share(self) -> int:
        """What the table shares: the pool, or the guarantee when the pool falls short."""
        return self.total + self.shortfall

    @property
    def left(self) -> int:
        """In the pool now: the total less the prizes paid."""
        return self.total - self.paid


POOL_KINDS = {
    MoveKind.ENTRY: "entries", MoveKind.REENTRY: "reentries", MoveKind.REBUY: "rebuys",
    MoveKind.ADDON: "addons", MoveKind.REFUND: "refunds", MoveKind.ADDED: "added",
    MoveKind.OVERLAY: "overlay",
}  # fmt: skip


def prices_of(tournament: Tournament) -> Prices | None:
    return Prices.objects.filter(tournament_id=tournament.pk).first()


def entry_count(tournament: Tournament) -> int:
    """The entries the places paid are counted from: every entry and re-entry (each is an
    entrant), less those withdrawn (refunded unplayed)."""
    return tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN).count()


def prize_pool(tournament: Tournament) -> PoolSummary:
    """The pool by kind, the prizes paid and the guarantee: one sum over the ledger."""
    prices = prices_of(tournament)
    sums: dict[str, Any] = {}
    rows = (
        MoneyMove.objects.filter(tournament_id=tournament.pk)
        .values_list("kind")
        .annotate(total=Sum("pool"))
        .values_list("kind", "total")
    )
    for kind, total in rows:
        if kind in POOL_KINDS:
            sums[POOL_KINDS[MoveKind(kind)]] = total or 0
        elif kind == MoveKind.PAYOUT:
            sums["paid"] = -(total or 0)
    return PoolSummary(
        **sums,
        guarantee=prices.guarantee if prices else 0,
        entry_count=entry_count(tournament),
        currency=currency_of(prices),
    )


def record_overlay(*, tournament: Tournament, by: User) -> MoneyMove:
    """The room covers what the guarantee still needs: an ``OVERLAY`` line (room_in = the
    overlay, pool + the overlay; ``payments.add_room_money``). Refused when the pool already
    reaches the guarantee."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        short = prize_pool(locked).shortfall
        if not short:
            raise PayoutRefused("overlay", "The pool reaches the guarantee: no overlay is due.")
        return add_room_money(
            tournament=locked, amount=short, by=by, note="The room covers the guarantee.",
            kind=MoveKind.OVERLAY,
        )  # fmt: skip


# --- the table -----------------------------------------------------------------------------------


def places_paid(tournament: Tournament, prices: Prices | None = None) -> int:
    """The places the table pays: the table in force's, else the price list's (a fixed number,
    or a share of the entries); 0 without a price list or entries."""
    current = current_table(tournament)
    if current is not None:
        return len(current.prizes)
    prices = prices or prices_of(tournament)
    if prices is None:
        return 0
    if prices.seat_value or prices.template_id:
        try:
            return len(propose_table(tournament, prices=prices).prizes)
        except PayoutRefused:
            return 0
    return places_from_prices(prices, entry_count(tournament))


def places_from_prices(prices: Prices, entries: int) -> int:
    if entries < 1:
        return 0
    fixed = min(prices.places_fixed, entries) if prices.places_fixed else None
    try:
        return arithmetic.places_paid(entries, share=prices.places_share, fixed=fixed)
    except arithmetic.PayoutError as error:
        raise PayoutRefused("places", error.message) from None


def current_table(tournament: Tournament) -> PayoutTable | None:
    """The table in force: the newest version."""
    return PayoutTable.objects.filter(tournament_id=tournament.pk).order_by("-version").first()


@dataclass(frozen=True)
class Proposal:
    pool: int
    prizes: list[int]
    seats: int
    basis: dict[str, Any]


def propose_table(tournament: Tournament, *, prices: Prices | None = None) -> Proposal:
    """The prizes the price list gives for the pool as it stands: a satellite's seats, the
    room's template, or the curve; each down to the rounding, the remainder to first place."""
    prices = prices or prices_of(tournament)
    if prices is None:
        raise PayoutRefused("prices", "Set the tournament's prices first: they say how it pays.")
    pool = prize_pool(tournament).to_share
    entries = entry_count(tournament)
    if pool < 1 or entries < 1:
        raise PayoutRefused("pool", "Nothing to share yet: no entries are in the pool.")
    unit = max(1, prices.rounding)
    try:
        if prices.seat_value:
            won = arithmetic.satellite(pool, prices.seat_value)
            prizes = [prices.seat_value] * won.seats + ([won.cash] if won.cash else [])
            basis = {"kind": "satellite", "seat_value": prices.seat_value}
            return Proposal(pool, prizes, won.seats, basis)
        if prices.template is not None:
            shares = [int(share) for share in prices.template.shares]
            if len(shares) > entries:
                raise PayoutRefused(
                    "template", f"{prices.template} pays {len(shares)} places; the field has "
                    f"{entries} entries. Choose a template for a field this size.",
                )  # fmt: skip
            prizes = arithmetic.from_template(pool, shares, unit=unit)
            basis = {"kind": "template", "template": prices.template.name, "unit": unit}
            return Proposal(pool, prizes, 0, basis)
        places = places_from_prices(prices, entries)
        min_cash = prices.min_cash_tenths * prices.entry_prize // 10 // unit * unit
        steepness = prices.curve_steepness / 100
        prizes = arithmetic.curve(pool, places, min_cash=min_cash, unit=unit, steepness=steepness)
    except arithmetic.PayoutError as error:
        raise PayoutRefused(error.field, error.message) from None
    basis = {
        "kind": "curve", "steepness": prices.curve_steepness, "min_cash": min_cash, "unit": unit,
    }  # fmt: skip
    return Proposal(pool, prizes, 0, basis)


def check_typed(
    prizes: Sequence[int], *, pool: int, unit: int, entries: int, currency: Currency | None = None
) -> list[int]:
    """Amounts the director typed, first place first: whole amounts, none below zero, a lower
    place never paid more, every place but first a multiple of the rounding (first takes the
    remainder, as the worked-out tables do), summing to the pool, one place a player at most.
    A refusal writes its amounts in ``currency`` (the room's when not given)."""
    money = (currency or room_currency()).format
    prizes = list(prizes)
    if not prizes:
        raise PayoutRefused("prizes", "Type at least first place's prize.")
    if any(isinstance(p, bool) or not isinstance(p, int) for p in prizes):
        raise PayoutRefused("prizes", "Every prize is a whole amount.")
    if any(p < 0 for p in prizes):
        raise PayoutRefused("prizes", "A prize is never below zero.")
    if len(prizes) > entries:
        raise PayoutRefused("prizes", f"{len(prizes)} places for {entries} entries: pay one "
                                      "place a player at most.")  # fmt: skip
    for place, (higher, lower) in enumerate(pairwise(prizes), start=2):
        if lower > higher:
            raise PayoutRefused("prizes", f"{ordinal(place)} place would be paid more than "
                                          f"{ordinal(place - 1)}.")  # fmt: skip
    odd = [place for place, p in enumerate(prizes[1:], start=2) if p % unit]
    if odd:
        raise PayoutRefused("prizes", f"{ordinal(odd[0])} place is not a multiple of the "
                                      f"rounding ({money(unit)}).")  # fmt: skip
    total = sum(prizes)
    if total != pool:
        off = (
            f"short by {money(pool - total)}" if total < pool else f"over by {money(total - pool)}"
        )
        raise PayoutRefused(
            "prizes",
            f"The prizes add up to {money(total)}; the pool is {money(pool)} ({off}): they share "
            "the whole pool.",
        )
    return prizes


def refuse_if_paid(tournament: Tournament) -> None:
    """A paid prize fixes the table: the finisher signed for it, so a new version would make
    the table and the ledger disagree (WSOP, MSPT: the payouts are fixed once money is paid)."""
    line = (
        MoneyMove.objects.filter(tournament_id=tournament.pk, kind=MoveKind.PAYOUT)
        .order_by("place")
        .select_related("by", "entrant")
        .first()
    )
    if line is not None:
        raise Conflict(
            "prize_paid",
            f"{ordinal(line.place or 0)} place was paid "
            f"{format_money(line.player_out, prize_pool(tournament).currency)} by {line.by} at "
            f"{timezone.localtime(line.at):%H:%M}: the table is fixed once a prize is paid.",
        )


def refuse_if_locked(tournament: Tournament) -> None:
    lock = PayoutTable.objects.filter(tournament_id=tournament.pk, locked=True).first()
    if lock is not None:
        raise Conflict(
            "payouts_locked",
            f"The payouts were locked at {timezone.localtime(lock.at):%H:%M} by {lock.by} "
            f"({lock.note or 'locked'}): they are what the finishers are paid.",
        )


def save_table(
    *, tournament: Tournament, by: User, prizes: Sequence[int] | None = None, note: str = ""
) -> PayoutTable:
    """A new version of the table: worked out from the price list (``prizes`` None), or the
    amounts typed (``check_typed``, with a reason: the note). Refused (409 ``payouts_locked``)
    once it is locked, and (409 ``prize_paid``) once any prize is paid."""
    note = note.strip()
    if prizes is not None and not note:
        raise PayoutRefused("note", "Say why this table: a typed table goes on record with why.")
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        refuse_if_paid(locked)
        refuse_if_locked(locked)
        if prizes is None:
            made = propose_table(locked)
        else:
            prices = prices_of(locked)
            if prices is None:
                raise PayoutRefused("prices", "Set the tournament's prices first.")
            summary = prize_pool(locked)
            typed = check_typed(
                prizes, pool=summary.to_share, unit=max(1, prices.rounding),
                entries=entry_count(locked), currency=summary.currency,
            )  # fmt: skip
            seats = 0
            if prices.seat_value:
                while seats < len(typed) and typed[seats] == prices.seat_value:
                    seats += 1
            made = Proposal(summary.to_share, typed, seats, {"kind": "typed"})
        return write_version(locked, made, by=by, note=note)


def write_version(
    locked: Tournament, made: Proposal, *, by: User, note: str, lock: bool = False
) -> PayoutTable:
    last = current_table(locked)
    return PayoutTable.objects.create(
        tournament=locked, version=(last.version + 1) if last else 1, pool=made.pool,
        prizes=made.prizes, seats=made.seats, basis=made.basis, locked=lock,
        note=note[:200], by=by,
    )  # fmt: skip


def lock_table(*, tournament: Tournament, by: User, reason: str) -> PayoutTable:
    """The director locks the table in force (a new version, ``locked``): no edit follows."""
    reason = reason.strip()
    if not reason:
        raise PayoutRefused("reason", "Say why the payouts are locked: it goes on record.")
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        refuse_if_locked(locked)
        current = current_table(locked)
        pool = prize_pool(locked).to_share
        if current is None or current.pool != pool:
            if current is not None and current.basis.get("kind") == "typed":
                raise PayoutRefused("prizes", "The pool has changed since the prizes were "
                                              "typed: type them again, or work them out.")  # fmt: skip
            made = propose_table(locked)
        else:
            made = Proposal(current.pool, current.prizes, current.seats, current.basis)
        return write_version(locked, made, by=by, note=reason, lock=True)


def at_the_bubble(locked: Tournament, *, by: User) -> tuple[int, int]:
    """After a bust (``eliminations.eliminate_locked``, the tournament row locked): the places
    paid and the players left, ``(0, left)`` when the tournament pays nothing from a price list
    or registration is open (places are not fixed, TDA 8). When the bubble bursts (the players
    left are no more than the places paid) the table in force is locked: the table worked out
    afresh if the pool moved since it was saved. A few queries, and none without a price list."""
    if locked.registration_open:
        return 0, 0
    prices = prices_of(locked)
    if prices is None:
        return 0, 0
    left = locked.entrants.exclude(status__in=OUT_OF_PLAY).count()
    current = current_table(locked)
    if current is not None and current.locked:
        return len(current.prizes), left
    try:
        pool = prize_pool(locked).to_share
        if current is not None and current.pool == pool:
            made = Proposal(current.pool, current.prizes, current.seats, current.basis)
        else:
            made = propose_table(locked, prices=prices)
    except PayoutRefused:
        return 0, left
    paid = len(made.prizes)
    if left <= paid:
        note = "The bubble burst: locked as the players left reached the places paid."
        write_version(locked, made, by=by, note=note, lock=True)
    return paid, left


def bubble_burst_this_hand(locked: Tournament) -> bool:
    """Hand-for-hand at the bubble ends when the hand that burst it is over (TDA RP-8): the
    players left are no more than the places paid, and were more before this hand's busts.
    Hand-for-hand the director called in the money for another reason keeps going."""
    table = PayoutTable.objects.filter(tournament_id=locked.pk, locked=True).first()
    if table is None:
        return False
    left = locked.entrants.exclude(status__in=OUT_OF_PLAY).count()
    out_this_hand = (
        locked.eliminations.standing().filter(hand_for_hand_hand=locked.hand_for_hand_hand).count()
    )
    return left <= len(table.prizes) < left + out_this_hand


# --- what each finisher is owed -----------------------------------------------------------------


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Owed:
    """A finisher's prize: the place (the best of a shared place), how many share it, the
    amount, where it came from, and the PAYOUT line once paid."""

    entrant: Entrant
    place: int
    shared: int
    amount: int
    paid: MoneyMove | None
    deal: Deal | None = None
    currency: Currency = field(default_factory=room_currency)

    @property
    def label(self) -> str:
        """ "12th", or for a shared place its first and last joined by an en dash, then
        "shared" (TDA RP-8-A)."""
        if self.shared > 1:
            return f"{ordinal(self.place)}–{ordinal(self.place + self.shared - 1)}, shared"
        return ordinal(self.place)


def in_the_money(owed: Owed) -> str:
    """What the floor says of a bust in the money: "In the money: 12th, $340.00"."""
    return f"In the money: {owed.label}, {format_money(owed.amount, owed.currency)}"


def deal_shares(deal: Deal | None) -> dict[int, int]:
    """Each dealing player's share by entrant id (the deal's ``players``)."""
    if deal is None:
        return {}
    found = {}
    for player in deal.players:
        pk = player.get("entrant", player.get("entrant_id"))
        if isinstance(pk, int) and isinstance(player.get("share"), int):
            found[pk] = player["share"]
    return found


def _starting_stack(out: Elimination) -> int:
    """The chips the player started the hand that busted them with (the desk's hand), or -1
    when the director put them out by hand (then the later out is the bigger stack)."""
    if out.hand is None or out.seat is None:
        return -1
    for seat in out.hand.seats or []:
        if seat.get("seat") == out.seat:
            return int(seat.get("stack", 0))
    return -1


def prizes_owed(tournament: Tournament) -> list[Owed]:
    """Every finisher in the money, best place first, from the locked table (or the one in
    force): one prize a place; players out on one hand-for-hand hand share the prizes of the
    places they cover (TDA RP-8-A), split to the rounding with the odd units to the bigger
    stack at the start of that hand (CR-TP.3); a deal's shares for the players in it, and the
    amount left to play for to the winner. Bounded by the places paid."""
    table = current_table(tournament)
    if table is None or not table.prizes:
        return []
    prizes: list[int] = list(table.prizes)
    deal = Deal.objects.filter(tournament_id=tournament.pk).first()
    shares = deal_shares(deal)
    prices = prices_of(tournament)
    unit = max(1, prices.rounding) if prices else 1
    finishers = list(
        tournament.entrants.filter(place__isnull=False, place__lte=len(prizes), reentries=None)
    )
    outs = {
        out.entrant_id: out
        for out in tournament.eliminations.standing()
        .filter(entrant__in=finishers)
        .select_related("hand")
    }
    # One place held by several players: they went out on one hand-for-hand hand (the places
    # are worked out so, ``eliminations.recompute_places``) and share what it covers.
    groups: dict[int, list[Entrant]] = {}
    for entrant in finishers:
        groups.setdefault(entrant.place or 0, []).append(entrant)
    paid = {
        line.entrant_id: line
        for line in MoneyMove.objects.filter(
            tournament_id=tournament.pk, kind=MoveKind.PAYOUT
        ).select_related("by")
    }
    owed: list[Owed] = []
    for place, members in sorted(groups.items()):
        # The bigger stack at the start of the hand first: it takes the odd units (CR-TP.3).
        members.sort(
            key=lambda e: (_starting_stack(outs[e.pk]) if e.pk in outs else 0,
                           outs[e.pk].pk if e.pk in outs else 0),
            reverse=True,
        )  # fmt: skip
        covered = prizes[place - 1 : place - 1 + len(members)]
        covered += [0] * (len(members) - len(covered))
        split = arithmetic.split_tie(covered, len(members), unit=unit)
        for entrant, amount in zip(members, split, strict=True):
            from_deal = deal if entrant.pk in shares else None
            if from_deal is not None:
                amount = shares[entrant.pk] + (from_deal.play_for if place == 1 else 0)
            owed.append(Owed(entrant, place, len(members), amount, paid.get(entrant.pk), from_deal))
    return owed


def prize_of(entrant: Entrant) -> Owed | None:
    """The entrant's prize, or None when not in the money (or not finished)."""
    if entrant.place is None:
        return None
    return next((o for o in prizes_owed(entrant.tournament) if o.entrant.pk == entrant.pk), None)


def finished(tournament: Tournament, entrant: Entrant) -> bool:
    """Out with a place, or the winner of a complete tournament."""
    if entrant.place is None:
        return False
    return entrant.status == EntrantStatus.ELIMINATED or (
        tournament.status == TournamentStatus.COMPLETE and entrant.place == 1
    )


def pay_prize(*, entrant: Entrant, method: str, by: User) -> MoneyMove:
    """Pay a finisher's prize: a ``PAYOUT`` line (pool minus the prize, player_out the prize, the
    place). Refused (409) when the player is not finished, not in the money, already paid (the
    database's ``one_prize_a_player`` refuses a second cashier at the same moment), or the pool
    holds less than the prize (the guarantee's overlay not recorded yet)."""
    if method not in PAY_METHODS:
        raise PayoutRefused("method", "Pay in cash, by card or with a voucher.")
    try:
        with transaction.atomic():
            locked = lock_tournament(entrant.tournament_id)
            entrant = Entrant.objects.select_related("tournament").get(pk=entrant.pk)
            if locked.registration_open:
                # TDA 8: the places are fixed when registration closes; a prize is paid for
                # a place, so none is paid while an entry may still come in.
                raise Conflict("registration_open", "Registration is open: the places are set "
                                                    "when it closes (TDA 8), and a prize is "
                                                    "paid for a place.")  # fmt: skip
            if not finished(locked, entrant):
                raise Conflict("not_finished", f"{entrant.name} is still playing: a prize is "
                                               "paid once the place is known.")  # fmt: skip
            owed = prize_of(entrant)
            if owed is None or owed.amount <= 0:
                raise Conflict("not_in_money", f"{entrant.name} finished {ordinal(entrant.place or 0)}: "
                                               "out of the money.")  # fmt: skip
            if owed.paid is not None:
                raise already_paid(owed.paid)
            summary = prize_pool(locked)
            if summary.left < owed.amount:
                raise Conflict(
                    "pool_short",
                    f"The pool holds {format_money(summary.left, summary.currency)}, the prize "
                    f"is {format_money(owed.amount, summary.currency)}: the room records the "
                    "guarantee's overlay first.",
                )
            with transaction.atomic():
                line = MoneyMove.objects.create(
                    tournament=locked, kind=MoveKind.PAYOUT, entrant=entrant, method=method,
                    player_out=owed.amount, pool=-owed.amount, place=owed.place,
                    deal=owed.deal, note=f"{owed.label} place", by=by,
                )  # fmt: skip
            lock_on_payment(locked, by=by, place=owed.label)
            return line
    except IntegrityError:
        # Another cashier paid the same player at the same moment (one_prize_a_player), or
        # another line was written to the ledger in between (its chain refused the fork).
        other = MoneyMove.objects.filter(entrant_id=entrant.pk, kind=MoveKind.PAYOUT).first()
        if other is not None:
            raise already_paid(other) from None
        raise Conflict(
            "busy", "Another payment was written at the same moment: nothing was paid, try again."
        ) from None


def lock_on_payment(locked: Tournament, *, by: User, place: str) -> None:
    """The first prize paid locks the table in force when the bubble has not: what was paid
    is what the table says (the same version's prizes, a locked copy)."""
    current = current_table(locked)
    if current is None or current.locked:
        return
    made = Proposal(current.pool, current.prizes, current.seats, current.basis)
    note = f"Locked as {place} place was paid: the table is fixed once a prize is paid."
    write_version(locked, made, by=by, note=note, lock=True)


def already_paid(line: MoneyMove) -> Conflict:
    return Conflict(
        "already_paid",
        f"Already paid by {line.by} at {timezone.localtime(line.at):%H:%M:%S}.",
    )


# --- the slip ------------------------------------------------------------------------------------

ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (1000, "thousand"))


def number_in_words(n: int) -> str:
    """``340`` as "three hundred forty" (a cheque's words; no "and")."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("-" + ONES[n % 10] if n % 10 else "")
    if n < 1000:
        rest = f" {number_in_words(n % 100)}" if n % 100 else ""
        return f"{ONES[n // 100]} hundred{rest}"
    for scale, name in SCALES:
        if n >= scale:
            rest = f" {number_in_words(n % scale)}" if n % scale else ""
            return f"{number_in_words(n // scale)} {name}{rest}"
    raise AssertionError(n)  # pragma: no cover: the scales reach 1000


def amount_in_words(amount: int, currency: Currency) -> str:
    """``34000`` USD as "Three hundred forty and 00/100 USD": the way a cheque writes it, so
    a slip's amount cannot be changed by adding a digit."""
    whole, minor = divmod(amount, 10**currency.minor_units)
    words = number_in_words(whole)
    text = words[0].upper() + words[1:]
    if currency.minor_units:
        scale = 10**currency.minor_units
        text += f" and {str(minor).rjust(currency.minor_units, '0')}/{scale}"
    return f"{text} {currency.code}"
