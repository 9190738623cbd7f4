"""The floor's audit chains signed with a key kept outside the database
(``cardroom/core/audit.py``), and no session setting that turns the append-only triggers off
(the rulebook's and the tournaments' logs are signed by their own apps' migrations).

Every row written before is first checked against its plain SHA-256 chain, then linked and
signed again with HMAC-SHA256 under the room's signing key; a log that does not verify stops
the migration (``manage.py verify_audit`` names the break) rather than being signed as it is.
"""

from typing import Any

from django.db import migrations

from cardroom.core import audit
from cardroom.core.operations import DatabaseOnly

NO_SWITCH = audit.PG_FUNCTION

WITH_SWITCH = """
CREATE OR REPLACE FUNCTION cardroom_append_only() RETURNS trigger AS $$
BEGIN
    IF current_setting('cardroom.audit_maintenance', true) = 'on' THEN
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE =
        TG_TABLE_NAME || ' is an append-only audit log: ' || TG_OP || ' refused';
END
$$ LANGUAGE plpgsql
"""


class ReplaceTriggerFunction(DatabaseOnly):
    """PostgreSQL's trigger function without the session switch (SQLite never had one)."""

    def __init__(self) -> None:
        super().__init__()

    def describe(self) -> str:
        return "The append-only trigger function without a session switch"

    def database_forwards(self, app_label: str, schema_editor: Any, *args: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(NO_SWITCH)

    def database_backwards(self, app_label: str, schema_editor: Any, *args: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(WITH_SWITCH)


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0026_cashier_role")]
    operations = [ReplaceTriggerFunction(), audit.sign_app("cardroom")]
