"""The API of a table that runs all night: the seat map, the next hand, the award
and the players. 400 for a body the endpoint does not take (naming the field), 422 for what
the rules refuse (with the rule), 409 when another device got there first, 403 for roles."""

from typing import Any

import pytest

from cardroom.seats import services as players
from cardroom.seats.models import Player, SeatEvent, TableSeat
from cardroom.tables import services
from cardroom.tables.models import Hand, Table
from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def fm(api_client_for: Any) -> Any:
    return api_client_for("floor_manager")


@pytest.fixture
def table(floor_manager: Any) -> Table:
    return make_table(number=3, by=floor_manager)  # 1/2 NL, buy-in 40-200, 9 seats


def seats_url(table: Table, seat: int | None = None) -> str:
    return f"/api/v1/tables/{table.pk}/seats/" + (f"{seat}/" if seat else "")


def seat(table: Table, number: int, name: str, buy_in: int, by: Any) -> TableSeat:
    player = players.find_or_create_player(name=name, by=by)
    return players.seat_player(table=table, player=player, seat=number, buy_in=buy_in, by=by)


def error(response: Any) -> dict[str, Any]:
    body: dict[str, Any] = response.json()["error"]
    return body


# --- the seat map ---------------------------------------------------------------------------


def test_a_player_seated_by_name_is_on_the_seat_map_and_in_the_log(
    fm: Any, api_client_for: Any, table: Table
) -> None:
    body = {"name": "  Ana   Ruiz ", "alias": "Ace", "seat": 3, "buy_in": 150}
    created = fm.post(seats_url(table), body, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["player"]["name"] == "Ana Ruiz"
    assert created.json()["player"]["public_name"] == "Ace"
    assert (created.json()["stack"], created.json()["status"]) == (150, "playing")
    shown = api_client_for("staff").get(seats_url(table)).json()
    assert (shown["kind"], shown["max_seats"], shown["seated"]) == ("cash", 9, 1)
    assert shown["open"] == [1, 2, 4, 5, 6, 7, 8, 9]
    assert shown["seats"][0]["seat"] == 3 and shown["seats"][0]["new"] is True
    event = SeatEvent.objects.get()
    assert event.by is not None and event.by.username == "fm"
    assert (event.kind, event.amount, event.stack) == ("seated", 150, 150)


def test_a_known_player_is_seated_by_id(fm: Any, table: Table, floor_manager: Any) -> None:
    player = players.find_or_create_player(name="Bo Lind", by=floor_manager)
    body = {"player": player.pk, "seat": 1, "buy_in": 40, "waits_for_big_blind": True}
    created = fm.post(seats_url(table), body, format="json")
    assert created.status_code == 201
    assert created.json()["waits_for_big_blind"] is True
    missing = fm.post(seats_url(table), {**body, "player": 99999, "seat": 2}, format="json")
    assert missing.status_code == 400
    assert error(missing)["fields"] == {"player": ["No player 99999."]}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seat": 1, "buy_in": 100}, "player"),  # neither a player nor a name
        ({"name": "A", "player": 1, "seat": 1, "buy_in": 100}, "player"),  # both
        ({"name": "A", "seat": 0, "buy_in": 100}, "seat"),
        ({"name": "A", "seat": 13, "buy_in": 100}, "seat"),
        ({"name": "A", "seat": 1, "buy_in": "lots"}, "buy_in"),
        ({"name": "A", "seat": 1, "buy_in": 0}, "buy_in"),
        ({"name": "A", "seat": 1, "buy_in": 2**31}, "buy_in"),
        ({"name": "A" * 121, "seat": 1, "buy_in": 100}, "name"),
        ({"name": "A", "seat": 1}, "buy_in"),
    ],
)
def test_a_body_the_endpoint_does_not_take_is_400_naming_the_field(
    fm: Any, table: Table, body: dict[str, Any], field: str
) -> None:
    response = fm.post(seats_url(table), body, format="json")
    assert response.status_code == 400
    assert error(response)["code"] == "bad_request"
    assert field in error(response)["fields"]
    assert not TableSeat.objects.exists()


