"""Every audit log is append-only in the database (UPDATE, DELETE and, on
PostgreSQL, TRUNCATE refused; ``cardroom/core/audit.py``), and one row per ``prev_hash`` in a stream
so two writers can never fork a chain."""

from django.db import migrations, models

from cardroom.core.audit import AppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_audit_chains")]

    operations = [
        migrations.AddConstraint(
            model_name="balancecheck",
            constraint=models.UniqueConstraint(
                fields=("tournament", "prev_hash"), name="tournaments_balancecheck_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="clockevent",
            constraint=models.UniqueConstraint(
                fields=("tournament", "prev_hash"), name="tournaments_clockevent_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="draw",
            constraint=models.UniqueConstraint(
                fields=("tournament", "prev_hash"), name="tournaments_draw_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="elimination",
            constraint=models.UniqueConstraint(
                fields=("tournament", "prev_hash"), name="tournaments_elimination_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="reinstatement",
            constraint=models.UniqueConstraint(
                fields=("tournament", "prev_hash"), name="tournaments_reinstatement_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="seatmove",
            constraint=models.UniqueConstraint(
                fields=("tournament", "prev_hash"), name="tournaments_seatmove_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="seatreservation",
            constraint=models.UniqueConstraint(
                fields=("tournament", "prev_hash"), name="tournaments_seatreservation_one_chain"
            ),
        ),
        AppendOnlyTriggers("draw", "tournaments.Draw"),
        AppendOnlyTriggers("seatmove", "tournaments.SeatMove"),
        AppendOnlyTriggers("seatreservation", "tournaments.SeatReservation"),
        AppendOnlyTriggers("elimination", "tournaments.Elimination"),
        AppendOnlyTriggers("reinstatement", "tournaments.Reinstatement"),
        AppendOnlyTriggers("balancecheck", "tournaments.BalanceCheck"),
        AppendOnlyTriggers("clockevent", "tournaments.ClockEvent"),
    ]
