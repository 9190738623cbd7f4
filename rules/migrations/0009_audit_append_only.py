"""Every audit log is append-only in the database (UPDATE, DELETE and, on
PostgreSQL, TRUNCATE refused; ``cardroom/core/audit.py``), and one row per ``prev_hash`` in a stream
so two writers can never fork a chain."""

from django.db import migrations, models

from cardroom.core.audit import AppendOnlyTriggers


class Migration(migrations.Migration):
    dependencies = [("rules", "0008_audit_chains")]

    operations = [
        migrations.AddConstraint(
            model_name="rulerevision",
            constraint=models.UniqueConstraint(
                fields=("rule", "prev_hash"), name="rules_rulerevision_one_chain"
            ),
        ),
        AppendOnlyTriggers("rulerevision", "rules.RuleRevision"),
    ]
