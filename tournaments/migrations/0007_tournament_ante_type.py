"""Tournament.ante_type: who pays a level's ante. Tournaments from before the setting keep
the per-player ante they were dealt with ("each"); new ones choose (the form and the API
default to the big-blind ante, CR-DM.2)."""

from django.db import migrations, models

CHOICES = [
    ("each", "Per player: every player antes"),
    ("big_blind", "Big-blind ante: the big blind antes for the table (CR-DM.2)"),
]


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_entrant_chips")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="ante_type",
            field=models.CharField(choices=CHOICES, default="each", max_length=10),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("ante_type__in", ["each", "big_blind"])),
                name="tournaments_tournament_ante_type_valid",
            ),
        ),
    ]
