"""A search for a player reads what is typed as the room reads a player's name (``name_key``:
trimmed, spaces collapsed, case-folded), on SQLite and PostgreSQL alike: "ÖLF" finds "Ölf",
"STRASSE" finds "Straße" and "élan" the alias "Élan", on the seat map's player search (its
API and the desk's name box) and in a waitlist's search (its page and its API). SQLite's own
LIKE folds only ASCII, so these would miss there without the stored keys."""

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from cardroom.seats import services as players
from cardroom.seats.models import Player
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import GameList
from tests.factories import make_table

pytestmark = pytest.mark.django_db

#: What is typed, and the name (or alias) it finds: other cases, other spellings of one
#: letter ("ß" is "ss" case-folded), other spacing.
TYPED = [
    ("ÖLF", "Ölf Berg"),
    ("ölf b", "Ölf Berg"),
    ("STRASSE", "Jo Straße"),
    ("straße", "Jo Straße"),
    ("  jo   STRASSE ", "Jo Straße"),
    ("ÉLAN", "Ana Ruiz"),  # her alias, "Élan"
    ("élan", "Ana Ruiz"),
]


@pytest.fixture
def known(floor_manager: Any) -> None:
    players.find_or_create_player(name="Ölf Berg", by=floor_manager)
    players.find_or_create_player(name="Jo Straße", by=floor_manager)
    players.find_or_create_player(name="Ana Ruiz", alias="Élan", by=floor_manager)
    players.find_or_create_player(name="Bo Chen", by=floor_manager)


@pytest.mark.parametrize(("typed", "name"), TYPED)
def test_a_search_reads_the_text_as_the_room_reads_names(
    known: None, typed: str, name: str
) -> None:
    assert [p.name for p in Player.objects.matching(typed)] == [name]


def test_an_alias_given_later_is_found_by_it(floor_manager: Any) -> None:
    players.find_or_create_player(name="Bo Chen", by=floor_manager)
    players.find_or_create_player(name="bo chen", alias="  Ça   Va ", by=floor_manager)
    assert [p.name for p in Player.objects.matching("ÇA VA")] == ["Bo Chen"]


@pytest.mark.parametrize(("typed", "name"), TYPED)
def test_the_player_search_api_finds_them(
    known: None, api_client_for: Any, typed: str, name: str
) -> None:
    found = api_client_for("staff").get("/api/v1/players/", {"q": typed}).json()
    assert [p["name"] for p in found] == [name]


@pytest.mark.parametrize(("typed", "name"), TYPED)
def test_the_desk_name_box_suggests_them(
    known: None, persona_client: Any, floor_manager: Any, typed: str, name: str
) -> None:
    table = make_table(number=3, by=floor_manager)
    answer = persona_client("director").get(
        f"/tables/{table.number}/desk/players/", {"name": typed}
    )
    html = answer.content.decode()
    assert f'value="{name}"' in html
    assert sum(f'value="{other}"' in html for other in ("Ölf Berg", "Jo Straße", "Ana Ruiz")) == 1


@pytest.fixture
def waiting(known: None, floor_manager: Any) -> GameList:
    game_list = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    for name in ("Bo Chen", "Ölf Berg", "Jo Straße", "Ana Ruiz"):
        waitlists.add_to_list(game_list=game_list, name=name, by=floor_manager)
    return game_list


@pytest.mark.parametrize(("typed", "name"), TYPED)
def test_a_waitlist_search_finds_them_at_their_place(
    waiting: GameList, persona_client: Any, api_client_for: Any, typed: str, name: str
) -> None:
    place = ["Bo Chen", "Ölf Berg", "Jo Straße", "Ana Ruiz"].index(name) + 1
    rows = waitlists.live_page(waiting, search=typed)
    assert [(e.player.name, e.place) for e in rows] == [(name, place)]  # type: ignore[attr-defined]
    answer = persona_client("floor_manager").get(
        "/floor/waitlists/", {"list": waiting.pk, "q": typed}
    )
    page = answer.content.decode()
    assert name in page and "Bo Chen" not in page
    found = api_client_for("staff").get(f"/api/v1/waitlists/{waiting.pk}/entries/", {"q": typed})
    assert found.json()["count"] == 1
    assert [row["name"] for row in found.json()["results"]] == [name]


MIGRATION = ("cardroom", "0024_player_alias_key")


@pytest.mark.django_db(transaction=True)
def test_the_migration_keys_the_aliases_already_stored() -> None:
    executor = MigrationExecutor(connection)
    before = executor.loader.get_migration(*MIGRATION).dependencies
    try:
        executor.migrate(before)
        old = executor.loader.project_state(before).apps.get_model("cardroom", "Player")
        ana = old.objects.create(name="Ana Ruiz", name_key="ana ruiz", alias=" Élan  Vital ").pk
        bo = old.objects.create(name="Bo Chen", name_key="bo chen").pk
        executor = MigrationExecutor(connection)
        executor.migrate([MIGRATION])
        new = executor.loader.project_state([MIGRATION]).apps.get_model("cardroom", "Player")
        keys = dict(new.objects.values_list("pk", "alias_key"))
        assert keys == {ana: "élan vital", bo: ""}
    finally:  # the other tests run on the latest schema, whatever happened here
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
