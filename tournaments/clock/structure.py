"""Changing the structure while the event runs: time added to or taken from the level in play,
a later level's blinds, ante or time changed, a level or break inserted or deleted, levels
added when the structure runs out.

Every change is recorded with who made it and why (``StructureChange``: the step as it was and
as it became) and gives the clock a new version, saving the tournament, so the room display and
the public board show it at their next poll. The clock's run (start, pause, levels on time) is
``tournaments.clock.services``.

What may change, and why:

- The level in play keeps its blinds and ante: a level's limits apply from the next hand dealt
  when the level starts (CR-TP.2), so a change to the limits in play is a new level, inserted
  after it. Its time may change (added or removed time), never to none left: ending the level
  now is the clock's "Next level", its own confirmed step at every table.
- Levels already played are the record of what was played and do not change.
- Every step after the one in play may change, be deleted, or have a step inserted before it.
  Before the clock starts every step is ahead. A structure keeps at least one level of play.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cardroom.core.api_errors import Refusal
from cardroom.core.reasons import clean_reason
from cardroom.core.transitions import move
from rules.engine.citations import CHIP_SET
from tournaments.clock.services import catch_up, levels_of, save_clock
from tournaments.colour_ups import ChipSetRefused, check_chip_set, chip_set, chips_named
from tournaments.draws.errors import DrawError
from tournaments.models import ClockState, Level, StructureAction, StructureChange, Tournament
from tournaments.seating import lock_tournament

#: A level's limits in play change only at the next level (CR-TP.2).
NEW_LIMITS = "CR-TP.2"
#: The longest step: four hours (a dinner break is one or two; a level of play rarely two).
MAX_DURATION = timedelta(hours=4)
#: The most chips a blind or ante may be: nine digits (the columns hold more).
MAX_CHIPS = 999_999_999
#: The most levels added at once, and the most steps a structure may have.
MAX_ADDED = 20
MAX_STEPS = 300
#: Renumbering moves the rows out of the way first (two passes, so that no two rows ever hold
#: one number: the unique constraint is checked row by row on SQLite).
RENUMBER_OFFSET = 10_000
#: The clock's log entry when levels added to a structure that ran out start the next one.
LEVELS_ADDED = "levels_added"


class StructureRefused(Refusal):
    """A change to the structure refused, keyed by the field it is about (the API: 422)."""

    code = "structure_refused"


@dataclass(frozen=True)
class LevelValues:
    """A step as the director writes it: blinds and ante (none on a break) and its time. The
    ante is the tournament's kind of ante (``Tournament.ante_type``: each player, or the big
    blind's for the table, CR-DM.2)."""

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    duration: timedelta = timedelta(minutes=20)
    is_break: bool = False

    def checked(self) -> LevelValues:
        """These values, or a ``ValidationError`` keyed by the field that is wrong. Only what is
        clearly wrong is refused: a structure may keep its blinds for two levels, or lower them
        after a colour-up, so no level is compared with the one before it."""
        errors: dict[str, str] = {}
        if not timedelta(0) < self.duration <= MAX_DURATION:
            errors["minutes"] = f"A step lasts more than no time and at most {_hm(MAX_DURATION)}."
        if not self.is_break:
            if any(not 0 <= chips <= MAX_CHIPS for chips in self._chips()):
                errors["big_blind"] = "Blinds and antes have at most nine digits."
            elif self.big_blind == 0:
                errors["big_blind"] = "A level of play has a big blind."
            elif self.small_blind > self.big_blind:
                errors["small_blind"] = "The small blind is at most the big blind."
        if errors:
            raise StructureRefused(errors)
        if self.is_break:
            return LevelValues(duration=self.duration, is_break=True)
        return self

    def _chips(self) -> tuple[int, int, int]:
        return self.small_blind, self.big_blind, self.ante

    @classmethod
    def of(cls, level: Level) -> LevelValues:
        return cls(level.small_blind, level.big_blind, level.ante, level.duration, level.is_break)

    def fields(self) -> dict[str, Any]:
        return {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "duration": self.duration,
            "is_break": self.is_break,
        }


def _hm(duration: timedelta) -> str:
    seconds = max(0, int(duration.total_seconds()))
    hours, minutes, rest = seconds // 3600, seconds // 60 % 60, seconds % 60
    if hours:
        return f"{hours}:{minutes:02d}:{rest:02d}"
    return f"{minutes}:{rest:02d}"


def first_changeable(tournament: Tournament) -> int:
    """The first step whose blinds may change: every step before the clock starts, after it
    the step after the one in play (CR-TP.2)."""
    return first_changeable_in(tournament.clock_state, tournament.level_number)


def first_changeable_in(state: str, number: int) -> int:
    """``first_changeable`` for a clock in ``state`` at step ``number`` (as read now)."""
    return 1 if state == ClockState.STOPPED else number + 1


def in_play(state: str) -> bool:
    """Whether a clock in ``state`` is in a level whose time may still change (running or
    paused)."""
    return state in (ClockState.RUNNING, ClockState.PAUSED)


