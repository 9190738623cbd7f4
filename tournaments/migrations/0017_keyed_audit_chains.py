"""This app's audit chains signed with the room's key, kept outside the database: each row
written before is checked against its plain SHA-256 chain, then linked and signed again with
HMAC-SHA256 (``cardroom/core/audit.py``, ``sign_again``)."""

from django.db import migrations

from cardroom.core import audit


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_entrant_withdrawn")]
    operations = [audit.sign_app("tournaments")]
