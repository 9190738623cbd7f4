"""A table is set up only for a game the desk deals (CR-GM.1: hold'em, Omaha, Omaha
Hi-Lo), refused by the database too; the kind reads "Cash table" or "Tournament table" on
every page.

A table already set up for another game (stud, razz, a draw game) was dealt as hold'em at the
desk: the migration stops naming it rather than change its game behind the floor's back."""

from typing import Any

from django.db import migrations, models

DESK_VARIANTS = ["holdem", "omaha", "omaha_hilo"]


def refuse_tables_the_desk_cannot_deal(apps: Any, schema_editor: Any) -> None:
    table = apps.get_model("cardroom", "Table")
    others = table.objects.exclude(variant__in=DESK_VARIANTS).order_by("number")
    if others.exists():
        named = ", ".join(f"Table {t.number} ({t.variant})" for t in others)
        raise RuntimeError(
            f"{named}: set up for a game the desk cannot deal (CR-GM.1). Change its game to"
            " hold'em, Omaha or Omaha Hi-Lo (or delete a table set up by mistake) on the table's"
            " settings page, then migrate again."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0018_one_player_per_name"),
    ]

    operations = [
        migrations.RunPython(refuse_tables_the_desk_cannot_deal, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="table",
            name="cardroom_table_variant_valid",
        ),
        migrations.AlterField(
            model_name="table",
            name="kind",
            field=models.CharField(
                choices=[("cash", "Cash table"), ("tournament", "Tournament table")],
                default="cash",
                max_length=12,
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("variant__in", ["holdem", "omaha", "omaha_hilo"])),
                name="cardroom_table_variant_dealt",
            ),
        ),
    ]
