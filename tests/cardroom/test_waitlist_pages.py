"""The floor's waitlist page and the kiosk: who may do what, the answers to bad
input and to races, the poll's 204, and the kiosk's privacy and rate limit."""

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

PAGE = "/floor/waitlists/"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def room(floor_manager: Any) -> dict[str, Any]:
    from cardroom.waitlists import services as waitlists
    from tests.factories import make_table

    table = make_table(number=3, by=floor_manager, seats=9)
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    plo = waitlists.open_list(
        variant="omaha", structure="pot_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    return {"table": table, "nlhe": nlhe, "plo": plo}


def add(game_list: Any, name: str, **kwargs: Any) -> Any:
    from cardroom.waitlists import services as waitlists

    return waitlists.add_to_list(game_list=game_list, name=name, **kwargs)


def fill_table(table: Any, by: Any, *, but: int) -> None:
    """Every seat of ``table`` taken except seat ``but``."""
    from cardroom.seats import services as players

    for seat in range(1, table.seats + 1):
        if seat != but:
            player = players.find_or_create_player(name=f"Regular {seat}", by=by)
            players.seat_player(table=table, player=player, seat=seat, buy_in=100, by=by)


def test_every_reader_sees_the_lists_in_order(
    persona_client: Any, room: dict[str, Any], floor_manager: Any
) -> None:
    add(room["nlhe"], "Ana Ruiz")
    add(room["nlhe"], "Bo Chen", source="kiosk")
    add(room["nlhe"], "Cy Dunn", source="call_in")
    for persona in ("staff", "director", "floor_manager", "superuser"):
        page = persona_client(persona).get(PAGE)
        assert page.status_code == 200
        text = page.content.decode()
        assert text.index("Ana Ruiz") < text.index("Bo Chen") < text.index("Cy Dunn")
        assert "Kiosk" in text and "Call-in" in text and "check in by" in text
    director_page = persona_client("director").get(PAGE).content.decode()
    assert "Add to the list" not in director_page and "Call next" not in director_page
    assert "Add to the list" in persona_client("staff").get(PAGE).content.decode()


def test_who_may_change_the_lists(persona_client: Any, room: dict[str, Any]) -> None:
    entry = add(room["nlhe"], "Ana Ruiz")
    add_url = reverse("cardroom:waitlist_add")
    body = {"name": "Di Egan", "lists": [room["nlhe"].pk]}
    assert persona_client("director").post(add_url, body).status_code == 403
    assert persona_client("no_role_user").post(add_url, body).status_code == 403
    assert persona_client("anonymous").post(add_url, body).status_code == 302  # to log in
    reorder = reverse("cardroom:waitlist_reorder", args=[entry.pk])
    move = {"position": 1, "reason": "Was here first"}
    assert persona_client("staff").post(reorder, move).status_code == 403
    assert persona_client("floor_manager").post(reorder, move, **HTMX).status_code == 200


def test_adding_to_several_lists_at_once_and_bad_input(
    persona_client: Any, room: dict[str, Any]
) -> None:
    from cardroom.waitlists.models import WaitlistEntry

    client = persona_client("staff")
    url = reverse("cardroom:waitlist_add")
    answer = client.post(
        url, {"name": "  Ana   Ruiz ", "lists": [room["nlhe"].pk, room["plo"].pk]}, **HTMX
    )
    assert answer.status_code == 200
    assert "Ana Ruiz added to NLHE 1/2 (1st), PLO 1/2 (1st)" in answer.content.decode()
    assert WaitlistEntry.objects.filter(player__name="Ana Ruiz").count() == 2
    for bad in ({"name": "", "lists": [room["nlhe"].pk]}, {"name": "Bo"}, {"name": "!!!", "lists": [room["nlhe"].pk]},
                {"name": "Bo", "lists": ["junk"]}, {"name": "x" * 500, "lists": [room["nlhe"].pk]}):  # fmt: skip
        refused = client.post(url, bad, **HTMX)
        assert refused.status_code == 422, bad
        assert (
            'class="form-error"' in refused.content.decode()
            or "errorlist" in refused.content.decode()
        )
    again = client.post(url, {"name": "Ana Ruiz", "lists": [room["nlhe"].pk]}, **HTMX)
    assert again.status_code == 422
    assert "already on the NLHE 1/2 list" in again.content.decode()


def test_call_and_seat_with_a_buy_in_and_the_loser_of_a_race_is_told(
    persona_client: Any, room: dict[str, Any], floor_manager: Any
) -> None:
    from cardroom.seats.models import TableSeat

    table = room["table"]
    fill_table(table, floor_manager, but=5)
    first, second = add(room["nlhe"], "Ana Ruiz"), add(room["nlhe"], "Bo Chen")
    page = persona_client("staff").get(PAGE).content.decode()
    assert "Table 3" in page and "seat 5" in page and "Next: Ana Ruiz" in page
    client = persona_client("staff")
    call = client.post(
        reverse("cardroom:waitlist_call", args=[first.pk]), {"table": 3, "seat": 5}, **HTMX
    )
    assert call.status_code == 200
    assert "Ana Ruiz called to" in call.content.decode()
    assert 'class="countdown"' in call.content.decode()
    seat = client.post(
        reverse("cardroom:waitlist_seat", args=[first.pk]),
        {"table": 3, "seat": 5, "buy_in": 150},
        **HTMX,
    )
    assert seat.status_code == 200, seat.content.decode()
    live = TableSeat.objects.get(table=table, seat=5, left_at__isnull=True)
    assert (live.player.name, live.stack) == ("Ana Ruiz", 150)
    # The other device taps "Seat now" for the next player on the same seat a moment later.
    late = persona_client("floor_manager").post(
        reverse("cardroom:waitlist_seat", args=[second.pk]), {"table": 3, "seat": 5}, **HTMX
    )
    assert late.status_code == 409
    assert "Someone else changed this first" in late.content.decode()
    assert "taken by Ana Ruiz" in late.content.decode()


def test_a_buy_in_out_of_range_is_refused_on_the_list(
    persona_client: Any, room: dict[str, Any], floor_manager: Any
) -> None:
    fill_table(room["table"], floor_manager, but=5)
    entry = add(room["nlhe"], "Ana Ruiz")
    url = reverse("cardroom:waitlist_seat", args=[entry.pk])
    for buy_in in (5000, 1, "abc"):
        answer = persona_client("staff").post(
            url, {"table": 3, "seat": 5, "buy_in": buy_in}, **HTMX
        )
        assert answer.status_code == 422, buy_in
        assert 'role="alert"' in answer.content.decode()
    nowhere = persona_client("staff").post(url, {"table": 99, "seat": 5}, **HTMX)
    assert nowhere.status_code == 422 and "There is no table 99" in nowhere.content.decode()


def test_the_poll_answers_204_until_something_changes(
    persona_client: Any, room: dict[str, Any]
) -> None:
    client = persona_client("director")
    page = client.get(PAGE).content.decode()
    version = page.split('data-version="', 1)[1].split('"', 1)[0]
    assert client.get(PAGE, {"v": version}, **HTMX).status_code == 204
    add(room["nlhe"], "Ana Ruiz")
    changed = client.get(PAGE, {"v": version}, **HTMX)
    assert changed.status_code == 200
    assert "Ana Ruiz" in changed.content.decode()
    assert 'hx-swap-oob="true"' in changed.content.decode()


def test_check_in_and_remove_with_a_reason(persona_client: Any, room: dict[str, Any]) -> None:
    from cardroom.waitlists.models import WaitlistEvent

    entry = add(room["nlhe"], "Cy Dunn", source="call_in")
    client = persona_client("staff")
    answer = client.post(reverse("cardroom:waitlist_check_in", args=[entry.pk]), **HTMX)
    assert answer.status_code == 200 and "Cy Dunn checked in" in answer.content.decode()
    remove = reverse("cardroom:waitlist_remove", args=[entry.pk])
    assert client.post(remove, {"reason": "  "}, **HTMX).status_code == 422
    assert client.post(remove, {"reason": "Left the room"}, **HTMX).status_code == 200
    assert client.post(remove, {"reason": "Left the room"}, **HTMX).status_code == 409
    kinds = list(WaitlistEvent.objects.values_list("kind", flat=True))
    assert kinds == ["added", "checked_in", "removed"]


def test_open_a_list_for_a_table_game_in_one_tap(persona_client: Any, floor_manager: Any) -> None:
    from cardroom.waitlists.models import GameList
    from tests.factories import make_table

    make_table(
        number=4, by=floor_manager, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500
    )
    client = persona_client("staff")
    assert "Open NLHE 2/5" in client.get(PAGE).content.decode()
    url = reverse("cardroom:waitlist_open")
    answer = client.post(url, {"game": "holdem:no_limit:2:5"}, **HTMX)
    assert answer.status_code == 200 and "The NLHE 2/5 list is open." in answer.content.decode()
    assert GameList.objects.filter(label="NLHE 2/5", closed_at__isnull=True).count() == 1
    assert client.post(url, {"game": "holdem:no_limit:2:5"}, **HTMX).status_code == 422
    assert client.post(url, {"game": "holdem:no_limit:x:5"}, **HTMX).status_code == 422
    custom = {"variant": "omaha", "structure": "pot_limit", "small_blind": 5, "big_blind": 5}
    assert client.post(url, {**custom, "start_threshold": 6}, **HTMX).status_code == 422


# --- the kiosk ------------------------------------------------------------------------------


def test_the_kiosk_needs_no_log_in_and_shows_no_other_name(room: dict[str, Any]) -> None:
    add(room["nlhe"], "Ana Ruiz")
    client = Client()
    page = client.get("/kiosk/")
    assert page.status_code == 200
    assert "Ana" not in page.content.decode() and "1 waiting" in page.content.decode()
    answer = client.post(
        "/kiosk/", {"name": "Bo Chen", "alias": "", "lists": [room["nlhe"].pk, room["plo"].pk]}
    )
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "on the list, B.C." in text and "NLHE 1/2" in text and "PLO 1/1" not in text
    assert "Ana" not in text


def test_the_kiosk_answers_bad_input_with_a_form_error(room: dict[str, Any]) -> None:
    client = Client()
    for bad in ({}, {"name": "Bo"}, {"name": "", "lists": [room["nlhe"].pk]}, {"name": "Bo", "lists": ["999999999"]},
                {"name": "Bo", "lists": ["x" * 30]}, {"name": "\x00", "lists": [room["nlhe"].pk]},
                {"name": "Bo", "alias": "y" * 80, "lists": [room["nlhe"].pk]}):  # fmt: skip
        answer = client.post("/kiosk/", bad)
        assert answer.status_code in (400, 422), bad
    add(room["nlhe"], "Bo Chen")
    twice = client.post("/kiosk/", {"name": "Bo Chen", "lists": [room["nlhe"].pk]})
    assert twice.status_code == 200  # a name already down: no tell (kiosk_views "Privacy")
    assert "already" not in twice.content.decode()


def test_the_kiosk_is_rate_limited(room: dict[str, Any]) -> None:
    from django.conf import settings

    rates = {**settings.CARDROOM_THROTTLE_RATES, "kiosk": "3/min"}
    with override_settings(CARDROOM_THROTTLE_RATES=rates):
        client = Client()
        for n in range(3):
            assert (
                client.post(
                    "/kiosk/", {"name": f"Player {n}", "lists": [room["nlhe"].pk]}
                ).status_code
                == 200
            )
        over = client.post("/kiosk/", {"name": "Player 9", "lists": [room["nlhe"].pk]})
        assert over.status_code == 429 and int(over["Retry-After"]) > 0
        assert "Too many names" in over.content.decode()
        assert client.get("/kiosk/").status_code == 200  # reading the page is never limited


def test_a_closed_kiosk_says_so(room: dict[str, Any]) -> None:
    from cardroom.waitlists.models import RoomSettings

    RoomSettings.objects.filter(pk=RoomSettings.current().pk).update(kiosk_enabled=False)
    answer = Client().post("/kiosk/", {"name": "Bo", "lists": [room["nlhe"].pk]})
    assert answer.status_code == 403 and "The kiosk is closed" in answer.content.decode()


def test_a_must_move_player_takes_the_main_games_open_seat_first(
    persona_client: Any, room: dict[str, Any], floor_manager: Any
) -> None:
    from cardroom.seats import services as players
    from cardroom.seats.models import TableSeat
    from cardroom.waitlists.models import MustMove
    from tests.factories import make_table

    main = room["table"]
    fill_table(main, floor_manager, but=5)
    feeder = make_table(number=8, by=floor_manager, seats=9)
    for seat, name in ((2, "Early Bird"), (4, "Late Owl")):
        player = players.find_or_create_player(name=name, by=floor_manager)
        players.seat_player(table=feeder, player=player, seat=seat, buy_in=80, by=floor_manager)
    add(room["nlhe"], "Ana Ruiz")
    client = persona_client("staff")
    made = client.post(
        reverse("cardroom:must_move_create"), {"table": feeder.pk, "main": room["nlhe"].pk}, **HTMX
    )
    assert made.status_code == 200 and "Table 8 is now a must-move." in made.content.decode()
    page = client.get(PAGE).content.decode()
    assert "Must-move first: Early Bird from Table 8" in page
    must_move = MustMove.objects.get()
    move = reverse("cardroom:must_move_action", args=[must_move.pk, "move"])
    moved = client.post(move, {"table": 3, "seat": 5}, **HTMX)
    assert moved.status_code == 200, moved.content.decode()
    assert "Early Bird moved from Table 8 to Table 3, seat 5." in moved.content.decode()
    live = TableSeat.objects.get(table=main, seat=5, left_at__isnull=True)
    assert (live.player.name, live.stack) == ("Early Bird", 80)
    again = client.post(move, {"table": 3, "seat": 5}, **HTMX)
    assert again.status_code == 409
    twice = client.post(
        reverse("cardroom:must_move_create"), {"table": feeder.pk, "main": room["nlhe"].pk}, **HTMX
    )
    assert twice.status_code == 422 and "already must-move" in twice.content.decode()
    end = reverse("cardroom:must_move_action", args=[must_move.pk, "end"])
    assert client.post(end, **HTMX).status_code == 200
    assert client.post(end, **HTMX).status_code == 409
    bogus = reverse("cardroom:must_move_action", args=[must_move.pk, "teleport"])
    assert client.post(bogus, **HTMX).status_code == 422


def test_a_new_table_is_started_from_a_list_with_a_verifiable_draw(
    persona_client: Any, room: dict[str, Any], floor_manager: Any
) -> None:
    from cardroom.seats.models import TableSeat
    from cardroom.waitlists.models import GameList
    from tests.factories import make_table

    GameList.objects.filter(pk=room["plo"].pk).update(start_threshold=3)
    spare = make_table(
        number=6, by=floor_manager, status="closed", variant="omaha", structure="pot_limit", seats=6
    )
    for name in ("Ana Ruiz", "Bo Chen"):
        add(room["plo"], name)
    client = persona_client("staff")
    assert "Start Table 6" not in client.get(PAGE).content.decode()
    add(room["plo"], "Cy Dunn")
    page = client.get(PAGE).content.decode()
    assert "3 waiting: open Table 6 for PLO 1/2." in page and "Start Table 6" in page
    started = client.post(
        reverse("cardroom:waitlist_start", args=[room["plo"].pk]), {"table": 6}, **HTMX
    )
    assert started.status_code == 200, started.content.decode()
    text = started.content.decode()
    assert "Table 6 is open: players seated." in text
    assert "Commitment (SHA-256)" in text and "replayed: the seats match the draw" in text
    assert TableSeat.objects.filter(table=spare, left_at__isnull=True).count() == 3
    again = client.post(
        reverse("cardroom:waitlist_start", args=[room["plo"].pk]), {"table": 6}, **HTMX
    )
    assert again.status_code == 422
    junk = client.post(reverse("cardroom:waitlist_start", args=[room["plo"].pk]), {"table": "x"})
    assert junk.status_code == 422


def test_wording_one_table_the_must_move_line_and_the_call_in_option(
    persona_client: Any, room: dict[str, Any], floor_manager: Any
) -> None:
    """One table is "Table 3" (not "Tables 3"); the must-move line reads "when a seat
    opens in NLHE 1/2" (never "a NLHE"); the call-in box is an option, not a game pill."""
    import re

    from cardroom.seats import services as players
    from cardroom.waitlists import tables as waitlist_tables
    from tests.factories import make_table

    def heads(html: str) -> list[str]:
        return re.findall(r'class="muted list-tables">([^<]*)<', html)

    client = persona_client("staff")
    assert "Table 3" in heads(client.get(PAGE).content.decode())
    fill_table(room["table"], floor_manager, but=0)  # no open seat: the must-move waits
    feeder = make_table(number=8, by=floor_manager, seats=9)
    player = players.find_or_create_player(name="Pia Nova", by=floor_manager)
    players.seat_player(table=feeder, player=player, seat=2, buy_in=80, by=floor_manager)
    waitlist_tables.create_must_move(table=feeder, main=room["nlhe"], by=floor_manager)
    html = client.get(PAGE).content.decode()
    assert "Tables 3, 8" in heads(html)
    assert f"when a seat opens in {room['nlhe'].label}" in html and "when a NLHE" not in html
    assert re.search(r'<label class="add-option"><input[^>]*name="call_in"', html)
    assert not re.search(r'<label class="choice"><input[^>]*name="call_in"', html)
