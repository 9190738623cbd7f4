"""Reading the tournament clock: the level it is in now, the time left, each step's name.

The reading passes levels whose time ran out while the clock ran, even when no tick task has
recorded them yet (without a worker, or between ticks); the clock's writes are
``tournaments.clock.services``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from tournaments.models import ClockState, Level, Tournament


def level_names(levels: Iterable[Level]) -> dict[int, str]:
    """What the room calls each step of the structure, by its number. A break is a step but not
    a level: "Level n" counts the levels of play only (Level 3, Break, Level 4), as on every
    printed structure sheet; ``Level.number`` stays the step, which the clock keys on."""
    names: dict[int, str] = {}
    played = 0
    for level in sorted(levels, key=lambda lv: lv.number):
        if level.is_break:
            names[level.number] = "Break"
        else:
            played += 1
            names[level.number] = f"Level {played}"
    return names


def level_dict(level: Level, name: str, ante_type: str) -> dict[str, Any]:
    """A level as the clock's API, the room display and the desk's proposal show it: its
    blinds and time, what the room calls it (``level_names``), and who pays its ante, the
    tournament's ``ante_type`` ("each" or "big_blind", CR-DM.2)."""
    return {**level.as_dict(), "name": name, "ante_type": ante_type}


@dataclass(frozen=True)
class ClockReading:
    """The clock as it stands: levels that ran out on time are passed even if the tick task has
    not recorded them yet (without a worker, or between ticks)."""

    state: str
    level: Level | None
    next_level: Level | None
    elapsed: timedelta
    remaining: timedelta
    #: ``level_names`` of the structure read.
    names: Mapping[int, str] = field(default_factory=dict)

    @property
    def level_name(self) -> str:
        return self.names.get(self.level.number, "") if self.level is not None else ""

    @property
    def next_name(self) -> str:
        return self.names.get(self.next_level.number, "") if self.next_level is not None else ""

    @property
    def remaining_label(self) -> str:
        seconds = max(0, int(self.remaining.total_seconds()))
        return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}".removeprefix("0:")


def read_clock(
    tournament: Tournament, levels: Sequence[Level], now: datetime | None = None
) -> ClockReading:
    by_number = {level.number: level for level in levels}
    number, state = tournament.level_number, tournament.clock_state
    elapsed = tournament.level_elapsed_at(now)
    if state == ClockState.RUNNING:
        while number in by_number and elapsed >= by_number[number].duration:
            elapsed -= by_number[number].duration
            number += 1
        if number not in by_number:
            # The structure ran out: the clock stays in its last step, the time run out.
            state = ClockState.FINISHED
            number -= 1 if number - 1 in by_number else 0
    level = by_number.get(number)
    if state == ClockState.FINISHED and level is not None:
        elapsed = level.duration
    remaining = (level.duration - elapsed) if level is not None else timedelta(0)
    return ClockReading(
        state, level, by_number.get(number + 1), elapsed, remaining, level_names(levels)
    )