def test_a_buy_in_over_the_maximum_is_refused_with_the_rule(fm: Any, table: Table) -> None:
    response = fm.post(seats_url(table), {"name": "Cy", "seat": 1, "buy_in": 5000}, format="json")
    assert response.status_code == 422
    assert error(response)["code"] == "seat_refused"
    assert error(response)["message"].startswith(
        "Buy-in 5,000 is above this table's maximum of 200"
    )
    assert error(response)["citations"] == ["RRoP-14.16"]
    below = fm.post(seats_url(table), {"name": "Cy", "seat": 1, "buy_in": 20}, format="json")
    assert below.status_code == 422 and "minimum of 40" in error(below)["message"]
    assert not TableSeat.objects.exists()
    assert not Player.objects.exists()  # a seat refused leaves no new player behind


def test_a_seat_taken_or_a_player_seated_elsewhere_is_409(
    fm: Any, table: Table, floor_manager: Any
) -> None:
    seat(table, 2, "Dee Park", 100, floor_manager)
    taken = fm.post(seats_url(table), {"name": "Eve", "seat": 2, "buy_in": 100}, format="json")
    assert taken.status_code == 409 and error(taken)["code"] == "seat_taken"
    other = make_table(number=4, by=floor_manager)
    again = fm.post(seats_url(other), {"name": "dee park", "seat": 1, "buy_in": 100}, format="json")
    assert again.status_code == 409 and error(again)["code"] == "player_seated"
    assert TableSeat.objects.count() == 1


def test_a_tournament_table_has_no_cash_seat_map(fm: Any, floor_manager: Any) -> None:
    table = make_table(number=9, kind="tournament", by=floor_manager)
    response = fm.post(seats_url(table), {"name": "Fay", "seat": 1, "buy_in": 100}, format="json")
    assert response.status_code == 422
    assert "tournament table" in error(response)["message"]


@pytest.mark.parametrize("persona", ["staff", "no_role_user"])
def test_only_floor_managers_and_directors_change_seats(
    api_client_for: Any, persona: str, table: Table, floor_manager: Any
) -> None:
    seat(table, 1, "Gus", 100, floor_manager)
    client = api_client_for(persona)
    body = {"name": "Hal", "seat": 2, "buy_in": 100}
    assert client.post(seats_url(table), body, format="json").status_code == 403
    change = client.patch(seats_url(table, 1), {"add_chips": 20}, format="json")
    assert change.status_code == 403
    assert client.delete(seats_url(table, 1)).status_code == 403
    assert (
        client.post(f"/api/v1/tables/{table.pk}/next-hand/", {}, format="json").status_code == 403
    )
    assert TableSeat.objects.get().stack == 100 and TableSeat.objects.count() == 1


def test_directors_seat_players_and_anonymous_is_401(api_client_for: Any, table: Table) -> None:
    body = {"name": "Ida", "seat": 1, "buy_in": 100}
    assert api_client_for("anonymous").get(seats_url(table)).status_code == 401
    assert api_client_for("director").post(seats_url(table), body, format="json").status_code == 201


def test_chips_added_up_to_the_maximum_and_a_rebuy(
    fm: Any, table: Table, floor_manager: Any
) -> None:
    seat(table, 1, "Jo", 150, floor_manager)
    added = fm.patch(seats_url(table, 1), {"add_chips": 50}, format="json")
    assert added.status_code == 200 and added.json()["stack"] == 200
    over = fm.patch(seats_url(table, 1), {"add_chips": 2}, format="json")
    assert over.status_code == 422 and error(over)["citations"] == ["RRoP-14.16"]
    zero = fm.patch(
        seats_url(table, 1), {"stack": 0, "reason": "counted down: all in the pot"}, format="json"
    )
    assert zero.status_code == 200 and zero.json()["stack"] == 0
    rebuy = fm.patch(seats_url(table, 1), {"add_chips": 100}, format="json")
    assert rebuy.status_code == 200 and rebuy.json()["stack"] == 100
    kinds = list(SeatEvent.objects.values_list("kind", "amount"))
    assert kinds == [("seated", 150), ("added", 50), ("corrected", -200), ("rebuy", 100)]


