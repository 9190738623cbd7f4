"""One name, one player: the key filled by 0017 made unique. A migration of its
own: on PostgreSQL, rows deleted in 0017 leave deferred foreign-key checks pending until its
transaction ends, and a table with pending checks cannot be altered in the same one."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0017_player_name_key")]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(fields=("name_key",), name="one_player_per_name"),
        ),
    ]
