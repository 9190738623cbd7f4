"""One name is one player: the name trimmed, its spaces collapsed and
case-folded is a unique key, so however devices race, a name typed twice is the same player;
the migration that brought the key settles the duplicates already in a room's database."""

from typing import Any
from unittest import mock

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from cardroom.core.api_errors import Conflict
from cardroom.seats import services as players
from cardroom.seats.models import Player
from cardroom.waitlists import services as waitlists
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def test_a_name_in_any_spacing_or_case_is_one_player(floor_manager: Any) -> None:
    ana = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    for typed in (" ana   RUIZ ", "ANA RUIZ", "Ana\tRuiz"):
        assert players.find_or_create_player(name=typed, by=floor_manager) == ana
    # Case-folded, not only lower-cased: "STRASSE" is "Straße".
    street = players.find_or_create_player(name="Jo Straße", by=floor_manager)
    assert players.find_or_create_player(name="JO STRASSE", by=floor_manager) == street
    assert Player.objects.count() == 2


def test_the_database_refuses_a_second_player_of_one_name() -> None:
    Player.objects.create(name="Ana Ruiz")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name=" ana  ruiz")


def test_a_name_another_device_created_meanwhile_is_that_player(floor_manager: Any) -> None:
    """The lookup found nobody, then another device created the name before this one's
    insert: the insert fails on the key and the player found is the other device's."""
    theirs = [Player.objects.create(name="ANA RUIZ", alias="Ace")]
    lookups = [Player.objects.none()]  # the first lookup ran before the other device's insert
    real_filter = Player.objects.filter

    def looked_too_early(*args: Any, **kwargs: Any) -> Any:
        return lookups.pop() if lookups else real_filter(*args, **kwargs)

    with mock.patch.object(Player.objects, "filter", looked_too_early):
        found = players.find_or_create_player(name="Ana Ruiz", alias="Queen", by=floor_manager)
    assert found == theirs[0]
    assert list(Player.objects.values_list("name", "alias")) == [("ANA RUIZ", "Ace")]


def test_a_name_already_seated_is_refused_elsewhere_with_how_to_tell_two_apart(
    floor_manager: Any,
) -> None:
    one, two = (make_table(number=n, by=floor_manager) for n in (1, 2))
    ana = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    players.seat_player(table=one, player=ana, seat=1, buy_in=100, by=floor_manager)
    again = players.find_or_create_player(name="ana ruiz", by=floor_manager)
    with pytest.raises(Conflict) as refused:
        players.seat_player(table=two, player=again, seat=1, buy_in=100, by=floor_manager)
    assert refused.value.code == "player_seated"
    assert refused.value.message == (
        "Ana Ruiz is already in seat 1 at Table 1: they leave that seat first (another person"
        " of that name is told apart by their phone or e-mail: type"
        ' "Ana Ruiz, 600 123 456").'
    )
    other = players.find_or_create_player(name="Ana Ruiz, 600 123 456", by=floor_manager)
    players.seat_player(table=two, player=other, seat=1, buy_in=100, by=floor_manager)


def test_the_kiosk_gives_no_alias_to_a_name_typed_in_another_case(floor_manager: Any) -> None:
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    waitlists.add_to_list(game_list=game, name=" ANA ruiz", alias="Queen", source="kiosk")
    assert list(Player.objects.values_list("name", "alias")) == [("Ana Ruiz", "")]


BEFORE = [("cardroom", "0016_table_rule_checks")]
AFTER = [("cardroom", "0018_one_player_per_name")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_one_player_per_name_and_tells_apart_those_with_history(
    floor_manager: Any,
) -> None:
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        apps = executor.loader.project_state(BEFORE).apps
        old = apps.get_model("cardroom", "Player")
        made = {
            name: old.objects.create(name=name).pk
            for name in ("Ana Ruiz", "ana ruiz", "ANA  RUIZ", "Ana Ruiz (2)", "Bo Li")
        }
        GameList = apps.get_model("cardroom", "GameList")
        game = GameList.objects.create(
            variant="holdem", structure="no_limit", small_blind=1, big_blind=2, label="NLHE 1/2"
        )
        # "ANA  RUIZ" waited on a list (its rows name that player): it is told apart. So is
        # "Ana Ruiz (2)", already a name of its own; "ana ruiz" has no history: it goes.
        apps.get_model("cardroom", "WaitlistEntry").objects.create(
            game_list=game, player_id=made["ANA  RUIZ"], position=1
        )
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
        rows = apps.get_model("cardroom", "Player").objects.order_by("id")
        assert [(p.pk, p.name, p.name_key) for p in rows] == [
            (made["Ana Ruiz"], "Ana Ruiz", "ana ruiz"),
            (made["ANA  RUIZ"], "ANA RUIZ (3)", "ana ruiz (3)"),
            (made["Ana Ruiz (2)"], "Ana Ruiz (2)", "ana ruiz (2)"),
            (made["Bo Li"], "Bo Li", "bo li"),
        ]
    finally:  # the other tests run on the latest schema, whatever happened here
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
