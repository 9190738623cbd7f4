"""Chip counts entered away from the desk (a table's counts at a break, a correction, chips
given to another player or taken out of play): an append-only log, chained per tournament,
with the database's append-only triggers."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from cardroom.core.audit import AppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_clock_changes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ChipCount",
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
                    "kind",
                    models.CharField(
                        choices=[
                            ("count", "Table count"),
                            ("correction", "Correction"),
                            ("transfer_in", "Chips received"),
                            ("transfer_out", "Chips given"),
                            ("out_of_play", "Taken out of play"),
                        ],
                        max_length=12,
                    ),
                ),
                ("chips_before", models.PositiveBigIntegerField()),
                ("chips_after", models.PositiveBigIntegerField()),
                ("transfer", models.PositiveIntegerField(blank=True, null=True)),
                ("table_number", models.PositiveIntegerField(blank=True, null=True)),
                ("reason", models.CharField(max_length=200)),
                ("citations", models.JSONField(default=list)),
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
                    "entrant",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chip_counts",
                        to="tournaments.entrant",
                    ),
                ),
                (
                    "other",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tournaments.entrant",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chip_counts",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
                "indexes": [
                    models.Index(
                        fields=["tournament", "kind"], name="tournaments_tournam_cf7574_idx"
                    )
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            (
                                "kind__in",
                                [
                                    "count",
                                    "correction",
                                    "transfer_in",
                                    "transfer_out",
                                    "out_of_play",
                                ],
                            )
                        ),
                        name="tournaments_chipcount_kind_valid",
                    ),
                    models.UniqueConstraint(
                        fields=("tournament", "prev_hash"), name="tournaments_chipcount_one_chain"
                    ),
                ],
            },
        ),
        AppendOnlyTriggers("chipcount", "tournaments.ChipCount"),
    ]
