"""The finish: a clock ends with its tournament ("Tournament over", a state of its own, so the
room display and the board stop counting), and an elimination keeps the hand at the desk that
took the player's last chips. The hand is in the elimination's audit chain (``Chain.later``:
rows holding no hand, every bust written before it, keep their hashes); the append-only
triggers are made again around it, and the tournament's change-feed triggers after SQLite
rebuilds its table for the clock's new check."""

import django.db.models.deletion
from django.db import migrations, models

from cardroom.core.audit import ReinstallAppendOnlyTriggers
from cardroom.core.changes import ChangeFeedTriggers


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0023_change_feed"),
        ("tournaments", "0009_change_feed"),
    ]

    operations = [
        ReinstallAppendOnlyTriggers("elimination", "tournaments.Elimination"),
        migrations.AddField(
            model_name="elimination",
            name="hand",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="cardroom.hand",
            ),
        ),
        ReinstallAppendOnlyTriggers("elimination", "tournaments.Elimination"),
        migrations.RemoveConstraint(
            model_name="tournament",
            name="tournaments_tournament_clock_state_valid",
        ),
        migrations.AlterField(
            model_name="tournament",
            name="clock_state",
            field=models.CharField(
                choices=[
                    ("stopped", "Not started"),
                    ("running", "Running"),
                    ("paused", "Paused"),
                    ("finished", "Structure finished"),
                    ("ended", "Tournament over"),
                ],
                default="stopped",
                max_length=10,
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("clock_state__in", ["stopped", "running", "paused", "finished", "ended"])
                ),
                name="tournaments_tournament_clock_state_valid",
            ),
        ),
        ChangeFeedTriggers("tournament", "tournament", "id"),
    ]
