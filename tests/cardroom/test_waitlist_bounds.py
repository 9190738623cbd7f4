"""Long waitlists and big rooms: the floor's page, its poll, the API, the
kiosk and the public board cost a fixed number of queries whatever the lists' length and the
open tables; the page shows the first players of a list with how many more, page by page or
found by name; each open seat's next player is worked out in one pass; the room has caps."""

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

PAGE = "/floor/waitlists/"
LISTS = "/api/v1/waitlists/"


def nlhe(by: Any) -> Any:
    from cardroom.waitlists import services as waitlists

    return waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=by
    )


def fill_list(game_list: Any, count: int, *, first: int = 0) -> list[Any]:
    """``count`` players at the bottom of the list, straight into the rows (a room's night)."""
    from cardroom.seats.models import Player, name_key
    from cardroom.waitlists.models import WaitlistEntry

    names = [f"Player {n:04d}" for n in range(first, first + count)]
    aliases = [f"P{n}" if n % 2 else "" for n in range(first, first + count)]
    people = Player.objects.bulk_create(
        Player(name=name, name_key=name_key(name), alias=alias, alias_key=name_key(alias))
        for name, alias in zip(names, aliases, strict=True)
    )
    last = WaitlistEntry.objects.filter(game_list=game_list).count()
    return WaitlistEntry.objects.bulk_create(
        WaitlistEntry(game_list=game_list, player=player, position=last + n)
        for n, player in enumerate(people, 1)
    )


def room(by: Any, *, waiting: int, tables: int) -> Any:
    """A list of ``waiting`` for a game with ``tables`` open tables; the list's first player
    plays at table 1 (so its seats go to the second), and a seat of table 2 was missed by the
    second (so it goes to the third)."""
    from cardroom.seats import services as players
    from cardroom.waitlists.base import record_event
    from cardroom.waitlists.models import WaitlistEventKind
    from tests.factories import make_table

    made = [make_table(number=n, by=by, seats=9) for n in range(1, tables + 1)]
    game_list = nlhe(by)
    entries = fill_list(game_list, waiting)
    players.seat_player(table=made[0], player=entries[0].player, seat=9, buy_in=100, by=by)
    record_event(
        game_list, WaitlistEventKind.OFFER_EXPIRED, None, entry=entries[1], table=made[1], seat=1
    )
    return game_list


def queries(client: Client, url: str, **extra: Any) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **extra)
    assert response.status_code in (200, 204), (response.status_code, response.content[:300])
    return len(captured), response


def test_the_page_and_its_poll_read_as_many_queries_for_a_long_list_and_many_tables(
    persona_client: Any, floor_manager: Any
) -> None:
    """1,000 waiting and 500 open tables ran past gunicorn's 30 s: every open seat read the
    whole list again. Now a few queries a list, none a player or a seat."""
    from cardroom.tables.models import Table
    from tests.factories import make_table

    client = persona_client("floor_manager")
    game_list = room(floor_manager, waiting=4, tables=2)
    client.get(PAGE)  # the session's first read (the room's settings row made) aside
    small, _ = queries(client, PAGE)
    small_poll, _ = queries(client, PAGE + "?v=0", HTTP_HX_REQUEST="true")
    # The same room grown: 120 waiting, 12 open tables.
    fill_list(game_list, 116, first=1000)
    for number in range(3, 13):
        make_table(number=number, by=floor_manager, seats=9)
    assert Table.objects.count() == 12
    big, page = queries(client, PAGE)
    big_poll, _ = queries(client, PAGE + "?v=0", HTTP_HX_REQUEST="true")
    assert big <= small and big_poll <= small_poll, (small, big, small_poll, big_poll)
    assert "120 waiting" in page.content.decode()


def test_the_page_shows_the_first_players_then_page_by_page_or_found_by_name(
    persona_client: Any, floor_manager: Any, settings: Any
) -> None:
    settings.CARDROOM_WAITLIST_PAGE_ROWS = 10
    game_list = nlhe(floor_manager)
    fill_list(game_list, 25)
    client = persona_client("floor_manager")
    text = client.get(PAGE).content.decode()
    assert "25 waiting" in text
    assert "Player 0009" in text and "Player 0010" not in text
    assert "and 15 more" in text and "1–10 of 25" in text
    assert f"?list={game_list.pk}&amp;page=2" in text
    second = client.get(PAGE, {"list": game_list.pk, "page": 2}).content.decode()
    assert "Player 0010" in second and "Player 0019" in second and "Player 0009" not in second
    assert '<span class="entry-place">11</span>' in second and "and 5 more" in second
    # The poll keeps the part of the list being read.
    assert re.search(rf"\?v=[^\"]*&amp;list={game_list.pk}&amp;page=2", second), second
    found = client.get(PAGE, {"list": game_list.pk, "q": "0017"}).content.decode()
    assert "Player 0017" in found and "Player 0016" not in found
    assert '<span class="entry-place">18</span>' in found  # its place on the whole list
    # Junk in the query string is the first page, never a 500.
    for junk in ({"list": "x", "page": "²"}, {"list": game_list.pk, "page": "²"}):
        assert client.get(PAGE, junk).status_code == 200


