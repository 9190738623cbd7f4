"""Tournament forms: parse what the director types; the services decide what is allowed."""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms

from cardroom.core.reasons import REASON_MAX
from cardroom.tables.choices import Structure, TableKind, Variant, desk_variant_choices
from cardroom.tables.forms import WholeNumberField
from cardroom.tables.models import Table
from cardroom.tables.services import MAX_NEW_TABLES, MAX_TABLE_NUMBER
from tournaments.models import (
    BalancingPolicy,
    Entrant,
    EntrantStatus,
    Tournament,
    TournamentAnte,
    TournamentTable,
)
from tournaments.money.models import Method
from tournaments.money.payments import PAID_WITH
from tournaments.setup import NewTables

#: A default structure: 20-minute levels, a break after level four.
DEFAULT_LEVELS = "\n".join(
    ("100/200 20", "200/400 20", "300/600/600 20", "400/800/800 20", "break 15",
     "500/1000/1000 20", "700/1400/1400 20", "1000/2000/2000 20")
)  # fmt: skip

#: Blinds and antes of at most nine digits (their columns, PositiveIntegerField, hold 2^31 - 1
#: on PostgreSQL) and levels of at most four digits of minutes: a longer number was a
#: ``ValueError`` (5,000 digits) or a database overflow, a 500 either way.
LEVEL_LINE = re.compile(
    r"^(?P<sb>[0-9]{1,9})/(?P<bb>[0-9]{1,9})(?:/(?P<ante>[0-9]{1,9}))?\s+(?P<minutes>[0-9]{1,4})$"
)
BREAK_LINE = re.compile(r"^break\s+(?P<minutes>[0-9]{1,4})$", re.IGNORECASE)
#: The most chips a stack may start with: ``Tournament.starting_stack``'s column.
MAX_STARTING_STACK = 2_147_483_647


def parse_levels(text: str) -> list[dict[str, Any]]:
    """``100/200 20`` (small/big blind, minutes), ``300/600/600 20`` (with an ante),
    ``break 15``: one level per line."""
    levels: list[dict[str, Any]] = []
    for number, raw in enumerate(text.strip().splitlines(), start=1):
        line = " ".join(raw.split())
        if not line:
            continue
        if match := BREAK_LINE.match(line):
            levels.append({"is_break": True, "minutes": int(match["minutes"])})
        elif match := LEVEL_LINE.match(line):
            levels.append(
                {
                    "small_blind": int(match["sb"]),
                    "big_blind": int(match["bb"]),
                    "ante": int(match["ante"] or 0),
                    "minutes": int(match["minutes"]),
                }
            )
        else:
            raise forms.ValidationError(
                f"Line {number}: write 'small/big minutes', 'small/big/ante minutes' or "
                f"'break minutes', not {raw.strip()!r}."
            )
    if not levels:
        raise forms.ValidationError("Give at least one level.")
    return levels


