"""Audit rows get their chain hashes; every choice field gets a CHECK constraint;
audit timestamps are set when the row is made (before its hash), not by the INSERT."""

import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0006_fts_prefix_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="rulerevision",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="rulerevision",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AlterField(
            model_name="rulerevision",
            name="changed_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AddConstraint(
            model_name="rulebook",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["bundled", "house"])),
                name="rules_rulebook_kind_valid",
            ),
        ),
    ]
