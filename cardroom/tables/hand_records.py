"""A hand's record of what decided its chips (``HandRecord``): written with the hand's deal, its
award and its void, in the same transaction, and held against the hand row by ``verify_audit``.

The hand row is what the desk reads and is an ordinary row: a database administrator can
change its result, its stacks or its button with one ``UPDATE``. Its records are an audit log
(append-only, chained per table, ``cardroom/core/audit.py``), so such a change leaves the
hand differing from its last record, and ``hand_breaks`` names the hand and the columns."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import groupby
from operator import itemgetter
from typing import Any

from cardroom.core import audit
from cardroom.tables.models import Hand, HandRecord, HandRecordKind, HandStatus

#: The hand's columns each kind of record keeps, as the hand holds them after the write.
RECORDED: dict[str, tuple[str, ...]] = {
    HandRecordKind.DEALT: (
        "button", "seats", "game", "blinds", "posts", "names", "correction", "button_draw",
    ),
    HandRecordKind.AWARDED: ("result",),
    HandRecordKind.VOIDED: ("void_reason",),
}  # fmt: skip

#: The hand's columns saying who made each change and when: the record's ``by`` and ``at``.
WHO: dict[str, tuple[str, str]] = {
    HandRecordKind.DEALT: ("started_by_id", "started_at"),
    HandRecordKind.AWARDED: ("awarded_by_id", "awarded_at"),
    HandRecordKind.VOIDED: ("voided_by_id", "voided_at"),
}

#: What a hand holds in a kind's columns before that change is made (none made, no record).
UNSET: dict[str, dict[str, Any]] = {
    HandRecordKind.AWARDED: {"result": None, "awarded_by_id": None, "awarded_at": None},
    HandRecordKind.VOIDED: {"void_reason": "", "voided_by_id": None, "voided_at": None},
}

#: The words a break uses for each kind.
WORDS = {
    HandRecordKind.DEALT: "deal",
    HandRecordKind.AWARDED: "award",
    HandRecordKind.VOIDED: "void",
}


def record_hand(hand: Hand, kind: HandRecordKind) -> HandRecord:
    """The hand's ``kind`` of change as just saved on the hand row, written to its table's
    chain (two queries: the chain's head and the row). Called inside the service's
    transaction, with the table or the hand locked, so the record and the hand commit together."""
    by, at = WHO[kind]
    return HandRecord.objects.create(
        table_id=hand.table_id,
        hand=hand,
        number=hand.number,
        kind=kind,
        record={name: getattr(hand, name) for name in RECORDED[kind]},
        by_id=getattr(hand, by),
        at=getattr(hand, at),
    )


# --- verification ---------------------------------------------------------------------------

HAND_COLUMNS = (
    "pk", "table_id", "number", "state",
    *(name for names in RECORDED.values() for name in names),
    *(name for names in WHO.values() for name in names),
)  # fmt: skip
RECORD_COLUMNS = ("hand_id", "table_id", "number", "kind", "record", "by_id", "at")


def hand_breaks(using: str = "default") -> list[audit.Break]:
    """Each hand held against its records: dealt, awarded and voided as its records say, with
    the same values (a result, a stack, a button or a state changed on the hand row, a record
    removed with its triggers turned off: a break naming the hand). Hands and records are read
    a row at a time, side by side in hand order, never all at once."""
    hands = Hand.objects.using(using).order_by("pk").values(*HAND_COLUMNS).iterator()
    records = (
        HandRecord._base_manager.using(using)
        .order_by("hand_id", "pk")
        .values(*RECORD_COLUMNS)
        .iterator()
    )
    by_hand = groupby(records, key=itemgetter("hand_id"))
    breaks: list[audit.Break] = []
    pending = next(by_hand, None)
    for hand in hands:
        # Records of a hand the walk has passed have no hand row (its key is protected: the
        # foreign key was dropped with it), named as such.
        while pending is not None and pending[0] < hand["pk"]:
            breaks += _orphans(pending[0], pending[1])
            pending = next(by_hand, None)
        found: list[dict[str, Any]] = []
        if pending is not None and pending[0] == hand["pk"]:
            found = list(pending[1])
            pending = next(by_hand, None)
        breaks += [
            audit.Break(Hand._meta.db_table, hand["pk"], what) for what in _differences(hand, found)
        ]
    while pending is not None:
        breaks += _orphans(pending[0], pending[1])
        pending = next(by_hand, None)
    return breaks


def _orphans(hand_id: int, rows: Iterator[dict[str, Any]]) -> list[audit.Break]:
    count = sum(1 for _ in rows)
    return [audit.Break(Hand._meta.db_table, hand_id, f"{count} record(s) of a hand not on file")]


def _differences(hand: Mapping[str, Any], records: list[dict[str, Any]]) -> list[str]:
    """What about ``hand`` its records do not say, in words."""
    found: list[str] = []
    kinds: dict[str, dict[str, Any]] = {}
    for row in records:
        if row["kind"] in kinds:
            found.append(f"two records of its {WORDS[HandRecordKind(row['kind'])]}")
        kinds[row["kind"]] = row
    if HandRecordKind.DEALT not in kinds:
        found.append("no record of its deal")
    for kind in HandRecordKind:
        kept = kinds.get(kind)
        if kept is None:
            unset = UNSET.get(kind, {})
            changed = sorted(name for name, value in unset.items() if hand[name] != value)
            if changed:
                found.append(f"{', '.join(changed)} set with no record of its {WORDS[kind]}")
            continue
        by, at = WHO[kind]
        recorded = {
            "table_id": kept["table_id"], "number": kept["number"], by: kept["by_id"],
            at: kept["at"], **kept["record"],
        }  # fmt: skip
        names = ("table_id", "number", by, at, *RECORDED[kind])
        changed = sorted(name for name in names if hand[name] != recorded.get(name))
        if changed:
            found.append(f"{', '.join(changed)} differ from the record of its {WORDS[kind]}")
    if HandRecordKind.VOIDED in kinds and HandRecordKind.AWARDED in kinds:
        found.append("recorded both as awarded and as voided")
    expected = (
        {HandStatus.VOIDED}
        if HandRecordKind.VOIDED in kinds
        else {HandStatus.COMPLETE}
        if HandRecordKind.AWARDED in kinds
        else {HandStatus.IN_PROGRESS, HandStatus.COMPLETE}
    )
    if hand["state"] not in expected:
        found.append(
            f"state {hand['state']!r} differs from its records ("
            + " or ".join(sorted(repr(str(state)) for state in expected))
            + ")"
        )
    return found
