"""Full-text indexes, by database: PostgreSQL gets a weighted tsvector column (generated,
stored) with a GIN index and pg_trgm for typo matching; SQLite gets an FTS5 table kept in
sync with rules_rule by triggers."""

from collections.abc import Callable

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations

POSTGRES = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    """ALTER TABLE rules_rule ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(citation_id, '') || ' ' || coalesce(title, '')), 'A')
        || setweight(to_tsvector('english', coalesce(text, '')), 'B')
        || setweight(to_tsvector('english', coalesce(examples_text, '')), 'C')
    ) STORED""",
    "CREATE INDEX rules_rule_search_gin ON rules_rule USING GIN (search_vector)",
    "CREATE INDEX rules_vocabulary_trgm ON rules_vocabularyword USING GIN (word gin_trgm_ops)",
]
POSTGRES_UNDO = [
    "DROP INDEX IF EXISTS rules_vocabulary_trgm",
    "DROP INDEX IF EXISTS rules_rule_search_gin",
    "ALTER TABLE rules_rule DROP COLUMN IF EXISTS search_vector",
]
SQLITE = [
    """CREATE VIRTUAL TABLE rules_rule_fts USING fts5(
        citation_id, title, text, examples_text,
        content='rules_rule', content_rowid='id', tokenize='porter unicode61'
    )""",
    """CREATE TRIGGER rules_rule_fts_insert AFTER INSERT ON rules_rule BEGIN
        INSERT INTO rules_rule_fts(rowid, citation_id, title, text, examples_text)
        VALUES (new.id, new.citation_id, new.title, new.text, new.examples_text);
    END""",
    """CREATE TRIGGER rules_rule_fts_delete AFTER DELETE ON rules_rule BEGIN
        INSERT INTO rules_rule_fts(rules_rule_fts, rowid, citation_id, title, text, examples_text)
        VALUES ('delete', old.id, old.citation_id, old.title, old.text, old.examples_text);
    END""",
    """CREATE TRIGGER rules_rule_fts_update AFTER UPDATE ON rules_rule BEGIN
        INSERT INTO rules_rule_fts(rules_rule_fts, rowid, citation_id, title, text, examples_text)
        VALUES ('delete', old.id, old.citation_id, old.title, old.text, old.examples_text);
        INSERT INTO rules_rule_fts(rowid, citation_id, title, text, examples_text)
        VALUES (new.id, new.citation_id, new.title, new.text, new.examples_text);
    END""",
]
SQLITE_UNDO = [
    "DROP TRIGGER IF EXISTS rules_rule_fts_update",
    "DROP TRIGGER IF EXISTS rules_rule_fts_delete",
    "DROP TRIGGER IF EXISTS rules_rule_fts_insert",
    "DROP TABLE IF EXISTS rules_rule_fts",
]


def run(
    statements_by_vendor: dict[str, list[str]],
) -> Callable[[Apps, BaseDatabaseSchemaEditor], None]:
    def apply(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        for sql in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return apply


class Migration(migrations.Migration):
    dependencies = [("rules", "0001_initial")]

    operations = [
        migrations.RunPython(
            run({"postgresql": POSTGRES, "sqlite": SQLITE}),
            run({"postgresql": POSTGRES_UNDO, "sqlite": SQLITE_UNDO}),
        )
    ]
