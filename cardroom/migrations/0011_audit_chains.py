"""The rows written before the chains existed are linked, stream by stream."""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations

from cardroom.core.audit import chain_existing


def drop_rulings_triggers(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """0005's triggers give way to the ones every audit log gets (0012)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in ("cardroom_ruling", "cardroom_rulingcitation"):
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
    schema_editor.execute("DROP FUNCTION IF EXISTS cardroom_refuse_change()")


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0010_audit_fields_and_choice_checks")]

    operations = [
        migrations.RunPython(drop_rulings_triggers, migrations.RunPython.noop),
        chain_existing("cardroom", ["TableChange", "HandAction", "Ruling", "RulingCitation"]),
    ]
