"""The tournaments' rows feed the change feed the screens read (``cardroom/core/changes.py``)."""

from django.db import migrations

from cardroom.core.changes import ChangeFeedTriggers


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0023_change_feed"),
        ("tournaments", "0008_tournament_rulings"),
    ]

    operations = [
        ChangeFeedTriggers("tournament", "tournament", "id"),
        ChangeFeedTriggers("level", "tournament", "tournament_id"),
        ChangeFeedTriggers("entrant", "entrants", "tournament_id"),
        ChangeFeedTriggers("tournamenttable", "tournament_table", "id"),
        ChangeFeedTriggers("seatassignment", "tournament_table", "table_id"),
        ChangeFeedTriggers("clockevent", "tournament", "tournament_id"),
    ]
