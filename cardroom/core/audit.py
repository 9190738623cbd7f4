"""Audit integrity: every audit table is append-only in the database and chained.

One mechanism for every audit log:

* **Append-only in the database.** ``AppendOnlyTriggers`` (a migration operation) installs, on
  PostgreSQL, triggers refusing ``UPDATE``, ``DELETE`` and ``TRUNCATE``; on SQLite, triggers
  refusing ``UPDATE`` and ``DELETE`` (SQLite has no ``TRUNCATE``). Two logs have one audited
  change of state, allowed once and nothing else: a hand action's *void* (who, when, why: the
  desk voids the last action and the hand replays without it, and rulings point at the voided
  action, so it stays the same row) and a draw's *reveal or abandonment* (the commitment is
  shown before the deal; the result and the seed are added when dealt). The trigger lets those
  columns be set once, from their initial value, and refuses any other change.
* **Tamper-evident.** Every row stores ``prev_hash`` (the ``row_hash`` of the row before it in
  its stream, ``""`` for the first) and ``row_hash``: SHA-256 over the model's label,
  ``prev_hash`` and a canonical JSON of the fields listed in ``CHAINS`` (an HMAC under the
  room's audit key, ``cardroom/core/audit_keys.py``: the hash reads ``key-id:mac``). A
  once-only change
  (void, reveal) is sealed in ``seal_hash``: SHA-256 over ``row_hash`` and the changed
  fields. Streams (ordered by id) are: per table (table changes, rulings, hand records: each
  hand's deal, award and void), per hand (hand actions), per ruling (its citations), per tournament (draws, seat moves, reservations,
  eliminations, reinstatements, balance checks, clock events), per rule (house-rule
  revisions). Rows are linked where they are created (``AppendOnly.save``, ``bulk_create``
  and the tournament's bulk ``_insert``), under the row lock the service already holds on the
  stream's parent (table, hand, tournament, rule); the database also refuses two rows with one
  ``prev_hash`` in a stream, so concurrent writers can never fork a chain.
  ``manage.py verify_audit`` walks every chain and reports each break.

The deliberate exception is ``maintenance()``: the test suite's flush between transactional
tests (and an operator restoring a backup) empties the tables inside it; on PostgreSQL it
disables the triggers with ``ALTER TABLE`` inside its transaction (the tables' owner only), never
through a session setting. What the chains cannot see (a stream's last rows deleted, a whole
stream deleted) the checkpoints outside the database do: ``cardroom/core/checkpoints.py``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, cast

from django.apps import apps as live_apps
from django.conf import settings
from django.db import connections, migrations, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.backends.signals import connection_created
from django.db.models import Field, Model

from cardroom.core.audit_keys import AuditKey
from cardroom.core.operations import DatabaseOnly


@dataclass(frozen=True)
class Chain:
    #: The field (attname) whose value names the row's stream.
    stream: str
    #: Fields covered by ``row_hash``, frozen here: a field added later does not change the
    #: hashes of rows written before it.
    fields: tuple[str, ...]
    #: Fields a once-only change sets (covered by ``seal_hash``, not ``row_hash``).
    sealed: tuple[str, ...] = ()
    #: Fields added to ``fields`` after rows were chained, with their default: a row holding
    #: the default hashes without the field (the rows written before it keep their hashes),
    #: any other value is hashed (``HandAction.out_of_turn``, ``Ruling.names``).
    later: Mapping[str, Any] = field(default_factory=dict)
    #: A sealed log's row before its once-only change: this field holds this value (no seal).
    unsealed: tuple[str, Any] | None = None
    #: A sealed log's field that says when its once-only change was made (a checkpoint reads
    #: the streams sealed since the last one: ``cardroom/core/checkpoints.py``).
    sealed_at: str | None = None


class Chains(Mapping[str, Chain]):
    """Every audit log's chain, by model label, read from the models' own declarations
    (``audit_chain`` on each ``AppendOnly`` model): the plumbing names no domain table."""

    def __init__(self) -> None:
        self._found: dict[str, Chain] | None = None

    def _all(self) -> dict[str, Chain]:
        if self._found is not None:
            return self._found
        found = {}
        for model in live_apps.get_models():
            chain = getattr(model, "audit_chain", None)
            if isinstance(chain, Chain):
                found[model._meta.label] = chain
        if live_apps.ready:  # every model is loaded: the declarations are all known
            self._found = found
        return found

    def __getitem__(self, label: str) -> Chain:
        return self._all()[label]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._all()))

    def __len__(self) -> int:
        return len(self._all())


CHAINS = Chains()


def transition(chain: Chain) -> str | None:
    """The once-only change a sealed log allows, as SQL on ``OLD``: its marker still holds its
    initial value (a void not yet made, a draw still committed)."""
    if chain.unsealed is None:
        return None
    column, initial = chain.unsealed
    if initial is None:
        return f"OLD.{column} IS NULL"
    return f"OLD.{column} = '{initial}'"


HASH_FIELDS = ("prev_hash", "row_hash", "seal_hash")


class AuditError(Exception):
    """Raised by an attempt to rewrite an audit record (the model layer's refusal)."""


# --- canonical form and hashes ------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value.isoformat(timespec="microseconds")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    return value


def canonical(model: type[Model], values: Mapping[str, Any], fields: Sequence[str]) -> str:
    """The fields as the database gives them back, in one JSON text (keys sorted)."""
    out = {}
    chain = CHAINS.get(model._meta.label)
    later = chain.later if chain is not None else {}
    for name in fields:
        model_field = cast("Field[Any, Any]", model._meta.get_field(name))  # a concrete field
        raw = values.get(name)
        if raw is not None and model_field.get_internal_type() != "JSONField":
            raw = model_field.to_python(raw)
        if name in later and raw == later[name]:
            continue
        out[name] = _plain(raw)
    return json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _keys() -> tuple[AuditKey, ...]:
    keys: tuple[AuditKey, ...] = settings.CARDROOM_AUDIT_KEYS
    return keys


def signing_key() -> AuditKey:
    """The key new rows are signed with: the first listed (``cardroom/core/audit_keys.py``)."""
    return _keys()[0]


def key_by_id(key_id: str) -> AuditKey | None:
    return next((key for key in _keys() if key.id == key_id), None)


def key_id_of(stored: str) -> str | None:
    """The key id a stored hash names (``id:mac``), or None for a hash without one (a plain
    SHA-256 from before the chains were keyed, or one recomputed without the key)."""
    key_id, colon, mac = stored.partition(":")
    return key_id if colon and mac else None


def sign(text: str, key: AuditKey) -> str:
    """``id:mac``: HMAC-SHA256 of the text under the key, in hex, cut so that id and mac fill
    the columns' 64 characters (at least 188 bits of the mac with the longest id: RFC 2104
    section 5 allows a truncated output of at least half the hash's length)."""
    mac = hmac.new(key.secret, text.encode(), hashlib.sha256).hexdigest()
    return f"{key.id}:{mac[: 63 - len(key.id)]}"


def digest(*parts: str, key: AuditKey | None = None) -> str:
    """The keyed hash of the parts, under ``key`` (default: the signing key)."""
    return sign("\x1f".join(parts), key or signing_key())


def legacy_digest(*parts: str) -> str:
    """The plain SHA-256 the chains used before they were keyed: read only by the migration
    that signs the rows written before it."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def row_hash(
    model: type[Model], values: Mapping[str, Any], prev_hash: str, key: AuditKey | None = None
) -> str:
    chain = CHAINS[model._meta.label]
    return digest(model._meta.label, prev_hash, canonical(model, values, chain.fields), key=key)


def seal_hash(
    model: type[Model], values: Mapping[str, Any], row: str, key: AuditKey | None = None
) -> str:
    chain = CHAINS[model._meta.label]
    return digest(model._meta.label, "seal", row, canonical(model, values, chain.sealed), key=key)


def _heads(model: type[Model], streams: Iterable[Any], using: str) -> dict[Any, str]:
    """The last ``row_hash`` of each stream (the stream's parent row is locked by the caller)."""
    chain = CHAINS[model._meta.label]
    heads: dict[Any, str] = {}
    for stream in set(streams):
        last = (
            model._base_manager.using(using)
            .filter(**{chain.stream: stream})
            .order_by("-pk")
            .values_list("row_hash", flat=True)
            .first()
        )
        heads[stream] = last or ""
    return heads


def link_rows(
    model: type[Model],
    rows: Sequence[dict[str, Any] | Model],
    using: str = "default",
    heads: Mapping[Any, str] | None = None,
) -> None:
    """Give rows about to be inserted in this order (dicts by attname, or model instances)
    their ``prev_hash`` and ``row_hash``. ``heads``: each stream's last ``row_hash`` when the
    caller read it under the stream's parent lock (a hand's actions, read for its replay),
    else it is read here. A stale head cannot fork a chain: the database refuses a second row
    with the same ``prev_hash`` in a stream (``chain_unique``)."""
    chain = CHAINS[model._meta.label]

    def get(row: Any, name: str) -> Any:
        return row.get(name) if isinstance(row, dict) else getattr(row, name)

    def put(row: Any, name: str, value: str) -> None:
        if isinstance(row, dict):
            row[name] = value
        else:
            setattr(row, name, value)

    streams = [get(row, chain.stream) for row in rows]
    if heads is not None and set(streams) <= set(heads):
        found = dict(heads)
    else:
        found = _heads(model, streams, using)
    for row in rows:
        values = row if isinstance(row, dict) else {f: getattr(row, f) for f in chain.fields}
        stream = get(row, chain.stream)
        prev = found[stream]
        put(row, "prev_hash", prev)
        found[stream] = row_hash(model, values, prev)
        put(row, "row_hash", found[stream])
        if chain.sealed:
            put(row, "seal_hash", "")


# --- verification ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Break:
    table: str
    #: The row, or None for what no row holds (a vanished stream, the checkpoint file).
    row: int | None
    what: str

    def __str__(self) -> str:
        if self.row is None:
            return f"{self.table}: {self.what}"
        return f"{self.table} row {self.row}: {self.what}"


#: A stream's head as a checkpoint keeps it: rows in the stream, the last row's hash, and for
#: a sealed log the number of its rows sealed (voided, dealt), else None.
Head = tuple[int, str, int | None]


def stream_key(label: str, stream: Any) -> str:
    """A stream's name in checkpoints and findings: ``app.Model/stream value``."""
    return f"{label}/{stream}"


@dataclass
class Walk:
    """What a walk of the chains found: the breaks, and each stream's head as it stands."""

    breaks: list[Break] = field(default_factory=list)
    heads: dict[str, Head] = field(default_factory=dict)
    rows: int = 0


def verify(apps: Any = None, using: str = "default") -> list[Break]:
    """Walk every chain, in each stream by id: each row's hash recomputed from its fields and
    the row before it. A changed field, a removed or inserted row, a forged seal: a break."""
    return walk(apps, using).breaks


def walk(apps: Any = None, using: str = "default", held: Mapping[str, Head] | None = None) -> Walk:
    """``verify``, and each stream held against a checkpoint's head of it (``held``): a stream
    with fewer rows than the checkpoint counted lost rows; one whose row at the checkpoint's
    count does not carry the checkpoint's hash was cut and written again."""
    registry = apps or live_apps
    found = Walk()
    for label in CHAINS:
        model = registry.get_model(label)
        _walk(model, model._base_manager.using(using).all(), found, held or {})
    return found


def verify_stream(model: type[Model], stream: Any, using: str = "default") -> list[Break]:
    """Walk one stream of one chain (a tournament's money ledger, say), as ``verify`` walks
    them all: read a row at a time, never the whole stream at once."""
    chain = CHAINS[model._meta.label]
    found = Walk()
    queryset = model._base_manager.using(using).filter(**{chain.stream: stream})
    _walk(model, queryset, found, {})
    return found.breaks


def _signed(stored: str, parts: Sequence[str]) -> str | None:
    """What is wrong with a stored hash of these parts (``digest``), or None."""
    key_id = key_id_of(stored)
    if key_id is None:
        return "not signed with the audit key (recomputed without it?)"
    key = key_by_id(key_id)
    if key is None:
        return f"signed with audit key {key_id!r}, which this server does not hold"
    if not hmac.compare_digest(stored, digest(*parts, key=key)):
        return "does not match"
    return None


def _walk(model: type[Model], queryset: Any, found: Walk, held: Mapping[str, Head]) -> None:
    chain = CHAINS[model._meta.label]
    label, table = model._meta.label, model._meta.db_table
    fields = chain.fields
    names = ["pk", *fields, *chain.sealed, *HASH_FIELDS[: 3 if chain.sealed else 2]]
    rows = queryset.order_by(chain.stream, "pk").values(*names).iterator()
    breaks = found.breaks
    stream: Any = object()
    name, head, count, sealed_count, last_pk = "", "", 0, 0, 0

    def close() -> None:
        if not name:
            return
        found.heads[name] = (count, head, sealed_count if chain.sealed else None)
        kept = held.get(name)
        if kept is not None and count < kept[0]:
            breaks.append(
                Break(
                    table,
                    last_pk,
                    f"stream {name} lost rows: {count} now, {kept[0]} at the checkpoint "
                    "(its tail was deleted)",
                )
            )
        if kept is not None and kept[2] is not None and sealed_count < kept[2]:
            breaks.append(
                Break(
                    table,
                    last_pk,
                    f"stream {name} lost a sealed change ({', '.join(chain.sealed)}): "
                    f"{sealed_count} now, {kept[2]} at the checkpoint (a void or a deal undone)",
                )
            )

    for row in rows:
        if row[chain.stream] != stream:
            close()
            stream, head, count, sealed_count = row[chain.stream], "", 0, 0
            name = stream_key(label, stream)
        count += 1
        found.rows += 1
        last_pk = row["pk"]
        if row["prev_hash"] != head:
            breaks.append(
                Break(
                    table,
                    row["pk"],
                    f"prev_hash does not match the row before it in its stream "
                    f"({chain.stream}={row[chain.stream]}): a row was removed, inserted or "
                    "reordered",
                )
            )
        problem = _signed(row["row_hash"], (label, row["prev_hash"], canonical(model, row, fields)))
        if problem == "does not match":
            breaks.append(
                Break(table, row["pk"], "contents changed: row_hash does not match its fields")
            )
        elif problem:
            breaks.append(Break(table, row["pk"], f"row_hash {problem}"))
        kept = held.get(name)
        if kept is not None and count == kept[0] and row["row_hash"] != kept[1]:
            breaks.append(
                Break(
                    table,
                    row["pk"],
                    f"stream {name} was rewritten: its row {count} is not the one the "
                    "checkpoint signed",
                )
            )
        if chain.sealed:
            marker, initial = cast("tuple[str, Any]", chain.unsealed)
            if row["seal_hash"]:
                sealed_count += 1
                sealed = canonical(model, row, chain.sealed)
                problem = _signed(row["seal_hash"], (label, "seal", row["row_hash"], sealed))
                if problem == "does not match":
                    what = f"{', '.join(chain.sealed)} changed after sealing"
                    breaks.append(Break(table, row["pk"], what))
                elif problem:
                    breaks.append(Break(table, row["pk"], f"seal_hash {problem}"))
            elif row[marker] != initial:
                what = f"{', '.join(chain.sealed)} changed without a seal"
                breaks.append(Break(table, row["pk"], what))
        head = row["row_hash"]
    close()


# --- the database's refusal -----------------------------------------------------------------------

PG_FUNCTION = """
CREATE OR REPLACE FUNCTION cardroom_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE =
        TG_TABLE_NAME || ' is an append-only audit log: ' || TG_OP || ' refused';
END
$$ LANGUAGE plpgsql
"""


class AppendOnlyTriggers(DatabaseOnly):
    """Refuse UPDATE, DELETE (and TRUNCATE on PostgreSQL) on a model's table, except the
    model's once-only change (``transition``): the sealed columns set once, nothing else.
    """

    def __init__(self, model_name: str, label: str) -> None:
        super().__init__(model_name, label)
        self.model_name, self.label = model_name, label

    def describe(self) -> str:
        return f"Append-only triggers on {self.model_name}"

    def _sql(self, model: type[Model], vendor: str) -> list[str]:
        table = model._meta.db_table
        transition_sql = transition(CHAINS[self.label])
        sealed_fields = [model._meta.get_field(name) for name in CHAINS[self.label].sealed]
        sealed = [cast("Field[Any, Any]", f).column for f in sealed_fields]  # concrete fields
        if vendor == "postgresql":
            allowed = "false"
            if transition_sql:
                changing = ", ".join(f"'{c}'" for c in [*sealed, "seal_hash"])
                allowed = (
                    f"{transition_sql} AND (to_jsonb(OLD) - ARRAY[{changing}]) = "
                    f"(to_jsonb(NEW) - ARRAY[{changing}])"
                )
            return [
                PG_FUNCTION,
                f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} FOR EACH ROW "
                f"WHEN (NOT ({allowed})) EXECUTE FUNCTION cardroom_append_only()",
                f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} FOR EACH ROW "
                "EXECUTE FUNCTION cardroom_append_only()",
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION cardroom_append_only()",
            ]
        allowed = "0"
        if transition_sql:
            fixed = [
                f.column
                for f in model._meta.concrete_fields
                if f.column not in sealed and f.column != "seal_hash"
            ]
            same = " AND ".join(f'NEW."{c}" IS OLD."{c}"' for c in fixed)
            allowed = f"({transition_sql} AND {same})"
        message = f"{table} is an append-only audit log: %s refused"
        # ``cardroom_audit_maintenance()`` is registered on Django's connections; any other
        # client (the sqlite3 shell) lacks it, and its write fails all the same.
        return [
            f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} FOR EACH ROW "
            f"WHEN NOT {allowed} AND NOT cardroom_audit_maintenance() "
            f"BEGIN SELECT RAISE(ABORT, '{message % 'UPDATE'}'); END",
            f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} FOR EACH ROW "
            "WHEN NOT cardroom_audit_maintenance() "
            f"BEGIN SELECT RAISE(ABORT, '{message % 'DELETE'}'); END",
        ]

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        model = to_state.apps.get_model(app_label, self.model_name)
        for sql in self._sql(model, schema_editor.connection.vendor):
            schema_editor.execute(sql)

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        model = from_state.apps.get_model(app_label, self.model_name)
        table = model._meta.db_table
        for what in ("update", "delete", "truncate"):
            if what == "truncate" and schema_editor.connection.vendor != "postgresql":
                continue
            on = f" ON {table}" if schema_editor.connection.vendor == "postgresql" else ""
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_{what}{on}")


