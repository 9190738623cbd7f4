"""The clock's changes while it runs. Created empty by the chip-count work, whose migration
(0012_chip_counts) depends on it; the clock's own work fills it in."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_the_finish"),
    ]

    operations: list[migrations.operations.base.Operation] = []
