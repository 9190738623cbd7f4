"""Indexes for the floor dashboard's poll: each table's latest hand change and last ruling."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0008_ruling_tournament"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="hand",
            index=models.Index(fields=["table", "updated_at"], name="hand_table_updated"),
        ),
        migrations.AddIndex(
            model_name="ruling",
            index=models.Index(fields=["table", "created_at"], name="ruling_table_created"),
        ),
    ]
