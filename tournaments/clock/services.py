"""The tournament clock: start, pause, resume, change level, and the tick when time runs out."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from cardroom.core.deadlines import tasks_run_in_process
from cardroom.core.transitions import move
from tournaments.draws.errors import (
    DrawError,
)
from tournaments.models import (
    ClockEvent,
    ClockState,
    Level,
    Tournament,
)
from tournaments.scheduling import LEVEL_ENDS
from tournaments.seating import lock_tournament


def levels_of(tournament: Tournament) -> dict[int, Level]:
    """The tournament's structure, each step by its number."""
    return {level.number: level for level in tournament.levels.all()}


def catch_up(tournament: Tournament, levels: Mapping[int, Level], now: datetime) -> list[int]:
    """Pass the levels whose time ran out while the clock ran; returns the levels reached.
    Past the last step the clock stays in it, its time run out (``ClockState.FINISHED``: the
    structure ran out, play goes on at its blinds until the director adds levels)."""
    reached: list[int] = []
    while tournament.clock_state == ClockState.RUNNING:
        level = levels.get(tournament.level_number)
        assert tournament.level_started_at is not None
        if level is None:
            move(tournament, ClockState.FINISHED, field="clock_state")
            break
        ends = tournament.level_started_at + level.duration - tournament.level_elapsed
        if ends > now:
            break
        tournament.level_started_at, tournament.level_elapsed = ends, timedelta(0)
        tournament.level_number += 1
        if tournament.level_number not in levels:
            move(tournament, ClockState.FINISHED, field="clock_state")
            tournament.level_number -= 1
            # It stays in the last step with its whole time played: none left, none running.
            tournament.level_started_at = None
            tournament.level_elapsed = levels[tournament.level_number].duration
            break
        reached.append(tournament.level_number)
    return reached


def save_clock(
    tournament: Tournament, action: str | None, by: User | None, reached: list[int]
) -> None:
    """Save the clock's fields with a new ``clock_version`` (the room display, the board and a
    queued tick see the change), log the levels reached and ``action`` (none: a change recorded
    elsewhere, ``StructureChange``), and queue the tick for the level's new end."""
    tournament.clock_version += 1
    tournament.save(
        update_fields=["clock_state", "level_number", "level_started_at", "level_elapsed",
                       "clock_version", "updated_at"]
    )  # fmt: skip
    events = [
        ClockEvent(tournament=tournament, action="level_on_time", level_number=n) for n in reached
    ]
    if action is not None:
        events.append(
            ClockEvent(
                tournament=tournament, action=action, level_number=tournament.level_number, by=by
            )
        )
    ClockEvent.objects.bulk_create(events)
    _schedule_tick(tournament)


def _schedule_tick(tournament: Tournament) -> None:
    """Queue the next level change for when this level's time runs out (after commit: the
    level's end is a ``cardroom.core.deadlines.Deadline``, ``LEVEL_ENDS``, version-checked by
    ``tick_clock``; the beat's sweep ``advance_clocks`` is its safety net).

    Without a broker, tasks run in-process at once and cannot wait: nothing is queued. The
    clock's reading still passes levels on time (``read_clock``), and the next clock action
    records the levels reached."""
    if tasks_run_in_process():
        return
    if tournament.clock_state != ClockState.RUNNING or tournament.level_started_at is None:
        return
    level = tournament.levels.filter(number=tournament.level_number).first()
    if level is None:
        return
    due = tournament.level_started_at + level.duration - tournament.level_elapsed
    LEVEL_ENDS.queue(tournament.pk, tournament.clock_version, at=due)


def start_clock(*, tournament: Tournament, by: User) -> Tournament:
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.clock_state != ClockState.STOPPED:
            raise DrawError("clock_started", "The clock has already started.")
        move(locked, ClockState.RUNNING, field="clock_state")
        locked.level_number = 1
        locked.level_started_at, locked.level_elapsed = timezone.now(), timedelta(0)
        save_clock(locked, "start", by, [])
    return locked


def pause_clock(*, tournament: Tournament, by: User) -> Tournament:
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        now = timezone.now()
        reached = catch_up(locked, levels_of(locked), now)
        if locked.clock_state != ClockState.RUNNING:
            raise DrawError("clock_not_running", "The clock is not running.")
        locked.level_elapsed = locked.level_elapsed_at(now)
        move(locked, ClockState.PAUSED, field="clock_state")
        locked.level_started_at = None
        save_clock(locked, "pause", by, reached)
    return locked


def resume_clock(*, tournament: Tournament, by: User) -> Tournament:
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.clock_state != ClockState.PAUSED:
            raise DrawError("clock_not_paused", "The clock is not paused.")
        move(locked, ClockState.RUNNING, field="clock_state")
        locked.level_started_at = timezone.now()
        save_clock(locked, "resume", by, [])
    return locked


def advance_level(*, tournament: Tournament, by: User, back: bool = False) -> Tournament:
    """Go to the next (or previous) level now, its full time ahead; a paused clock stays paused."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        levels = levels_of(locked)
        now = timezone.now()
        if locked.clock_state == ClockState.ENDED:
            raise DrawError("clock_ended", "The tournament is over: its clock has stopped.")
        reached = catch_up(locked, levels, now)
        target = locked.level_number + (-1 if back else 1)
        if target not in levels:
            # Not "level {target}": that is the step, and a break before it is not a level.
            where = "before this one" if back else "after this one"
            first = " (this is the first level): nothing changed" if back else ": add levels first"
            raise DrawError("no_level", f"The structure has no level {where}{first}.")
        if locked.clock_state == ClockState.FINISHED:
            move(locked, ClockState.PAUSED, field="clock_state")
        locked.level_number, locked.level_elapsed = target, timedelta(0)
        if locked.clock_state == ClockState.RUNNING:
            locked.level_started_at = now
        save_clock(locked, "back" if back else "advance", by, reached)
    return locked


def end_clock(locked: Tournament, *, by: User | None) -> None:
    """The tournament is complete (the heads-up bust, ``eliminations.eliminate_locked``, the
    tournament row locked by the caller): the clock stops for good where it stands, the levels
    that ran out passed first, and no tick is queued (a queued one finds a newer version)."""
    now = timezone.now()
    reached = catch_up(locked, levels_of(locked), now)
    locked.level_elapsed = locked.level_elapsed_at(now)
    move(locked, ClockState.ENDED, field="clock_state")
    locked.level_started_at = None
    save_clock(locked, "end", by, reached)


def reopen_clock(locked: Tournament, *, by: User) -> None:
    """The last bust corrected (``eliminations.reinstate_player``): the ended clock waits
    paused in the level it stopped in, with the time it had left; the director resumes it."""
    if locked.clock_state == ClockState.ENDED:
        move(locked, ClockState.PAUSED, field="clock_state")
        save_clock(locked, "reopen", by, [])


def tick_clock(*, tournament_id: int, version: int) -> Tournament | None:
    """The scheduled tick: pass the levels whose time ran out. A tick queued for an older clock
    (paused, resumed or moved since) does nothing; an early one is queued again."""
    with transaction.atomic():
        locked = lock_tournament(tournament_id)
        if locked.clock_version != version or locked.clock_state != ClockState.RUNNING:
            return None
        reached = catch_up(locked, levels_of(locked), timezone.now())
        if not reached and locked.clock_state == ClockState.RUNNING:
            _schedule_tick(locked)
            return locked
        save_clock(locked, "tick", None, reached)
    return locked
