"""The migrations keep every table and every row: the database is taken back to the schema of
commit 4982a9e (``TODAY``), given a row in every table of the three apps, written as that
code wrote them (its audit chains included), and brought forward to the latest migrations.
Every table is still there with the same rows and values, the audit chains verify, and a
ruling made during a tournament is still that tournament's."""

from __future__ import annotations

import datetime
import decimal
import itertools
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.apps.registry import Apps
from django.db import connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Field, Model

from cardroom.core import audit
from cardroom.core.audit import Chain

#: The latest migration of each app at commit 4982a9e, the schema the rows are written in.
TODAY = (
    ("cardroom", "0021_button_draw"),
    ("rules", "0009_audit_append_only"),
    ("tournaments", "0007_tournament_ante_type"),
)
APPS = tuple(app for app, _ in TODAY)

#: The audit chains as the code of 4982a9e declared them: rows already in a database were
#: hashed with these, so a migration that changes a chain must re-chain its rows (a row
#: hashed with today's declaration would hide a missing re-chain).
TODAY_CHAINS = {
    "cardroom.TableChange": Chain(
        "table_id", ("table_id", "changed_by_id", "changed_at", "action", "changes")
    ),
    "cardroom.HandAction": Chain(
        "hand_id",
        ("hand_id", "seq", "seat", "action", "to", "entered_by_id", "entered_at", "out_of_turn"),
        sealed=("voided_by_id", "voided_at", "void_reason"),
        later={"out_of_turn": False},
        unsealed=("voided_at", None),
    ),
    "cardroom.Ruling": Chain(
        "table_id",
        (
            "table_id", "tournament_id", "number", "kind", "amends_id", "hand_id", "action_id",
            "seats", "situation", "decision", "director_id", "created_at", "request_key", "names",
        ),
        later={"names": {}},
    ),
    "cardroom.RulingCitation": Chain("ruling_id", ("ruling_id", "rule_id", "note", "order")),
    "cardroom.SeatEvent": Chain(
        "table_id",
        (
            "table_id", "seat", "player_id", "kind", "amount", "stack", "hand_id", "note",
            "by_id", "at",
        ),
    ),
    "cardroom.WaitlistEvent": Chain(
        "game_list_id",
        (
            "game_list_id", "entry_id", "player_id", "kind", "table_number", "seat", "note",
            "by_id", "at",
        ),
    ),
    "tournaments.Draw": Chain(
        "tournament_id",
        (
            "tournament_id", "number", "kind", "commitment", "seed", "inputs",
            "rulebook_edition", "citations", "committed_by_id", "committed_at",
        ),
        sealed=("status", "result", "revealed_at"),
        unsealed=("status", "committed"),
    ),
    "tournaments.SeatMove": Chain(
        "tournament_id",
        (
            "tournament_id", "entrant_id", "from_table", "from_seat", "to_table", "to_seat",
            "reason", "note", "citations", "draw_id", "by_id", "at",
        ),
    ),
    "tournaments.SeatReservation": Chain(
        "tournament_id",
        ("tournament_id", "entrant_id", "table_id", "seat", "reason", "by_id", "at"),
    ),
    "tournaments.Elimination": Chain(
        "tournament_id",
        (
            "tournament_id", "entrant_id", "place", "hand_for_hand_hand", "table_number", "seat",
            "by_id", "at",
        ),
    ),
    "tournaments.Reinstatement": Chain(
        "tournament_id",
        (
            "tournament_id", "elimination_id", "entrant_id", "table_number", "seat", "reason",
            "by_id", "at",
        ),
    ),
    "tournaments.BalanceCheck": Chain(
        "tournament_id",
        (
            "tournament_id", "moves", "tables_to_break", "tables_to_halt", "final_table",
            "citations", "counts", "seating_version", "at",
        ),
    ),
    "tournaments.ClockEvent": Chain(
        "tournament_id", ("tournament_id", "action", "level_number", "by_id", "at")
    ),
    "rules.RuleRevision": Chain(
        "rule_id", ("rule_id", "title", "text", "changed_by_id", "changed_at")
    ),
}  # fmt: skip

#: Columns a migration may rewrite: re-chaining gives rows new hashes (``verify`` checks them).
REWRITABLE = frozenset(audit.HASH_FIELDS)

#: Bookkeeping, not data: the migrations table changes with every migration.
NOT_DATA = frozenset({"django_migrations"})

#: Tables a migration adds rows to (every row already there kept as it was), and why.
GAINS_ROWS = {
    # tournaments 0013_players: an entry whose name the room knew no player of gets one.
    "cardroom_player": "a player for each entry's person",
    # cardroom 0026_cashier_role: the cashier's role group.
    "auth_group": "the cashier's role group",
}

WHEN = datetime.datetime(2026, 11, 27, 12, 0, tzinfo=datetime.UTC)


# --- a row in every table ------------------------------------------------------------------------