def test_sitting_out_and_coming_back_to_wait_for_the_big_blind(
    fm: Any, table: Table, floor_manager: Any
) -> None:
    seat(table, 1, "Kim", 100, floor_manager)
    out = fm.patch(seats_url(table, 1), {"status": "sitting_out"}, format="json")
    assert out.status_code == 200
    assert out.json()["status"] == "sitting_out" and out.json()["away_since"]
    twice = fm.patch(seats_url(table, 1), {"status": "sitting_out"}, format="json")
    assert twice.status_code == 409 and error(twice)["code"] == "sitting_out"
    back = fm.patch(
        seats_url(table, 1), {"status": "playing", "wait_for_big_blind": True}, format="json"
    )
    assert back.status_code == 200
    assert (back.json()["status"], back.json()["waits_for_big_blind"]) == ("playing", True)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "non_field_errors"),
        ({"add_chips": 10, "status": "playing"}, "non_field_errors"),
        ({"add_chips": 0}, "add_chips"),
        ({"status": "asleep"}, "status"),
        ({"status": "sitting_out", "wait_for_big_blind": True}, "wait_for_big_blind"),
        ({"stack": 90}, "reason"),
        ({"stack": -1, "reason": "x"}, "stack"),
    ],
)
def test_a_seat_change_the_endpoint_does_not_take_is_400(
    fm: Any, table: Table, floor_manager: Any, body: dict[str, Any], field: str
) -> None:
    seat(table, 1, "Lee", 100, floor_manager)
    response = fm.patch(seats_url(table, 1), body, format="json")
    assert response.status_code == 400
    assert field in error(response)["fields"]
    assert TableSeat.objects.get().stack == 100


def test_an_empty_seat_is_404_and_another_player_in_it_409(
    fm: Any, table: Table, floor_manager: Any
) -> None:
    mo = seat(table, 1, "Mo", 100, floor_manager)
    assert fm.patch(seats_url(table, 2), {"add_chips": 10}, format="json").status_code == 404
    assert fm.get(seats_url(table, 10)).status_code == 404  # the table has 9 seats
    assert fm.delete(seats_url(table, 2)).status_code == 404
    stale = fm.patch(seats_url(table, 1), {"player": mo.player_id + 1, "add_chips": 10})
    assert stale.status_code == 409 and error(stale)["code"] == "seat_changed"
    assert fm.delete(seats_url(table, 1) + f"?player={mo.player_id + 1}").status_code == 409
    assert fm.delete(seats_url(table, 1) + "?player=x").status_code == 400
    assert TableSeat.objects.get().stack == 100


def test_leaving_cashes_out_and_frees_the_seat(fm: Any, table: Table, floor_manager: Any) -> None:
    ned = seat(table, 4, "Ned", 180, floor_manager)
    left = fm.delete(seats_url(table, 4) + f"?player={ned.player_id}")
    assert left.status_code == 200
    assert left.json()["cashed_out"] == 180 and left.json()["player"]["name"] == "Ned"
    assert fm.get(seats_url(table, 4)).status_code == 404
    assert fm.get(seats_url(table)).json()["seated"] == 0
    assert SeatEvent.objects.order_by("-id").values_list("kind", "amount")[0] == ("left", -180)


# --- the next hand and its award ------------------------------------------------------------


def next_url(table: Table) -> str:
    return f"/api/v1/tables/{table.pk}/next-hand/"


def award_url(hand: Hand) -> str:
    return f"/api/v1/hands/{hand.pk}/award/"


@pytest.fixture
def three(table: Table, floor_manager: Any) -> Table:
    for number, name in ((1, "Ana"), (2, "Bo"), (5, "Cy")):
        seat(table, number, name, 100, floor_manager)
    return table


def test_the_proposal_names_the_button_blinds_and_rules(api_client_for: Any, three: Table) -> None:
    proposal = api_client_for("staff").get(next_url(three))
    assert proposal.status_code == 200
    body = proposal.json()
    assert body["button"] == 1
    assert body["blinds"] == {"small": 2, "big": 5}
    assert [s["seat"] for s in body["seats"]] == [1, 2, 5]
    assert body["names"] == {"1": "Ana", "2": "Bo", "5": "Cy"}
    assert body["version"] and body["citations"]


