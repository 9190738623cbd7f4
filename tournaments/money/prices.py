"""A tournament's price list: what an entry, a re-entry, a rebuy and an add-on cost (each split
into its prize-pool part, house fee, staff fee and bounty), their chips, limits and windows,
added money, the guarantee, and the payout settings another page turns into the prizes.

The director sets them (``set_prices``) until the first payment; from then on the prices are
what every payment was taken at (each ledger line carries its own split), so a change to them is
refused with 409 ``prices_locked``; the payout settings stay open until the payout table locks. ``prices_for`` makes the list on first sight with the room's
currency copied onto it, so the tournament's records keep the currency they were taken in.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.numbers import grouped
from tournaments.models import Tournament
from tournaments.money.currency import MAX_WHOLE_DIGITS, room_currency
from tournaments.money.models import BountyKind, MoneyMove, PayoutTable, PayoutTemplate, Prices
from tournaments.seating import lock_tournament

#: The amounts of the price list, in the currency's minor unit.
AMOUNTS = (
    "entry_prize", "entry_fee", "entry_staff", "entry_bounty",
    "rebuy_prize", "rebuy_fee", "rebuy_staff",
    "addon_prize", "addon_fee", "addon_staff",
    "added_money", "guarantee", "rounding", "seat_value",
)  # fmt: skip

#: Whole numbers that are not money: chips, limits, levels and the payout settings, each with
#: the largest value its column (or the sense of it) takes.
COUNTS: dict[str, int] = {
    "rebuy_chips": 10**15,
    "rebuy_at_most": 10**15,
    "addon_chips": 10**15,
    "reentry_limit": 1_000,
    "reentry_last_level": 1_000,
    "rebuy_limit": 1_000,
    "rebuy_last_level": 1_000,
    "addon_limit": 1_000,
    "addon_first_level": 1_000,
    "addon_last_level": 1_000,
    "places_fixed": 100_000,
    "places_share": 10_000,
    "curve_steepness": 1_000,
    "min_cash_tenths": 1_000,
    "deal_min_play_for": 10_000,
}

#: Everything ``set_prices`` takes.
FIELDS = (*AMOUNTS, *COUNTS, "bounty_kind", "template")
#: How the prizes are worked out: not a price anyone paid, so the director may still change
#: them after the first payment, until the payout table is locked (at the bubble, or when a
#: prize is paid): the places paid are usually settled once registration closes.
PAYOUT_SETTINGS = (
    "places_fixed", "places_share", "template", "curve_steepness", "min_cash_tenths",
    "rounding", "seat_value", "deal_min_play_for",
)  # fmt: skip


class PricesRefused(Refusal):
    """A price list the director typed that does not hold together (a rebuy with no chips, a
    window ending before it opens, a bounty with no kind): 422 ``prices_refused``, on its field."""

    code = "prices_refused"


class PayoutSettingsLocked(Conflict):
    """The payout table is locked: the settings it was worked out from stay as they are (409)."""

    def __init__(self) -> None:
        super().__init__(
            "payouts_locked",
            "The payout table is locked: the settings it was worked out from stay as they are.",
        )


def payouts_locked(tournament: Tournament) -> bool:
    return PayoutTable.objects.filter(tournament_id=tournament.pk, locked=True).exists()


class PricesLocked(Conflict):
    """The first payment has been taken: every payment keeps the price it was taken at, so the
    price list stays as it is (409)."""

    def __init__(self) -> None:
        super().__init__(
            "prices_locked",
            "Payments have been taken at these prices: they stay as they are (each ledger line "
            "is the price its payment was taken at).",
        )


def prices_for(tournament: Tournament) -> Prices:
    """The tournament's price list, made (all zero, in the room's currency) on first sight."""
    found = Prices.objects.filter(tournament_id=tournament.pk).first()
    if found is not None:
        return found
    currency = room_currency()
    with transaction.atomic():
        prices, _ = Prices.objects.get_or_create(
            tournament_id=tournament.pk,
            defaults={"currency": currency.code, "minor_units": currency.minor_units},
        )
    return prices


def locked_prices(tournament: Tournament) -> bool:
    """A payment has been taken: the price list is what it was taken at."""
    return MoneyMove.objects.filter(tournament_id=tournament.pk).exists()


def _whole(field: str, value: Any, largest: int, errors: dict[str, str]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        errors[field] = "A whole number, 0 or more, in the digits 0 to 9."
        return 0
    if value > largest:
        errors[field] = f"At most {grouped(largest)}."
    return value


def check_prices(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields as the price list takes them, or ``PricesRefused`` naming each one wrong.
    Amounts and counts are ints already (the form's ``MoneyField`` and digit boxes read them);
    here they are checked against each other."""
    errors: dict[str, str] = {}
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise PricesRefused({name: "Not a price-list field." for name in unknown})
    clean: dict[str, Any] = {}
    amount_limit = 10 ** (MAX_WHOLE_DIGITS + 3)
    for field, value in fields.items():
        if field in AMOUNTS:
            clean[field] = _whole(field, value, amount_limit, errors)
        elif field in COUNTS:
            clean[field] = _whole(field, value, COUNTS[field], errors)
        elif field == "bounty_kind":
            if value not in BountyKind.values:
                errors[field] = "Choose a bounty kind."
            clean[field] = value
        elif field == "template":
            if value is not None and not isinstance(value, PayoutTemplate):
                errors[field] = "Choose one of the room's payout templates."
            clean[field] = value
    if errors:
        raise PricesRefused(errors)
    return clean


