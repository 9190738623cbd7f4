"""Audit rows get their chain hashes; every choice field gets a CHECK constraint;
audit timestamps are set when the row is made (before its hash), not by the INSERT."""

import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0010_audit_fields_and_choice_checks"),
        ("tournaments", "0002_reinstatements_and_registration_close"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="balancecheck",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="balancecheck",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="clockevent",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="clockevent",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="draw",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="draw",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="draw",
            name="seal_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="elimination",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="elimination",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="reinstatement",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="reinstatement",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="seatmove",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="seatmove",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="seatreservation",
            name="prev_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="seatreservation",
            name="row_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AlterField(
            model_name="balancecheck",
            name="at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AlterField(
            model_name="clockevent",
            name="at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AlterField(
            model_name="draw",
            name="committed_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AlterField(
            model_name="elimination",
            name="at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AlterField(
            model_name="reinstatement",
            name="at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AlterField(
            model_name="seatreservation",
            name="at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AddConstraint(
            model_name="draw",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("kind__in", ["initial", "late_entry", "break_table", "final_table"])
                ),
                name="tournaments_draw_kind_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="draw",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["committed", "revealed", "abandoned"])),
                name="tournaments_draw_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["registered", "seated", "eliminated"])),
                name="tournaments_entrant_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="seatassignment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "reason__in",
                        [
                            "initial_draw",
                            "late_entry",
                            "break_table",
                            "balance",
                            "final_table",
                            "reserved",
                            "wrong_seat",
                            "eliminated",
                            "reinstated",
                        ],
                    )
                ),
                name="tournaments_seatassignment_reason_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="seatmove",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "reason__in",
                        [
                            "initial_draw",
                            "late_entry",
                            "break_table",
                            "balance",
                            "final_table",
                            "reserved",
                            "wrong_seat",
                            "eliminated",
                            "reinstated",
                        ],
                    )
                ),
                name="tournaments_seatmove_reason_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
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
                name="tournaments_tournament_variant_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("structure__in", ["no_limit", "pot_limit", "fixed_limit"])),
                name="tournaments_tournament_structure_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("status__in", ["registering", "running", "final_table", "complete"])
                ),
                name="tournaments_tournament_status_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(("balancing_policy__in", ["tda", "fewest_moves"])),
                name="tournaments_tournament_balancing_policy_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("clock_state__in", ["stopped", "running", "paused", "finished"])
                ),
                name="tournaments_tournament_clock_state_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournamenttable",
            constraint=models.CheckConstraint(
                condition=models.Q(("status__in", ["active", "broken"])),
                name="tournaments_tournamenttable_status_valid",
            ),
        ),
    ]
