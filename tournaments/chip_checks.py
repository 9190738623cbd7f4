"""The entrants' chip counts held against what decided them, for ``verify_audit``: an entrant's
count (``Entrant.chips``, an ordinary row the desk deals from, the payouts and deals read) is
what its newest chained record left it, plus the chips bought since. A count raised with one
``UPDATE`` is a break.

What writes a count, each in a chained record (``cardroom/core/audit.py``), all under the
tournament's row lock, so one entrant's records follow one another in time:

- registration: the starting stack, on the entry's ledger line (``MoneyMove`` entry or
  re-entry, its ``chips``) when the entry is paid; a free entry has no line;
- a count, a correction, a transfer, chips taken out of play, a chip race
  (``tournaments/chip_counts.py``): a ``ChipCount`` row, its ``chips_after``;
- the desk: a tournament hand's deal (``HandRecord`` "dealt": each seat's stack is the count
  the hand was dealt with, which a voided hand leaves as it was) and its award (``HandRecord``
  "awarded": each seat's stack is the count written, ``tournaments/table_hands.py``);
- a rebuy or an add-on: its ledger line's ``chips`` added; a refund: the count 0.

So the count is the newest of: the last ``ChipCount``'s ``chips_after``, the seat's stack in
the last deal or award of a hand the entrant sat in, the entry line's chips (the refund's 0);
plus the chips of every rebuy and add-on after it. An entrant with none of these (a free
entry not yet dealt a hand) holds the tournament's starting stack plus its rebuys.

Which entrant sat in a seat of a hand is read from the tournament's seating
(``SeatAssignment``: who sat at the room table and seat when the record was written, the
seating the desk itself dealt to and paid), an ordinary row: a hand's seat whose sitter's name
is not the name the hand was dealt to is named as a break of the seating. Not held: the
order of two records of one entrant written within the clocks' difference of two servers
(their times decide which is newer); the starting stack of a free entry (the tournament's
setting, not a chained record); whether each ``ChipCount``'s ``chips_before`` was the count
at the time (only the count now is held)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

from cardroom.core import audit
from cardroom.tables.models import HandRecord, HandRecordKind
from tournaments.models import ChipCount, Entrant, SeatAssignment
from tournaments.money.models import MoneyMove, MoveKind

#: Ledger lines that set a count (to their chips; a refund to 0), and those that add to it.
SETS = {MoveKind.ENTRY, MoveKind.REENTRY, MoveKind.REFUND}
ADDS = {MoveKind.REBUY, MoveKind.ADDON}
#: What the seating says of each seat: who sat there, from when to when.
SEATING = (
    "pk", "table__table_id", "seat", "entrant_id", "entrant__name", "started_at", "ended_at",
)  # fmt: skip


@dataclass(frozen=True)
class Said:
    """The newest record of an entrant's count: when, the count, and the record in words."""

    at: datetime
    chips: int
    what: str


def entrant_breaks(using: str = "default") -> list[audit.Break]:
    """Every entrant's count against its newest record, and every seat of a tournament hand
    against the seating it was dealt from. Five queries, each read a row at a time; what is
    kept is one record per entrant that has played a hand."""
    breaks: list[audit.Break] = []
    dealt = _hand_records(using, breaks)
    counts: Iterator[Any] = groupby(
        ChipCount._base_manager.using(using)
        .order_by("entrant_id", "pk")
        .values("pk", "entrant_id", "chips_after", "at")
        .iterator(),
        key=itemgetter("entrant_id"),
    )
    lines: Iterator[Any] = groupby(
        MoneyMove._base_manager.using(using)
        .filter(entrant__isnull=False, kind__in=[*SETS, *ADDS])
        .order_by("entrant_id", "pk")
        .values("pk", "entrant_id", "kind", "chips", "at")
        .iterator(),
        key=itemgetter("entrant_id"),
    )
    entrants = (
        Entrant.objects.using(using)
        .order_by("pk")
        .values("pk", "chips", "tournament__starting_stack")
        .iterator()
    )
    count, line = next(counts, None), next(lines, None)
    for entrant in entrants:
        pk = entrant["pk"]
        while count is not None and count[0] < pk:
            count = next(counts, None)
        while line is not None and line[0] < pk:
            line = next(lines, None)
        said = [dealt.pop(pk)] if pk in dealt else []
        if count is not None and count[0] == pk:
            *_, last = count[1]
            said.append(Said(last["at"], last["chips_after"], f"chip count {last['pk']}"))
        bought: list[dict[str, Any]] = []
        if line is not None and line[0] == pk:
            for row in line[1]:
                if row["kind"] in ADDS:
                    bought.append(row)
                else:
                    chips = 0 if row["kind"] == MoveKind.REFUND else row["chips"]
                    said.append(Said(row["at"], chips, f"{row['kind']} line {row['pk']}"))
        newest = max(said, key=lambda s: s.at, default=None)
        start, what = (
            (newest.chips, newest.what)
            if newest
            else (entrant["tournament__starting_stack"], "the starting stack")
        )
        since = [row for row in bought if newest is None or row["at"] > newest.at]
        expected = start + sum(row["chips"] for row in since)
        if entrant["chips"] != expected:
            plus = "".join(f" + {row['kind']} line {row['pk']}" for row in since)
            breaks.append(
                audit.Break(
                    Entrant._meta.db_table,
                    pk,
                    f"chips {entrant['chips']} differ from the {expected} its records say"
                    f" ({what}{plus})",
                )
            )
    return breaks


