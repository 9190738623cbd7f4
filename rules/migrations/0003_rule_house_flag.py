"""Rules carry a house flag. On SQLite adding the column rebuilds rules_rule, which drops the
FTS triggers of 0002: they are put back (and the index rebuilt) right here."""

from importlib import import_module

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations, models


def flag_house_rules(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Rule = apps.get_model("rules", "Rule")
    Rule.objects.filter(rulebook__kind="house").update(house=True)


def restore_fts_triggers(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    triggers = import_module("rules.migrations.0002_search_indexes").SQLITE[1:]
    for sql in triggers:
        schema_editor.execute(sql.replace("CREATE TRIGGER", "CREATE TRIGGER IF NOT EXISTS", 1))
    schema_editor.execute("INSERT INTO rules_rule_fts(rules_rule_fts) VALUES ('rebuild')")


class Migration(migrations.Migration):
    dependencies = [("rules", "0002_search_indexes")]

    operations = [
        migrations.AddField(
            model_name="rule",
            name="house",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(flag_house_rules, migrations.RunPython.noop),
        migrations.RunPython(restore_fts_triggers, migrations.RunPython.noop),
    ]
