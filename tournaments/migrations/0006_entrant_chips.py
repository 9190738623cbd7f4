"""Entrant.chips: every entrant's chip count, the tournament's starting stack to begin with."""

from typing import Any

from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def starting_stacks(apps: Any, schema_editor: Any) -> None:
    """Entrants registered before chips were counted start from their tournament's stack."""
    Entrant = apps.get_model("tournaments", "Entrant")
    Tournament = apps.get_model("tournaments", "Tournament")
    stack = Tournament.objects.filter(pk=OuterRef("tournament_id")).values("starting_stack")
    Entrant.objects.update(chips=Subquery(stack[:1]))


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_audit_append_only")]

    operations = [
        migrations.AddField(
            model_name="entrant",
            name="chips",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.RunPython(starting_stacks, migrations.RunPython.noop),
    ]