class ReinstallAppendOnlyTriggers(AppendOnlyTriggers):
    """The append-only triggers dropped and made again for the model as it then is. SQLite
    rebuilds a table to add or drop a column with a default, losing its triggers, and its
    UPDATE trigger lists the columns that may not change: put one on each side of such a
    change (the one before makes them again when the change is undone)."""

    def describe(self) -> str:
        return f"Append-only triggers on {self.model_name} made again"

    def _remake(self, app_label: str, schema_editor: Any, state: Any) -> None:
        AppendOnlyTriggers.database_backwards(self, app_label, schema_editor, state, state)
        AppendOnlyTriggers.database_forwards(self, app_label, schema_editor, state, state)

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        self._remake(app_label, schema_editor, to_state)

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        self._remake(app_label, schema_editor, to_state)


def chain_existing(app_label: str, model_names: Sequence[str]) -> migrations.RunPython:
    """A data migration: link the rows written before the chains existed, stream by stream,
    in id order (``prev_hash``, ``row_hash``; ``seal_hash`` for rows already voided or dealt).
    """

    def forwards(apps: Any, schema_editor: Any) -> None:
        using = schema_editor.connection.alias
        for name in model_names:
            model = apps.get_model(app_label, name)
            label = f"{app_label}.{model.__name__}"
            chain = CHAINS[label]
            heads: dict[Any, str] = {}
            # A field added later is missing from the model as this migration knows it: its
            # rows hash as rows holding its default do (``Chain.later``).
            known = {f.attname for f in model._meta.concrete_fields}
            fields = tuple(f for f in chain.fields if f not in chain.later or f in known)
            for obj in model._base_manager.using(using).order_by(chain.stream, "pk").iterator():
                values = {f: getattr(obj, f) for f in (*fields, *chain.sealed)}
                stream = values[chain.stream]
                obj.prev_hash = heads.get(stream, "")
                obj.row_hash = digest(label, obj.prev_hash, canonical(model, values, fields))
                update = ["prev_hash", "row_hash"]
                if chain.sealed:
                    field, initial = cast("tuple[str, Any]", chain.unsealed)
                    done = values[field] != initial
                    obj.seal_hash = (
                        digest(label, "seal", obj.row_hash, canonical(model, values, chain.sealed))
                        if done
                        else ""
                    )
                    update.append("seal_hash")
                heads[stream] = obj.row_hash
                model._base_manager.using(using).filter(pk=obj.pk).update(
                    **{f: getattr(obj, f) for f in update}
                )

    return migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False)


