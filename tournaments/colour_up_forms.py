"""The forms of colour-ups: a chip of the chip set (value, colour, the break it leaves at) and a
table's chip race (odd chips from the counts, or as the dealer counted them per player).
Numbers are ASCII digits only (``WholeNumberField``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from cardroom.core.numbers import grouped
from cardroom.tables.forms import WholeNumberField
from tournaments.clock.reading import level_names
from tournaments.colour_ups import LARGEST_CHIP, RaceSetup
from tournaments.models import ChipRaceMode, Level

#: The most chips of one colour a player is taken to hold at a race (a count, not a value).
MOST_ODD_CHIPS = 9_999


def break_choices(levels: Sequence[Level]) -> list[tuple[str, str]]:
    """ "Plays to the end" and each break of the structure, named as the clock names it."""
    names = level_names(levels)
    ordered = sorted(levels, key=lambda lv: lv.number)
    choices = [("", "Plays to the end")]
    for i, level in enumerate(ordered):
        if level.is_break:
            before = names.get(ordered[i - 1].number, "") if i else ""
            after = f" after {before}" if before else ""
            choices.append((str(level.number), f"Break{after} (step {level.number})"))
    return choices


class ChipForm(forms.Form):
    """A denomination of the chip set, its colour, and the break it leaves play at."""

    value = WholeNumberField(min_value=1, max_value=LARGEST_CHIP, label="Value")
    colour = forms.CharField(max_length=30, label="Colour")
    removed_at = forms.ChoiceField(required=False, label="Leaves play at")

    def __init__(self, *args: Any, levels: Sequence[Level], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["removed_at"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = break_choices(levels)

    def removal_step(self) -> int | None:
        chosen = self.cleaned_data.get("removed_at") or ""
        return int(chosen) if chosen else None


class ChipDeleteForm(forms.Form):
    value = WholeNumberField(min_value=1, max_value=LARGEST_CHIP)


def odd_field(number: int, value: int) -> str:
    return f"odd_{number}_{value}"


class RaceForm(forms.Form):
    """A table's race: the odd chips from the counts, or one box per player and chip leaving
    play for the chips the dealer counted in front of them."""

    mode = forms.ChoiceField(
        choices=ChipRaceMode.choices,
        initial=ChipRaceMode.ENTERED,
        widget=forms.RadioSelect,
        label="Odd chips",
    )

    def __init__(self, *args: Any, setup: RaceSetup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.setup = setup
        for assignment in setup.seated:
            for chip in setup.leaving:
                self.fields[odd_field(assignment.entrant.number, chip.value)] = WholeNumberField(
                    min_value=0,
                    max_value=MOST_ODD_CHIPS,
                    required=False,
                    label=f"Seat {assignment.seat}: {grouped(chip.value)} chips ({chip.colour})",
                )

    def rows(self) -> list[tuple[Any, list[forms.BoundField]]]:
        """Each seated player with their boxes, in seat order."""
        return [
            (a, [self[odd_field(a.entrant.number, c.value)] for c in self.setup.leaving])
            for a in self.setup.seated
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("mode") == ChipRaceMode.ENTERED:
            for assignment in self.setup.seated:
                for chip in self.setup.leaving:
                    name = odd_field(assignment.entrant.number, chip.value)
                    if name in data and data[name] is None:
                        self.add_error(name, "Enter the chips counted (0 for none).")
        return data

    def odd_chips(self) -> dict[int, dict[int, int]] | None:
        """Per entry number, the chips of each leaving value; None for the counts' reading."""
        if self.cleaned_data["mode"] != ChipRaceMode.ENTERED:
            return None
        return {
            a.entrant.number: {
                c.value: self.cleaned_data[odd_field(a.entrant.number, c.value)]
                for c in self.setup.leaving
            }
            for a in self.setup.seated
        }