class Rows:
    """One row of each model, its parents made first (by following its foreign keys), every
    field filled: a field's default when it has one, else its first choice, else a value of
    its type. Nullable links are filled too, so a link a migration moves has a row to move;
    a link back to the model itself (an amendment, a re-entry) stays empty."""

    def __init__(self, using: str) -> None:
        self.using = using
        self.made: dict[str, Model] = {}
        self.making: set[str] = set()
        self.numbers = itertools.count(1)

    def of(self, model: type[Model]) -> Model:
        label = model._meta.label
        if label in self.made:
            return self.made[label]
        assert label not in self.making, f"{label} needs itself through required links"
        self.making.add(label)
        chain = TODAY_CHAINS.get(label)
        # A sealed log's row as written: its once-only change (a void, a reveal) not made.
        untouched = set(chain.sealed) | set(audit.HASH_FIELDS) if chain else set()
        row = model()
        for field in model._meta.concrete_fields:
            numbered = field.primary_key and field.auto_created
            if numbered or field.name in untouched or field.attname in untouched:
                continue
            if field.is_relation:
                parent = field.related_model
                assert isinstance(parent, type)
                if parent._meta.label in self.making:  # itself, or a cycle through it
                    assert field.null, f"{label}.{field.name} needs a row that needs this one"
                    continue
                setattr(row, field.name, self.of(parent))
            else:
                setattr(row, field.attname, self.value(field))
        if chain is not None:
            audit.link_rows(model, [row], self.using)
        row.save(force_insert=True, using=self.using)
        self.making.discard(label)
        self.made[label] = row
        return row

    def value(self, field: Field[Any, Any]) -> Any:
        if field.has_default():
            return field.get_default()
        if field.choices:
            return field.flatchoices[0][0]
        number = next(self.numbers)
        kind = field.get_internal_type()
        if kind in {"CharField", "TextField", "SlugField", "FilePathField", "FileField"}:
            text = f"kept-{field.name}-{number}"
            return text[-field.max_length :] if field.max_length else text
        if kind.endswith("IntegerField") or kind in {"FloatField"}:
            return number  # growing along the fields: a big blind comes out over its small
        if kind == "DecimalField":
            return decimal.Decimal(number)
        if kind == "BooleanField":
            return True
        if kind == "DateTimeField":
            return WHEN + datetime.timedelta(minutes=number)
        if kind == "DateField":
            return WHEN.date() + datetime.timedelta(days=number)
        if kind == "TimeField":
            return datetime.time(12, number % 60)
        if kind == "DurationField":
            return datetime.timedelta(minutes=number)
        if kind == "JSONField":
            return {"kept": field.name}
        if kind == "UUIDField":
            return uuid.UUID(int=number)
        if kind == "BinaryField":
            return f"kept-{number}".encode()
        if kind == "GenericIPAddressField":
            return "192.0.2.1"
        raise AssertionError(f"no value for {field.model._meta.label}.{field.name} ({kind})")


def models_of(apps: Apps) -> list[type[Model]]:
    return sorted(
        (
            model
            for app in APPS
            for model in apps.get_app_config(app).get_models(include_auto_created=True)
            if model._meta.managed and not model._meta.proxy
        ),
        key=lambda model: model._meta.label,
    )


@contextmanager
def chains_of_today() -> Iterator[None]:
    """Hash (and verify) as the code of ``TODAY`` did."""
    live = audit.CHAINS
    audit.CHAINS = TODAY_CHAINS  # type: ignore[assignment]
    try:
        yield
    finally:
        audit.CHAINS = live


# --- what the database holds ---------------------------------------------------------------------


def tables(db: BaseDatabaseWrapper) -> set[str]:
    return set(db.introspection.table_names(include_views=False)) - NOT_DATA


def search_shadows(db: BaseDatabaseWrapper) -> set[str]:
    """SQLite's full-text indexes keep their own tables beside each virtual table; a rebuild
    rewrites them, and the virtual table (counted) is what the rulebook search reads."""
    if db.vendor != "sqlite":
        return set()
    with db.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")
        virtual = [name for (name,) in cursor.fetchall()]
    suffixes = ("_data", "_idx", "_docsize", "_config", "_content")
    return {f"{name}{suffix}" for name in virtual for suffix in suffixes}


def triggers(db: BaseDatabaseWrapper) -> set[tuple[str, str]]:
    """(table, trigger): the append-only refusals and the search index's upkeep."""
    with db.cursor() as cursor:
        if db.vendor == "sqlite":
            cursor.execute("SELECT tbl_name, name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute(
                "SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal"
            )
        return set(cursor.fetchall())