@dataclass
class _Open:
    """A change under way: the tournament locked, its clock caught up to ``now``."""

    tournament: Tournament
    levels: dict[int, Level]
    reached: list[int]
    now: datetime


def _open(tournament: Tournament) -> _Open:
    locked = lock_tournament(tournament.pk)
    if locked.clock_state == ClockState.ENDED:
        raise DrawError("clock_ended", "The tournament is over: its structure no longer changes.")
    levels = levels_of(locked)
    now = timezone.now()
    # The levels whose time ran out are passed first: "the level in play" is the one now.
    reached = catch_up(locked, levels, now)
    return _Open(locked, levels, reached, now)


def _record(
    change: _Open,
    action: StructureAction,
    number: int,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    reason: str,
    by: User,
) -> StructureChange:
    return StructureChange.objects.create(
        tournament=change.tournament,
        action=action,
        level_number=number,
        before=before,
        after=after,
        reason=reason,
        by=by,
    )


def _close(change: _Open, by: User) -> Tournament:
    """Save the clock with a new version (the displays follow at their next poll). A clock
    whose structure ran out goes on into the step now after it, at once: the levels were added
    because play had gone past the structure's end."""
    locked = change.tournament
    # CR-CU.1: every level stays payable with the chips in play then (a chip set's removals).
    check_chip_set(chip_set(locked), list(Level.objects.filter(tournament=locked)))
    action = None
    if (
        locked.clock_state == ClockState.FINISHED
        and Level.objects.filter(tournament=locked, number=locked.level_number + 1).exists()
    ):
        move(locked, ClockState.RUNNING, field="clock_state")
        locked.level_number += 1
        locked.level_started_at, locked.level_elapsed = change.now, timedelta(0)
        action = LEVELS_ADDED
    save_clock(locked, action, by, change.reached)
    return locked


def _renumber(tournament: Tournament, above: int, by: int) -> None:
    """Move every step numbered above ``above`` by ``by`` (1 or -1), in two passes."""
    steps = Level.objects.filter(tournament=tournament)
    steps.filter(number__gt=above).update(number=F("number") + RENUMBER_OFFSET)
    steps.filter(number__gt=RENUMBER_OFFSET).update(number=F("number") - RENUMBER_OFFSET + by)


def _step(change: _Open, level: Level) -> Level:
    """The step as it stands under the lock (found by its row, so a renumbering by another
    change in between cannot make this change land on the wrong step)."""
    for step in change.levels.values():
        if step.pk == level.pk:
            return step
    raise DrawError("no_level", "That step is no longer in the structure: reload the clock page.")


def adjust_time(*, tournament: Tournament, seconds: int, reason: str, by: User) -> Tournament:
    """Add time to the level in play (``seconds`` > 0) or take some off (< 0). Its duration
    changes; the time left never reaches none (ending a level is "Next level")."""
    why = clean_reason(reason, "Say why the time changes: it is recorded.", error=StructureRefused)
    if seconds == 0 or abs(seconds) > MAX_DURATION.total_seconds():
        raise StructureRefused({"minutes": f"Add or remove up to {_hm(MAX_DURATION)}."})
    with transaction.atomic():
        change = _open(tournament)
        locked = change.tournament
        if locked.clock_state == ClockState.STOPPED:
            raise DrawError(
                "clock_not_started", "The clock has not started: change the first level's time."
            )
        if locked.clock_state == ClockState.FINISHED:
            raise DrawError("structure_ran_out", "The structure ran out: add levels.")
        level = change.levels[locked.level_number]
        before = level.as_dict()
        _set_duration(level, level.duration + timedelta(seconds=seconds), locked, change.now)
        _record(change, StructureAction.TIME, level.number, before, level.as_dict(), why, by)
        return _close(change, by)


def _set_duration(level: Level, duration: timedelta, locked: Tournament, now: datetime) -> None:
    """The level in play gets a new duration: at most ``MAX_DURATION``, and some time left."""
    played = locked.level_elapsed_at(now)
    if duration > MAX_DURATION:
        raise StructureRefused({"minutes": f"A step lasts at most {_hm(MAX_DURATION)}."})
    if duration - played <= timedelta(0):
        left = _hm(level.duration - played)
        raise StructureRefused(
            {
                "minutes": f"Only {left} is left in this level: take off less, or go to the"
                " next level (its own step, asked at every table)."
            }
        )
    level.duration = duration
    level.save(update_fields=["duration"])


