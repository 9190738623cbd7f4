"""The clock's changes while it runs: ``StructureChange``, the record of each change to the
structure (time added or removed, a level edited, inserted or deleted, levels added when the
structure ran out) with who and why, append-only and chained per tournament, with the
database's append-only triggers; and the words of a clock whose structure ran out ("Last
level: no more levels scheduled", not "Structure finished": choices only, no column change)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from cardroom.core.audit import AppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_the_finish"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournament",
            name="clock_state",
            field=models.CharField(
                choices=[
                    ("stopped", "Not started"),
                    ("running", "Running"),
                    ("paused", "Paused"),
                    ("finished", "Last level: no more levels scheduled"),
                    ("ended", "Tournament over"),
                ],
                default="stopped",
                max_length=10,
            ),
        ),
        migrations.CreateModel(
            name="StructureChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "prev_hash",
                    models.CharField(blank=True, default="", editable=False, max_length=64),
                ),
                (
                    "row_hash",
                    models.CharField(blank=True, default="", editable=False, max_length=64),
                ),
                (
                    "action",
                    models.CharField(
                        choices=[
                            ("time", "Time added or removed"),
                            ("edit", "Level changed"),
                            ("insert", "Level inserted"),
                            ("delete", "Level deleted"),
                            ("append", "Levels added"),
                        ],
                        max_length=10,
                    ),
                ),
                ("level_number", models.PositiveSmallIntegerField()),
                ("before", models.JSONField(blank=True, null=True)),
                ("after", models.JSONField(blank=True, null=True)),
                ("reason", models.CharField(max_length=200)),
                (
                    "at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="structure_changes",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("action__in", ["time", "edit", "insert", "delete", "append"])
                        ),
                        name="tournaments_structurechange_action_valid",
                    ),
                    models.UniqueConstraint(
                        fields=("tournament", "prev_hash"),
                        name="tournaments_structurechange_one_chain",
                    ),
                ],
            },
        ),
        AppendOnlyTriggers("structurechange", "tournaments.StructureChange"),
    ]
