"""The betting desk of a table that runs all night: seating players from the desk,
the next hand's proposal and its one Deal button (or a correction with a reason), the
showdown's taps turned into the award's ranking, the award shown with the stacks, refusals
(422) and races (409)."""

import re
from typing import Any

import pytest

from cardroom.seats.models import Player, SeatEvent, TableSeat
from cardroom.tables.desk import TapError, ranking_from_taps, showdown_from_taps
from cardroom.tables.models import Hand, Table
from tests.cardroom.desk_client import check_it_down, post, seat, to_act
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(floor_manager: Any) -> Table:
    return make_table(number=4, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=400)


def stacks(table: Table) -> dict[int, int]:
    return {s.seat: s.stack for s in TableSeat.objects.filter(table=table, left_at__isnull=True)}


# --- taps to a ranking (pure) -----------------------------------------------------------------


def test_one_winner_of_one_pot_ranks_first_and_the_rest_tie_after() -> None:
    assert ranking_from_taps([[1, 2, 3]], [{2}], [1, 2, 3], low=False) == [[2], [1, 3]]


def test_a_short_all_in_wins_the_main_pot_and_another_the_side_pot() -> None:
    eligible = [[1, 3, 4], [1, 4]]
    assert ranking_from_taps(eligible, [{3}, {1, 4}], [1, 3, 4], low=False) == [[3], [1, 4]]
    # The main pot's winner is in the side pot: it goes to them without a tap (RRoP-TI.5).
    assert ranking_from_taps(eligible, [{1}, set()], [1, 3, 4], low=False) == [[1], [3, 4]]


def test_taps_that_contradict_another_pot_or_leave_a_pot_unwon_are_refused() -> None:
    with pytest.raises(TapError, match="seat 1 won a pot before it"):
        ranking_from_taps([[1, 3, 4], [1, 4]], [{1}, {4}], [1, 3, 4], low=False)
    with pytest.raises(TapError, match="Tap the winner of side pot 1"):
        ranking_from_taps([[1, 3, 4], [1, 4]], [{3}, set()], [1, 3, 4], low=False)
    with pytest.raises(TapError, match="Tap the winner of the main pot"):
        ranking_from_taps([[1, 3]], [set()], [1, 3], low=False)


def test_high_low_and_run_it_twice_build_the_contracts_showdown() -> None:
    view = {
        "pots": [{"eligible": [{"seat": 1}, {"seat": 2}, {"seat": 3}]}],
        "live": [1, 2, 3],
        "high_low": True,
    }
    taps = {"1-high-0": {1}, "1-low-0": {2, 3}, "2-high-0": {3}}
    assert showdown_from_taps(view, taps, twice=False) == {
        "ranking": [[1], [2, 3]],
        "low_ranking": [[2, 3]],
    }
    assert showdown_from_taps(view, taps, twice=True) == {
        "boards": [
            {"ranking": [[1], [2, 3]], "low_ranking": [[2, 3]]},
            {"ranking": [[3], [1, 2]], "low_ranking": []},
        ]
    }


# --- the desk ---------------------------------------------------------------------------------


def test_a_table_without_players_keeps_the_typed_stack_deal(
    persona_client: Any, table: Table
) -> None:
    html = persona_client("director").get(f"/tables/{table.number}/desk/").content.decode()
    assert 'class="card stack deal-form"' in html
    assert "Seat a player" in html


