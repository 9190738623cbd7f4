"""Tournament entries point at people: registration finds or creates the room's player (a
name, or "name, contact"), a re-entry is the same person, a person has one live entry a
tournament (compared as people, not names: two people of one name are two entries), and a
barred player is refused with the reason."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from cardroom.seats import services as players
from cardroom.seats.models import Player
from tests.tournaments.factories import make_tournament
from tournaments import draw_services, eliminations, setup
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


def test_registration_finds_the_rooms_player_and_a_reentry_is_the_same_person(
    director: Any,
) -> None:
    known = players.find_or_create_player(name="Ana Ruiz", alias="Ace", by=director)
    tournament = make_tournament(by=director, tables=1, entrants=2, seats_per_table=3)
    [ana] = setup.register_entrants(tournament=tournament, names=["ANA  ruiz"], by=director)
    assert (ana.player, ana.name) == (known, "Ana Ruiz")
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    Entrant.objects.filter(pk=ana.pk).update(chips=0)  # busted at the table
    eliminations.eliminate_player(entrant=ana, by=director)
    again = setup.register_entrant(tournament=tournament, name="", reentry_of=ana, by=director)
    assert again.player == known and again.reentry_of == ana
    assert known.entries.count() == 2


def test_two_people_of_one_name_are_two_entries_and_one_person_is_refused_twice(
    director: Any,
) -> None:
    tournament = make_tournament(by=director, tables=1)
    results = setup.register_list(
        tournament=tournament,
        names=[
            "John Smith, 600 111 222",
            "John Smith, john@smith.org",
            "JOHN SMITH, 600-111-222",
            "John Smith",
        ],
        by=director,
    )
    assert [r.entrant.number if r.entrant else None for r in results] == [1, 2, None, None]
    assert results[2].refusal.startswith("John Smith is already entered (#1)")
    assert results[3].refusal.startswith("The room knows several players called John Smith:")
    assert Player.objects.filter(name_key="john smith").count() == 2
    # The same person twice in one list is said as such.
    with pytest.raises(ValidationError) as twice:
        setup.register_entrants(tournament=tournament, names=["Bo Li", "bo li "], by=director)
    assert twice.value.messages == ["bo li is in the list twice."]
    assert not Player.objects.filter(name_key="bo li").exists()  # a refusal leaves no player


def test_an_entry_that_is_out_comes_back_as_a_reentry_only(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=3, seats_per_table=3)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    out = tournament.entrants.get(number=1)
    Entrant.objects.filter(pk=out.pk).update(chips=0)  # busted at the table
    eliminations.eliminate_player(entrant=out, by=director)
    with pytest.raises(ValidationError) as refused:
        setup.register_entrant(tournament=tournament, name="player 1", by=director)
    assert refused.value.messages[0].startswith("Player 1 is out (#1). A player coming back")


def test_a_barred_player_is_refused_registration_with_the_reason(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    cheat = players.find_or_create_player(name="Cy Cheat", by=director)
    players.bar_player(player=cheat, reason="Chip dumping", by=director)
    [row] = setup.register_list(tournament=tournament, names=["cy cheat"], by=director)
    assert row.entrant is None and row.refusal.endswith(": Chip dumping")
    assert not tournament.entrants.exists()


def test_the_database_keeps_one_live_entry_a_person(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=1)
    first = tournament.entrants.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Entrant.objects.create(
            tournament=tournament, number=2, player=first.player, name=first.name,
            registered_by=director,
        )  # fmt: skip


BEFORE = [("tournaments", "0012_chip_counts")]
AFTER = [("tournaments", "0013_players")]
PLAYERS = ("cardroom", "0025_player_contact")


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_entry_its_person_and_keeps_every_row(director: Any) -> None:
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        # The room's players as they are now (the cardroom app is not taken back).
        apps = executor.loader.project_state([*BEFORE, PLAYERS]).apps
        tournament_model = apps.get_model("tournaments", "Tournament")
        entrant_model = apps.get_model("tournaments", "Entrant")
        known = apps.get_model("cardroom", "Player").objects.create(
            name="Ana Ruiz", name_key="ana ruiz", alias="Ace", created_by_id=director.pk
        )
        deep = tournament_model.objects.create(name="Deep", created_by_id=director.pk)
        rows = [  # number, name, status, re-entry of
            (1, "ANA  ruiz", "eliminated", None),
            (2, "Bo Li", "seated", None),
            (3, "Ana Ruiz", "registered", 1),
            (4, "bo li", "registered", None),  # a second live "Bo Li": kept as its own person
            (5, "!!!", "registered", None),
        ]
        made = {}
        for number, name, status, again in rows:
            made[number] = entrant_model.objects.create(
                tournament=deep, number=number, name=name, status=status,
                reentry_of=made.get(again), registered_by_id=director.pk,
            )  # fmt: skip
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        apps = executor.loader.project_state(AFTER).apps
        entries = apps.get_model("tournaments", "Entrant").objects.order_by("number")
        people = {e.number: (e.name, e.player.name) for e in entries.select_related("player")}
        assert people == {
            1: ("ANA  ruiz", "Ana Ruiz"), 2: ("Bo Li", "Bo Li"), 3: ("Ana Ruiz", "Ana Ruiz"),
            4: ("bo li", "bo li (entry #4)"), 5: ("!!!", "Entry 5"),
        }  # fmt: skip
        assert {e.player_id for e in entries if e.number in (1, 3)} == {known.pk}
    finally:  # the other tests run on the latest schema, whatever happened here
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
