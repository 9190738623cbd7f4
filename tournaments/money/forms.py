"""The forms of a tournament's money: the director's price list, and the cashier's search and
payment buttons. They read what is typed (amounts in the currency, ASCII digits, shares as
percentages); ``prices`` and ``payments`` decide what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms

from cardroom.tables.forms import WholeNumberField
from tournaments.chip_forms import ChipsField
from tournaments.money.currency import Currency, MoneyField, MoneyRefused, parse_money
from tournaments.money.currency import currency_of as of_prices
from tournaments.money.models import BountyKind, Method, PayoutTemplate, Prices
from tournaments.money.payments import PAID_WITH
from tournaments.money.prices import AMOUNTS, COUNTS, PAYOUT_SETTINGS

#: The price list's fields as the director reads them, in the order of the form, with labels.
LABELS = {
    "entry_prize": "Prize pool", "entry_fee": "House fee", "entry_staff": "Staff fee",
    "entry_bounty": "Bounty", "bounty_kind": "Bounty kind",
    "reentry_limit": "Re-entries a player (0: none)",
    "reentry_last_level": "Last re-entry level (0: until registration closes)",
    "rebuy_prize": "Prize pool", "rebuy_fee": "House fee", "rebuy_staff": "Staff fee",
    "rebuy_chips": "Chips", "rebuy_limit": "Rebuys a player (0: a freezeout)",
    "rebuy_last_level": "Last rebuy level",
    "rebuy_at_most": "Taken at this stack or below (0: the starting stack)",
    "addon_prize": "Prize pool", "addon_fee": "House fee", "addon_staff": "Staff fee",
    "addon_chips": "Chips", "addon_limit": "Add-ons a player (0: none)",
    "addon_first_level": "First add-on level", "addon_last_level": "Last add-on level",
    "added_money": "Added money", "guarantee": "Guarantee",
    "places_fixed": "Places paid (0: a share of the field)",
    "places_share": "Share of the field paid (%)", "template": "Payout template",
    "curve_steepness": "Curve steepness (1.00: prizes fall as 1/place)",
    "min_cash_tenths": "Minimum cash (times the entry)",
    "rounding": "Prizes rounded down to", "seat_value": "Satellite seat value (0: none)",
    "deal_min_play_for": "Least left to play for in a deal (%)",
}  # fmt: skip

#: The groups of the form, each a heading and its fields.
GROUPS = (
    ("Entry", ("entry_prize", "entry_fee", "entry_staff", "entry_bounty", "bounty_kind",
               "reentry_limit", "reentry_last_level")),
    ("Rebuy", ("rebuy_prize", "rebuy_fee", "rebuy_staff", "rebuy_chips", "rebuy_limit",
               "rebuy_last_level", "rebuy_at_most")),
    ("Add-on", ("addon_prize", "addon_fee", "addon_staff", "addon_chips", "addon_limit",
                "addon_first_level", "addon_last_level")),
    ("The room's money", ("added_money", "guarantee")),
    ("Payouts", ("places_fixed", "places_share", "template", "curve_steepness",
                 "min_cash_tenths", "rounding", "seat_value", "deal_min_play_for")),
)  # fmt: skip

#: Whole numbers typed with decimals: basis points as a percentage (15.5 %: 1,550), the curve
#: in hundredths (1.25: 125), the minimum cash in tenths of the entry (2.5: 25).
DECIMALS = {
    "places_share": (2, 10_000),
    "deal_min_play_for": (2, 10_000),
    "curve_steepness": (2, COUNTS["curve_steepness"]),
    "min_cash_tenths": (1, COUNTS["min_cash_tenths"]),
}

#: Chip boxes (read as chips: 40 digits read so a long number is told its limit).
CHIP_FIELDS = ("rebuy_chips", "rebuy_at_most", "addon_chips")


class DecimalBox(forms.CharField):
    """A share or a multiple typed with up to ``places`` decimals, ASCII digits only, kept as
    a whole number of its smallest step (a percentage with 2 decimals: basis points)."""

    def __init__(self, *, places: int, largest: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.places, self.largest = places, largest
        self.widget.attrs.update(inputmode="decimal", autocomplete="off", maxlength="24")

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        if isinstance(value, int) and not isinstance(value, bool):
            return value  # already the number (a disabled box cleans its initial value)
        text = super().to_python(value)
        if text is None or text in self.empty_values:
            return None
        if len(text) > 24:
            raise forms.ValidationError("A number of at most 24 characters.", code="invalid")
        try:
            number = parse_money(text, Currency("XXX", self.places))
        except MoneyRefused:
            raise forms.ValidationError(
                f"A number in the digits 0 to 9, with at most {self.places} decimal"
                f"{'s' if self.places > 1 else ''}.",
                code="invalid",
            ) from None
        if number > self.largest:
            whole, part = divmod(self.largest, 10**self.places)
            raise forms.ValidationError(f"At most {whole}.{str(part).rjust(self.places, '0')}.")
        return number

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            whole, part = divmod(value, 10**self.places)
            return f"{whole}.{str(part).rjust(self.places, '0')}"
        return value


class PricesForm(forms.Form):
    """The price list. Every box starts with what the list says; a box left empty is 0. Once
        a payment has been taken the prices are shown read-only (``locked``), and the payout settings
    once the payout table is locked (``payouts_locked``)."""

    def __init__(
        self, *args: Any, prices: Prices, locked: bool = False, payouts_locked: bool = False,
        **kwargs: Any,
    ) -> None:  # fmt: skip
        kwargs.setdefault("initial", {f: getattr(prices, f) for f in LABELS if f != "template"})
        kwargs["initial"].setdefault("template", prices.template_id)
        super().__init__(*args, **kwargs)
        currency = of_prices(prices)
        for name, label in LABELS.items():
            field: forms.Field
            if name in AMOUNTS:
                field = MoneyField(currency=currency, required=False)
            elif name in DECIMALS:
                places, largest = DECIMALS[name]
                field = DecimalBox(places=places, largest=largest, required=False)
            elif name in CHIP_FIELDS:
                field = ChipsField(required=False)
            elif name == "bounty_kind":
                field = forms.ChoiceField(choices=BountyKind.choices)
            elif name == "template":
                field = forms.ModelChoiceField(
                    queryset=PayoutTemplate.objects.order_by("name"), required=False,
                    empty_label="— none: the curve —",
                )  # fmt: skip
            else:
                field = WholeNumberField(min_value=0, max_value=COUNTS[name], required=False)
                field.widget = forms.TextInput(attrs={"inputmode": "numeric"})
            field.label = label
            field.disabled = payouts_locked if name in PAYOUT_SETTINGS else locked
            self.fields[name] = field

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in GROUPS]

    def prices(self) -> dict[str, Any]:
        """The fields for ``set_prices``: an empty box is 0."""
        return {
            name: (0 if value is None and name != "template" else value)
            for name, value in self.cleaned_data.items()
        }


class SearchForm(forms.Form):
    """A player by name or entry number."""

    q = forms.CharField(max_length=120, required=False, label="Find a player (name or entry #)")


class PaymentForm(forms.Form):
    """A rebuy or an add-on, and what it was paid with."""

    kind = forms.ChoiceField(choices=[("rebuy", "Rebuy"), ("addon", "Add-on")])
    method = forms.ChoiceField(
        choices=[(m.value, m.label) for m in PAID_WITH], initial=Method.CASH, label="Paid with"
    )