def test_seat_players_deal_the_proposal_fold_to_the_big_blind_and_push(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    assert seat(client, table, 1, "Ana Ruiz").status_code == 200
    seat(client, table, 2, "Bo Chen")
    html = seat(client, table, 4, "Cy Diaz", buy_in=100).content.decode()
    assert "Ana Ruiz" in html and "deal-form" not in html  # nobody types stacks
    assert 'id="deal-next"' in html
    dealt = post(client, f"/tables/{table.number}/desk/next/", {}).content.decode()
    hand = Hand.objects.get(table=table)
    assert hand.names == {"1": "Ana Ruiz", "2": "Bo Chen", "4": "Cy Diaz"}
    assert "to act" in dealt
    state = hand.blinds or {}
    for seat_number in (s["seat"] for s in hand.seats):
        if seat_number == state["big"]:
            continue
        hand.refresh_from_db()
        post(
            client,
            f"/hands/{hand.pk}/act/",
            {"expected_seq": hand.seq, "seat": seat_to_act(client, table), "action": "fold"},
        )
    hand.refresh_from_db()
    page = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert f"Push the pot to seat {state['big']}" in page
    pushed = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq})
    assert pushed.status_code == 200
    html = pushed.content.decode()
    assert "awarded" in html and 'id="deal-next"' in html  # the award, then the next hand
    hand.refresh_from_db()
    assert hand.awarded_at is not None
    assert sum(stacks(table).values()) == 500


def seat_to_act(client: Any, table: Table) -> int:
    number = to_act(client, table)
    assert number is not None
    return number


def test_a_showdown_is_tapped_and_a_missing_tap_is_refused(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz")):
        seat(client, table, number, name)
    post(client, f"/tables/{table.number}/desk/next/", {})
    hand = Hand.objects.get(table=table)
    check_it_down(client, table, hand)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert "Showdown: tap the winners" in html and 'name="1-high-0"' in html
    # Staff read the desk: the showdown says who is in each pot and that the dealer awards it,
    # never an instruction to tap with nothing to tap.
    read = persona_client("staff").get(f"/tables/{table.number}/desk/").content.decode()
    assert "tap the winners" not in read and 'name="1-high-0"' not in read
    assert "The dealer taps the winners and pushes" in read
    assert (
        "The main pot: <strong>6</strong> · seat 1 (Ana Ruiz), seat 2 (Bo Chen), seat 3 (Cy Diaz)"
        in read
    )
    missing = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq})
    assert missing.status_code == 422
    assert "Tap the winner of the main pot" in missing.content.decode()
    tie = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq, "1-high-0": [1, 3]})
    assert tie.status_code == 200
    assert stacks(table) == {1: 201, 2: 198, 3: 201}  # 6 chips split two ways
    # A second device that still shows the showdown gets a 409 and the desk as it is.
    again = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq, "1-high-0": [2]})
    assert again.status_code == 409
    assert "Someone else got there first" in again.content.decode()


def test_a_correction_needs_a_reason(persona_client: Any, table: Table) -> None:
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz")):
        seat(client, table, number, name)
    url = f"/tables/{table.number}/desk/next/"
    refused = post(client, url, {"correct": "on", "button": 3, "small": 1, "big": 2})
    assert refused.status_code == 422
    assert "Say why" in refused.content.decode()
    assert not Hand.objects.filter(table=table).exists()
    dealt = post(
        client, url, {"correct": "on", "button": 3, "small": 1, "big": 2, "reason": "Seat 3 had it"}
    )
    assert dealt.status_code == 200
    hand = Hand.objects.get(table=table)
    assert hand.button == 3 and hand.correction["reason"] == "Seat 3 had it"


def test_seat_refusals_are_422_with_the_reason(persona_client: Any, table: Table) -> None:
    client = persona_client("director")
    over = seat(client, table, 1, "Ana Ruiz", buy_in=5000)
    assert over.status_code == 422
    assert "above this table" in over.content.decode()
    seat(client, table, 1, "Ana Ruiz")
    taken = seat(client, table, 1, "Bo Chen")
    assert taken.status_code == 409
    changes = f"/tables/{table.number}/desk/seats/1/"
    assert post(client, changes + "out/", {}).status_code == 200
    assert TableSeat.objects.get(table=table, seat=1).status == "sitting_out"
    assert post(client, changes + "back/", {}).status_code == 200
    assert post(client, changes + "add/", {"amount": 100}).status_code == 200
    assert stacks(table) == {1: 300}
    assert post(client, changes + "leave/", {}).status_code == 200
    assert stacks(table) == {}
    assert SeatEvent.objects.filter(table=table, kind="left").exists()