def edit_level(
    *, tournament: Tournament, level: Level, values: LevelValues, reason: str, by: User
) -> Tournament:
    """Change a step ahead (blinds, ante, time; a break has only a time), or the time of the
    level in play (its blinds and ante stay: CR-TP.2)."""
    why = clean_reason(reason, "Say why the level changes: it is recorded.", error=StructureRefused)
    with transaction.atomic():
        change = _open(tournament)
        locked = change.tournament
        level = _step(change, level)
        number = level.number
        values = LevelValues(**{**values.fields(), "is_break": level.is_break}).checked()
        current = number == locked.level_number and locked.clock_state != ClockState.STOPPED
        if current and locked.clock_state == ClockState.FINISHED:
            raise DrawError("structure_ran_out", "The structure ran out: add levels.")
        if number < locked.level_number and locked.clock_state != ClockState.STOPPED:
            raise DrawError("level_played", "That step has been played: change a later one.")
        if values == LevelValues.of(level):
            raise StructureRefused(
                {"reason": "Nothing changed: the step already has these values."}
            )
        before = level.as_dict()
        if current:
            if values.fields() | {"duration": level.duration} != LevelValues.of(level).fields():
                raise StructureRefused(
                    "big_blind",
                    f"The blinds and ante in play change only at the next level ({NEW_LIMITS}):"
                    " change a later level, or insert one after this.",
                    NEW_LIMITS,
                )
            _set_duration(level, values.duration, locked, change.now)
        else:
            for name, value in values.fields().items():
                setattr(level, name, value)
            level.save(update_fields=["small_blind", "big_blind", "ante", "duration"])
        _record(change, StructureAction.EDIT, number, before, level.as_dict(), why, by)
        return _close(change, by)


def insert_level(
    *, tournament: Tournament, after: Level | None, values: LevelValues, reason: str, by: User
) -> Tournament:
    """A level or break after the step ``after`` (None: first, before the clock starts), the
    steps after it renumbered. Never before the level in play: that would change what was
    played."""
    why = clean_reason(reason, "Say why the step is added: it is recorded.", error=StructureRefused)
    values = values.checked()
    with transaction.atomic():
        change = _open(tournament)
        locked = change.tournament
        at = _step(change, after).number if after is not None else 0
        if at < first_changeable(locked) - 1:
            raise DrawError(
                "level_played", "A step goes in after the level in play, or later, not before."
            )
        if len(change.levels) >= MAX_STEPS:
            raise DrawError("structure_full", f"A structure has at most {MAX_STEPS} steps.")
        _renumber(locked, at, 1)
        level = Level.objects.create(tournament=locked, number=at + 1, **values.fields())
        _record(change, StructureAction.INSERT, level.number, None, level.as_dict(), why, by)
        return _close(change, by)


def delete_level(*, tournament: Tournament, level: Level, reason: str, by: User) -> Tournament:
    """Take a step ahead out of the structure, the steps after it renumbered. The level in play
    and those played stay; so does the last level of play."""
    why = clean_reason(
        reason, "Say why the step is deleted: it is recorded.", error=StructureRefused
    )
    with transaction.atomic():
        change = _open(tournament)
        locked = change.tournament
        level = _step(change, level)
        number = level.number
        if number < first_changeable(locked):
            raise DrawError(
                "level_played", "That step is in play or played: only a later one is deleted."
            )
        if not level.is_break and not any(
            not other.is_break for n, other in change.levels.items() if n != number
        ):
            raise DrawError("last_level", "A structure keeps at least one level of play.")
        if leaving := list(level.colour_ups.all()):
            raise ChipSetRefused(
                "removed_at", f"{chips_named(leaving)} leave play at that break: move their "
                "colour-up to another break first (Chips and colour-ups).", CHIP_SET,
            )  # fmt: skip
        before = level.as_dict()
        level.delete()
        _renumber(locked, number, -1)
        _record(change, StructureAction.DELETE, number, before, None, why, by)
        return _close(change, by)


def next_levels(last: Level, count: int) -> list[LevelValues]:
    """``count`` levels after ``last``: each doubles the blinds and ante of the one before, with
    the same time. Doubling is the usual way a structure goes on when it runs out (the blinds
    keep their proportion, and the director may edit any of them before it is reached)."""
    values, levels = LevelValues.of(last), []
    for _ in range(count):
        values = LevelValues(
            values.small_blind * 2, values.big_blind * 2, values.ante * 2, values.duration
        )
        levels.append(values)
    return levels


def add_levels(*, tournament: Tournament, count: int, reason: str, by: User) -> Tournament:
    """Add ``count`` levels at the end of the structure, continuing from its last level of play
    (``next_levels``), each recorded. A clock whose structure ran out goes into the first at
    once (``_close``): play had gone past the structure's end."""
    why = clean_reason(reason, "Say why levels are added: it is recorded.", error=StructureRefused)
    if not 1 <= count <= MAX_ADDED:
        raise StructureRefused({"count": f"Add from 1 to {MAX_ADDED} levels at a time."})
    with transaction.atomic():
        change = _open(tournament)
        locked = change.tournament
        played = [level for _, level in sorted(change.levels.items()) if not level.is_break]
        if not played:
            raise DrawError("no_level", "The structure has no level of play to go on from.")
        if len(change.levels) + count > MAX_STEPS:
            raise DrawError("structure_full", f"A structure has at most {MAX_STEPS} steps.")
        added = next_levels(played[-1], count)
        if added[-1].big_blind > MAX_CHIPS:
            raise StructureRefused({"count": "Doubled so often the blinds pass nine digits."})
        last = max(change.levels)
        for offset, values in enumerate(added, start=1):
            level = Level.objects.create(tournament=locked, number=last + offset, **values.fields())
            _record(change, StructureAction.APPEND, level.number, None, level.as_dict(), why, by)
        return _close(change, by)