def test_a_list_shows_a_row_for_the_first_open_tables_and_names_the_rest(
    persona_client: Any, floor_manager: Any
) -> None:
    """One row per open table made 950 KB at 500 tables: the rows stop at OPEN_SEAT_ROWS
    (after every seat under an offer), and the rest are named by number in one line."""
    from cardroom.tables.models import Table
    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists.views import OPEN_SEAT_ROWS

    game_list = room(floor_manager, waiting=4, tables=OPEN_SEAT_ROWS + 8)
    client = persona_client("floor_manager")
    few = client.get(PAGE).content.decode()
    assert few.count('<li class="open-seat') == OPEN_SEAT_ROWS
    assert "Also a seat open at 8 more tables (13, 14, 15, 16, 17, 18, 19, 20)" in few
    # An offer at the last table: its row shows whatever its place.
    last = Table.objects.get(number=OPEN_SEAT_ROWS + 8)
    waitlists.call_player(
        entry=game_list.entries.get(position=1), table=last, seat=1, by=floor_manager
    )
    offered = client.get(PAGE).content.decode()
    assert offered.count('<li class="open-seat') == OPEN_SEAT_ROWS + 1
    assert "called ·" in offered
    # A room of many tables: the page stays small.
    for number in range(OPEN_SEAT_ROWS + 9, OPEN_SEAT_ROWS + 69):
        Table.objects.create(number=number, seats=9, status="open", small_blind=1, big_blind=2)
    big = client.get(PAGE).content.decode()
    assert big.count('<li class="open-seat') == OPEN_SEAT_ROWS + 1
    assert "at 68 more tables (13, 14," in big and "51, 52 and 28 more):" in big  # 40 named
    # Sixty more tables add their numbers and a menu option each (100 bytes), not a row each
    # with its forms (about 1.9 KB).
    assert len(big) < len(offered) + 60 * 100


def test_each_open_seat_gets_its_next_player_in_one_pass(floor_manager: Any) -> None:
    """``next_for_seats`` answers what ``next_for_seat`` answers, seat by seat."""
    from cardroom.tables.models import Table
    from cardroom.waitlists import services as waitlists

    game_list = room(floor_manager, waiting=6, tables=3)
    seats = waitlists.open_seats(game_list)
    with CaptureQueriesContext(connection) as captured:
        together = waitlists.next_for_seats(game_list, seats)
    assert len(captured) <= 3
    for table, seat in seats:
        assert together[(table.pk, seat)] == waitlists.next_for_seat(game_list, table, seat)
    names = {key: entry.player.name for key, entry in together.items() if entry}
    one, two = Table.objects.get(number=1), Table.objects.get(number=2)
    assert names[(one.pk, 1)] == "Player 0001"  # Player 0000 plays at table 1
    # Player 0001 missed table 2's seat 1, not its seat 2; Player 0000 plays at table 1 only.
    assert names[(two.pk, 1)] == "Player 0000" and names[(two.pk, 2)] == "Player 0000"


def test_the_api_gives_a_page_of_lists_and_each_list_page_by_page(
    api_client_for: Any, floor_manager: Any, settings: Any
) -> None:
    settings.CARDROOM_WAITLIST_PAGE_ROWS = 10
    game_list = room(floor_manager, waiting=4, tables=2)
    client = api_client_for("floor_manager")
    with CaptureQueriesContext(connection) as small:
        client.get(LISTS)
    fill_list(game_list, 250, first=100)
    with CaptureQueriesContext(connection) as big:
        body = client.get(LISTS).json()
    assert len(big) <= len(small)
    assert body["count"] == 1 and body["results"][0]["waiting"] == 254
    assert [e["name"] for e in body["results"][0]["entries"]][:2] == ["Player 0000", "Player 0001"]
    assert len(body["results"][0]["entries"]) == 10
    url = f"{LISTS}{game_list.pk}/entries/"
    page = client.get(url, {"limit": 100, "offset": 200}).json()
    assert page["count"] == 254 and len(page["results"]) == 54
    assert page["results"][0]["name"] == "Player 0296" and page["next"] is None
    assert "offset=100" in page["previous"]
    found = client.get(url, {"q": "player 0300"}).json()
    assert found["count"] == 1 and found["results"][0]["name"] == "Player 0300"
    assert client.get(url, {"limit": "²"}).status_code == 200
    assert api_client_for("director").get(url).status_code == 200  # directors read
    assert api_client_for("anonymous").get(url).status_code in (401, 403)


