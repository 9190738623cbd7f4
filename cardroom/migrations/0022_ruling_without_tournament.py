"""A ruling no longer points at a tournament: the tournaments record their own rulings
(``tournaments.TournamentRuling``; their migration 0008 copies every link and runs before this
one), so the rulings log, below the tournaments, has no arrow up to them. The rulings' chain is
linked again without the column, each row first checked against the chain as it was (undone,
the tournaments' migration 0008 puts each link back and links the chain again with it)."""

from typing import Any

from django.db import migrations

from cardroom.core.audit import CHAINS, ReinstallAppendOnlyTriggers, rechain


def without_tournament(apps: Any, schema_editor: Any) -> None:
    ruling = apps.get_model("cardroom", "Ruling")
    after = CHAINS["cardroom.Ruling"].fields
    before = (after[0], "tournament_id", *after[1:])
    rechain(ruling, before, after, schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [("cardroom", "0021_button_draw")]

    operations = [
        migrations.RunPython(without_tournament, migrations.RunPython.noop, elidable=False),
        ReinstallAppendOnlyTriggers("ruling", "cardroom.Ruling"),
        migrations.RemoveField(model_name="ruling", name="tournament"),
        ReinstallAppendOnlyTriggers("ruling", "cardroom.Ruling"),
    ]
