"""The forms of the clock page's structure editor: time added or removed, a step changed or
inserted, a step deleted, levels added. Numbers are ASCII digits only (``whole_number``);
every form asks why, since every change is recorded (``tournaments.clock.structure``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms

from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from tournaments.clock.structure import MAX_ADDED, LevelValues


def _reason() -> forms.CharField:
    # Required here too, so a missing reason is the form's error, next to the field.
    return forms.CharField(
        max_length=REASON_MAX,
        error_messages={"required": "Say why: it is recorded."},
    )


def _chips(form: forms.Form, name: str) -> int:
    value = whole_number(form.cleaned_data.get(name, ""))
    if value is None:
        raise forms.ValidationError("Write a whole number of chips, digits only.")
    return value


class TimeForm(forms.Form):
    """Minutes added to the level in play (``-1`` takes one off)."""

    minutes = forms.CharField(max_length=5)
    reason = _reason()

    def clean_minutes(self) -> int:
        text = self.cleaned_data["minutes"].strip()
        sign = -1 if text.startswith("-") else 1
        number = whole_number(text.removeprefix("-").removeprefix("+"), digits=3)
        if not number:
            raise forms.ValidationError("Write whole minutes, like 1, 5 or -1.")
        return sign * number


class StepForm(forms.Form):
    """A step's values: blinds and ante (a break has none) and its minutes."""

    small_blind = forms.CharField(max_length=12, required=False)
    big_blind = forms.CharField(max_length=12, required=False)
    ante = forms.CharField(max_length=12, required=False)
    minutes = forms.CharField(max_length=5)
    reason = _reason()

    def __init__(self, *args: Any, is_break: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.is_break = is_break

    def clean_small_blind(self) -> int:
        return 0 if self.is_break else _chips(self, "small_blind")

    def clean_big_blind(self) -> int:
        return 0 if self.is_break else _chips(self, "big_blind")

    def clean_ante(self) -> int:
        if self.is_break or not self.cleaned_data.get("ante", "").strip():
            return 0  # no ante: left empty
        return _chips(self, "ante")

    def clean_minutes(self) -> int:
        minutes = whole_number(self.cleaned_data["minutes"], digits=3)
        if not minutes:
            raise forms.ValidationError("Write whole minutes, more than none.")
        return minutes

    def values(self) -> LevelValues:
        data = self.cleaned_data
        return LevelValues(
            data["small_blind"],
            data["big_blind"],
            data["ante"],
            timedelta(minutes=data["minutes"]),
            self.is_break,
        )


class InsertForm(StepForm):
    """A new step after step ``after`` (0: first), a level of play or a break."""

    after = forms.CharField(max_length=4)
    kind = forms.ChoiceField(choices=[("level", "Level"), ("break", "Break")])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.is_break = self.data.get("kind") == "break"

    def clean_after(self) -> int:
        after = whole_number(self.cleaned_data["after"], digits=4)
        if after is None:
            raise forms.ValidationError("Choose the step it goes after.")
        return after


class ReasonForm(forms.Form):
    """Why a step is deleted."""

    reason = _reason()


class AddLevelsForm(forms.Form):
    count = forms.CharField(max_length=3)
    reason = _reason()

    def clean_count(self) -> int:
        count = whole_number(self.cleaned_data["count"], digits=2)
        if not count or count > MAX_ADDED:
            raise forms.ValidationError(f"Add from 1 to {MAX_ADDED} levels at a time.")
        return count
