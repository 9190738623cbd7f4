"""Every audit log is append-only in the database (UPDATE, DELETE and, on
PostgreSQL, TRUNCATE refused; ``cardroom/core/audit.py``), and one row per ``prev_hash`` in a stream
so two writers can never fork a chain."""

from django.db import migrations, models

from cardroom.core.audit import AppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0011_audit_chains")]

    operations = [
        migrations.AddConstraint(
            model_name="handaction",
            constraint=models.UniqueConstraint(
                fields=("hand", "prev_hash"), name="cardroom_handaction_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="ruling",
            constraint=models.UniqueConstraint(
                fields=("table", "prev_hash"), name="cardroom_ruling_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="rulingcitation",
            constraint=models.UniqueConstraint(
                fields=("ruling", "prev_hash"), name="cardroom_rulingcitation_one_chain"
            ),
        ),
        migrations.AddConstraint(
            model_name="tablechange",
            constraint=models.UniqueConstraint(
                fields=("table", "prev_hash"), name="cardroom_tablechange_one_chain"
            ),
        ),
        AppendOnlyTriggers("tablechange", "cardroom.TableChange"),
        AppendOnlyTriggers("handaction", "cardroom.HandAction"),
        AppendOnlyTriggers("ruling", "cardroom.Ruling"),
        AppendOnlyTriggers("rulingcitation", "cardroom.RulingCitation"),
    ]
