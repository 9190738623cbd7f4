"""On PostgreSQL the database itself refuses to change or delete a ruling or its citations,
whatever client writes to it. (SQLite relies on the model layer: its test flush deletes rows.)"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION cardroom_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING MESSAGE =
        'the rulings log is append-only: ' || TG_OP || ' on ' || TG_TABLE_NAME || ' refused';
END
$$ LANGUAGE plpgsql
"""
TABLES = ("cardroom_ruling", "cardroom_rulingcitation")


def install(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION)
    for table in TABLES:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION cardroom_refuse_change()"
        )


def remove(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS cardroom_refuse_change()")


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0004_rulings")]

    operations = [migrations.RunPython(install, remove)]
