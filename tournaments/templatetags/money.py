"""``{{ amount|money:prices }}``: an amount in the minor unit written for people, in the currency
of a tournament's price list (or a ``Currency``); the room's currency when none is given."""

from __future__ import annotations

from django import template

from tournaments.money.currency import Currency, format_money, room_currency
from tournaments.money.currency import currency_of as of_prices
from tournaments.money.models import Prices

register = template.Library()


@register.filter
def money(amount: object, currency: Currency | Prices | None = None) -> str:
    if isinstance(amount, bool) or not isinstance(amount, int):
        return ""
    if isinstance(currency, Prices):
        currency = of_prices(currency)
    return format_money(amount, currency if isinstance(currency, Currency) else room_currency())
