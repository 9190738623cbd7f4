"""Migration 0019: a table already set up for a game the desk cannot deal (it was dealt as
hold'em) stops the migration naming it, rather than having its game changed behind the floor's
back; once the floor changes it, the database refuses any such game (CR-GM.1)."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("cardroom", "0018_one_player_per_name")]
AFTER = [("cardroom", "0019_tables_deal_desk_games")]


def test_a_stud_table_stops_the_migration_until_the_floor_changes_its_game() -> None:
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        table = executor.loader.project_state(BEFORE).apps.get_model("cardroom", "Table")
        table.objects.create(number=6, variant="razz", structure="fixed_limit", small_bet=4,
                             big_bet=8, raise_cap=3)  # fmt: skip
        table.objects.create(number=2, variant="omaha")
        executor = MigrationExecutor(connection)
        with pytest.raises(RuntimeError, match=r"^Table 6 \(razz\): set up for a game the desk"):
            executor.migrate(AFTER)
        table.objects.filter(number=6).update(variant="holdem")
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        table = executor.loader.project_state(AFTER).apps.get_model("cardroom", "Table")
        assert sorted(table.objects.values_list("number", "variant")) == [
            (2, "omaha"), (6, "holdem"),
        ]  # fmt: skip
        with pytest.raises(IntegrityError), transaction.atomic():
            table.objects.filter(number=2).update(variant="badugi")
    finally:  # the other tests run on the latest schema, whatever happened here
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
