"""Audit rows get their chain hashes; every choice field gets a CHECK constraint;
audit timestamps are set when the row is made (before its hash), not by the INSERT."""

import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0009_floor_change_indexes"),
        ("rules", "0007_audit_fields_and_choice_checks"),
        ("tournaments", "0002_reinstatements_and_registration_close"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="handaction",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="handaction",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="handaction",
            name="seal_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="ruling",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="ruling",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="rulingcitation",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="rulingcitation",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="tablechange",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="tablechange",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AlterField(
            model_name="handaction",
            name="entered_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AlterField(
            model_name="ruling",
            name="created_at",
            field=models.DateTimeField(
                db_index=True, default=django.utils.timezone.now, editable=False
            ),
        ),
        migrations.AlterField(
            model_name="tablechange",
            name="changed_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(("state__in", ["in_progress", "complete", "voided"])),
                name="cardroom_hand_state_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="ruling",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["ruling", "amendment", "appeal"])),
                name="cardroom_ruling_kind_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["open", "closed", "reserved", "broken"])),
                name="cardroom_table_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["cash", "tournament"])),
                name="cardroom_table_kind_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "variant__in",
                        [
                            "holdem",
                            "omaha",
                            "omaha_hilo",
                            "stud",
                            "stud_hilo",
                            "razz",
                            "badugi",
                            "triple_draw",
                            "single_draw",
                            "five_card_draw",
                        ],
                    )
                ),
                name="cardroom_table_variant_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("structure__in", ["no_limit", "pot_limit", "fixed_limit"])),
                name="cardroom_table_structure_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="table",
            constraint=models.CheckConstraint(
                condition=models.Q(("ante_type__in", ["none", "each", "big_blind"])),
                name="cardroom_table_ante_type_valid",
            ),
        ),
    ]
