"""The full-text index behind rulebook search, per database.

PostgreSQL keeps a stored generated ``search_vector`` column (migration 0002) that no table
change can lose. SQLite keeps two external-content FTS5 tables in step with ``rules_rule``
through triggers: ``rules_rule_fts`` (citation, title, text) and ``rules_example_fts`` (the
worked examples). They are apart because FTS5's bm25 divides by the length of the whole row:
with the long TDA illustrations in the same row, a rule titled "Re-opening the bet" ranked
below rules that only mention re-opening. Prefix indexes (2 to 4 letters) keep the half-typed
last word of a search-as-you-type query ("stra*") from scanning every term.

SQLite rebuilds a table to alter a column, which drops its triggers: ``ensure_search_index``
puts them back and re-indexes. It runs after every ``migrate`` (``RulesConfig.ready``), so a
later migration on ``Rule`` cannot silently stop the index from following the rules.
"""

from __future__ import annotations

from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

FTS_TABLES = {
    "rules_rule_fts": """
        CREATE VIRTUAL TABLE rules_rule_fts USING fts5(
            citation_id, title, text,
            content='rules_rule', content_rowid='id', tokenize='porter unicode61',
            prefix='2 3 4'
        )""",
    "rules_example_fts": """
        CREATE VIRTUAL TABLE rules_example_fts USING fts5(
            examples_text,
            content='rules_rule', content_rowid='id', tokenize='porter unicode61',
            prefix='2 3 4'
        )""",
}
_ADD = """
    INSERT INTO rules_rule_fts(rowid, citation_id, title, text)
    VALUES (new.id, new.citation_id, new.title, new.text);
    INSERT INTO rules_example_fts(rowid, examples_text) VALUES (new.id, new.examples_text);"""
_REMOVE = """
    INSERT INTO rules_rule_fts(rules_rule_fts, rowid, citation_id, title, text)
    VALUES ('delete', old.id, old.citation_id, old.title, old.text);
    INSERT INTO rules_example_fts(rules_example_fts, rowid, examples_text)
    VALUES ('delete', old.id, old.examples_text);"""
SQLITE_TRIGGERS = {
    "rules_rule_fts_insert": "CREATE TRIGGER IF NOT EXISTS rules_rule_fts_insert"
    f" AFTER INSERT ON rules_rule BEGIN {_ADD}\nEND",
    "rules_rule_fts_delete": "CREATE TRIGGER IF NOT EXISTS rules_rule_fts_delete"
    f" AFTER DELETE ON rules_rule BEGIN {_REMOVE}\nEND",
    "rules_rule_fts_update": "CREATE TRIGGER IF NOT EXISTS rules_rule_fts_update"
    f" AFTER UPDATE ON rules_rule BEGIN {_REMOVE}{_ADD}\nEND",
}


def rebuild(cursor: Any) -> None:
    for table in FTS_TABLES:
        cursor.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")  # noqa: S608


def ensure_search_index(connection: BaseDatabaseWrapper) -> bool:
    """Recreate missing SQLite triggers and re-index; True when something was repaired."""
    if connection.vendor != "sqlite":
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')"
            " AND name IN (%s, %s, %s, %s, %s)",
            [*FTS_TABLES, *SQLITE_TRIGGERS],
        )
        present = {row[0] for row in cursor.fetchall()}
        if not present.issuperset(FTS_TABLES):
            return False  # the migrations that create the index have not run yet
        missing = [name for name in SQLITE_TRIGGERS if name not in present]
        for name in missing:
            cursor.execute(SQLITE_TRIGGERS[name])
        if missing:
            # Rows written while a trigger was missing are not in the index: rebuild it all.
            rebuild(cursor)
    return bool(missing)


def repair_after_migrate(using: str = "default", **kwargs: Any) -> None:
    ensure_search_index(connections[using])