def parse_order(text: str) -> list[int] | None:
    numbers = re.findall(r"[0-9]+", text or "")
    if any(len(n) > 6 for n in numbers):
        raise forms.ValidationError("Table numbers have at most six digits.")
    return [int(n) for n in numbers] or None


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120)
    variant = forms.ChoiceField(choices=desk_variant_choices, initial=Variant.HOLDEM)
    structure = forms.ChoiceField(choices=Structure.choices, initial=Structure.NO_LIMIT)
    mixed_game = forms.BooleanField(required=False, label="Mixed games (button freezes, 11-B)")
    seats_per_table = forms.IntegerField(min_value=2, max_value=10, initial=9)
    starting_stack = forms.IntegerField(min_value=1, max_value=MAX_STARTING_STACK, initial=20_000)
    balancing_policy = forms.ChoiceField(choices=BalancingPolicy.choices)
    ante_type = forms.ChoiceField(
        choices=TournamentAnte.choices,
        initial=TournamentAnte.BIG_BLIND,
        required=False,  # not sent (an older page, a script): the big-blind ante, as shown
        widget=forms.RadioSelect,
        label="Antes",
        help_text="Who pays a level's ante (the third number of a level line). A big-blind "
        "ante is one ante for the table, from the big blind (CR-DM.2): at 300/600/600 the "
        "pot starts at 1,500, not 600 from every player. No-limit and pot-limit games only.",
    )
    final_table_size = forms.IntegerField(
        min_value=2, max_value=10, required=False, help_text="Blank: a full table (TDA RP-9)."
    )
    tables = forms.ModelMultipleChoiceField(
        queryset=Table.objects.filter(kind=TableKind.TOURNAMENT),
        widget=forms.CheckboxSelectMultiple,
        required=False,  # or new tables below, or both
        help_text="Free room tables of kind 'tournament' (not in a tournament still in play).",
    )
    new_tables = WholeNumberField(
        min_value=1, max_value=MAX_NEW_TABLES, required=False, label="New tables",
        help_text="Set up this many new tables for the event, of the seats per table above: "
        "no cash game, no buy-in (the tournament's levels are their blinds).",
    )  # fmt: skip
    first_table = WholeNumberField(
        min_value=1, max_value=MAX_TABLE_NUMBER, required=False, label="Numbered from",
        help_text="The room number of the first new table (e.g. 101: tables 101, 102, …).",
    )  # fmt: skip
    levels = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        initial=DEFAULT_LEVELS,
        help_text="One level a line: 'small/big minutes', 'small/big/ante minutes', 'break 15'.",
    )
    break_order = forms.CharField(
        required=False,
        help_text="Table numbers, first to break first (TDA 11-C). "
        "Blank: the highest number breaks first.",
    )
    balancing_order = forms.CharField(
        required=False, help_text="Which table gives up a player first. Blank: the break order."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Offer only the free tables. Any tournament table still validates, so a table taken
        # by another director since the form was shown is refused by the service in words
        # ("Table 21 is already in the Sunday Deepstack"), not as an unknown choice.
        busy = TournamentTable.objects.in_play().values("table_id")
        free = Table.objects.filter(kind=TableKind.TOURNAMENT).exclude(pk__in=busy)
        self.fields["tables"].widget.choices = [
            (table.pk, f"Table {table.number} ({table.seats} seats)")
            for table in free.order_by("number")
        ]

    @property
    def free_tables(self) -> int:
        return len(self.fields["tables"].widget.choices)

    def clean_ante_type(self) -> str:
        return str(self.cleaned_data.get("ante_type") or TournamentAnte.BIG_BLIND)

    def clean_levels(self) -> list[dict[str, Any]]:
        return parse_levels(self.cleaned_data["levels"])

    def clean_break_order(self) -> list[int] | None:
        return parse_order(self.cleaned_data["break_order"])

    def clean_balancing_order(self) -> list[int] | None:
        return parse_order(self.cleaned_data["balancing_order"])

    def clean(self) -> dict[str, Any]:
        """The tables chosen and the new ones, as ``setup.create_event`` takes them."""
        super().clean()
        data = self.cleaned_data
        count, first = data.pop("new_tables", None), data.pop("first_table", None)
        if count and not first:
            self.add_error("first_table", "Give the number of the first new table.")
        elif first and not count:
            self.add_error("new_tables", "Say how many new tables to set up.")
        elif not count and not data.get("tables") and "tables" not in self.errors:
            self.add_error("tables", "Choose room tables, or set up new ones below.")
        data["new_tables"] = NewTables(count=count, first=first) if count and first else None
        return data


#: The most names one registration takes (a pasted list); each at most the column's length.
MAX_NAMES = 100
MAX_NAME_LENGTH = 120


class EntrantForm(forms.Form):
    """New players by name, one a line (a list may be pasted), or a re-entry. For a re-entry the
    player chosen is the source of truth: the name may be left blank, and a different name
    typed with it is refused. Re-entries are offered only while registration is open."""

    name = forms.CharField(
        required=False,
        label="Names",
        max_length=MAX_NAMES * (MAX_NAME_LENGTH + 2),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="One a line; a list may be pasted. Blank for a re-entry: the player's own "
        "name is used.",
    )
    alternate = forms.BooleanField(required=False, label="From the alternate list")
    #: What the entry was paid with, when it has a price (``money.payments.take_entry``).
    method = forms.ChoiceField(
        choices=[(m.value, m.label) for m in PAID_WITH], required=False, initial=Method.CASH,
        label="Paid with",
    )  # fmt: skip
    reentry_of = forms.ModelChoiceField(
        queryset=Entrant.objects.none(),
        required=False,
        label="Re-entry of",
        empty_label="— a new player —",
        error_messages={
            "invalid_choice": "That entry cannot re-enter now: it is not out, or it has "
            "already re-entered. Choose again."
        },
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["reentry_of"]
        assert isinstance(field, forms.ModelChoiceField)
        # Only the latest entry of a player who is out: one live entry per player; and nobody
        # once registration has closed (re-entry closes with it, TDA 8).
        if tournament.registration_open:
            field.queryset = tournament.entrants.filter(
                status=EntrantStatus.ELIMINATED, reentries__isnull=True
            )

    def clean_name(self) -> list[str]:
        """The names, one a line: trimmed, inner spaces collapsed, blank lines dropped."""
        lines = [" ".join(line.split()) for line in self.cleaned_data["name"].splitlines()]
        names = [line for line in lines if line]
        if len(names) > MAX_NAMES:
            raise forms.ValidationError(
                f"At most {MAX_NAMES} names at once ({len(names)} given): register the rest next."
            )
        if long := [name for name in names if len(name) > MAX_NAME_LENGTH]:
            raise forms.ValidationError(
                f"A name has at most {MAX_NAME_LENGTH} characters: {long[0][:40]}…"
            )
        return names

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form.clean returns cleaned_data
        if "name" in data and not data["name"] and not data.get("reentry_of"):
            self.add_error("name", "Give the player's name, or choose who re-enters.")
        return data


class ReinstateForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX,
        label="Why",
        help_text="On record in the audit log, e.g. 'Out clicked on the wrong player'.",
    )


class ReserveSeatForm(forms.Form):
    entrant = forms.IntegerField(min_value=1, label="Entry number")
    table = forms.IntegerField(min_value=1, label="Table")
    seat = forms.IntegerField(min_value=1, max_value=10)
    reason = forms.CharField(max_length=REASON_MAX, label="Special need")


class WrongSeatForm(forms.Form):
    entrant = forms.IntegerField(min_value=1, label="Entry number")
    found_table = forms.IntegerField(min_value=1, label="Found at table")
    found_seat = forms.IntegerField(min_value=1, max_value=10, label="Found in seat")
    note = forms.CharField(max_length=200, required=False)


class AnteTypeForm(forms.Form):
    """The director switches who pays the antes (from the next hand dealt)."""

    ante_type = forms.ChoiceField(
        choices=TournamentAnte.choices, widget=forms.RadioSelect, label="Antes"
    )


class ButtonForm(forms.Form):
    seat = forms.IntegerField(min_value=1, max_value=10, label="Button seat")
