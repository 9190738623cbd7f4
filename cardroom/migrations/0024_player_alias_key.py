"""A search by alias reads aliases as the room reads names: each player's ``alias_key`` (the
alias trimmed, spaces collapsed, case-folded, as ``name_key`` is the name), filled here for
the players already in a room's database and kept by ``Player.save`` from now on."""

from typing import Any

from django.db import migrations, models


def _key(name: str) -> str:
    return " ".join(str(name).split()).casefold()


def fill_alias_keys(apps: Any, schema_editor: Any) -> None:
    player = apps.get_model("cardroom", "Player")
    rows = player.objects.using(schema_editor.connection.alias).exclude(alias="")
    for one in rows.only("pk", "alias").iterator():
        one.alias_key = _key(one.alias)
        one.save(update_fields=["alias_key"])


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0023_change_feed")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="alias_key",
            field=models.CharField(default="", editable=False, max_length=120),
        ),
        migrations.RunPython(fill_alias_keys, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["alias_key"], name="player_alias_key"),
        ),
    ]
