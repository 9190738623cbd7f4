"""A ruling keeps the names of the players in the seats it involves, as they sat when it was
made. The column is in the ruling's audit chain (``Chain.later``: rows holding the default,
every ruling written before it, keep the hashes they were written with), and the append-only
triggers are made again around it (SQLite rebuilds the table to add a column with a
default)."""

from django.db import migrations, models

from cardroom.core.audit import ReinstallAppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0019_tables_deal_desk_games")]

    operations = [
        ReinstallAppendOnlyTriggers("ruling", "cardroom.Ruling"),
        migrations.AddField(
            model_name="ruling",
            name="names",
            field=models.JSONField(
                blank=True, default=dict, help_text="The players in the seats involved, by seat."
            ),
        ),
        ReinstallAppendOnlyTriggers("ruling", "cardroom.Ruling"),
    ]
