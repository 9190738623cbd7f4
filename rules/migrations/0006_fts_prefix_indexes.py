"""SQLite: rebuild both FTS5 tables with prefix indexes, so the half-typed last word of a
search-as-you-type query ("stra*") is one index look-up instead of a merge of every term that
starts with it."""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations

from rules.search_index import FTS_TABLES, SQLITE_TRIGGERS, rebuild


def rebuild_with_prefixes(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    for name in SQLITE_TRIGGERS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
    for table, create in FTS_TABLES.items():
        schema_editor.execute(f"DROP TABLE IF EXISTS {table}")
        schema_editor.execute(create)
    for create in SQLITE_TRIGGERS.values():
        schema_editor.execute(create)
    with schema_editor.connection.cursor() as cursor:
        rebuild(cursor)


class Migration(migrations.Migration):
    dependencies = [("rules", "0005_rulebook_format_fields")]

    operations = [migrations.RunPython(rebuild_with_prefixes, migrations.RunPython.noop)]
