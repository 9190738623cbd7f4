"""An entry refunded before the initial draw is withdrawn: its own status, so the entrant list,
the waiting count and the field leave it out. Entries refunded before this migration (a REFUND
line in the money ledger) are marked withdrawn; no row is added or removed. SQLite rebuilds the
table to change its constraints, dropping its triggers: the change feed's are made again."""

from typing import Any

from django.conf import settings
from django.db import migrations, models

from cardroom.core.changes import ChangeFeedTriggers


def mark_refunded_withdrawn(apps: Any, schema_editor: Any) -> None:
    Entrant = apps.get_model("tournaments", "Entrant")
    MoneyMove = apps.get_model("tournaments", "MoneyMove")
    refunded = MoneyMove.objects.filter(kind="refund", entrant__isnull=False).values("entrant_id")
    Entrant.objects.filter(pk__in=refunded).update(status="withdrawn")


def mark_withdrawn_registered(apps: Any, schema_editor: Any) -> None:
    Entrant = apps.get_model("tournaments", "Entrant")
    Entrant.objects.filter(status="withdrawn").update(status="registered")


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0026_cashier_role"),
        ("tournaments", "0015_money"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="entrant",
            name="tournaments_entrant_status_valid",
        ),
        migrations.RemoveConstraint(
            model_name="entrant",
            name="one_live_entry_per_player",
        ),
        migrations.AlterField(
            model_name="entrant",
            name="status",
            field=models.CharField(
                choices=[
                    ("registered", "Registered"),
                    ("seated", "Seated"),
                    ("eliminated", "Eliminated"),
                    ("withdrawn", "Withdrawn (refunded)"),
                ],
                default="registered",
                max_length=10,
            ),
        ),
        migrations.RunPython(mark_refunded_withdrawn, mark_withdrawn_registered),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", ["eliminated", "withdrawn"]), _negated=True),
                fields=("tournament", "player"),
                name="one_live_entry_per_player",
            ),
        ),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("status__in", ["registered", "seated", "eliminated", "withdrawn"])
                ),
                name="tournaments_entrant_status_valid",
            ),
        ),
        ChangeFeedTriggers("entrant", "entrants", "tournament_id"),
    ]
