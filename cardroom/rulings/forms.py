"""Forms of the floor app. Validation lives in the models (one implementation)."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.http import QueryDict

from cardroom.core.parsers import whole_number
from cardroom.tables.choices import TableKind, TableStatus
from cardroom.tables.models import Table
from tournaments.models import TournamentTable

if TYPE_CHECKING:
    TableModelForm = forms.ModelForm[Table]
else:  # ModelForm takes no type argument at run time (django-stubs-ext is dev-only)
    TableModelForm = forms.ModelForm


def table_choice_label(table: Table, tournament: str = "") -> str:
    """A table as the ruling form's select names it: "Table 3 · Feature · 1/2 NL Hold'em", or
    at a tournament table the tournament playing there ("Table 21 · Saturday Deepstack"): its
    cash game settings are not what is played there."""
    if tournament or table.kind == TableKind.TOURNAMENT:
        parts = [str(table), table.name, tournament or "tournament table"]
    else:
        parts = [str(table), table.name, table.game_label]
    if table.status != TableStatus.OPEN:
        parts.append(table.get_status_display().lower())
    return " · ".join(part for part in parts if part)


class RulingForm(forms.Form):
    """A ruling: table (and hand) it concerns, seats, situation, decision, cited rules. The
    table is one of the room's, chosen by number; the seats are picked by who sits in them
    (the page lists them, ``ruling_services.seat_names``)."""

    table = forms.TypedChoiceField(
        coerce=int,
        choices=(),
        error_messages={
            "required": "Choose the table.",
            "invalid_choice": "There is no table %(value)s.",
        },
    )
    hand = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    action = forms.IntegerField(min_value=1, required=False, label="Action it concerns")
    seats = forms.CharField(required=False, max_length=40, help_text="Seats involved, e.g. 3, 7")
    situation = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=4000)
    decision = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=4000)
    #: New with each blank form: a second submission of the same form (a double tap, or a
    #: resend after the network dropped the answer) finds the ruling the first one logged.
    request_key = forms.RegexField(
        regex=r"^[0-9a-f]{32}$", required=False, widget=forms.HiddenInput
    )
    #: An entry changing another ruling is an amendment or an appeal outcome, nothing else
    #: (a forged kind would be stored for ever). Ignored for a new ruling.
    kind = forms.ChoiceField(
        choices=[("amendment", "an amendment"), ("appeal", "an appeal outcome")],
        required=False,
        error_messages={"invalid_choice": "Choose an amendment or an appeal outcome."},
    )

    def __init__(
        self, *args: Any, cited: list[tuple[str, str]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        tables = Table.objects.order_by("number")
        playing = dict(
            TournamentTable.objects.in_play().values_list("table_id", "tournament__name")
        )
        field = cast(forms.TypedChoiceField, self.fields["table"])
        field.choices = [("", "Choose the table")] + [
            (table.number, table_choice_label(table, playing.get(table.pk, ""))) for table in tables
        ]
        if not self.is_bound:
            self.initial.setdefault("request_key", uuid.uuid4().hex)
        #: (citation id, pinpoint) in order: posted, or given for a blank form (an amendment
        #: starts from the citations of the ruling it changes).
        self.cited: list[tuple[str, str]] = list(cited or [])
        if self.is_bound:
            posted = cast(QueryDict, self.data)  # bound to request.POST
            notes = posted.getlist("note")
            ids = posted.getlist("cite")
            self.cited = [(c, notes[i] if i < len(notes) else "") for i, c in enumerate(ids)]

    def clean_seats(self) -> list[int]:
        # The picker posts one ``seats`` value a ticked seat; a typed list ("3, 7") still reads.
        posted = self.data.getlist("seats") if hasattr(self.data, "getlist") else []
        text = " ".join(str(value) for value in posted) or self.cleaned_data["seats"]
        parts = text.replace(",", " ").split()
        seats = [whole_number(part, 2) for part in parts]
        if None in seats or len(parts) > 12:
            raise forms.ValidationError("List seat numbers, e.g. 3, 7.")
        return [seat for seat in seats if seat is not None]

    def seat_values(self) -> set[int]:
        """The seats ticked (posted, or given for a blank form), for the picker."""
        if self.is_bound:
            posted = self.data.getlist("seats") if hasattr(self.data, "getlist") else []
            parts = " ".join(str(value) for value in posted).replace(",", " ").split()
        else:
            parts = str(self.initial.get("seats") or "").replace(",", " ").split()
        return {n for n in (whole_number(part, 2) for part in parts) if n is not None}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["citations"] = self.cited
        return data