def _consistent(prices: Prices) -> dict[str, str]:
    """What does not hold together once the fields are on the price list."""
    errors: dict[str, str] = {}
    if prices.entry_bounty and prices.bounty_kind == BountyKind.NONE:
        errors["bounty_kind"] = "A bounty is part of the entry: say which kind."
    if not prices.entry_bounty and prices.bounty_kind != BountyKind.NONE:
        errors["entry_bounty"] = "A bounty tournament puts part of the entry on each head."
    if prices.reentry_limit and not prices.entry_price:
        errors["reentry_limit"] = "A re-entry costs an entry: price the entry first."
    if prices.rebuy_limit:
        if not prices.rebuy_chips:
            errors["rebuy_chips"] = "A rebuy gives chips: how many?"
        if not prices.rebuy_price:
            errors["rebuy_prize"] = "A rebuy costs something: price it."
        if not prices.rebuy_last_level:
            errors["rebuy_last_level"] = "Rebuys end at a level: which one?"
    if prices.addon_limit:
        if not prices.addon_chips:
            errors["addon_chips"] = "An add-on gives chips: how many?"
        if not prices.addon_price:
            errors["addon_prize"] = "An add-on costs something: price it."
        if not prices.addon_first_level or not prices.addon_last_level:
            errors["addon_last_level"] = "Add-ons are taken from one level to another: which?"
        elif prices.addon_first_level > prices.addon_last_level:
            errors["addon_last_level"] = "The add-on window ends at or after it opens."
    if prices.rounding < 1:
        errors["rounding"] = "Prizes are rounded to at least the smallest unit."
    if not prices.places_fixed and not prices.places_share:
        errors["places_share"] = "Pay a number of places or a share of the field."
    return errors


def _stored(prices: Prices, field: str) -> Any:
    return prices.template if field == "template" else getattr(prices, field)


def set_prices(*, tournament: Tournament, by: User, **fields: Any) -> Prices:
    """The director's price list, the fields given changed. A price changed once a payment has
    been taken is refused with 409 ``prices_locked`` (the payout settings stay open until the
    payout table is locked: 409 ``payouts_locked`` after), and with 422 ``prices_refused`` when the fields do not hold
    together (a rebuy needs chips, a price and a last level; a bounty its kind; an add-on's
    window ends at or after it opens)."""
    clean = check_prices(fields)
    prices_for(tournament)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        prices = Prices.objects.get(tournament_id=locked.pk)  # under the tournament's lock
        changed = {f for f, value in clean.items() if _stored(prices, f) != value}
        if locked_prices(locked) and changed - set(PAYOUT_SETTINGS):
            raise PricesLocked
        if changed & set(PAYOUT_SETTINGS) and payouts_locked(locked):
            raise PayoutSettingsLocked
        for field, value in clean.items():
            setattr(prices, field, value)
        if errors := _consistent(prices):
            raise PricesRefused(errors)
        prices.updated_by = by
        prices.save()
    return prices
