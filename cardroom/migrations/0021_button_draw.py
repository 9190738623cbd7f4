"""The draw for the button at a table's first hand (CR-BB.9): each table gets a seed of its
own, drawn here for the tables that exist (one each, not one shared value), and a hand keeps
the draw that placed its button. Neither column is in an audit chain: a hand is not an
append-only log; the draw is checked by dealing it again from its seed (``verify_audit``)."""

import secrets
from typing import Any

from django.db import migrations, models

import cardroom.tables.models


def seed_each_table(apps: Any, schema_editor: Any) -> None:
    table = apps.get_model("cardroom", "Table")
    for pk in table.objects.values_list("pk", flat=True):
        table.objects.filter(pk=pk).update(button_seed=secrets.token_hex(32))


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0020_ruling_names")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="button_draw",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="table",
            name="button_seed",
            field=models.CharField(
                default=cardroom.tables.models.new_button_seed, editable=False, max_length=64
            ),
        ),
        migrations.RunPython(seed_each_table, migrations.RunPython.noop, elidable=False),
    ]
