"""The chip set and the chip race: each tournament's denominations with their colours and the
break each leaves play at (CR-CU.1; the room display announces it, so its rows feed the
tournament's changes), and the record of each table's race at a colour-up (CR-CU.3, CR-CU.4),
append-only and chained per tournament, with the database's append-only triggers."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from cardroom.core.audit import AppendOnlyTriggers
from cardroom.core.changes import ChangeFeedTriggers


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_players"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ChipDenomination",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("value", models.PositiveIntegerField()),
                ("colour", models.CharField(max_length=30)),
                (
                    "removed_at",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="colour_ups",
                        to="tournaments.level",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chip_set",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["tournament", "value"],
                "constraints": [
                    models.UniqueConstraint(fields=("tournament", "value"), name="one_chip_value"),
                    models.CheckConstraint(
                        condition=models.Q(("value__gt", 0)), name="chip_has_value"
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="ChipRace",
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
                ("level_number", models.PositiveSmallIntegerField()),
                ("leaving", models.JSONField(default=list)),
                ("unit", models.PositiveIntegerField()),
                (
                    "mode",
                    models.CharField(
                        choices=[
                            ("counts", "From the chip counts"),
                            ("entered", "Chips counted by the dealer"),
                        ],
                        max_length=10,
                    ),
                ),
                ("odd_chips", models.JSONField(default=dict)),
                ("seed", models.CharField(max_length=200)),
                ("result", models.JSONField(default=dict)),
                ("at", models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "level",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chip_races",
                        to="tournaments.level",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chip_races",
                        to="tournaments.tournamenttable",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="chip_races",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "ordering": ["-id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("mode__in", ["counts", "entered"])),
                        name="tournaments_chiprace_mode_valid",
                    ),
                    models.UniqueConstraint(
                        fields=("tournament", "prev_hash"), name="tournaments_chiprace_one_chain"
                    ),
                    models.UniqueConstraint(
                        fields=("table", "level"), name="one_race_a_table_a_break"
                    ),
                ],
            },
        ),
        AppendOnlyTriggers("chiprace", "tournaments.ChipRace"),
        ChangeFeedTriggers("chipdenomination", "tournament", "tournament_id"),
    ]
