"""The payout page's forms: the prizes typed one a line as a cashier writes amounts, the reason
a table is locked, and how a prize is handed over."""

from __future__ import annotations

from django import forms

from tournaments.money.currency import Currency, MoneyRefused, parse_money
from tournaments.money.payouts import PAY_METHODS
from tournaments.prizes.payouts import MAX_PLACES


class PrizesForm(forms.Form):
    prizes = forms.CharField(
        label="Prizes, first place first, one a line",
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "autocomplete": "off"}),
        max_length=MAX_PLACES * 20,
    )
    #: A typed table goes on record with why (a director's reason is kept with each version).
    note = forms.CharField(
        label="Why this table",
        max_length=200,
        error_messages={"required": "Say why this table: a typed table goes on record with why."},
    )

    def __init__(self, *args: object, currency: Currency, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.currency = currency

    def clean_prizes(self) -> list[int]:
        lines = [line.strip() for line in self.cleaned_data["prizes"].splitlines()]
        lines = [line for line in lines if line]
        if len(lines) > MAX_PLACES:
            raise forms.ValidationError(f"At most {MAX_PLACES} places.")
        amounts = []
        for place, line in enumerate(lines, start=1):
            try:
                amounts.append(parse_money(line, self.currency))
            except MoneyRefused as refused:
                raise forms.ValidationError(f"Place {place}: {refused}") from None
        return amounts


class WorkOutForm(forms.Form):
    note = forms.CharField(label="Why this table (optional)", max_length=200, required=False)


class LockForm(forms.Form):
    reason = forms.CharField(label="Why lock it now", max_length=200)


class PayForm(forms.Form):
    method = forms.ChoiceField(
        label="Paid by", choices=[(m.value, m.label) for m in PAY_METHODS], initial="cash"
    )
