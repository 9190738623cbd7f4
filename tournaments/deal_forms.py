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
from cardroom.core.parsers import whole_number
from tournaments.models import Entrant, EntrantStatus, Tournament
from tournaments.prizes.deals import MAX_PLAYERS, DealError, Method, quote

#: The methods side by side, as the sheet heads them.
METHODS = (
    (Method.ICM, "ICM"),
    (Method.CHIP_CHOP, "Chip chop"),
    (Method.CHIP_CHOP_FLOOR, "Chip chop, smallest prize first"),
    (Method.EQUAL, "Equal"),
)
#: The most digits an amount may have (10^15: the public API's bound on a number).
DIGITS = 15


def _amount(text: str, what: str) -> int:
    """An amount as typed: ASCII digits with optional thousands commas or spaces ("1,500")."""
    plain = re.sub(r"[,\s]", "", text)
    number = whole_number(plain, DIGITS)
    if number is None:
        raise forms.ValidationError(
            f"{what}: {text.strip()!r} is not a whole number (digits 0-9, commas allowed)."
        )
    return number


class DealQuoteForm(forms.Form):
    prizes = forms.CharField(
        label="Remaining prizes, first place first",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
        max_length=20_000,
        help_text="One a line (or separated by semicolons), in the room's money.",
    )
    unit = forms.CharField(label="Round to", initial="1", max_length=20)
    play_for = forms.CharField(label="Left to play for", initial="0", max_length=20, required=False)

    def clean_prizes(self) -> list[int]:
        lines = [part for part in re.split(r"[\n;]", self.cleaned_data["prizes"]) if part.strip()]
        if not lines:
            raise forms.ValidationError("Give the remaining prizes, first place first.")
        if len(lines) > MAX_PLAYERS:
            raise forms.ValidationError(f"At most {grouped(MAX_PLAYERS)} prizes.")
        return [_amount(line, f"Prize {n}") for n, line in enumerate(lines, start=1)]

    def clean_unit(self) -> int:
        unit = _amount(self.cleaned_data["unit"], "Round to")
        if unit < 1:
            raise forms.ValidationError("Round to 1 or more.")
        return unit

    def clean_play_for(self) -> int:
        return _amount(self.cleaned_data.get("play_for") or "0", "Left to play for")


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
    players: list[Entrant], prizes: list[int], unit: int, play_for: int
) -> tuple[list[QuoteColumn], list[PlayerRow]]:
    """Each method's shares for ``players`` (or why it cannot be quoted), and a row a player."""
    stacks = [entrant.chips for entrant in players]
    columns = []
    for method, label in METHODS:
        try:
            made = quote(method, stacks, prizes, unit=unit, play_for=play_for)
        except DealError as error:
            columns.append(QuoteColumn(label, refusal=error.message))
        else:
            columns.append(QuoteColumn(label, made.shares))
    rows = [
        PlayerRow(entrant, tuple(c.shares[i] if c.shares else None for c in columns))
        for i, entrant in enumerate(players)
    ]
    return columns, rows


class DealRecordForm(forms.Form):
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
    unit = forms.CharField(label="Round to", initial="1", max_length=20)
    play_for = forms.CharField(label="Left to play for", initial="0", max_length=20, required=False)
    agreed = forms.TypedMultipleChoiceField(
        label="Agreed (asked by the director)", coerce=int, required=False,
        widget=forms.CheckboxSelectMultiple,
    )  # fmt: skip

    def __init__(self, *args: Any, players: list[Entrant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(p.pk, f"{p.name} #{p.number}") for p in players]
        self.fields["agreed"].choices = choices  # type: ignore[attr-defined]

    def clean_prizes(self) -> list[int]:
        lines = [part for part in re.split(r"[\n;]", self.cleaned_data["prizes"]) if part.strip()]
        if len(lines) > MAX_PLAYERS:
            raise forms.ValidationError(f"At most {grouped(MAX_PLAYERS)} prizes.")
        return [_amount(line, f"Prize {n}") for n, line in enumerate(lines, start=1)]

    def clean_unit(self) -> int:
        unit = _amount(self.cleaned_data["unit"], "Round to")
        if unit < 1:
            raise forms.ValidationError("Round to 1 or more.")
        return unit

    def clean_play_for(self) -> int:
        return _amount(self.cleaned_data.get("play_for") or "0", "Left to play for")
