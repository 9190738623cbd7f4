"""The director's deal quotes: the players left with their counts straight from the desk
(``Entrant.chips``), the remaining prizes typed by the director, and the four quotes of
``tournaments.prizes.deals`` side by side, to read out at the table and print for signatures.
The deal the players agree is recorded with ``DealRecordForm`` (``tournaments.money.deals``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django import forms

from cardroom.core.numbers import grouped
from tournaments.models import Entrant, EntrantStatus, Tournament
from tournaments.money.currency import (
    Currency,
    MoneyRefused,
    format_money,
    parse_money,
    room_currency,
)
from tournaments.prizes.deals import MAX_PLAYERS, METHOD_NAMES, DealError, Method, quote

#: The methods side by side, as the sheet heads them.
METHODS = tuple((method, METHOD_NAMES[method.value]) for method in Method)


def _amount(text: str, what: str, currency: Currency) -> int:
    """An amount as the payout table writes it ("1,363.65", "$1,363.65"), in the tournament's
    currency, as its minor unit (``parse_money``: ASCII digits only, at most the currency's
    decimals)."""
    try:
        return parse_money(text, currency)
    except MoneyRefused as refused:
        raise forms.ValidationError(f"{what}: {refused}") from None


class _MoneyForm(forms.Form):
    """A form whose amounts are read in ``currency`` (the tournament's, else the room's)."""

    def __init__(self, *args: Any, currency: Currency | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.currency = currency or room_currency()

    def _prizes(self, required: bool) -> list[int]:
        lines = [part for part in re.split(r"[\n;]", self.cleaned_data["prizes"]) if part.strip()]
        if required and not lines:
            raise forms.ValidationError("Give the remaining prizes, first place first.")
        if len(lines) > MAX_PLAYERS:
            raise forms.ValidationError(f"At most {grouped(MAX_PLAYERS)} prizes.")
        return [_amount(line, f"Prize {n}", self.currency) for n, line in enumerate(lines, start=1)]

    def clean_unit(self) -> int:
        unit = _amount(self.cleaned_data["unit"], "Round to", self.currency)
        if unit < 1:
            raise forms.ValidationError(f"Round to {format_money(1, self.currency)} or more.")
        return unit

    def clean_play_for(self) -> int:
        return _amount(self.cleaned_data.get("play_for") or "0", "Left to play for", self.currency)


class DealQuoteForm(_MoneyForm):
    prizes = forms.CharField(
        label="Remaining prizes, first place first",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
        max_length=20_000,
        help_text="One a line (or separated by semicolons), as the payout table writes them.",
    )
    unit = forms.CharField(label="Round to", max_length=24)
    play_for = forms.CharField(label="Left to play for", initial="0", max_length=24, required=False)

    def clean_prizes(self) -> list[int]:
        return self._prizes(required=True)


@dataclass(frozen=True)
class QuoteColumn:
    label: str
    shares: tuple[int, ...] = ()
    refusal: str = ""


@dataclass(frozen=True)
class PlayerRow:
    entrant: Entrant
    shares: tuple[int | None, ...]


def players_left(tournament: Tournament) -> list[Entrant]:
    """The players still in, biggest stack first (then by entry number), bounded."""
    rows = tournament.entrants.filter(status=EntrantStatus.SEATED).order_by("-chips", "number")
    return list(rows[: MAX_PLAYERS + 1])


def quotes(
    players: list[Entrant], prizes: list[int], unit: int, play_for: int, currency: Currency
) -> tuple[list[QuoteColumn], list[PlayerRow]]:
    """Each method's shares for ``players`` (or why it cannot be quoted, its amounts in
    ``currency``), and a row a player."""
    stacks = [entrant.chips for entrant in players]
    columns = []
    for method, label in METHODS:
        try:
            made = quote(
                method, stacks, prizes, unit=unit, play_for=play_for, money=currency.format
            )
        except DealError as error:
            columns.append(QuoteColumn(label, refusal=error.message))
        else:
            columns.append(QuoteColumn(label, made.shares))
    rows = [
        PlayerRow(entrant, tuple(c.shares[i] if c.shares else None for c in columns))
        for i, entrant in enumerate(players)
    ]
    return columns, rows


class DealRecordForm(_MoneyForm):
    """The deal the players agreed, to record: the method, the remaining prizes (typed only
    where the tournament has no payout table: its places are read from it), the rounding, the
    amount left to play for, and a box a player, ticked when the director asked them and they
    said yes."""

    method = forms.ChoiceField(
        label="Agreed method", choices=[(m.value, label) for m, label in METHODS]
    )
    prizes = forms.CharField(
        label="Remaining prizes, first place first",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
        max_length=20_000,
        required=False,
        help_text="One a line (or separated by semicolons). With a payout table, its places.",
    )
    unit = forms.CharField(label="Round to", max_length=24)
    play_for = forms.CharField(label="Left to play for", initial="0", max_length=24, required=False)
    agreed = forms.TypedMultipleChoiceField(
        label="Agreed (asked by the director)", coerce=int, required=False,
        widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip

    def __init__(self, *args: Any, players: list[Entrant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(p.pk, f"{p.name} #{p.number}") for p in players]
        self.fields["agreed"].choices = choices  # type: ignore[attr-defined]

    def clean_prizes(self) -> list[int]:
        return self._prizes(required=False)
