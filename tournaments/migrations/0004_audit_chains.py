"""The rows written before the chains existed are linked, stream by stream."""

from django.db import migrations

from cardroom.core.audit import chain_existing


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_audit_fields_and_choice_checks")]

    operations = [
        chain_existing(
            "tournaments",
            [
                "Draw",
                "SeatMove",
                "SeatReservation",
                "Elimination",
                "Reinstatement",
                "BalanceCheck",
                "ClockEvent",
            ],
        ),
    ]
