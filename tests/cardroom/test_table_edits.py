"""A table's settings never strand the players seated there or the hand in progress: fewer
seats than the highest seat taken, a change of kind, closing with players seated
(asked first, naming them) and a change of game during a hand are refused with who sits where,
by the one service check the form, the API and the admin share; a table with history is never
deleted (a 409 naming what holds it, never a 500)."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cardroom.seats import services as players
from cardroom.seats.models import TableSeat
from cardroom.tables.models import Table
from cardroom.tables.removal import delete_table
from cardroom.tables.services import TableInUse, update_table
from tests.factories import make_hand, make_table
from tests.tournaments.factories import make_tournament

pytestmark = pytest.mark.django_db


def table_with_four(fm: Any) -> Table:
    """Table 4, nine seats: Cy in 1, Di in 3, Ana in 7 (1,200 chips), Bo in 9 (800)."""
    table = make_table(number=4, by=fm, max_buy_in=2000)
    for seat, name, chips in ((1, "Cy Ode", 300), (3, "Di Park", 400), (7, "Ana Ruiz", 1200),
                              (9, "Bo Li", 800)):  # fmt: skip
        player = players.find_or_create_player(name=name, by=fm)
        players.seat_player(table=table, player=player, seat=seat, buy_in=chips, by=fm)
    return table


ABOVE_SIX = (
    "Seat 7: Ana Ruiz (1,200 chips), seat 9: Bo Li (800 chips) are seated above seat 6:"
    " move them to other seats or let them leave first."
)


def test_fewer_seats_than_a_player_sits_in_is_refused_naming_who_sits_where(
    floor_manager: Any,
) -> None:
    table = table_with_four(floor_manager)
    with pytest.raises(TableInUse) as refused:
        update_table(table=table, by=floor_manager, seats=6)
    assert refused.value.message_dict == {"seats": [ABOVE_SIX]}
    with pytest.raises(TableInUse, match=r"Seat 3: Di Park \(400 chips\), seat 7"):
        update_table(table=table, by=floor_manager, seats=2)
    table.refresh_from_db()
    assert table.seats == 9 and table.changes.count() == 1
    # Down to the highest seat taken is fine: nobody is stranded.
    assert update_table(table=table, by=floor_manager, seats=9).seats == 9
    players.leave_seat(seat=TableSeat.objects.get(table=table, seat=9, left_at=None), by=None)
    assert update_table(table=table, by=floor_manager, seats=7).seats == 7


def test_a_change_of_kind_is_refused_while_players_sit_or_a_hand_is_played(
    floor_manager: Any,
) -> None:
    table = table_with_four(floor_manager)
    with pytest.raises(TableInUse) as refused:
        update_table(table=table, by=floor_manager, kind="tournament")
    assert refused.value.message_dict == {
        "kind": [
            "Table 4 has 4 players seated (seat 1: Cy Ode (300 chips), seat 3: Di Park (400"
            " chips), seat 7: Ana Ruiz (1,200 chips), seat 9: Bo Li (800 chips)): it changes"
            " kind only when they have left."
        ]
    }
    typed = make_table(number=8, by=floor_manager)
    hand = make_hand(table=typed, by=floor_manager)
    with pytest.raises(TableInUse, match=f"{hand} is in progress: finish or void it first"):
        update_table(table=typed, by=floor_manager, kind="tournament")
    assert Table.objects.get(number=8).kind == "cash"


def test_fewer_seats_than_a_hand_in_progress_deals_is_refused(floor_manager: Any) -> None:
    table = make_table(number=8, by=floor_manager)
    hand = make_hand(table=table, by=floor_manager, stacks={1: 200, 2: 200, 5: 200})
    with pytest.raises(TableInUse, match=f"{hand} is in progress with seat 5 dealt in"):
        update_table(table=table, by=floor_manager, seats=4)


def test_a_table_keeps_its_kind_and_seats_while_a_tournament_plays_there(
    floor_manager: Any, director: Any
) -> None:
    tournament = make_tournament(by=director, tables=1, name="Sunday Deepstack", entrants=0)
    room = tournament.tables.get().table
    with pytest.raises(TableInUse) as refused:
        update_table(table=room, by=floor_manager, kind="cash", seats=6)
    assert refused.value.message_dict == {
        "kind": [
            f"Sunday Deepstack plays at {room}: it changes kind once the tournament is done there."
        ],
        "seats": [
            f"Sunday Deepstack plays at {room} with 9 seats: it keeps them until it is done there."
        ],
    }
    assert update_table(table=room, by=floor_manager, name="Feature").name == "Feature"


def test_the_game_changes_between_hands_not_during_one(floor_manager: Any) -> None:
    table = make_table(number=8, by=floor_manager)
    hand = make_hand(table=table, by=floor_manager)
    with pytest.raises(ValidationError) as refused:
        update_table(table=table, by=floor_manager, small_blind=2, big_blind=4)
    assert refused.value.message_dict["big_blind"] == [
        f"The game cannot change while a hand is in progress ({hand}): change it between"
        " hands (the next hand deals with it)."
    ]
    from cardroom.tables.services import void_hand

    void_hand(hand=hand, by=floor_manager, expected_seq=hand.seq, reason="misdeal")
    assert update_table(table=table, by=floor_manager, small_blind=2, big_blind=4).big_blind == 4


def test_closing_from_the_settings_asks_naming_the_players(floor_manager: Any) -> None:
    table = table_with_four(floor_manager)
    with pytest.raises(ValidationError) as asked:
        update_table(table=table, by=floor_manager, status="closed")
    assert asked.value.messages == [
        "Table 4 still has 4 players seated: Cy Ode, Di Park, Ana Ruiz, Bo Li. Close it anyway?"
        " Their seats and chips stay on record until they are moved or cashed out."
    ]
    assert Table.objects.get(pk=table.pk).status == "open"
    closed = update_table(table=table, by=floor_manager, status="closed", confirm_seated=True)
    assert closed.status == "closed"


def test_the_api_refuses_with_the_reason_and_closes_only_when_confirmed(
    api_client_for: Any, floor_manager: Any
) -> None:
    table = table_with_four(floor_manager)
    client = api_client_for("floor_manager")
    url = f"/api/v1/tables/{table.pk}/"
    fewer = client.patch(url, {"seats": 6}, format="json")
    assert fewer.status_code == 422, fewer.json()
    assert fewer.json()["error"]["code"] == "table_in_use"
    assert fewer.json()["error"]["message"] == ABOVE_SIX
    kind = client.patch(url, {"kind": "tournament"}, format="json")
    assert (
        kind.status_code == 422 and "it changes kind only when" in kind.json()["error"]["message"]
    )
    close = client.patch(url, {"status": "closed"}, format="json")
    assert close.status_code == 422
    assert close.json()["error"]["code"] == "confirm_seated"
    assert "Cy Ode, Di Park, Ana Ruiz, Bo Li" in close.json()["error"]["message"]
    assert Table.objects.get(pk=table.pk).status == "open"
    confirmed = client.patch(url, {"status": "closed", "confirm_seated": True}, format="json")
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["status"] == "closed" and "confirm_seated" not in confirmed.json()


def test_the_edit_form_refuses_keeping_what_was_typed(client: Any, floor_manager: Any) -> None:
    table_with_four(floor_manager)
    client.force_login(floor_manager)
    form = client.get("/tables/4/edit/").context["form"]
    posted = {name: value for name, value in form.initial.items() if value is not None} | {
        "seats": 6,
        "name": "Back room",
    }
    refused = client.post("/tables/4/edit/", posted, HTTP_HX_REQUEST="true")
    assert refused.status_code == 422
    html = refused.content.decode()
    assert "Seat 7: Ana Ruiz (1,200 chips), seat 9: Bo Li (800 chips)" in html
    assert 'value="Back room"' in html
    assert Table.objects.get(number=4).seats == 9


def test_the_edit_form_asks_before_closing_and_closes_when_told(
    client: Any, floor_manager: Any
) -> None:
    table_with_four(floor_manager)
    client.force_login(floor_manager)
    form = client.get("/tables/4/edit/").context["form"]
    posted = {name: value for name, value in form.initial.items() if value is not None}
    asked = client.post("/tables/4/edit/", {**posted, "status": "closed"}, HTTP_HX_REQUEST="true")
    assert asked.status_code == 422
    html = asked.content.decode()
    assert "Cy Ode, Di Park, Ana Ruiz, Bo Li. Close it anyway?" in html
    assert "Their seats and chips stay on record" in html
    assert 'name="confirm_seated" value="1"' in html and "Close anyway" in html
    assert "{#" not in html  # no template comment shown as text
    assert Table.objects.get(number=4).status == "open"
    done = client.post("/tables/4/edit/", {**posted, "status": "closed", "confirm_seated": "1"})
    assert done.status_code == 302
    assert Table.objects.get(number=4).status == "closed"


def test_the_admin_refuses_as_the_form_does(persona_client: Any, floor_manager: Any) -> None:
    table = table_with_four(floor_manager)
    client = persona_client("superuser")
    form = client.get(f"/admin/cardroom/table/{table.pk}/change/").context["adminform"].form
    kept = {name: value for name, value in form.initial.items() if value is not None}
    posted = {name: value for name, value in kept.items() if value is not False} | {
        "seats": 6,
        "changes-TOTAL_FORMS": 0,
        "changes-INITIAL_FORMS": 0,
    }
    refused = client.post(f"/admin/cardroom/table/{table.pk}/change/", posted)
    assert refused.status_code == 200
    assert refused.context["adminform"].form.errors == {"seats": [ABOVE_SIX]}
    closing = client.post(
        f"/admin/cardroom/table/{table.pk}/change/", {**posted, "seats": 9, "status": "closed"}
    )
    assert closing.context["adminform"].form.errors == {
        "status": [
            "Table 4 still has players seated (Cy Ode, Di Park, Ana Ruiz, Bo Li): close it from"
            " its settings page or the floor, which ask first."
        ]
    }
    assert Table.objects.get(pk=table.pk).seats == 9


# --- deleting --------------------------------------------------------------------------------


def test_deleting_a_table_with_history_is_a_409_naming_what_holds_it(
    api_client_for: Any, floor_manager: Any, director: Any
) -> None:
    client = api_client_for("floor_manager")
    seated = table_with_four(floor_manager)
    answer = client.delete(f"/api/v1/tables/{seated.pk}/")
    assert answer.status_code == 409, answer.content
    assert answer.json()["error"] == {
        "code": "table_has_history",
        "message": "Table 4 has 4 players seated and 4 seat events on record: close or break"
        " it instead.",
    }
    dealt = make_table(number=8, by=floor_manager)
    make_hand(table=dealt, by=floor_manager)
    answer = client.delete(f"/api/v1/tables/{dealt.pk}/")
    assert answer.status_code == 409
    assert answer.json()["error"]["message"].startswith("Table 8 has 1 hand on record")
    tournament = make_tournament(by=director, tables=1, name="Sunday Deepstack")
    room = tournament.tables.get().table
    answer = client.delete(f"/api/v1/tables/{room.pk}/")
    assert answer.status_code == 409
    assert "is in tournament Sunday Deepstack" in answer.json()["error"]["message"]
    assert Table.objects.filter(pk__in=[seated.pk, dealt.pk, room.pk]).count() == 3
    # A table set up by mistake, with no history, still goes.
    empty = make_table(number=12, by=floor_manager)
    assert client.delete(f"/api/v1/tables/{empty.pk}/").status_code == 204
    assert not Table.objects.filter(number=12).exists()


def test_delete_table_refuses_every_kind_of_history(floor_manager: Any) -> None:
    table = make_table(number=8, by=floor_manager)
    player = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    live = players.seat_player(table=table, player=player, seat=2, buy_in=100, by=floor_manager)
    players.leave_seat(seat=live, by=floor_manager)
    with pytest.raises(Exception, match="Table 8 has 2 seat events on record") as refused:
        delete_table(table=table)
    assert type(refused.value).__name__ == "TableHasHistory"


def test_the_admin_deletes_an_empty_table_and_refuses_one_with_history(
    persona_client: Any, floor_manager: Any
) -> None:
    client = persona_client("superuser")
    empty = make_table(number=12, by=floor_manager)
    deleted = client.post(f"/admin/cardroom/table/{empty.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 302
    assert not Table.objects.filter(number=12).exists()
    seated = table_with_four(floor_manager)
    page = client.post(f"/admin/cardroom/table/{seated.pk}/delete/", {"post": "yes"})
    assert page.status_code == 200  # Django's own "protected objects" page, not a 500
    assert Table.objects.filter(number=4).exists()
    bulk = client.post(
        "/admin/cardroom/table/",
        {"action": "delete_selected", "_selected_action": [seated.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert Table.objects.filter(number=4).exists()
