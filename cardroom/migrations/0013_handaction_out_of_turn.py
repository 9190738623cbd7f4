"""An action entered out of turn (TDA-53) is stored as such, held by the engine until
the turn reaches its seat. The column is in the hand's audit chain (``Chain.later``: rows
holding the default keep the hashes they were written with), and the append-only triggers are
made again around it (SQLite rebuilds the table to add a column with a default)."""

from django.db import migrations, models

from cardroom.core.audit import ReinstallAppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0012_audit_append_only")]

    operations = [
        ReinstallAppendOnlyTriggers("handaction", "cardroom.HandAction"),
        migrations.AddField(
            model_name="handaction",
            name="out_of_turn",
            field=models.BooleanField(
                default=False,
                help_text="Made out of turn: held until the turn reaches the seat, then "
                "binding or void (TDA-53).",
            ),
        ),
        ReinstallAppendOnlyTriggers("handaction", "cardroom.HandAction"),
    ]
