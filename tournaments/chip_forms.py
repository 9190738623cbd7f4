"""The forms of chip counts: a table's counts, one player's correction, chips moved. They read
what is typed (ASCII digits, a reason); ``chip_counts`` decides what is allowed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.tables.forms import WholeNumberField
from tournaments.chip_counts import MAX_CHIPS
from tournaments.models import OUT_OF_PLAY as OUT_OF_PLAY_STATUSES
from tournaments.models import Entrant, SeatAssignment

#: Digits read before the limit is said in words: enough for any number past ``MAX_CHIPS``.
_DIGITS_READ = 40

#: The choice that takes chips out of play instead of giving them to a player.
OUT_OF_PLAY = "out"

#: The most players the move form offers beyond the player's own table (by entry number; any
#: other entry number may still be typed through the API).
MOVE_CHOICES = 200


class ChipsField(WholeNumberField):
    """A count in ASCII digits, from 0 (or ``min_value``) to ``MAX_CHIPS``; a longer number
    is answered with the limit in words, not as "not a number"."""

    #: A text box, not type="number": the browser would turn "²" or "1e5" into something
    #: else, or nothing, before the server sees it; a count is read as typed.
    widget = forms.TextInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 0)
        super().__init__(max_value=MAX_CHIPS, unit=" chips", **kwargs)
        self.widget.attrs.update(inputmode="numeric", autocomplete="off")

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        number = whole_number(str(value), _DIGITS_READ)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def reason_field(help_text: str) -> forms.CharField:
    return forms.CharField(max_length=REASON_MAX, label="Why", help_text=help_text)


class CountForm(forms.Form):
    """One player's count corrected after a dispute."""

    chips = ChipsField(label="Count")
    reason = reason_field("On record in the audit log, e.g. 'Dispute at table 3: recounted'.")


class MoveChipsForm(forms.Form):
    """Chips from one player to another (by entry number) or out of play."""

    to = forms.CharField(max_length=12, label="To")
    chips = ChipsField(label="Chips", min_value=1)
    reason = reason_field("On record, e.g. 'Hidden chips found after the pot (RRoP-TR.18)'.")

    def clean_to(self) -> int | None:
        """An entry number, or None for out of play."""
        text = self.cleaned_data["to"].strip()
        if text == OUT_OF_PLAY:
            return None
        number = whole_number(text, 9)
        if number is None:
            raise forms.ValidationError("Choose a player, or out of play.")
        return number


class TableCountsForm(forms.Form):
    """A table's counts: one box per seated player (named ``chips_<entry number>``, its value
    the current count until changed), and one reason for them all."""

    reason = reason_field("On record for every count, e.g. 'Counts at the first break'.")

    def __init__(self, *args: Any, players: Sequence[tuple[int, Entrant]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        reason = self.fields.pop("reason")
        self.players = list(players)
        for seat, entrant in self.players:
            field = ChipsField(
                label=f"Seat {seat}: {entrant.name} #{entrant.number}", initial=entrant.chips
            )
            self.fields[f"chips_{entrant.number}"] = field
        self.fields["reason"] = reason
        if self.players:  # the counts start at the first box (the form is swapped in by htmx)
            first = self.fields[f"chips_{self.players[0][1].number}"]
            first.widget.attrs["autofocus"] = True

    def rows(self) -> list[tuple[int, Entrant, forms.BoundField]]:
        return [(seat, e, self[f"chips_{e.number}"]) for seat, e in self.players]

    def counts(self) -> dict[int, int]:
        return {e.number: self.cleaned_data[f"chips_{e.number}"] for _, e in self.players}


def chips_out(entrant: Entrant, form: MoveChipsForm | None = None) -> dict[str, Any]:
    """The move form for a player holding chips, with where they may go: the players at the
    same table first, then the others still in by entry number (at most ``MOVE_CHOICES``),
    and out of play. The form starts with all of the player's chips, out of play. Players out
    and withdrawn entries (refunded before the draw) are no choice: they hold no chips."""
    entrant.refresh_from_db()
    live = Entrant.objects.filter(tournament_id=entrant.tournament_id).exclude(
        status__in=OUT_OF_PLAY_STATUSES
    )
    here = SeatAssignment.objects.filter(entrant=entrant, ended_at__isnull=True).first()
    table = list(
        live.filter(assignments__table_id=here.table_id, assignments__ended_at__isnull=True)
        .exclude(pk=entrant.pk)
        .order_by("number")
        if here is not None
        else []
    )
    rest = list(live.exclude(pk__in=[entrant.pk, *(e.pk for e in table)])[:MOVE_CHOICES])
    return {
        "entrant": entrant,
        "form": form or MoveChipsForm(initial={"chips": entrant.chips, "to": OUT_OF_PLAY}),
        "table": table,
        "rest": rest,
    }
