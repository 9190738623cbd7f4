"""Migration 0006: entrants registered before chips were counted get their tournament's stack."""

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0005_audit_append_only")]
AFTER = [("tournaments", "0006_entrant_chips")]


def test_existing_entrants_start_with_their_tournaments_stack(director: Any) -> None:
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        apps = executor.loader.project_state(BEFORE).apps
        Tournament = apps.get_model("tournaments", "Tournament")
        Entrant = apps.get_model("tournaments", "Entrant")
        for name, stack in (("Deep", 50_000), ("Turbo", 5_000)):
            tournament = Tournament.objects.create(
                name=name, starting_stack=stack, created_by_id=director.pk
            )
            for number in (1, 2):
                Entrant.objects.create(
                    tournament=tournament, number=number, name=f"{name} {number}",
                    registered_by_id=director.pk,
                )  # fmt: skip
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
        rows = apps.get_model("tournaments", "Entrant").objects.order_by("name")
        assert [(e.name, e.chips) for e in rows] == [
            ("Deep 1", 50_000), ("Deep 2", 50_000), ("Turbo 1", 5_000), ("Turbo 2", 5_000),
        ]  # fmt: skip
    finally:  # the other tests run on the latest schema, whatever happened here
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
