"""Checkpoints of the audit chains, kept outside the database.

A database administrator can delete a chain's last rows, or a whole stream, and what is left
still links; the key (``cardroom/core/audit_keys.py``) stops them writing rows of their own,
not removing them. So every minute something changed (the Celery beat's
``cardroom.audit_checkpoint``, or ``manage.py audit_checkpoint``), the head of each stream that
changed (rows in it, the last row's hash) is written to an append-only file the database
cannot reach, one JSON line per checkpoint, signed with the audit key and chained to the line
before it. ``manage.py verify_audit`` holds the database against every stream's latest head in
the file: a stream with fewer rows, a different row where the checkpoint's last one was, or
none at all, is named. This is how Certificate Transparency's signed tree heads witness a log
kept elsewhere (RFC 6962 section 3.5).

A line::

    {"v": 1, "seq": 7, "at": "2026-11-28T10:01:00.000000+00:00", "key": "room-2025",
     "prev": "<line 6's mac>", "upto": {"cardroom.Ruling": 4211, ...},
     "heads": {"cardroom.Ruling/12": [31, "<hash>"], "cardroom.HandAction/9": [14, "<hash>", 1]}, "removed": [], "mac": "..."}

A sealed log's head (hand actions, draws) also counts its rows sealed (voided, dealt): a void
undone is named. ``upto`` is each log's highest row id at the checkpoint. The next checkpoint reads the
streams with rows after the ``upto`` of the line *before* the last one: each row is looked at
by two checkpoints a minute apart, so a row whose transaction got its id before a checkpoint
and committed after it (the desk's transactions wait at most ``CARDROOM_LOCK_TIMEOUT_MS`` for
a lock) is still counted. ``removed`` names streams removed on purpose (a table set up by
mistake, deleted with its configuration history): they are not missing.

The file is opened for appending only, under an exclusive ``flock`` (two writers, a beat and
a command, never interleave); a line cut short by a killed worker is left as it is and
reported, and the next checkpoint starts on a line of its own, chained to the last whole one.
Copies: ``CARDROOM_AUDIT_CHECKPOINT_COPY`` (a second file, on another disk or a mounted share)
gets every line too, and the logger ``cardroom.audit.checkpoints`` gets a line naming each
checkpoint's sequence number and signature (route it to syslog: the README's production
section).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.conf import settings
from django.db import models, transaction
from django.db.models import Count, Max, Model, Q
from django.utils import timezone

from cardroom.core import audit

logger = logging.getLogger("cardroom.audit.checkpoints")

VERSION = 1
#: Streams read in one query when their heads are taken.
CHUNK = 500
#: How far back from the end the last two lines are looked for, at most (a checkpoint of a
#: busy minute at 700 tables is about 50 kB).
TAIL_LIMIT = 64 * 1024 * 1024


def checkpoint_path() -> Path:
    return Path(str(settings.CARDROOM_AUDIT_CHECKPOINT_FILE))


@dataclass
class Line:
    seq: int
    at: str
    key: str
    prev: str
    upto: dict[str, int]
    heads: dict[str, list[Any]]
    removed: list[str]
    mac: str = ""

    def body(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "seq": self.seq,
            "at": self.at,
            "key": self.key,
            "prev": self.prev,
            "upto": self.upto,
            "heads": self.heads,
            "removed": self.removed,
        }

    def signed_text(self) -> str:
        return json.dumps(self.body(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def text(self) -> str:
        return json.dumps({**self.body(), "mac": self.mac}, sort_keys=True, ensure_ascii=False)

    @property
    def when(self) -> datetime:
        return datetime.fromisoformat(self.at)


def _parse(raw: bytes) -> Line | None:
    try:
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("v") != VERSION:
            return None
        line = Line(
            seq=int(data["seq"]),
            at=str(data["at"]),
            key=str(data["key"]),
            prev=str(data["prev"]),
            upto={str(k): int(v) for k, v in dict(data["upto"]).items()},
            heads={str(k): list(v) for k, v in dict(data["heads"]).items()},
            removed=[str(name) for name in data["removed"]],
            mac=str(data["mac"]),
        )
        datetime.fromisoformat(line.at)
    except (ValueError, KeyError, TypeError):
        return None
    return line


def _signature_problem(line: Line) -> str | None:
    key = audit.key_by_id(line.key)
    if key is None:
        return f"is signed with audit key {line.key!r}, which this server does not hold"
    if audit.key_id_of(line.mac) != line.key or line.mac != audit.sign(line.signed_text(), key):
        return "does not carry the audit key's signature (forged or edited)"
    return None


# --- reading ---------------------------------------------------------------------------------


@dataclass
class Held:
    """What the checkpoint file holds: every stream's latest head, the last line, and what is
    wrong with the file itself."""

    path: Path
    heads: dict[str, audit.Head] = field(default_factory=dict)
    removed: set[str] = field(default_factory=set)
    last: Line | None = None
    lines: int = 0
    problems: list[str] = field(default_factory=list)
    #: Lines cut short by a worker killed mid-write (the next line starts afresh).
    torn: int = 0

    @property
    def exists(self) -> bool:
        return self.lines > 0 or bool(self.problems)


def _raw_lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """The file's lines, numbered from 1, each with whether it ended with a newline."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            yield number, raw.rstrip(b"\n"), raw.endswith(b"\n")


