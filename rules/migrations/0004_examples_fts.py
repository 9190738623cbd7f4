"""SQLite: index the worked examples in their own FTS5 table (bm25 divides by the whole row's
length, so long illustrations buried their rule's title). PostgreSQL is unchanged: its
weighted tsvector already ranks examples below title and text."""

from importlib import import_module

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.backends.utils import CursorWrapper
from django.db import migrations

TRIGGERS = ("rules_rule_fts_insert", "rules_rule_fts_delete", "rules_rule_fts_update")
FTS_TABLES = {
    "rules_rule_fts": """
        CREATE VIRTUAL TABLE rules_rule_fts USING fts5(
            citation_id, title, text,
            content='rules_rule', content_rowid='id', tokenize='porter unicode61'
        )""",
    "rules_example_fts": """
        CREATE VIRTUAL TABLE rules_example_fts USING fts5(
            examples_text,
            content='rules_rule', content_rowid='id', tokenize='porter unicode61'
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


def rebuild(cursor: CursorWrapper) -> None:
    for table in FTS_TABLES:
        cursor.execute(f"INSERT INTO {table}({table}) VALUES ('rebuild')")


def split_index(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    for name in TRIGGERS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
    schema_editor.execute("DROP TABLE IF EXISTS rules_rule_fts")
    for sql in (*FTS_TABLES.values(), *SQLITE_TRIGGERS.values()):
        schema_editor.execute(sql)
    with schema_editor.connection.cursor() as cursor:
        rebuild(cursor)


def join_index(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    for name in TRIGGERS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
    schema_editor.execute("DROP TABLE IF EXISTS rules_example_fts")
    schema_editor.execute("DROP TABLE IF EXISTS rules_rule_fts")
    for sql in import_module("rules.migrations.0002_search_indexes").SQLITE:
        schema_editor.execute(sql)
    schema_editor.execute("INSERT INTO rules_rule_fts(rules_rule_fts) VALUES ('rebuild')")


class Migration(migrations.Migration):
    dependencies = [("rules", "0003_rule_house_flag")]

    operations = [migrations.RunPython(split_index, join_index)]
