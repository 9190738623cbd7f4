"""The cash seat map held against its log, for ``verify_audit``: the chips in front of each
player (``TableSeat.stack``, an ordinary row the desk reads and writes) are what the seat
events (``SeatEvent``, append-only and chained per table) add up to, and each hand's result in
the seat map is the hand's recorded award (``HandRecord``).

A seat's events run from its buy-in (``seated``) or its arrival from another table
(``moved_in``) to its cash-out (``left``) or its move (``moved_out``); every event's ``stack`` is
the one before it plus its ``amount``, so a buy-in, a cash-out, a rebuy or a correction changed
in one place and not the other is a break, and so is a stack changed on the seat row."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import Any

from cardroom.core import audit
from cardroom.seats.models import SeatEvent, TableSeat
from cardroom.tables.choices import SeatEventKind
from cardroom.tables.models import HandRecord, HandRecordKind

#: Events that start a seat's run of chips, and those that end it.
STARTS = {SeatEventKind.SEATED, SeatEventKind.MOVED_IN}
ENDS = {SeatEventKind.LEFT, SeatEventKind.MOVED_OUT}


def seat_breaks(using: str = "default") -> list[audit.Break]:
    """Every break between the seat map, its log and the hands' awards."""
    return _run_breaks(using) + _award_breaks(using)


def _run_breaks(using: str) -> list[audit.Break]:
    """Each (table, seat, player)'s events add up, and a seat still taken holds what they add
    up to (one pass over the log in that order, one over the live seats)."""
    table = SeatEvent._meta.db_table
    events = (
        SeatEvent._base_manager.using(using)
        .order_by("table_id", "seat", "player_id", "pk")
        .values("pk", "table_id", "seat", "player_id", "kind", "amount", "stack")
        .iterator()
    )
    breaks: list[audit.Break] = []
    #: (table, seat, player) -> (the stack the events leave, the last event's id), for the
    #: runs not ended: the seats the log says are taken.
    open_runs: dict[tuple[int, int, int], tuple[int, int]] = {}
    for key, rows in groupby(events, key=itemgetter("table_id", "seat", "player_id")):
        running: int | None = None
        last = 0
        for row in rows:
            last = row["pk"]
            starts = row["kind"] in STARTS
            if starts and running is not None:
                breaks.append(audit.Break(table, row["pk"], "a second buy-in on a seat taken"))
            if not starts and running is None:
                breaks.append(audit.Break(table, row["pk"], "chips moved on a seat with no buy-in"))
            before = 0 if starts or running is None else running
            if row["stack"] != before + row["amount"]:
                breaks.append(
                    audit.Break(
                        table,
                        row["pk"],
                        f"stack {row['stack']} is not the {before} before it plus its amount "
                        f"{row['amount']}",
                    )
                )
            running = None if row["kind"] in ENDS else row["stack"]
        if running is not None:
            open_runs[key] = (running, last)
    seats = TableSeat.objects.using(using).filter(left_at__isnull=True).order_by("pk")
    for seat in seats.values("pk", "table_id", "seat", "player_id", "stack").iterator():
        key = (seat["table_id"], seat["seat"], seat["player_id"])
        logged = open_runs.pop(key, None)
        where = TableSeat._meta.db_table
        if logged is None:
            breaks.append(audit.Break(where, seat["pk"], "seated with no buy-in in the log"))
        elif logged[0] != seat["stack"]:
            breaks.append(
                audit.Break(
                    where,
                    seat["pk"],
                    f"stack {seat['stack']} differs from the {logged[0]} its log adds up to",
                )
            )
    for _key, (_stack, last) in sorted(open_runs.items()):
        breaks.append(audit.Break(table, last, "the log has the player seated, the seat map not"))
    return breaks


def _award_breaks(using: str) -> list[audit.Break]:
    """Each hand's result in the seat map (its ``hand`` events) is its recorded award: the
    stack each seat was left with. Both read in hand order, side by side."""
    table = SeatEvent._meta.db_table
    results = (
        SeatEvent._base_manager.using(using)
        .filter(kind=SeatEventKind.HAND, hand__isnull=False)
        .order_by("hand_id", "pk")
        .values("pk", "hand_id", "seat", "stack")
        .iterator()
    )
    awards: Iterator[Any] = (
        HandRecord._base_manager.using(using)
        .filter(kind=HandRecordKind.AWARDED)
        .order_by("hand_id")
        .values("hand_id", "record")
        .iterator()
    )
    breaks: list[audit.Break] = []
    award = next(awards, None)
    for hand_id, rows in groupby(results, key=itemgetter("hand_id")):
        while award is not None and award["hand_id"] < hand_id:
            award = next(awards, None)
        stacks: dict[int, int] = {}
        if award is not None and award["hand_id"] == hand_id:
            result = award["record"].get("result") or {}
            stacks = {entry["seat"]: entry["stack"] for entry in result.get("stacks", [])}
        for row in rows:
            if stacks.get(row["seat"]) != row["stack"]:
                breaks.append(
                    audit.Break(
                        table,
                        row["pk"],
                        f"seat {row['seat']}'s result in hand {hand_id} is not its recorded award",
                    )
                )
    return breaks
