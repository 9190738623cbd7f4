"""The waitlists' plumbing: the refusal they raise, the log's writer, the row locks
(``cardroom/core/locks.py``: tables, then the list, then its entries, each by id) and the
checks every service of ``cardroom/waitlists/services.py`` and ``cardroom/waitlists/tables.py`` shares."""

from __future__ import annotations

from django.contrib.auth.models import User

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.locks import lock_row
from cardroom.tables.choices import TableKind, TableStatus
from cardroom.tables.models import Table
from cardroom.waitlists.models import LIVE_STATUSES, GameList, WaitlistEntry, WaitlistEvent


class WaitlistRefused(Refusal):
    """A well-formed request the list's state or the room's rules refuse: 422."""

    code = "waitlist_refused"


# --- plumbing -------------------------------------------------------------------------------


def record_event(
    game_list: GameList,
    kind: str,
    by: User | None,
    *,
    entry: WaitlistEntry | None = None,
    table: Table | None = None,
    seat: int | None = None,
    note: str = "",
) -> WaitlistEvent:
    return WaitlistEvent.objects.create(
        game_list=game_list,
        entry=entry,
        player_id=entry.player_id if entry is not None else None,
        kind=kind,
        table_number=table.number if table is not None else None,
        seat=seat,
        note=note[:500],
        by=by,
    )


def lock_list(game_list: GameList) -> GameList:
    locked = lock_row(GameList, game_list.pk)
    if locked.closed_at is not None:
        raise WaitlistRefused("game_list", f"The {locked.label} list is closed.")
    return locked


def lock_entry(entry: WaitlistEntry) -> WaitlistEntry:
    return lock_row(WaitlistEntry.objects.select_related("player"), entry.pk)


def require_live(entry: WaitlistEntry, doing: str) -> None:
    if entry.status not in LIVE_STATUSES:
        raise Conflict(
            "entry_changed",
            f"{entry.player} is no longer on the {entry.game_list.label} list"
            f" ({entry.get_status_display().lower()}): cannot {doing}.",
        )


def same_game(table: Table, game_list: GameList) -> bool:
    return (table.variant, table.structure, table.small_blind, table.big_blind) == (
        game_list.variant,
        game_list.structure,
        game_list.small_blind,
        game_list.big_blind,
    )


def lock_cash_table(table: Table, game_list: GameList, *, status: str = TableStatus.OPEN) -> Table:
    locked = lock_row(Table, table.pk)
    if locked.kind != TableKind.CASH or not same_game(locked, game_list):
        raise WaitlistRefused("table", f"{locked} does not play {game_list.label}.")
    if locked.status != status:
        raise WaitlistRefused("table", f"{locked} is {locked.get_status_display().lower()}.")
    return locked
