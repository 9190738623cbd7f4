"""The forms of the waitlist pages: a player's name for the floor and the kiosk,
the reasons, a seat with its buy-in, a new list, a must-move table; and the games the tables
are set up for that have no list yet (one tap opens one)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ValidationError

from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.seats import services as players
from cardroom.tables.choices import Structure, TableKind, TableStatus, Variant, desk_variant_choices
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import GameList, WaitlistEntry

if TYPE_CHECKING:  # generic in django-stubs only, not at run time
    _ListField = forms.ModelMultipleChoiceField[GameList]
else:
    _ListField = forms.ModelMultipleChoiceField


class ListChoices(_ListField):
    """The lists picked, by id: an id no database row can have (past a 64-bit integer, which
    SQLite refuses with an overflow) is a form error like any unknown id, never a 500."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            number = whole_number(str(pk), 19)
            if number is None or number > 2**63 - 1:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value",
                    params={"pk": pk},
                )  # fmt: skip
        # django-stubs don't declare ModelMultipleChoiceField._check_values (Django's own hook).
        return super()._check_values(value)  # type: ignore[misc]


class PlayerNameForm(forms.Form):
    name = forms.CharField(
        label="Name or initials",
        max_length=120,
        error_messages={"required": "Type a name or initials."},
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
    )
    alias = forms.CharField(
        label="Alias (shown on the board instead of initials)",
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    lists = ListChoices(
        label="Games",
        queryset=GameList.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Pick at least one game."},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["lists"].queryset = GameList.objects.filter(closed_at__isnull=True)  # type: ignore[attr-defined]

    def clean_name(self) -> str:
        name = " ".join(str(self.cleaned_data["name"]).split())
        if (why := players.name_refusal(name)) is not None:
            raise ValidationError(why)
        return name

    def clean_alias(self) -> str:
        return " ".join(str(self.cleaned_data["alias"]).split())


class AddForm(PlayerNameForm):
    call_in = forms.BooleanField(label="Call-in (must check in)", required=False)


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Reason", max_length=REASON_MAX)


class ReleaseForm(forms.Form):
    reason = forms.CharField(label="Reason", max_length=REASON_MAX, required=False)


class ReorderForm(ReasonForm):
    position = forms.IntegerField(label="New place in the list", min_value=1, max_value=1000)


class ChipsField(forms.CharField):
    """Chips typed on the page: ASCII digits only (``int`` reads "١٢" as 12), at most nine."""

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        number = whole_number(text)
        if number is None:
            raise ValidationError("Type the chips as a whole number (digits only).")
        return number


class SeatForm(forms.Form):
    table = forms.IntegerField(min_value=1, max_value=10**9)
    seat = forms.IntegerField(min_value=1, max_value=12)
    #: The buy-in; for a player moving from another table, the chips they add (0 allowed).
    buy_in = ChipsField(label="Buy-in", required=False)


#: A buy-in typed on a start proposal: one field per player, ``buy_in_<entry id>``.
START_BUY_IN = "buy_in_"


def typed_buy_ins(data: Any) -> dict[int, str]:
    """The buy-ins typed on a start proposal, by entry id, as typed (kept for the page)."""
    typed = {}
    for key, value in data.items():
        if key.startswith(START_BUY_IN):
            entry = whole_number(key.removeprefix(START_BUY_IN), 18)
            if entry is not None:
                typed[entry] = str(value)[:20]
    return typed


def start_buy_ins(
    typed: dict[int, str], game_list: GameList
) -> tuple[dict[int, int], dict[int, str]]:
    """The typed buy-ins read as chips, by entry id, and a refusal naming the player for each
    that is not a whole number (the table's limits are the service's to check)."""
    amounts: dict[int, int] = {}
    for entry, text in typed.items():
        if (number := whole_number(text)) is not None:
            amounts[entry] = number
    names = dict(
        WaitlistEntry.objects.filter(
            game_list=game_list, pk__in=set(typed) - set(amounts)
        ).values_list("pk", "player__name")
    )
    errors = {
        pk: f"{name}: type the buy-in as a whole number of chips." for pk, name in names.items()
    }
    return amounts, errors


def buy_in_errors(exc: ValidationError) -> dict[int, str]:
    """A refused start's messages by entry id (its fields ``buy_ins.<entry id>``)."""
    found: dict[int, str] = {}
    for key, messages in getattr(exc, "message_dict", {}).items():
        entry = whole_number(str(key).removeprefix("buy_ins."), 18)
        if str(key).startswith("buy_ins.") and entry is not None:
            found[entry] = " ".join(messages)
    return found


class OpenListForm(forms.Form):
    variant = forms.ChoiceField(
        label="Game", choices=desk_variant_choices(), initial=Variant.HOLDEM
    )
    structure = forms.ChoiceField(
        label="Betting", choices=Structure.choices, initial=Structure.NO_LIMIT
    )
    small_blind = forms.IntegerField(label="Small blind", min_value=1, max_value=2**31 - 1)
    big_blind = forms.IntegerField(label="Big blind", min_value=1, max_value=2**31 - 1)
    start_threshold = forms.IntegerField(
        label="Start a table at", min_value=2, max_value=10, initial=9
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        for name in ("small_blind", "big_blind", "start_threshold"):
            self.fields[name].widget.attrs["class"] = "tiny"


def table_games() -> list[dict[str, Any]]:
    """The games the cash tables are set up for that have no open list: one tap opens one."""
    listed = set(
        GameList.objects.filter(closed_at__isnull=True).values_list(
            "variant", "structure", "small_blind", "big_blind"
        )
    )
    games = (
        Table.objects.filter(kind=TableKind.CASH)
        .values_list("variant", "structure", "small_blind", "big_blind", "small_bet", "big_bet")
        .distinct()
        .order_by("big_blind", "small_blind", "variant", "structure")
    )
    found: dict[str, str] = {}
    for variant, structure, small, big, small_bet, big_bet in games:
        bets = (small_bet, big_bet) if small_bet and big_bet else None  # a limit game's bets
        if (variant, structure, small, big) not in listed:
            key = f"{variant}:{structure}:{small}:{big}"
            found.setdefault(key, waitlists.game_label(variant, structure, small, big, bets=bets))
    return [{"key": key, "label": label} for key, label in found.items()]


class MustMoveForm(forms.Form):
    table = forms.ModelChoiceField(
        label="Table",
        queryset=Table.objects.filter(kind=TableKind.CASH, status=TableStatus.OPEN),
        empty_label="Pick a table",
    )
    main = forms.ModelChoiceField(
        label="Feeds the main game",
        queryset=GameList.objects.filter(closed_at__isnull=True),
        empty_label="Pick a game",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
