"""The room display's state: what the clock screen on the wall shows, read from the server's clock.

The screen polls this small state and counts down by itself between polls. Every display of a
tournament shares one reading of its state (``display_state``), kept in the shared cache until
the tournament or its clock changes (its topic's version, ``cardroom.core.changes.versions``),
its level ends, or ``DISPLAY_TTL`` passes (the counts of players and chips, which every award
moves, are at most that old); a poll in between reads one cache entry and moves the time left
on to its own ``now``: no database. Times are given as
the server's ``now`` and the instants the level and the time to the next break end, in
milliseconds since the epoch, so a display whose own clock is wrong still shows the server's
time: it counts down from ``ends_at - (its now + (server_now - its now at the answer))``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress
from datetime import UTC, datetime, timedelta
from typing import Any

from django.core import signing
from django.db.models import Count, Q

from cardroom.core import changes
from cardroom.core.changes import Topic
from cardroom.core.numbers import grouped
from tournaments.chip_counts import chips_in_play
from tournaments.clock.reading import ClockReading, level_dict, read_clock
from tournaments.colour_ups import announcement
from tournaments.models import (
    OUT_OF_PLAY,
    ClockState,
    EntrantStatus,
    Level,
    Tournament,
    TournamentAnte,
    TournamentStatus,
)
from tournaments.results import final_standings, public_names, winner

MS = timedelta(milliseconds=1)
BIG_BLIND = TournamentAnte.BIG_BLIND.value
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _level(level: Level | None, names: Mapping[int, str], ante_type: str) -> dict[str, Any] | None:
    if level is None:
        return None
    return level_dict(level, names.get(level.number, ""), ante_type)


def time_to_next_break(reading: ClockReading, levels: Sequence[Level]) -> timedelta | None:
    """Play left before the next break starts: the rest of this level and every level of play
    between it and the break. During a break, the break after it. None when none is left."""
    if reading.level is None or reading.state in (ClockState.FINISHED, ClockState.ENDED):
        return None
    left = reading.remaining
    for level in levels:
        if level.number <= reading.level.number:
            continue
        if level.is_break:
            return max(left, timedelta(0))
        left += level.duration
    return None


def room_state(tournament: Tournament, levels: Sequence[Level], now: datetime) -> dict[str, Any]:
    """Everything the room display shows, as of the server's ``now``."""
    reading = read_clock(tournament, levels, now)
    running = reading.state == ClockState.RUNNING
    finished = reading.state == ClockState.FINISHED
    ended = reading.state == ClockState.ENDED
    to_break = time_to_next_break(reading, levels)
    counts = tournament.entrants.aggregate(
        entries=Count("id", filter=~Q(status=EntrantStatus.WITHDRAWN)),
        left=Count("id", filter=~Q(status__in=OUT_OF_PLAY)),
    )
    # The counts of the players still in (the desk's awards and the counts entered away from
    # it, ``chip_counts``): the chips in play shared by the players left.
    average = chips_in_play(tournament) // counts["left"] if counts["left"] else 0
    # Whole milliseconds, so that ends_at - server_now is exactly remaining_ms.
    now_ms = (now - EPOCH) // MS
    left_ms = 0 if finished or ended else max(0, reading.remaining // MS)
    break_ms = max(0, to_break // MS) if to_break is not None else None
    return {
        "version": tournament.clock_version,
        "server_now": now_ms,
        "state": reading.state,
        "state_label": ClockState(reading.state).label,
        # Past the end of the structure, play goes on at the last level's blinds.
        "level": _level(
            reading.level or (levels[-1] if finished and levels else None),
            reading.names,
            tournament.ante_type,
        ),
        "next_level": _level(reading.next_level, reading.names, tournament.ante_type),
        # Who pays the ante: "each" (every player) or "big_blind" (the big blind, CR-DM.2).
        "ante_type": tournament.ante_type,
        # CR-CU.2: a colour-up announced through the level before its break and the break.
        "colour_up": announcement(tournament, reading),
        "remaining_ms": left_ms,
        "ends_at": now_ms + left_ms if running else None,
        "next_break_ms": break_ms,
        "next_break_at": now_ms + break_ms if running and break_ms is not None else None,
        "players_left": counts["left"],
        "entries": counts["entries"],
        "average_stack": average,
        # The biggest stacks by their counts, by the names a public screen may show.
        "chip_leaders": chip_leaders(tournament),
        "hand_for_hand": tournament.hand_for_hand,
        # The finish: the clock has stopped, the winner and the best places, by the names a
        # public screen may show (the TV link is public: never a full name).
        **finish(tournament),
    }


#: Seconds every display of a tournament shares one reading of its state at most.
DISPLAY_TTL = 5


def display_state(pk: int, now: datetime) -> dict[str, Any] | None:
    """``room_state`` of tournament ``pk`` as of ``now`` (None when there is none), read from
    the shared cache while its reading is current: the tournament and its clock unchanged (the
    ``tournament`` topic's version: a start, a pause, a level or a colour-up edited, the finish)
    and its level not yet ended."""
    now_ms = (now - EPOCH) // MS
    key = f"cardroom-display:{pk}"
    try:
        # The topic's version and the reading kept (with the version it was read at), in one
        # read of the shared cache: a reading of an older version is not current.
        (version,), kept = changes.versions_and_value((Topic.TOURNAMENT,), key)
    except Exception:  # a cache outage costs a reading, never the display
        version, kept = None, None
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == version:
        state = kept[1]
        if not (state["ends_at"] is not None and now_ms >= state["ends_at"]):
            return moved_on(state, now_ms)
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        return None
    state = room_state(tournament, list(tournament.levels.all()), now)
    if version is not None:
        with suppress(Exception):  # a cache outage: the next poll reads again
            changes.shared_cache().set(key, (version, state), DISPLAY_TTL)
    return state


def moved_on(state: dict[str, Any], now_ms: int) -> dict[str, Any]:
    """A reading of the state moved on to ``now_ms`` within its level: a running clock's time
    left counts down to the instants it ends at; a paused or stopped one's stays put."""
    moved = {**state, "server_now": now_ms}
    if state["ends_at"] is not None:
        moved["remaining_ms"] = max(0, state["ends_at"] - now_ms)
    if state["next_break_at"] is not None:
        moved["next_break_ms"] = max(0, state["next_break_at"] - now_ms)
    return moved


#: How many of the biggest stacks the room display shows.
CHIP_LEADERS = 5


def chip_leaders(tournament: Tournament, count: int = CHIP_LEADERS) -> list[dict[str, Any]]:
    """The ``count`` biggest stacks of the players still in, biggest first (the lower entry
    number first on a tie), each as the public name (``results.public_names``: never a full
    name, the TV link is public) and the count. None once the tournament is over."""
    if tournament.status == TournamentStatus.COMPLETE:
        return []
    leaders = list(
        tournament.entrants.exclude(status__in=OUT_OF_PLAY)
        .filter(chips__gt=0)
        .order_by("-chips", "number")[:count]
    )
    names = public_names(leaders)
    return [{"name": names[e.pk], "chips": e.chips} for e in leaders]


def finish(tournament: Tournament) -> dict[str, Any]:
    """The room display's finish: ``complete``, the ``winner``'s public name and the final
    ``standings`` (place and public name), empty while the tournament plays."""
    first = winner(tournament)
    if first is None:
        return {"complete": False, "winner": "", "standings": []}
    return {
        "complete": True,
        "winner": public_names([first])[first.pk],
        "standings": final_standings(tournament),
    }


def duration_label(ms: int | None) -> str:
    """``1:05:00`` or ``19:59`` (whole seconds, rounded up as a countdown shows them); a dash for
    none. static/js/clock.js writes the same."""
    if ms is None:
        return "–"
    seconds = max(0, -(-ms // 1000))
    hours, minutes = seconds // 3600, seconds // 60 % 60
    if hours:
        return f"{hours}:{minutes:02d}:{seconds % 60:02d}"
    return f"{minutes}:{seconds % 60:02d}"


def level_line(level: Mapping[str, Any] | None) -> str:
    """``Level 5 · 500 / 1,000 ante 1,000`` (``ante 1,000 (big blind)`` for a big-blind ante)
    or ``Break · 15 min`` (as static/js/clock.js)."""
    if level is None:
        return "–"
    if level["is_break"]:
        return f"{level['name']} · {round(level['seconds'] / 60)} min"
    ante = f" ante {grouped(level['ante'])}{ante_kind(level)}" if level["ante"] else ""
    return (
        f"{level['name']} · {grouped(level['small_blind'])} / {grouped(level['big_blind'])}{ante}"
    )


def ante_kind(level: Mapping[str, Any]) -> str:
    """`` (big blind)`` after a big-blind ante (CR-DM.2); nothing after a per-player one."""
    return " (big blind)" if level.get("ante_type") == BIG_BLIND else ""


def room_labels(state: Mapping[str, Any]) -> dict[str, str]:
    """The state as the display first shows it, before its script takes over."""
    level = state["level"] or {"small_blind": 0, "big_blind": 0, "ante": 0}
    return {
        "time_left": duration_label(state["remaining_ms"]),
        "next_break": duration_label(state["next_break_ms"]),
        "blinds": f"{grouped(level['small_blind'])} / {grouped(level['big_blind'])}",
        "ante": f"{grouped(level['ante'])}" if level["ante"] else "–",
        "ante_kind": "Big-blind ante" if state.get("ante_type") == BIG_BLIND else "Ante each",
        "next": level_line(state["next_level"]),
        "average_stack": f"{grouped(state['average_stack'])}",
    }


# --- the TV link -----------------------------------------------------------------------------
# A room's TV shows the clock all day with nobody logged in on it. The director copies a link
# for it from the clock page: signed with the site's key for this one tournament's display and
# the state it polls, read-only, and only for a few days (a new day's TV gets a fresh link). It
# shows what the public board already shows of the event (level, blinds, time, players left).

TV_LINK_SALT = "cardroom.tournaments.room-display"
TV_LINK_DAYS = 3


def tv_link_token(tournament: Tournament) -> str:
    return signing.TimestampSigner(salt=TV_LINK_SALT).sign(str(tournament.pk))


def tv_link_opens(token: str, pk: int) -> bool:
    """Whether ``token`` is a TV link of tournament ``pk`` still in date."""
    if not token or len(token) > 200:
        return False
    try:
        signed = signing.TimestampSigner(salt=TV_LINK_SALT).unsign(
            token, max_age=timedelta(days=TV_LINK_DAYS)
        )
    except signing.BadSignature:  # tampered, another tournament's, or expired
        return False
    return signed == str(pk)
