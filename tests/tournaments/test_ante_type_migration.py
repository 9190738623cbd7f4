"""Migration 0007: tournaments from before the ante setting keep the per-player ante they were
dealt with; the database refuses any other value."""

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0006_entrant_chips")]
AFTER = [("tournaments", "0007_tournament_ante_type")]


def test_existing_tournaments_keep_their_per_player_antes(director: Any) -> None:
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        apps = executor.loader.project_state(BEFORE).apps
        Tournament = apps.get_model("tournaments", "Tournament")
        for name in ("Deep", "Turbo"):
            Tournament.objects.create(name=name, created_by_id=director.pk)
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
        rows = apps.get_model("tournaments", "Tournament").objects.order_by("name")
        assert [(t.name, t.ante_type) for t in rows] == [("Deep", "each"), ("Turbo", "each")]
        with pytest.raises(IntegrityError), transaction.atomic():
            rows.filter(name="Deep").update(ante_type="half")
    finally:  # the other tests run on the latest schema, whatever happened here
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