def read(path: Path | None = None) -> Held:
    """Read the whole file, checking each line's signature and its link to the line before."""
    path = path or checkpoint_path()
    held = Held(path)
    if not path.exists():
        return held
    previous: Line | None = None
    for number, raw, whole in _raw_lines(path):
        if not raw.strip():
            continue
        line = _parse(raw)
        if line is None:
            if not whole or _parse(raw + b"}") is not None or raw.count(b"{") > raw.count(b"}"):
                held.torn += 1  # a writer stopped mid-line; the next line starts afresh
            else:
                held.problems.append(f"checkpoint file line {number} is not a checkpoint")
            continue
        if problem := _signature_problem(line):
            held.problems.append(f"checkpoint file line {number} (seq {line.seq}) {problem}")
            continue
        expected_prev = previous.mac if previous else ""
        expected_seq = previous.seq + 1 if previous else 1
        if line.prev != expected_prev or line.seq != expected_seq:
            held.problems.append(
                f"checkpoint file line {number} (seq {line.seq}) does not follow the line "
                f"before it (expected seq {expected_seq}): a checkpoint was removed, "
                "inserted or reordered"
            )
        held.lines += 1
        for name, kept in line.heads.items():
            sealed = int(kept[2]) if len(kept) > 2 and kept[2] is not None else None
            held.heads[name] = (int(kept[0]), str(kept[1]), sealed)
            held.removed.discard(name)
        for name in line.removed:
            held.heads.pop(name, None)
            held.removed.add(name)
        previous = held.last = line
    return held


def _last_two(handle: IO[bytes]) -> tuple[Line | None, Line | None, bool]:
    """The last two whole lines of an open file (the one before the last, the last) and
    whether the file ends mid-line, read backwards from its end."""
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    block, data = 65536, b""
    found: list[Line] = []
    while True:
        start = max(0, size - len(data) - block)
        handle.seek(start)
        data = handle.read(size - start)
        found = [line for raw in data.split(b"\n") if (line := _parse(raw)) is not None]
        if len(found) >= 2 or start == 0 or len(data) >= TAIL_LIMIT:
            break
    ends_mid_line = size > 0 and not data.endswith(b"\n")
    last = found[-1] if found else None
    before = found[-2] if len(found) >= 2 else None
    return before, last, ends_mid_line


# --- writing ---------------------------------------------------------------------------------


def _models() -> list[tuple[str, type[Model]]]:
    return [(label, apps.get_model(label)) for label in audit.CHAINS]


def _heads_since(
    model: type[Model], label: str, since: int, since_at: str | None, using: str
) -> tuple[dict[str, list[Any]], int]:
    """Each stream with a row after id ``since`` (or, in a sealed log, a row sealed since
    ``since_at``): its rows, last hash and (sealed logs) rows sealed; and the log's highest
    id."""
    chain = audit.CHAINS[label]
    rows = model._base_manager.using(using)
    upto = rows.aggregate(top=Max("pk"))["top"] or 0
    changed = rows.filter(pk__gt=since)
    if chain.sealed_at and since_at:
        changed = rows.filter(Q(pk__gt=since) | Q(**{f"{chain.sealed_at}__gte": since_at}))
    streams = list(changed.values_list(chain.stream, flat=True).distinct().order_by())
    counts: dict[str, Any] = {"n": Count("pk"), "last": Max("pk")}
    if chain.sealed:
        counts["sealed"] = Count("pk", filter=~Q(seal_hash=""))
    heads: dict[str, list[Any]] = {}
    for start in range(0, len(streams), CHUNK):
        chunk = streams[start : start + CHUNK]
        counted = (
            rows.filter(**{f"{chain.stream}__in": chunk})
            .values(chain.stream)
            .annotate(**counts)
            .order_by()
        )
        last_ids = {row["last"]: row for row in counted}
        for pk, row_hash in rows.filter(pk__in=list(last_ids)).values_list("pk", "row_hash"):
            row = last_ids[pk]
            head = [row["n"], row_hash]
            if chain.sealed:
                head.append(row["sealed"])
            heads[audit.stream_key(label, row[chain.stream])] = head
    return heads, upto


@contextmanager
def _locked(path: Path) -> Iterator[IO[bytes]]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield handle
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def append_line(handle: IO[bytes], line: Line, ends_mid_line: bool) -> None:
    text = ("\n" if ends_mid_line else "") + line.text() + "\n"
    handle.seek(0, os.SEEK_END)
    handle.write(text.encode())
    handle.flush()
    os.fsync(handle.fileno())
    copy = settings.CARDROOM_AUDIT_CHECKPOINT_COPY
    if copy:
        with _locked(Path(copy)) as other:
            other.write((line.text() + "\n").encode())
            other.flush()
            os.fsync(other.fileno())
    logger.info(
        "audit checkpoint %s at %s: %s streams, signature %s",
        line.seq,
        line.at,
        len(line.heads),
        line.mac,
    )


