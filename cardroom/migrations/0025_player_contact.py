"""Players as people: a contact (phone or e-mail, with its ``contact_key``), notes and a bar
(reason, who, when) on each player, and the log of the staff's changes to a player
(``PlayerChange``, append-only and chained), and prefix indexes for the search as you type
(PostgreSQL's pattern operator class). One player per name becomes one player per name
and contact: the players already stored have no contact, so their ``contact_key`` is blank
(the field's default) and each keeps its name to itself until a contact is typed."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from cardroom.core.audit import AppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0024_player_alias_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerChange",
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
                            ("edited", "Edited"),
                            ("barred", "Barred"),
                            ("unbarred", "Unbarred"),
                        ],
                        max_length=10,
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                ("alias", models.CharField(blank=True, max_length=40)),
                ("contact", models.CharField(blank=True, max_length=120)),
                ("notes", models.CharField(blank=True, max_length=500)),
                ("barred", models.BooleanField(default=False)),
                ("reason", models.CharField(blank=True, max_length=300)),
                (
                    "at",
                    models.DateTimeField(
                        db_index=True, default=django.utils.timezone.now, editable=False
                    ),
                ),
            ],
            options={
                "ordering": ["at", "id"],
            },
        ),
        migrations.RemoveConstraint(
            model_name="player",
            name="one_player_per_name",
        ),
        migrations.AddField(
            model_name="player",
            name="barred",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="player",
            name="barred_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="barred_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="barred_reason",
            field=models.CharField(blank=True, default="", max_length=300),
        ),
        migrations.AddField(
            model_name="player",
            name="contact",
            field=models.CharField(blank=True, default="", max_length=120),
        ),
        migrations.AddField(
            model_name="player",
            name="contact_key",
            field=models.CharField(default="", editable=False, max_length=120),
        ),
        migrations.AddField(
            model_name="player",
            name="notes",
            field=models.CharField(blank=True, default="", max_length=500),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("name_key", "contact_key"), name="one_player_per_name_and_contact"
            ),
        ),
        migrations.AddField(
            model_name="playerchange",
            name="by",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="playerchange",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="changes",
                to="cardroom.player",
            ),
        ),
        migrations.AddConstraint(
            model_name="playerchange",
            constraint=models.UniqueConstraint(
                fields=("player", "prev_hash"), name="cardroom_playerchange_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="playerchange",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["edited", "barred", "unbarred"])),
                name="cardroom_playerchange_kind_valid",
            ),
        ),
        AppendOnlyTriggers("playerchange", "cardroom.PlayerChange"),
        # Search as you type reads name and alias prefixes: pattern indexes on PostgreSQL.
        migrations.AddIndex(
            model_name="player",
            index=models.Index(
                fields=["name_key"],
                name="player_name_key_prefix",
                opclasses=["varchar_pattern_ops"],
            ),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(
                fields=["alias_key"],
                name="player_alias_key_prefix",
                opclasses=["varchar_pattern_ops"],
            ),
        ),
    ]
