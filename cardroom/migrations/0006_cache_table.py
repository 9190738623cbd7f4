"""The cache table (``CACHES`` uses Django's database cache, shared by every worker process:
the log-in throttle's counts live there). ``createcachetable`` is idempotent, so running it
from a migration means ``migrate`` alone prepares a new or upgraded database."""

from typing import Any

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps: Any, schema_editor: Any) -> None:
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0005_rulings_append_only")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