def test_fewer_than_two_players_is_no_proposal(fm: Any, table: Table, floor_manager: Any) -> None:
    seat(table, 1, "Solo", 100, floor_manager)
    response = fm.get(next_url(table))
    assert response.status_code == 422
    assert error(response)["fields"]["seats"]


def test_dealing_the_proposal_then_awarding_it_carries_the_stacks(
    fm: Any, three: Table, floor_manager: Any
) -> None:
    version = fm.get(next_url(three)).json()["version"]
    dealt = fm.post(next_url(three), {"version": version}, format="json")
    assert dealt.status_code == 201, dealt.json()
    hand = Hand.objects.get(pk=dealt.json()["id"])
    assert dealt.json()["names"] == {"1": "Ana", "2": "Bo", "5": "Cy"}
    assert dealt.json()["blinds"] == {"small": 2, "big": 5}
    assert dealt.json()["result"] is None
    # Chips are not added to a seat dealt into a hand that is not awarded.
    busy = fm.patch(seats_url(three, 1), {"add_chips": 10}, format="json")
    assert busy.status_code == 409 and error(busy)["code"] == "in_hand"
    # The button (seat 1) folds, the small blind (seat 2) folds: the big blind (5) wins.
    for step, who in enumerate((1, 2)):
        services.record_action(hand=hand, by=floor_manager, expected_seq=step, seat=who,
                               action="fold")  # fmt: skip
    stale = fm.post(award_url(hand), {"expected_seq": 1}, format="json")
    assert stale.status_code == 409 and error(stale)["seq"] == 2
    awarded = fm.post(award_url(hand), {"expected_seq": 2}, format="json")
    assert awarded.status_code == 200, awarded.json()
    assert awarded.json()["state"] == "complete" and awarded.json()["awarded_by"] == "fm"
    assert {s["seat"]: s["stack"] for s in awarded.json()["result"]["stacks"]} == {
        1: 100, 2: 99, 5: 101,
    }  # fmt: skip
    stacks = {s["seat"]: s["stack"] for s in fm.get(seats_url(three)).json()["seats"]}
    assert stacks == {1: 100, 2: 99, 5: 101}
    again = fm.post(award_url(hand), {"expected_seq": 3}, format="json")
    assert again.status_code == 409 and error(again)["code"] == "awarded"


def test_a_showdown_award_and_a_bad_showdown(fm: Any, three: Table, floor_manager: Any) -> None:
    hand = Hand.objects.get(pk=fm.post(next_url(three), {}, format="json").json()["id"])
    for seq, (who, action) in enumerate(((1, "call"), (2, "call"), (5, "check"))):
        services.record_action(
            hand=hand, by=floor_manager, expected_seq=seq, seat=who, action=action
        )
    hand.refresh_from_db()
    while (to_act := services.engine_state(hand).to_act) is not None:
        services.record_action(hand=hand, by=floor_manager, expected_seq=hand.seq, seat=to_act,
                               action="check")  # fmt: skip
        hand.refresh_from_db()
    early = fm.post(award_url(hand), {"expected_seq": hand.seq}, format="json")
    assert early.status_code == 400 and "showdown" in error(early)["fields"]
    shape = fm.post(
        award_url(hand), {"expected_seq": hand.seq, "showdown": {"ranking": "5"}}, format="json"
    )
    assert shape.status_code == 400 and "showdown" in error(shape)["fields"]
    wrong = fm.post(
        award_url(hand), {"expected_seq": hand.seq, "showdown": {"ranking": [[5], [9]]}},
        format="json",
    )  # fmt: skip
    assert wrong.status_code == 400 and "showdown" in error(wrong)["fields"]
    body = {"expected_seq": hand.seq, "showdown": {"ranking": [[5], [1, 2]]}}
    awarded = fm.post(award_url(hand), body, format="json")
    assert awarded.status_code == 200, awarded.json()
    stacks = {s["seat"]: s["stack"] for s in fm.get(seats_url(three)).json()["seats"]}
    assert stacks == {1: 98, 2: 98, 5: 104}  # each put in the big blind of 2