def rechain(model: type[Model], before: Sequence[str], after: Sequence[str], using: str) -> None:
    """Link a log's rows again over other fields, in a migration that adds or drops a hashed
    column (``model`` is the migration's own). Each row is first checked against the chain as
    it was (``before``): a log already broken is refused, never sealed again under new hashes
    (``verify_audit`` names the break)."""
    sign_again(model, using, before, after)


def sign_app(app_label: str) -> migrations.RunPython:
    """A data migration: every log of the app checked and signed again under the signing key
    (``sign_again``); a log a later migration makes has no rows yet."""

    def forwards(apps: Any, schema_editor: Any) -> None:
        for label in CHAINS:
            if not label.startswith(f"{app_label}."):
                continue
            try:
                model = apps.get_model(label)
            except LookupError:  # made by a later migration
                continue
            sign_again(model, schema_editor.connection.alias)

    return migrations.RunPython(forwards, migrations.RunPython.noop, elidable=False)


def _was(stored: str, parts: Sequence[str]) -> bool:
    """A stored hash is the one these parts had: under the key it names, or, for a hash
    written before the chains were keyed, the plain SHA-256 of the time."""
    key_id = key_id_of(stored)
    if key_id is None:
        return hmac.compare_digest(stored, legacy_digest(*parts))
    key = key_by_id(key_id)
    return key is not None and hmac.compare_digest(stored, digest(*parts, key=key))