def rows(db: BaseDatabaseWrapper, table: str, pk: str | None) -> dict[Any, dict[str, Any]]:
    """Each row by primary key (by position where the table has none), as the driver reads it."""
    quoted = db.ops.quote_name(table)
    order = f" ORDER BY {db.ops.quote_name(pk)}" if pk else ""
    with db.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {quoted}{order}")  # noqa: S608 (a table name we listed)
        columns = [column[0] for column in cursor.description]
        found = [dict(zip(columns, values, strict=True)) for values in cursor.fetchall()]
    return {row[pk] if pk else index: row for index, row in enumerate(found)}


def snapshot(db: BaseDatabaseWrapper, apps: Apps) -> dict[str, dict[Any, dict[str, Any]]]:
    pks = {
        model._meta.db_table: model._meta.pk.column
        for model in apps.get_models(include_auto_created=True)
        if model._meta.pk is not None
    }
    counted_only = search_shadows(db)
    return {table: rows(db, table, pks.get(table)) for table in sorted(tables(db) - counted_only)}


def mismatches(
    before: dict[str, dict[Any, dict[str, Any]]], after: dict[str, dict[Any, dict[str, Any]]]
) -> Iterable[str]:
    for table, old in before.items():
        new = after.get(table)
        if new is None:
            yield f"{table}: gone"
            continue
        if set(old) != set(new) and not (table in GAINS_ROWS and set(old) < set(new)):
            lost, added = sorted(set(old) - set(new)), sorted(set(new) - set(old))
            yield f"{table}: {len(old)} rows became {len(new)} (lost {lost}, added {added})"
            continue
        for key, row in old.items():
            for column, value in row.items():
                if column in REWRITABLE or column not in new[key]:
                    continue
                if new[key][column] != value:
                    yield f"{table} row {key}: {column} was {value!r}, is {new[key][column]!r}"


# --- the test ----------------------------------------------------------------------------------


def latest_nodes() -> list[tuple[str, str]]:
    return sorted(MigrationExecutor(connection).loader.graph.leaf_nodes())


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # reads what is applied now


def ruling_links(apps: Apps) -> list[tuple[type[Model], str, str]]:
    """Where the latest schema keeps a ruling's tournament: the model holding a link to each,
    with the two links' column names (``Ruling.tournament`` itself while it lasts)."""
    found = []
    for model in apps.get_models():
        links = {
            field.related_model._meta.label: field.attname
            for field in model._meta.concrete_fields
            if field.is_relation and isinstance(field.related_model, type)
        }
        if model._meta.label == "cardroom.Ruling" and "tournaments.Tournament" in links:
            found.append((model, "pk", links["tournaments.Tournament"]))
        elif {"cardroom.Ruling", "tournaments.Tournament"} <= set(links):
            found.append((model, links["cardroom.Ruling"], links["tournaments.Tournament"]))
    return found


@pytest.mark.django_db(transaction=True)
def test_the_migrations_keep_every_table_row_and_chain_written_at_todays_schema() -> None:
    latest = latest_nodes()
    others = [node for node in latest if node[0] not in APPS]
    today = [*TODAY, *others]
    try:
        executor = migrate(today)
        old_apps = executor.loader.project_state(today).apps
        with transaction.atomic(), chains_of_today():
            made = Rows(connection.alias)
            for model in models_of(old_apps):
                made.of(model)
            assert audit.verify(old_apps) == [], "the rows are not chained as 4982a9e chained them"
        empty = [
            model._meta.label for model in models_of(old_apps) if not model._base_manager.exists()
        ]
        assert empty == [], f"models without a row at today's schema: {empty}"
        ruling = made.made["cardroom.Ruling"]
        tournament_id = ruling.tournament_id  # type: ignore[attr-defined]
        assert tournament_id is not None
        before, triggers_before = snapshot(connection, old_apps), triggers(connection)

        executor = migrate(latest)
        new_apps = executor.loader.project_state(latest).apps
        after = snapshot(connection, new_apps)
        changed = list(mismatches(before, after))
        assert changed == [], "the migrations lost or changed rows:\n" + "\n".join(changed)
        lost_triggers = {
            (table, name)
            for table, name in triggers_before - triggers(connection)
            if table in after
        }
        assert lost_triggers == set(), "triggers the migrations dropped"
        breaks = [str(found) for found in audit.verify()]
        assert breaks == [], "audit chains broken by the migrations:\n" + "\n".join(breaks)

        # tournaments 0013_players: every entry points at a person of its name.
        entrant = new_apps.get_model("tournaments", "Entrant")
        for entry in entrant._base_manager.select_related("player"):
            assert entry.player.name == entry.name, f"entry {entry.pk} lost its person"
        links = ruling_links(new_apps)
        assert links, "no model links a ruling to its tournament any more"
        for model, ruling_column, tournament_column in links:
            assert model._base_manager.filter(
                **{ruling_column: ruling.pk, tournament_column: tournament_id}
            ).exists(), f"{model._meta.label} lost ruling {ruling.pk}'s tournament"
    finally:
        # The rest of the suite runs on the latest schema, even after a failure above.
        migrate(latest)
