"""Forms of the floor app. Validation lives in the models (one implementation)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.http import QueryDict
from django.utils.text import format_lazy

from cardroom.core.numbers import grouped_lazy
from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.tables.choices import (
    AnteType,
    ButtonRule,
    MissedBlindRule,
    Structure,
    TableKind,
    TableStatus,
    Variant,
    desk_variant_choices,
)
from cardroom.tables.desk import AMOUNT_ERROR, MAX_STACK, STACK_ERROR
from cardroom.tables.models import Table
from cardroom.tables.services import EDITABLE_FIELDS
from rules.engine.chips import Physical
from rules.engine.seat_order import next_after

if TYPE_CHECKING:
    TableModelForm = forms.ModelForm[Table]
else:  # ModelForm takes no type argument at run time (django-stubs-ext is dev-only)
    TableModelForm = forms.ModelForm

#: Common games, one tap to fill the form (the floor manager can still change anything).
PRESETS: dict[str, dict[str, Any]] = {
    "1-2-nl": {
        "label": "1/2 NL Hold'em", "variant": Variant.HOLDEM, "structure": Structure.NO_LIMIT,
        "small_blind": 1, "big_blind": 2, "min_buy_in": 40, "max_buy_in": 200,
    },
    "2-5-nl": {
        "label": "2/5 NL Hold'em", "variant": Variant.HOLDEM, "structure": Structure.NO_LIMIT,
        "small_blind": 2, "big_blind": 5, "min_buy_in": 100, "max_buy_in": 500,
    },
    "5-10-plo": {
        "label": "5/10 PLO", "variant": Variant.OMAHA, "structure": Structure.POT_LIMIT,
        "small_blind": 5, "big_blind": 10, "min_buy_in": 300, "max_buy_in": 1000,
        "pot_limit_small_blind_as_big": True,
    },
    "4-8-limit": {
        "label": "4/8 Limit Hold'em", "variant": Variant.HOLDEM, "structure": Structure.FIXED_LIMIT,
        "small_blind": 2, "big_blind": 4, "small_bet": 4, "big_bet": 8, "raise_cap": 3,
        "min_buy_in": 80, "max_buy_in": 400,
    },
    # A table set aside for tournaments: the tournament's levels set its blinds and antes, so
    # only the seats and the clock matter; no straddle or running it twice (cash games only).
    "tournament": {
        "label": TableKind.TOURNAMENT.label, "kind": TableKind.TOURNAMENT,
        "variant": Variant.HOLDEM, "structure": Structure.NO_LIMIT, "small_blind": 1,
        "big_blind": 2, "straddle": 0, "run_it_twice": False,
    },
}  # fmt: skip

#: What the kind means, said on the form beside it.
KIND_HELP = (
    "A tournament table plays the levels of the tournament drawn to it (blinds, antes), not"
    " the game below; a cash table plays the game below."
)


#: The rules between hands, said where a floor manager sets them (the API says the same).
TABLE_HELP: dict[str, str] = {
    "button_rule": (
        "Dead button: the big blind moves one seat each hand, the small blind and the button "
        "follow (CR-BB.1, CR-BB.2). Moving button: the button moves to the next player "
        "(CR-BB.4). Cash tables only: a tournament table ignores this and always uses the "
        "dead button (CR-BB.1, TDA 32)."
    ),
    "missed_blinds": (
        "A player back from sitting out (CR-BB.5) or new to the table (CR-BB.6) posts what "
        "they owe to be dealt in at once or waits for the big blind, as they choose; or must "
        "wait (CR-BB.3). Cash tables only: tournament players are always dealt in."
    ),
}


class WholeNumberField(forms.IntegerField):
    """A whole number typed in ASCII digits, its limits said in words. Django's own reads "٣"
    as 3 and answers a column's limit as "Ensure this value is less than or equal to
    2147483647", words a floor person cannot act on."""

    def __init__(self, *, unit: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        low, high = self.min_value, self.max_value
        self.error_messages["invalid"] = "A whole number in digits, like 100."
        # Lazy: fields are made when their form's module loads, and the number is written in
        # the locale active when the message is shown.
        if isinstance(high, int):
            most = format_lazy("At most {}{}.", grouped_lazy(high), unit)
            self.error_messages["max_value"] = most
        if isinstance(low, int):
            least = format_lazy("At least {}{}.", grouped_lazy(low), unit)
            self.error_messages["min_value"] = least if low else "Cannot be negative."

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        number = whole_number(str(value), 12)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


#: The most a table setting takes, in chips: a cash game's blinds, bets and buy-ins stay far
#: below it (the columns' own limit, 2,147,483,647, means nothing to a floor manager).
MAX_TABLE_CHIPS = 1_000_000
_CHIPS = (0, MAX_TABLE_CHIPS, " chips")
#: Each number field of the table form: (least, most, unit). Seats and the clocks are the
#: model's own limits (2-10 seats, a 10-600 s action clock, a warning of at most 60 s).
TABLE_LIMITS: dict[str, tuple[int, int, str]] = {
    "number": (1, 9_999, ""), "seats": (2, 10, " seats"), "small_blind": _CHIPS,
    "big_blind": _CHIPS, "ante": _CHIPS, "small_bet": _CHIPS, "big_bet": _CHIPS,
    "raise_cap": (0, 10, " raises"), "straddle": _CHIPS, "min_buy_in": _CHIPS,
    "max_buy_in": _CHIPS, "min_chip": _CHIPS, "pot_round_unit": _CHIPS,
    "action_clock_seconds": (10, 600, " seconds"), "clock_warning_seconds": (0, 60, " seconds"),
}  # fmt: skip


def say_limits(fields: dict[str, Any], limits: dict[str, tuple[int, int, str]]) -> None:
    """Each field named in ``limits`` becomes a ``WholeNumberField`` with those limits."""
    for name, (low, high, unit) in limits.items():
        if name in fields:
            old = fields[name]
            fields[name] = WholeNumberField(
                min_value=low, max_value=high, unit=unit, required=old.required,
                label=old.label, help_text=old.help_text, initial=old.initial,
            )  # fmt: skip


#: A cash game's settings, which a tournament table never plays (the tournament's levels are
#: its blinds and antes): on a tournament table they may be left blank, and keep what the table
#: has (a new table: the model's defaults, which nothing reads there).
CASH_GAME_FIELDS = (
    "variant", "structure", "small_blind", "big_blind", "ante_type", "ante", "straddle",
    "min_buy_in", "max_buy_in", "pot_round_unit",
)  # fmt: skip


class TableForm(TableModelForm):
    class Meta:
        model = Table
        fields = list(EDITABLE_FIELDS)
        widgets = {
            "status": forms.Select(choices=TableStatus.choices),
            "kind": forms.Select(choices=TableKind.choices),
            "structure": forms.Select(choices=Structure.choices),
            "ante_type": forms.Select(choices=AnteType.choices),
            "button_rule": forms.Select(choices=ButtonRule.choices),
            "missed_blinds": forms.Select(choices=MissedBlindRule.choices),
        }
        labels = {
            "min_chip": "Smallest chip that plays",
            "pot_limit_small_blind_as_big": "Count the small blind as a big blind (pot size)",
            "pot_round_unit": "Round the pot up to",
            "action_clock_seconds": "Action clock (seconds)",
            "clock_warning_seconds": "Clock warning (seconds)",
            "run_it_twice": "Running it twice allowed",
            "button_rule": "Button between hands",
            "missed_blinds": "Missed blinds and new players",
        }
        help_texts = {**TABLE_HELP, "kind": KIND_HELP}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        say_limits(self.fields, TABLE_LIMITS)
        for name in TABLE_HELP:  # a post without them (an older client) keeps the table's
            self.fields[name].required = False
        if self.data.get("kind") == TableKind.TOURNAMENT:
            for name in CASH_GAME_FIELDS:
                self.fields[name].required = False
        # Only the games the desk deals are offered (CR-GM.1); another one posted is refused
        # by the model with the reason, not as "not a valid choice".
        cast(forms.Select, self.fields["variant"].widget).choices = desk_variant_choices()
        for name, field in self.fields.items():
            if name in self.errors:
                field.widget.attrs["aria-invalid"] = "true"
                field.widget.attrs["aria-describedby"] = f"{name}-errors"
            if isinstance(field, forms.IntegerField):
                field.widget.attrs.setdefault("inputmode", "numeric")

    def _kept(self, name: str) -> str:
        value: str = self.cleaned_data.get(name) or getattr(self.instance, name)
        return value

    def clean_button_rule(self) -> str:
        return self._kept("button_rule")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("kind") == TableKind.TOURNAMENT:
            for name in CASH_GAME_FIELDS:
                if data.get(name) in (None, ""):
                    data[name] = getattr(self.instance, name)
        return data

    def clean_missed_blinds(self) -> str:
        return self._kept("missed_blinds")

    def changed_values(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class DealForm(forms.Form):
    """Deal a hand: the button and the stack of every seat dealt in (blank = empty seat)."""

    button = forms.TypedChoiceField(coerce=int, choices=())

    def __init__(self, *args: Any, table: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        numbers = range(1, table.seats + 1)
        cast(forms.ChoiceField, self.fields["button"]).choices = [(n, f"Seat {n}") for n in numbers]
        last = table.hands.order_by("-number").first()
        for n in numbers:
            initial = None
            if last is not None:
                initial = next((s["stack"] for s in last.seats if s["seat"] == n), None)
            self.fields[f"stack_{n}"] = forms.IntegerField(
                label=f"Seat {n}",
                required=False,
                min_value=0,
                max_value=MAX_STACK,
                initial=initial,
                error_messages={"max_value": STACK_ERROR},
            )
            self.fields[f"stack_{n}"].widget.attrs.update({"inputmode": "numeric"})
        if last is not None:  # the button moves one seat clockwise among the seats dealt in
            dealt = [s["seat"] for s in last.seats]
            self.initial.setdefault("button", next_after(last.button, dealt))
        self.stack_fields = [self[f"stack_{n}"] for n in numbers]
        # Table.straddle is the amount of "one optional live straddle" (RRoP-14.14,
        # citations.NL_STRADDLE): the player chooses each hand, so it is unticked until the
        # dealer sees the player post it (the room has no mandatory straddle).
        if table.straddle:
            self.fields["straddle"] = forms.BooleanField(
                label=f"Straddle of {table.straddle} posted", required=False, initial=False
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        seats = [
            {"seat": int(name.removeprefix("stack_")), "stack": value}
            for name, value in data.items()
            if name.startswith("stack_") and value is not None
        ]
        if any(name.startswith("stack_") for name in self.errors):
            return data  # each stack refused says why on its own field
        if len(seats) < 2:
            raise forms.ValidationError("Give the stacks of at least two players.")
        if data.get("button") not in {s["seat"] for s in seats}:
            self.add_error("button", "The button must be at a seat dealt in.")
        return {
            "button": data.get("button"),
            "seats": seats,
            "straddle": data.get("straddle", False),
        }


class ActionForm(forms.Form):
    expected_seq = forms.IntegerField(min_value=0)
    seat = forms.IntegerField(min_value=1)
    action = forms.ChoiceField(
        choices=[(a, a) for a in ("fold", "check", "call", "bet", "raise", "all_in")]
    )
    to = forms.IntegerField(
        min_value=0,
        max_value=MAX_STACK,
        required=False,
        label="Raise to",
        error_messages={"max_value": AMOUNT_ERROR},
    )
    #: The desk's "Out of turn" form: the seat acted before its turn; the engine holds the
    #: action until the turn reaches it (TDA-53).
    out_of_turn = forms.BooleanField(required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("action") not in ("bet", "raise"):
            data["to"] = None  # the raise box is sent with every button; only a raise uses it
        elif data.get("to") is None:
            self.add_error("to", "Give the amount to raise to.")
        return data


class VoidForm(forms.Form):
    expected_seq = forms.IntegerField(min_value=0)
    reason = forms.CharField(max_length=REASON_MAX)
    #: Sent by the desk's "Void hand #N…" step: a void of the whole hand names the hand.
    confirm_hand = forms.CharField(required=False, max_length=20)

    def clean_confirm_hand(self) -> int | None:
        # Anything but the hand's number (blank, "²") is no confirmation: the desk asks.
        return whole_number(self.cleaned_data["confirm_hand"], 18)


def unconfirmed_void(number: int, confirm: int | None) -> str | None:
    """Why a void of the whole hand is not done: the request does not name hand ``number`` (a
    mistyped address, an old page, a client that did not ask), else None."""
    if confirm == number:
        return None
    return (
        f"Voiding the whole hand asks first: confirm hand #{number}. No pot is awarded, "
        "every stack stays as it was at the deal, and its actions stay on record."
    )


class CountForm(forms.Form):
    """The chips a player pushed out, the chips already in front, and what they said."""

    VERBALS = [("", "Said nothing"), ("call", "Call"), ("raise", "Raise"), ("bet", "Bet"),
               ("all_in", "All-in"), ("check", "Check")]  # fmt: skip

    verbal = forms.ChoiceField(choices=VERBALS, required=False)
    verbal_to = forms.IntegerField(min_value=1, required=False, label="Amount said")
    pulled_back = forms.ChoiceField(
        choices=[
            ("false", "Left in front"),
            ("true", "Pulled back"),
            ("some", "Partly pulled back"),
        ],
        required=False,
    )

    def __init__(self, *args: Any, chip_set: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.chip_set = chip_set

    def _chips(self, name: str) -> list[int]:
        values = cast(QueryDict, self.data).getlist(name) if self.is_bound else []
        chips = []
        for value in values:
            # The chip reader taps chips of the table's set: no chip has ten digits.
            chip = whole_number(value)
            if chip is None or chip not in self.chip_set:
                shown = value if len(value) <= 12 else f"{value[:12]}…"
                raise forms.ValidationError(f"{shown!r} is not a chip used at this table.")
            chips.append(chip)
        return chips

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chips, prior = self._chips("chips"), self._chips("prior")
        adding = self.data.get("add") or self.data.get("add_prior")
        if self.data.get("add"):
            chips.append(whole_number(self.data["add"]) or 0)
        if self.data.get("add_prior"):
            prior.append(whole_number(self.data["add_prior"]) or 0)
        if self.data.get("clear"):
            chips, prior, adding = [], [], True
        if any(chip not in self.chip_set for chip in chips + prior):
            raise forms.ValidationError("Tap the chips used at this table.")
        data.update(chips=chips, prior=prior, adding=bool(adding))
        return data

    def physical(self) -> Physical:
        data = self.cleaned_data
        verbal: Any = data.get("verbal") or None
        if verbal in ("bet", "raise") and data.get("verbal_to"):
            verbal = {"action": verbal, "to": data["verbal_to"]}
        pulled = {"true": True, "some": "some"}.get(data.get("pulled_back") or "", False)
        return Physical.from_dict(
            {
                "chips": data["chips"],
                "prior_chips": data["prior"],
                "pulled_back": pulled,
                "verbal": verbal,
            }
        )
