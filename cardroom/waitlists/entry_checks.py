"""The waitlists held against their log, for ``verify_audit``: where each entry stands (an
ordinary row the floor reads and writes: waiting, called to a seat, seated, lapsed, removed)
is where its events (``WaitlistEvent``, append-only and chained per list) leave it, and a
player called to a seat is called to the seat the log's last call names. A call given to
someone else, or a player put back on a list, with one ``UPDATE`` is a break.

The events move an entry as the services do (``cardroom/waitlists/services.py``): added,
it waits; called, it is called; an offer run out puts it back to waiting, and the pass that
follows straight after puts it off the list (its last offer missed); a pass after a call (the
floor released the seat, or someone else took it) puts it back to waiting; seated, lapsed and
removed are final. Check-ins, reorders, moves and new tables leave it where it is."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import Any

from cardroom.core import audit
from cardroom.waitlists.models import (
    EntryStatus,
    WaitlistEntry,
    WaitlistEvent,
    WaitlistEventKind,
)

#: Where each event leaves an entry (the ones missing leave it where it is).
MOVES = {
    WaitlistEventKind.ADDED: EntryStatus.WAITING,
    WaitlistEventKind.CALLED: EntryStatus.CALLED,
    WaitlistEventKind.OFFER_EXPIRED: EntryStatus.WAITING,
    WaitlistEventKind.PASSED: EntryStatus.WAITING,
    WaitlistEventKind.SEATED: EntryStatus.SEATED,
    WaitlistEventKind.LAPSED: EntryStatus.LAPSED,
    WaitlistEventKind.REMOVED: EntryStatus.REMOVED,
}


def entry_breaks(using: str = "default") -> list[audit.Break]:
    """Each entry's status (and its call's table and seat) against its events, both read an
    entry at a time, side by side in entry order."""
    entries = (
        WaitlistEntry.objects.using(using)
        .order_by("pk")
        .values("pk", "status", "called_seat", "called_table__number")
        .iterator()
    )
    events = (
        WaitlistEvent._base_manager.using(using)
        .filter(entry__isnull=False)
        .order_by("entry_id", "pk")
        .values("entry_id", "kind", "table_number", "seat")
        .iterator()
    )
    by_entry = groupby(events, key=itemgetter("entry_id"))
    table = WaitlistEntry._meta.db_table
    breaks: list[audit.Break] = []
    pending = next(by_entry, None)
    for entry in entries:
        while pending is not None and pending[0] < entry["pk"]:
            pending = next(by_entry, None)
        status, call = None, None
        if pending is not None and pending[0] == entry["pk"]:
            # Read this entry's events before the walk moves on (they share one cursor).
            status, call = _replay(pending[1])
            pending = next(by_entry, None)
        if status is None:
            breaks.append(audit.Break(table, entry["pk"], "on a list with no event adding it"))
        elif entry["status"] != status:
            breaks.append(
                audit.Break(
                    table,
                    entry["pk"],
                    f"status {entry['status']!r} differs from the {str(status)!r} its log "
                    "leaves it",
                )
            )
        elif status == EntryStatus.CALLED and call != (
            entry["called_table__number"],
            entry["called_seat"],
        ):
            breaks.append(
                audit.Break(
                    table, entry["pk"], "called to a seat its log's last call does not name"
                )
            )
    return breaks


def _replay(events: Iterator[Any]) -> tuple[str | None, tuple[Any, Any] | None]:
    """Where the events leave an entry (None: no event), and the table number and seat of its
    last call."""
    status: str | None = None
    call: tuple[Any, Any] | None = None
    previous = ""
    for event in events:
        kind = event["kind"]
        if kind == WaitlistEventKind.PASSED and previous == WaitlistEventKind.OFFER_EXPIRED:
            status = EntryStatus.LAPSED  # the last offer it was allowed to miss
        elif kind in MOVES:
            status = MOVES[WaitlistEventKind(kind)]
        if kind == WaitlistEventKind.CALLED:
            call = (event["table_number"], event["seat"])
        previous = kind
    return status, call
