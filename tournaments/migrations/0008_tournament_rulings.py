"""The tournaments record their own rulings (``TournamentRuling``): each ruling that pointed at
the tournament playing at its table gets its link here, before the floor's migration 0022 drops
the ruling's column (``run_before``: the rulings log, below the tournaments, never depends on
them)."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

from cardroom.core.audit import CHAINS, AppendOnlyTriggers, link_rows, maintenance, rechain


def copy_links(apps: Any, schema_editor: Any) -> None:
    using = schema_editor.connection.alias
    ruling = apps.get_model("cardroom", "Ruling")
    link = apps.get_model("tournaments", "TournamentRuling")
    rows = [
        link(ruling_id=pk, tournament_id=tournament_id)
        for pk, tournament_id in ruling._base_manager.using(using)
        .filter(tournament__isnull=False)
        .order_by("pk")
        .values_list("pk", "tournament_id")
    ]
    link_rows(link, rows, using)
    link._base_manager.using(using).bulk_create(rows)


def put_links_back(apps: Any, schema_editor: Any) -> None:
    """Undone after the floor's 0022: each ruling points at its tournament again, and the
    rulings' chain is linked again with the column."""
    using = schema_editor.connection.alias
    ruling = apps.get_model("cardroom", "Ruling")
    link = apps.get_model("tournaments", "TournamentRuling")
    with maintenance(using):
        for ruling_id, tournament_id in link._base_manager.using(using).values_list(
            "ruling_id", "tournament_id"
        ):
            ruling._base_manager.using(using).filter(pk=ruling_id).update(
                tournament_id=tournament_id
            )
        link._base_manager.using(using).all().delete()
    after = CHAINS["cardroom.Ruling"].fields
    rechain(ruling, after, (after[0], "tournament_id", *after[1:]), using)


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0021_button_draw"),
        ("tournaments", "0007_tournament_ante_type"),
    ]
    run_before = [("cardroom", "0022_ruling_without_tournament")]

    operations = [
        migrations.CreateModel(
            name="TournamentRuling",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "prev_hash",
                    models.CharField(blank=True, default="", editable=False, max_length=64),
                ),
                (
                    "row_hash",
                    models.CharField(blank=True, default="", editable=False, max_length=64),
                ),
                (
                    "ruling",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="tournament_link",
                        to="cardroom.ruling",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rulings",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("ruling", "prev_hash"),
                        name="tournaments_tournamentruling_one_chain",
                    )
                ],
            },
        ),
        AppendOnlyTriggers("tournamentruling", "tournaments.TournamentRuling"),
        migrations.RunPython(copy_links, put_links_back, elidable=False),
    ]