def test_awarding_a_hand_whose_betting_is_not_over_is_409(fm: Any, three: Table) -> None:
    hand_id = fm.post(next_url(three), {}, format="json").json()["id"]
    response = fm.post(f"/api/v1/hands/{hand_id}/award/", {"expected_seq": 0}, format="json")
    assert response.status_code == 409 and error(response)["code"] == "hand_not_over"
    assert fm.post("/api/v1/hands/99999/award/", {"expected_seq": 0}).status_code == 404
    assert fm.post(f"/api/v1/hands/{hand_id}/award/", {}, format="json").status_code == 400


def test_a_correction_needs_a_reason_and_is_kept(fm: Any, three: Table) -> None:
    bare = fm.post(next_url(three), {"button": 2}, format="json")
    assert bare.status_code == 422 and "reason" in error(bare)["fields"]
    body = {"button": 2, "small": 5, "big": 1, "reason": "the button was on seat 2"}
    dealt = fm.post(next_url(three), body, format="json")
    assert dealt.status_code == 201, dealt.json()
    assert dealt.json()["button"] == 2
    assert dealt.json()["correction"]["reason"] == "the button was on seat 2"
    assert dealt.json()["correction"]["proposed"]["button"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [({"button": 0}, "button"), ({"small": "x"}, "small"), ({"reason": "x" * 301}, "reason")],
)
def test_a_deal_body_the_endpoint_does_not_take_is_400(
    fm: Any, three: Table, body: dict[str, Any], field: str
) -> None:
    response = fm.post(next_url(three), body, format="json")
    assert response.status_code == 400 and field in error(response)["fields"]
    assert not Hand.objects.exists()


def test_a_seat_map_changed_since_the_proposal_is_409(
    fm: Any, three: Table, floor_manager: Any
) -> None:
    version = fm.get(next_url(three)).json()["version"]
    seat(three, 7, "Late", 100, floor_manager)
    response = fm.post(next_url(three), {"version": version}, format="json")
    assert response.status_code == 409 and error(response)["code"] == "seat_map_changed"
    assert not Hand.objects.exists()


def test_a_second_deal_while_a_hand_is_in_progress_is_refused(fm: Any, three: Table) -> None:
    assert fm.post(next_url(three), {}, format="json").status_code == 201
    again = fm.post(next_url(three), {}, format="json")
    assert again.status_code in (409, 422)  # the last hand is neither finished nor awarded
    assert Hand.objects.count() == 1


def test_a_closed_table_refuses_the_deal_as_a_rule(
    fm: Any, three: Table, floor_manager: Any
) -> None:
    services.set_table_status(table=three, by=floor_manager, status="closed", confirm_seated=True)
    response = fm.post(next_url(three), {}, format="json")
    assert response.status_code == 422
    assert error(response)["code"] == "refused" and "closed" in error(response)["message"]


# --- players --------------------------------------------------------------------------------


def test_players_are_found_by_name_or_alias_with_their_seat(
    api_client_for: Any, table: Table, floor_manager: Any
) -> None:
    seat(table, 6, "Olga Berg", 100, floor_manager)
    players.find_or_create_player(name="Pat Olsen", alias="Ollie", by=floor_manager)
    players.find_or_create_player(name="Quinn", by=floor_manager)
    client = api_client_for("staff")
    found = client.get("/api/v1/players/?q=ol").json()
    assert [p["name"] for p in found] == ["Olga Berg", "Pat Olsen"]
    assert found[0]["seated"] == {"table": 3, "seat": 6}
    assert found[1]["seated"] is None and found[1]["public_name"] == "Ollie"
    assert client.get("/api/v1/players/?q=ollie").json()[0]["name"] == "Pat Olsen"
    blank = client.get("/api/v1/players/?q=%20")
    assert blank.status_code == 400 and "q" in error(blank)["fields"]
    assert api_client_for("no_role_user").get("/api/v1/players/?q=ol").status_code == 403
    manager = api_client_for("floor_manager")
    assert manager.post("/api/v1/players/", {}, format="json").status_code == 405