def sign_again(
    model: type[Model],
    using: str,
    before: Sequence[str] | None = None,
    after: Sequence[str] | None = None,
) -> None:
    """Check every row of a log against its chain as it stands (``before``: the hashed fields
    then; plain SHA-256 hashes from before the keys are accepted), then link and sign it
    again under the signing key over ``after``. A migration's tool (``model`` is its own): a
    log that does not verify is refused, never signed again."""
    label = model._meta.label
    chain = CHAINS[label]
    known = {f.attname for f in model._meta.concrete_fields}
    fields = tuple(f for f in chain.fields if f not in chain.later or f in known)
    before, after = tuple(before or fields), tuple(after or fields)
    old_head: dict[Any, str] = {}
    new_head: dict[Any, str] = {}
    rows = model._base_manager.using(using).order_by(chain.stream, "pk")
    with maintenance(using):
        obj: Any
        for obj in rows.iterator():
            values = {f: getattr(obj, f) for f in {*before, *after, *chain.sealed}}
            stream = getattr(obj, chain.stream)
            was = (label, old_head.get(stream, ""), canonical(model, values, before))
            sealed_was = (label, "seal", obj.row_hash, canonical(model, values, chain.sealed))
            if (
                obj.prev_hash != old_head.get(stream, "")
                or not _was(obj.row_hash, was)
                or (chain.sealed and obj.seal_hash and not _was(obj.seal_hash, sealed_was))
            ):
                raise AuditError(
                    f"{label} row {obj.pk} does not verify: the log is not signed again "
                    "until manage.py verify_audit finds it intact"
                )
            old_head[stream] = obj.row_hash
            prev = new_head.get(stream, "")
            new_head[stream] = digest(label, prev, canonical(model, values, after))
            update = {"prev_hash": prev, "row_hash": new_head[stream]}
            if chain.sealed and obj.seal_hash:
                update["seal_hash"] = digest(
                    label, "seal", new_head[stream], canonical(model, values, chain.sealed)
                )
            model._base_manager.using(using).filter(pk=obj.pk).update(**update)


