"""Placeholder in the chain of migrations: its owner fills it in."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_clock_changes"),
    ]

    operations = []
