"""The floor card of a cash table with a seat map and a waitlist:
"Seated 3/9", the open seats, who sits out, how many wait for the game; a seat change or a
waitlist change updates the card on the next poll, and the page's queries stay constant."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from cardroom.core import audit
from cardroom.seats import services as players
from cardroom.seats.models import TableSeat
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from tests.cardroom.test_floor import age_everything, card_of, cursor_of, queries_for
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


def seat(table: Table, number: int, name: str, by: Any, buy_in: int = 100) -> TableSeat:
    player = players.find_or_create_player(name=name, by=by)
    return players.seat_player(table=table, player=player, seat=number, buy_in=buy_in, by=by)


def age_seat_maps_and_lists() -> None:
    """Everything old, the seat map's and the waitlists' logs included (emptied in the audit
    logs' deliberate exception), so only the test's next change counts."""
    from cardroom.core.changes import Change
    from cardroom.waitlists.models import GameList

    age_everything()
    GameList.objects.update(opened_at=timezone.now() - timedelta(minutes=5))
    Change.objects.update(at=timezone.now() - timedelta(minutes=5))  # the update's own changes
    with audit.maintenance(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM cardroom_seatevent")
        cursor.execute("DELETE FROM cardroom_waitlistevent")


def test_a_cash_card_shows_the_seat_map(persona_client: Any, floor_manager: Any) -> None:
    table = make_table(number=4, by=floor_manager)
    seat(table, 1, "Ana Ruiz", floor_manager)
    seat(table, 3, "Bo Lind", floor_manager)
    players.sit_out(seat=seat(table, 7, "Cy Park", floor_manager), by=floor_manager)
    card = card_of(persona_client("staff").get("/floor/").content.decode(), 4)
    assert "Seated <strong>3/9</strong>" in card
    assert "open 2, 4, 5, 6, 8, 9 · 1 sitting out" in card
    assert "Waitlist" not in card  # no list open for its game


def test_a_player_who_left_frees_the_seat_on_the_card(
    persona_client: Any, floor_manager: Any
) -> None:
    table = make_table(number=4, by=floor_manager)
    for number, name in ((1, "Ana"), (2, "Bo")):
        seat(table, number, name, floor_manager)
    players.leave_seat(seat=TableSeat.objects.get(seat=2), by=floor_manager)
    card = card_of(persona_client("staff").get("/floor/").content.decode(), 4)
    assert "Seated <strong>1/9</strong>" in card and "open 2, 3, 4, 5, 6, 7, 8, 9" in card


def test_a_table_dealt_from_typed_stacks_keeps_its_dealt_seats(
    persona_client: Any, floor_manager: Any
) -> None:
    make_hand(by=floor_manager)  # table 9, seats 1-3 dealt with typed stacks
    card = card_of(persona_client("staff").get("/floor/").content.decode(), 9)
    assert "Seats: <strong>3/9</strong>" in card and "Seated" not in card


def test_the_card_counts_the_players_waiting_for_its_game(
    persona_client: Any, floor_manager: Any
) -> None:
    table = make_table(number=4, by=floor_manager)  # 1/2 NL hold'em
    make_table(number=5, by=floor_manager, small_blind=2, big_blind=5, min_buy_in=100,
               max_buy_in=500)  # fmt: skip
    game_list = waitlists.open_list(
        variant=table.variant, structure=table.structure, small_blind=1, big_blind=2,
        by=floor_manager,
    )  # fmt: skip
    for name in ("Dee", "Eve"):
        waitlists.add_to_list(game_list=game_list, name=name, source="floor", by=floor_manager)
    html = persona_client("staff").get("/floor/").content.decode()
    assert "Waitlist</a>: <strong>2</strong> waiting for this game" in card_of(html, 4)
    assert "Waitlist" not in card_of(html, 5)  # another game


def test_a_seat_change_and_a_waitlist_change_update_the_card(
    persona_client: Any, floor_manager: Any
) -> None:
    table = make_table(number=4, by=floor_manager)
    make_table(number=5, by=floor_manager)
    seat(table, 1, "Ana", floor_manager)
    game_list = waitlists.open_list(
        variant=table.variant, structure=table.structure, small_blind=1, big_blind=2,
        by=floor_manager,
    )  # fmt: skip
    client = persona_client("staff")
    age_seat_maps_and_lists()
    cursor = cursor_of(client.get("/floor/").content.decode())
    quiet = client.get("/floor/updates/", {"v": cursor}).content.decode()
    assert "table-card" not in quiet

    seat(table, 6, "Bo", floor_manager)
    update = client.get("/floor/updates/", {"v": cursor}).content.decode()
    assert 'id="card-4"' in update and 'id="card-5"' not in update
    assert "Seated <strong>2/9</strong>" in card_of(update, 4)

    cursor = cursor_of(update)
    age_seat_maps_and_lists()
    waitlists.add_to_list(game_list=game_list, name="Cy", source="floor", by=floor_manager)
    update = client.get("/floor/updates/", {"v": cursor}).content.decode()
    assert "<strong>1</strong> waiting for this game" in card_of(update, 4)
    assert "<strong>1</strong> waiting for this game" in card_of(update, 5)  # the same game


def test_seat_maps_and_waitlists_keep_the_queries_constant(
    persona_client: Any, floor_manager: Any
) -> None:
    client = persona_client("staff")

    def floor_of(n: int) -> None:
        for number in range(Table.objects.count() + 1, n + 1):
            table = make_table(number=number, by=floor_manager)
            for place in (1, 2):
                seat(table, place, f"Player {number}-{place}", floor_manager)

    waitlists.open_list(variant="holdem", structure="no_limit", small_blind=1, big_blind=2,
                        by=floor_manager)  # fmt: skip
    floor_of(3)
    few, few_poll = queries_for(client, "/floor/"), queries_for(client, "/floor/updates/?v=1.x")
    floor_of(12)
    many, many_poll = queries_for(client, "/floor/"), queries_for(client, "/floor/updates/?v=1.x")
    assert (few, few_poll) == (many, many_poll)


def test_a_must_move_tables_card_says_so_from_the_next_poll(
    persona_client: Any, floor_manager: Any
) -> None:
    """A must-move table is marked on the floor: its card says which game it
    feeds from the next poll, and no more once the must-move ends."""
    from cardroom.waitlists import tables as waitlist_tables

    table = make_table(number=4, by=floor_manager)
    make_table(number=5, by=floor_manager)
    seat(table, 1, "Ana", floor_manager)
    main = waitlists.open_list(
        variant=table.variant, structure=table.structure, small_blind=1, big_blind=2,
        by=floor_manager,
    )  # fmt: skip
    client = persona_client("staff")
    age_seat_maps_and_lists()
    cursor = cursor_of(client.get("/floor/").content.decode())
    must_move = waitlist_tables.create_must_move(table=table, main=main, by=floor_manager)
    update = client.get("/floor/updates/", {"v": cursor}).content.decode()
    assert "Must-move</span> to NLHE 1/2" in card_of(update, 4)
    assert 'id="card-5"' not in update or "Must-move" not in card_of(update, 5)

    cursor = cursor_of(update)
    age_seat_maps_and_lists()
    waitlist_tables.end_must_move(must_move=must_move, by=floor_manager)
    update = client.get("/floor/updates/", {"v": cursor}).content.decode()
    assert 'id="card-4"' in update and "Must-move" not in card_of(update, 4)


def test_a_seat_offer_in_progress_shows_on_the_card(
    persona_client: Any, floor_manager: Any
) -> None:
    """A player called to a seat from the list: the card says the seat is spoken for, to whom
    and until when, and the next poll says so on every floor screen."""
    table = make_table(number=4, by=floor_manager)
    seat(table, 1, "Ana Ruiz", floor_manager)
    game_list = waitlists.open_list(
        variant=table.variant, structure=table.structure, small_blind=1, big_blind=2,
        by=floor_manager,
    )  # fmt: skip
    entry = waitlists.add_to_list(
        game_list=game_list, name="Leo Ray", source="floor", by=floor_manager
    )
    client = persona_client("staff")
    age_seat_maps_and_lists()
    cursor = cursor_of(client.get("/floor/").content.decode())
    waitlists.call_player(entry=entry, table=table, seat=9, by=floor_manager)
    update = client.get("/floor/updates/", {"v": cursor}).content.decode()
    card = card_of(update, 4)
    assert "Seat 9 offered</span> to Leo Ray" in card and "until " in card


def test_a_tournament_table_with_no_tournament_shows_no_seats(
    persona_client: Any, floor_manager: Any
) -> None:
    """A table set aside for tournaments whose event finished: its last hand's seats are not
    players sitting there ("Seats 6/9 · open 7, 8, 9" after the event was over)."""
    table = make_table(number=6, by=floor_manager, kind="tournament")
    make_hand(table=table, by=floor_manager)
    card = card_of(persona_client("staff").get("/floor/").content.decode(), 6)
    assert "No tournament playing" in card
    assert "Seats:" not in card and "Seated" not in card