# --- the deliberate exception ---------------------------------------------------------------------


#: The append-only triggers, as PostgreSQL names them (``AppendOnlyTriggers``): none before
#: the first migration makes their function.
PG_TRIGGERS = """
SELECT tgrelid::regclass::text, array_agg(tgname::text ORDER BY tgname)
FROM pg_trigger
WHERE tgfoid IN (SELECT oid FROM pg_proc WHERE proname = 'cardroom_append_only')
  AND tgenabled <> 'D'
GROUP BY tgrelid
ORDER BY 1
"""


@contextmanager
def maintenance(using: str = "default") -> Iterator[None]:
    """Let this connection empty or restore audit tables: the test suite's flush, a restore,
    a migration that links a log again. No session setting turns the triggers off (any
    client could set one): on PostgreSQL the triggers are disabled by ``ALTER TABLE``, which
    only the tables' owner may run, inside this transaction, so they are on again at its end
    whatever happens; on SQLite the triggers ask a function only Django's own connections
    register (``register_sqlite_function``), and any other client's write fails."""
    connection = connections[using]
    with transaction.atomic(using=using):
        if connection.vendor != "postgresql":
            connection.audit_maintenance = True  # type: ignore[attr-defined]
            try:
                yield
            finally:
                connection.audit_maintenance = False  # type: ignore[attr-defined]
            return
        with connection.cursor() as cursor:
            cursor.execute(PG_TRIGGERS)
            triggers = cursor.fetchall()
            # A table with foreign-key checks still pending in this transaction cannot be
            # altered: run them now, and defer them again after (Django's are all
            # ``DEFERRABLE INITIALLY DEFERRED``, the only deferrable constraints here).
            if triggers:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table, names in triggers:
                actions = ", ".join(f'DISABLE TRIGGER "{name}"' for name in names)
                cursor.execute(f"ALTER TABLE {table} {actions}")
        yield
        with connection.cursor() as cursor:
            if triggers:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table, names in triggers:
                actions = ", ".join(f'ENABLE TRIGGER "{name}"' for name in names)
                cursor.execute(f"ALTER TABLE {table} {actions}")
            if triggers:
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def register_sqlite_function(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: SQLite's triggers ask this connection whether it is in
    ``maintenance()``."""
    if connection.vendor != "sqlite":
        return
    connection.connection.create_function(
        "cardroom_audit_maintenance",
        0,
        lambda: int(getattr(connection, "audit_maintenance", False)),
    )


def allow_flush() -> None:
    """The test suite's flush between transactional tests empties the audit tables too."""
    original = BaseDatabaseOperations.execute_sql_flush
    if getattr(original, "audit_maintenance", False):
        return

    def execute_sql_flush(self: Any, sql_list: Iterable[str]) -> None:
        with maintenance(self.connection.alias):
            original(self, sql_list)

    execute_sql_flush.audit_maintenance = True  # type: ignore[attr-defined]
    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]


connection_created.connect(register_sqlite_function, dispatch_uid="cardroom.core.audit")