def test_the_schema_documents_every_endpoint(fm: Any) -> None:
    paths = fm.get("/api/schema/?format=json").json()["paths"]
    assert set(paths["/api/v1/tables/{table_id}/seats/"]) >= {"get", "post"}
    assert set(paths["/api/v1/tables/{table_id}/seats/{seat}/"]) >= {"get", "patch", "delete"}
    assert set(paths["/api/v1/tables/{table_id}/next-hand/"]) >= {"get", "post"}
    assert "post" in paths["/api/v1/hands/{hand_id}/award/"]
    assert "get" in paths["/api/v1/players/"]


# --- races (two devices at one table), on PostgreSQL ------------------------------------------


def race(calls: list[tuple[str, str, dict[str, Any]]]) -> list[int]:
    """Send the requests at once from two threads: their statuses, sorted."""
    import threading

    from tests.live_requests import post_json

    barrier, statuses = threading.Barrier(len(calls)), []

    def send(url: str, token: str, body: dict[str, Any]) -> None:
        barrier.wait()
        statuses.append(post_json(url, token, body)[0])

    threads = [threading.Thread(target=send, args=call) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_devices_seating_one_seat_one_wins_one_gets_409(
    live_server: Any, floor_manager: Any, director: Any
) -> None:
    from rest_framework.authtoken.models import Token

    table = make_table(number=3, by=floor_manager)
    tokens = [Token.objects.create(user=user).key for user in (floor_manager, director)]
    url = f"{live_server.url}{seats_url(table)}"
    bodies = [{"name": name, "seat": 4, "buy_in": 100} for name in ("Ana", "Bo")]
    assert race([(url, t, b) for t, b in zip(tokens, bodies, strict=True)]) == [201, 409]
    assert TableSeat.objects.get().seat == 4
    assert SeatEvent.objects.count() == 1  # nothing half-written by the loser


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_devices_dealing_or_awarding_at_once_one_wins(
    live_server: Any, floor_manager: Any, director: Any
) -> None:
    from rest_framework.authtoken.models import Token

    table = make_table(number=3, by=floor_manager)
    for number, name in ((1, "Ana"), (2, "Bo")):
        seat(table, number, name, 100, floor_manager)
    tokens = [Token.objects.create(user=user).key for user in (floor_manager, director)]
    deal = f"{live_server.url}{next_url(table)}"
    statuses = race([(deal, token, {}) for token in tokens])
    assert statuses[0] == 201 and statuses[1] in (409, 422)
    hand = Hand.objects.get()
    services.record_action(hand=hand, by=floor_manager, expected_seq=0, seat=1, action="fold")
    award = f"{live_server.url}{award_url(hand)}"
    assert race([(award, token, {"expected_seq": 1}) for token in tokens]) == [200, 409]
    stacks = dict(TableSeat.objects.values_list("seat", "stack"))
    assert stacks == {1: 99, 2: 101}  # the award applied once
    assert SeatEvent.objects.filter(kind="hand").count() == 2


def test_a_tournament_table_reads_its_entrants_and_deals_its_level(
    api_client_for: Any, director: Any
) -> None:
    from tests.tournaments.test_table_hands import one_table, room

    tournament = one_table(director, players=4)
    table = room(tournament)
    client = api_client_for("director")
    shown = client.get(seats_url(table)).json()
    assert (shown["kind"], shown["seated"]) == ("tournament", 4)
    assert {entry["chips"] for entry in shown["seats"]} == {tournament.starting_stack}
    proposal = client.get(next_url(table))
    assert proposal.status_code == 200, proposal.json()
    assert len(proposal.json()["seats"]) == 4 and "CR-BB.1" in proposal.json()["citations"]
    dealt = client.post(next_url(table), {}, format="json")
    assert dealt.status_code == 201, dealt.json()
    assert set(dealt.json()["names"].values()) == {e["name"] for e in shown["seats"]}
    seated = client.post(seats_url(table), {"name": "Cash", "seat": 6, "buy_in": 100})
    assert seated.status_code == 422  # a tournament's seats are its draws'