def test_staff_cannot_seat_deal_or_award(
    persona_client: Any, table: Table, floor_manager: Any
) -> None:
    client = persona_client("staff")
    assert seat(client, table, 1, "Ana Ruiz").status_code == 403
    assert post(client, f"/tables/{table.number}/desk/next/", {}).status_code == 403
    hand = make_hand(table=table, by=floor_manager)
    assert post(client, f"/hands/{hand.pk}/award/", {"expected_seq": 0}).status_code == 403


def test_a_typed_stack_hand_can_be_pushed_too(
    persona_client: Any, table: Table, floor_manager: Any
) -> None:
    hand = make_hand(table=table, by=floor_manager)
    client = persona_client("director")
    for seat_number, action in ((1, "fold"), (2, "fold")):
        hand.refresh_from_db()
        post(
            client,
            f"/hands/{hand.pk}/act/",
            {"expected_seq": hand.seq, "seat": seat_number, "action": action},
        )
    hand.refresh_from_db()
    pushed = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq})
    assert pushed.status_code == 200
    hand.refresh_from_db()
    assert hand.result is not None
    assert {s["seat"]: s["stack"] for s in hand.result["stacks"]}[
        3
    ] == 201  # the small blind folded to the big blind


def test_a_high_low_pot_run_twice_is_split_by_the_taps(
    persona_client: Any, floor_manager: Any
) -> None:
    table = make_table(
        number=8, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=400,
        variant="omaha_hilo", structure="pot_limit", run_it_twice=True,
    )  # fmt: skip
    client = persona_client("director")
    for number, name in ((1, "Eve Stone"), (2, "Finn Hale"), (3, "Gus Moor")):
        seat(client, table, number, name, buy_in=100)
    post(client, f"/tables/{table.number}/desk/next/", {})
    hand = Hand.objects.get(table=table)
    check_it_down(client, table, hand)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert 'name="1-low-0"' in html and 'name="2-high-0"' in html
    # Board 1: seat 3 high, seat 1 low; board 2: seat 2 high, no low. The pot of 6 is
    # halved by board (3 and 3), board 1's half halved high and low (2 and 1).
    taps = {"1-high-0": [3], "1-low-0": [1], "2-high-0": [2]}
    answer = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq, **taps})
    assert answer.status_code == 200
    hand.refresh_from_db()
    assert hand.result is not None and len(hand.result["showdown"]["boards"]) == 2
    assert stacks(table) == {1: 99, 2: 101, 3: 100}


def test_a_deal_from_a_proposal_the_seat_map_has_left_behind_is_a_409(
    persona_client: Any, table: Table
) -> None:
    """Two devices: one shows the proposal, the other seats a player; the first one's Deal
    is refused with the desk as it is now (the new player in the seat map)."""
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen")):
        seat(client, table, number, name)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    found = re.search(r'name="version" value="([^"]+)"', html)
    assert found is not None
    seat(client, table, 3, "Cy Diaz")  # the other device
    stale = post(client, f"/tables/{table.number}/desk/next/", {"version": found.group(1)})
    assert stale.status_code == 409
    assert "Someone else got there first" in stale.content.decode()
    assert "Cy Diaz" in stale.content.decode()
    assert not Hand.objects.filter(table=table).exists()


def test_the_name_box_suggests_players_the_room_knows_who_are_not_seated(
    persona_client: Any, table: Table, floor_manager: Any
) -> None:
    from cardroom.seats import services as players

    players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    players.find_or_create_player(name="Dana Ames", by=floor_manager)
    client = persona_client("director")
    seat(client, table, 1, "Dana Ames")
    html = client.get(f"/tables/{table.number}/desk/players/?name=an").content.decode()
    assert '<datalist id="player-names">' in html
    assert 'value="Ana Ruiz"' in html and "Dana Ames" not in html  # Dana sits at the table
    seat(client, table, 2, "Ana Ruiz")  # the same player record, not a new one
    assert Player.objects.filter(name="Ana Ruiz").count() == 1