def _new_line(last: Line | None, **parts: Any) -> Line:
    key = audit.signing_key()
    line = Line(
        seq=last.seq + 1 if last else 1,
        at=timezone.now().isoformat(timespec="microseconds"),
        key=key.id,
        prev=last.mac if last else "",
        **parts,
    )
    line.mac = audit.sign(line.signed_text(), key)
    return line


def write(using: str = "default", *, force: bool = False, path: Path | None = None) -> Line | None:
    """Write a checkpoint if any stream changed since the last one (or ``force``): the new
    line, or None when nothing changed."""
    path = path or checkpoint_path()
    with _locked(path) as handle:
        before, last, ends_mid_line = _last_two(handle)
        # Each row is read by two checkpoints (the module's docstring); the first two read
        # every stream.
        since = before.upto if before else {}
        since_at = before.at if before else None
        heads: dict[str, list[Any]] = {}
        upto: dict[str, int] = {}
        for label, model in _models():
            found, upto[label] = _heads_since(model, label, since.get(label, 0), since_at, using)
            heads.update(found)
        if last is not None and not force:
            changed = upto != last.upto or any(
                last.heads.get(name) != head for name, head in heads.items()
            )
            if not changed:
                return None
        line = _new_line(last, upto=upto, heads=heads, removed=[])
        append_line(handle, line, ends_mid_line)
        return line


def record_removal(names: Iterable[str], path: Path | None = None) -> Line | None:
    """Say in the file that these streams were removed on purpose (after the transaction that
    removed them commits). Nothing is written when no checkpoint exists yet: no checkpoint
    holds them."""
    path = path or checkpoint_path()
    names = sorted(names)
    if not names or not path.exists():
        return None
    with _locked(path) as handle:
        _before, last, ends_mid_line = _last_two(handle)
        if last is None:
            return None
        line = _new_line(last, upto=dict(last.upto), heads={}, removed=names)
        append_line(handle, line, ends_mid_line)
        return line


def remove_on_commit(names: Iterable[str], using: str = "default") -> None:
    """``record_removal`` once the removing transaction has committed (a rollback keeps the
    streams, and records nothing)."""
    names = list(names)
    transaction.on_commit(lambda: record_removal(names), using=using)


# --- holding the database against the file ----------------------------------------------------


@dataclass
class Verification:
    walk: audit.Walk
    held: Held
    findings: list[audit.Break]

    @property
    def streams(self) -> int:
        return len(self.walk.heads)


def verify(using: str = "default", path: Path | None = None) -> Verification:
    """Walk every chain against the checkpoint file's heads; name each stream that lost
    rows, lost its tail or vanished, and each problem of the file itself."""
    held = read(path)
    walked = audit.walk(using=using, held=held.heads)
    findings = list(walked.breaks)
    for name, (count, _head, _sealed) in sorted(held.heads.items()):
        if name in walked.heads:
            continue
        label = name.split("/", 1)[0]
        table = _table_of(label)
        findings.append(
            audit.Break(
                table,
                None,
                f"stream {name} vanished: {count} rows at the checkpoint, none now",
            )
        )
    findings += [audit.Break(str(held.path), None, problem) for problem in held.problems]
    return Verification(walked, held, findings)


def _table_of(label: str) -> str:
    try:
        return str(apps.get_model(label)._meta.db_table)
    except LookupError:
        return label


def age_in_words(moment: datetime, now: datetime | None = None) -> str:
    seconds = max(0, int(((now or timezone.now()) - moment).total_seconds()))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


# --- the verifications' record ----------------------------------------------------------------


class AuditCheck(models.Model):
    """One run of the full verification (``manage.py verify_audit``, the beat, the floor
    page's button): what it checked and found. Shown to floor managers; a record of a run,
    not an audit log (the checkpoints and the chains are the evidence)."""

    at = models.DateTimeField(default=timezone.now, db_index=True)
    by = models.CharField(max_length=150)
    ok = models.BooleanField()
    streams = models.PositiveIntegerField()
    rows = models.PositiveBigIntegerField()
    #: The findings, in words, the first ``FINDINGS_KEPT`` of them.
    findings = models.JSONField(default=list)
    finding_count = models.PositiveIntegerField(default=0)
    checkpoint_seq = models.PositiveIntegerField(null=True, blank=True)
    checkpoint_at = models.DateTimeField(null=True, blank=True)

    FINDINGS_KEPT = 50

    class Meta:
        app_label = "cardroom"
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return (
            f"Audit verification at {self.at:%Y-%m-%d %H:%M} ({'intact' if self.ok else 'broken'})"
        )


def last_line(path: Path | None = None) -> Line | None:
    """The file's last whole line, read from its end (no signature check: ``read`` does that)."""
    path = path or checkpoint_path()
    if not path.exists():
        return None
    with path.open("rb") as handle:
        return _last_two(handle)[1]
