"""The room's currency, and amounts written and read the way a cashier writes them.

Every amount is an integer in the currency's minor unit. ``format_money`` writes it for people
("$1,234.50", "₩50,000", "1,234.50 CHF"); ``parse_money`` reads what they typed ("1,234.50",
"1234.5", "50000") back to the minor unit, ASCII digits only, never through a float.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.conf import settings

from cardroom.core.numbers import grouped
from tournaments.money.models import MINOR_UNITS, Prices

#: The symbol written before an amount for the currencies that have one people know; any other
#: currency is written with its code after the amount.
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "KRW": "₩", "JPY": "¥", "CAD": "C$", "AUD": "A$"}

#: The most digits an amount's whole part takes: within a PostgreSQL bigint in any minor unit.
MAX_WHOLE_DIGITS = 13


@dataclass(frozen=True)
class Currency:
    code: str
    minor_units: int

    def format(self, amount: int) -> str:
        return format_money(amount, self)

    def parse(self, text: object) -> int:
        return parse_money(text, self)


def room_currency() -> Currency:
    """The room's currency (``CARDROOM_CURRENCY``), its minor units from the setting or the
    code's (``MINOR_UNITS``; 2 for a code not listed)."""
    code = settings.CARDROOM_CURRENCY
    units = settings.CARDROOM_CURRENCY_MINOR_UNITS
    return Currency(code, units if units >= 0 else MINOR_UNITS.get(code, 2))


def currency_of(prices: Prices | None) -> Currency:
    """A tournament's currency, as its price list took it; the room's when it has none."""
    return Currency(prices.currency, prices.minor_units) if prices else room_currency()


def format_money(amount: int, currency: Currency) -> str:
    sign = "-" if amount < 0 else ""
    whole, minor = divmod(abs(amount), 10**currency.minor_units)
    text = grouped(whole)
    if currency.minor_units:
        text += "." + str(minor).rjust(currency.minor_units, "0")
    symbol = SYMBOLS.get(currency.code)
    return f"{sign}{symbol}{text}" if symbol else f"{sign}{text} {currency.code}"


class MoneyRefused(ValueError):
    """What was typed is not an amount in the currency (the message says why)."""


def parse_money(text: object, currency: Currency) -> int:
    """``"1,234.50"`` as 123450 cents. Refused: anything but ASCII digits with commas between
    thousands and at most one point, more decimals than the currency has, a sign, an empty
    box, more than ``MAX_WHOLE_DIGITS`` digits."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise MoneyRefused("Enter an amount.")
    raw = str(text).strip()
    symbol = SYMBOLS.get(currency.code, "")
    if symbol and raw.startswith(symbol):
        raw = raw[len(symbol) :].strip()
    if raw.upper().endswith(currency.code):
        raw = raw[: -len(currency.code)].strip()
    if not raw:
        raise MoneyRefused("Enter an amount.")
    if raw.startswith(("-", "−")):
        raise MoneyRefused("An amount is never below zero.")
    whole, point, minor = raw.partition(".")
    if "," in whole:
        groups = whole.split(",")
        if not groups[0] or len(groups[0]) > 3 or any(len(g) != 3 for g in groups[1:]):
            raise MoneyRefused(f"“{raw}” is not an amount: commas go between thousands.")
        whole = "".join(groups)
    digits = whole + minor
    if not digits or not digits.isascii() or not digits.isdigit() or (point and not minor):
        raise MoneyRefused(f"“{raw}” is not an amount: use the digits 0 to 9, like 1,250.50.")
    if len(minor) > currency.minor_units:
        if currency.minor_units == 0:
            raise MoneyRefused(f"{currency.code} has no smaller unit: enter a whole amount.")
        raise MoneyRefused(f"{currency.code} has {currency.minor_units} decimals at most.")
    if len(whole.lstrip("0")) > MAX_WHOLE_DIGITS:
        raise MoneyRefused(f"“{raw}” is more than the largest amount taken.")
    scale: int = 10**currency.minor_units
    return int(whole or "0") * scale + int(minor.ljust(currency.minor_units, "0") or "0")


class MoneyField(forms.CharField):
    """A form's amount box: typed as a cashier writes it, cleaned to the minor unit."""

    def __init__(self, *args: object, currency: Currency | None = None, **kwargs: object) -> None:
        # The length is checked on the text typed, never by ``CharField``'s validator: that one
        # runs on the cleaned value, an int here.
        self.max_text = int(kwargs.pop("max_length", None) or 24)  # type: ignore[call-overload]
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.currency = currency or room_currency()
        self.widget.attrs.setdefault("inputmode", "decimal")
        self.widget.attrs.setdefault("autocomplete", "off")
        self.widget.attrs.setdefault("maxlength", str(self.max_text))

    def to_python(self, value: object) -> int | None:  # type: ignore[override]
        if isinstance(value, int) and not isinstance(value, bool):
            return value  # already in the minor unit (a disabled box cleans its initial value)
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        if len(text) > self.max_text:
            raise forms.ValidationError(
                f"“{text[:12]}…” is more than the largest amount taken.", code="money"
            )
        try:
            return parse_money(text, self.currency)
        except MoneyRefused as refused:
            raise forms.ValidationError(str(refused), code="money") from None

    def prepare_value(self, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            whole, minor = divmod(value, 10**self.currency.minor_units)
            if not self.currency.minor_units:
                return str(whole)
            return f"{whole}.{str(minor).rjust(self.currency.minor_units, '0')}"
        return value