def _hand_records(using: str, breaks: list[audit.Break]) -> dict[int, Said]:
    """Each entrant's newest deal or award of a tournament hand: the records of each room
    table read in order beside that table's seating (who sat in each seat, and when)."""
    seating: Iterator[Any] = groupby(
        SeatAssignment.objects.using(using)
        .order_by("table__table_id", "seat", "started_at", "pk")
        .values(*SEATING)
        .iterator(),
        key=itemgetter("table__table_id"),
    )
    records: Iterator[Any] = groupby(
        HandRecord._base_manager.using(using)
        .filter(kind__in=[HandRecordKind.DEALT, HandRecordKind.AWARDED])
        .exclude(hand__names={})
        .order_by("table_id", "pk")
        .values("pk", "table_id", "hand_id", "number", "kind", "record", "at")
        .iterator(),
        key=itemgetter("table_id"),
    )
    newest: dict[int, Said] = {}
    names: dict[int, dict[str, str]] = {}  # the hands dealt and not yet awarded, at one table
    seats = next(seating, None)
    for table_id, rows in records:
        while seats is not None and seats[0] < table_id:
            seats = next(seating, None)
        sat: dict[int, list[dict[str, Any]]] = defaultdict(list)
        if seats is not None and seats[0] == table_id:
            for held in seats[1]:
                sat[held["seat"]].append(held)
        names.clear()
        for row in rows:
            for seat, stack in _stacks(row, names):
                sitter = _sitter(sat.get(seat, []), row["at"])
                if sitter is None:
                    continue  # not a seat of a tournament then (a cash hand's)
                dealt_to = names.get(row["hand_id"], {}).get(str(seat))
                if dealt_to is not None and dealt_to != sitter["entrant__name"]:
                    breaks.append(
                        audit.Break(
                            SeatAssignment._meta.db_table,
                            sitter["pk"],
                            f"seat {seat} of hand #{row['number']} was dealt to {dealt_to!r},"
                            f" the seating has {sitter['entrant__name']!r}",
                        )
                    )
                before = newest.get(sitter["entrant_id"])
                if before is None or before.at <= row["at"]:  # tables are read one by one
                    words = "deal" if row["kind"] == HandRecordKind.DEALT else "award"
                    newest[sitter["entrant_id"]] = Said(
                        row["at"], stack, f"hand #{row['number']}'s {words}, record {row['pk']}"
                    )
            if row["kind"] == HandRecordKind.AWARDED:
                names.pop(row["hand_id"], None)
    return newest


def _stacks(row: dict[str, Any], names: dict[int, dict[str, str]]) -> Iterator[tuple[int, int]]:
    """A record's seats and stacks: the deal's (keeping the names it was dealt to, for its
    award) or the award's."""
    record = row["record"] or {}
    if row["kind"] == HandRecordKind.DEALT:
        names[row["hand_id"]] = record.get("names") or {}
        entries = record.get("seats") or []
    else:
        entries = (record.get("result") or {}).get("stacks") or []
    for entry in entries:
        yield entry["seat"], entry["stack"]


def _sitter(rows: list[dict[str, Any]], at: datetime) -> dict[str, Any] | None:
    """Who sat in the seat at ``at`` (the seating's rows for it, in the order they began)."""
    for row in reversed(rows):
        if row["started_at"] <= at and (row["ended_at"] is None or at < row["ended_at"]):
            found: dict[str, Any] = row
            return found
    return None