def test_a_full_list_and_a_full_room_refuse_with_the_house_policy(
    persona_client: Any, api_client_for: Any, floor_manager: Any, settings: Any
) -> None:
    """The kiosk grew lists without a log-in and nothing capped them."""
    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists.models import WaitlistEntry

    settings.CARDROOM_WAITLIST_MAX_PER_LIST = 3
    settings.CARDROOM_WAITLIST_MAX_IN_ROOM = 5
    game_list = nlhe(floor_manager)
    plo = waitlists.open_list(
        variant="omaha", structure="pot_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    fill_list(game_list, 3)
    full = "list is full: house policy, a list holds at most 3 names"
    kiosk = Client().post("/kiosk/", {"name": "Zed Kay", "lists": [game_list.pk]})
    assert kiosk.status_code == 422 and full in kiosk.content.decode()
    api = Client().post(
        "/api/v1/kiosk/entries/", {"name": "Zed Kay", "lists": [game_list.pk]}, "application/json"
    )
    assert api.status_code == 422 and full in api.json()["error"]["message"] + str(api.json())
    floor = persona_client("staff").post(
        "/floor/waitlists/add/", {"name": "Zed Kay", "lists": [game_list.pk]},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert floor.status_code == 422 and full in floor.content.decode()
    staff_api = api_client_for("staff").post(
        f"{LISTS}{game_list.pk}/entries/", {"name": "Zed Kay"}, format="json"
    )
    assert staff_api.status_code == 422 and full in str(staff_api.json())
    # The room: 3 + 2 on the other list is 5, the room's most.
    fill_list(plo, 2, first=50)
    room_full = "the room holds at most 5 names on all its lists together"
    other = Client().post("/kiosk/", {"name": "Yan Lo", "lists": [plo.pk]})
    assert other.status_code == 422 and room_full in other.content.decode()
    assert WaitlistEntry.objects.count() == 5
    # One leaves: there is room again.
    waitlists.remove_entry(entry=WaitlistEntry.objects.last(), reason="Went home", by=None)
    assert Client().post("/kiosk/", {"name": "Yan Lo", "lists": [plo.pk]}).status_code == 200


def test_the_board_builds_in_a_fixed_number_of_queries_and_names_the_first_players(
    floor_manager: Any, settings: Any
) -> None:
    """254 queries after 250 typed-stack deals: the latest hand was read table by table."""
    from cardroom.screens import board
    from tests.factories import make_hand, make_table

    settings.CARDROOM_WAITLIST_PAGE_ROWS = 5
    for number in (1, 2):
        make_hand(table=make_table(number=number, by=floor_manager), by=floor_manager)
    game_list = nlhe(floor_manager)
    fill_list(game_list, 3)
    with CaptureQueriesContext(connection) as small:
        board.build()
    for number in range(3, 9):
        make_hand(table=make_table(number=number, by=floor_manager), by=floor_manager)
    fill_list(game_list, 40, first=100)
    with CaptureQueriesContext(connection) as big:
        built = board.build()
    assert len(big) == len(small), (len(small), len(big))
    page = built.page.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Table 8 3/9" in text and "Table 1 3/9" in text
    waiting = re.findall(r'<ol class="board-waiting"[^>]*>(.*?)</ol>', page, re.S)
    assert [names.count("<li>") for names in waiting] == [5] and "and 38 more" in page
    assert '<dd class="board-waiting-count">43</dd>' in page


def test_the_start_proposal_reads_the_list_only_as_far_as_the_table_seats(
    floor_manager: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's "Start table" proposal read the whole list (10,000 rows) on every page and
    poll; it goes down the list only until the table is full."""
    from cardroom.seats import services as players
    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists import tables as waitlist_tables
    from tests.factories import make_table

    playing = make_table(number=1, by=floor_manager, seats=9)
    make_table(number=2, by=floor_manager, seats=3, status="closed")
    game_list = nlhe(floor_manager)
    entries = fill_list(game_list, 300)
    for seat, entry in enumerate(entries[1:3], 1):  # the 2nd and 3rd play at table 1
        players.seat_player(table=playing, player=entry.player, seat=seat, buy_in=100, by=None)

    def whole_list(*args: Any) -> Any:
        raise AssertionError("the whole list was read")

    monkeypatch.setattr(waitlists, "live_entries", whole_list)
    proposal = waitlist_tables.start_table_proposal(game_list)
    assert proposal["waiting"] == 300 and proposal["table"].number == 2
    assert [e.player.name for e in proposal["players"]] == [
        "Player 0000", "Player 0003", "Player 0004",
    ]  # fmt: skip
    assert [s["player"] for s in proposal["skipped"]] == ["Player 0001", "Player 0002"]
