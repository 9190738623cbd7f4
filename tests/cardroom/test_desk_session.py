"""The desk of a table that runs all night: no straddle offered where it cannot be posted,
no desk post answers a 500, a 409
says whether another device got there first or the table's state refuses it now, the log
and the hand's facts with missed-blind posts, the poll keyed on the seat map too."""

import re
from typing import Any

import pytest

from cardroom.seats.models import TableSeat
from cardroom.tables.models import Hand, Table
from tests.cardroom.desk_client import deal, fold_to_the_big_blind, heads_up, post, seat
from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(floor_manager: Any) -> Table:
    return make_table(number=4, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=400)


def test_a_typed_stack_deal_while_the_seat_maps_hand_is_not_awarded_is_a_409_not_a_500(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    heads_up(client, table)
    hand = deal(client, table)
    fold_to_the_big_blind(client, table, hand)
    for number in (1, 2):  # both players leave; the hand still waits for its award
        TableSeat.objects.filter(table=table, seat=number).update(left_at=hand.started_at)
    answer = post(
        client,
        f"/tables/{table.number}/desk/deal/",
        {"button": 1, "stack_1": 100, "stack_2": 100, "straddle": ""},
    )
    assert answer.status_code == 409
    html = answer.content.decode()
    assert "Not now:" in html and "is not awarded yet" in html
    assert "Someone else got there first" not in html
    assert Hand.objects.filter(table=table).count() == 1


def test_an_action_or_a_void_on_an_awarded_hand_is_a_409_not_a_500(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    heads_up(client, table)
    hand = deal(client, table)
    fold_to_the_big_blind(client, table, hand)
    assert post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq}).status_code == 200
    hand.refresh_from_db()
    acted = post(
        client,
        f"/hands/{hand.pk}/act/",
        {"expected_seq": hand.seq, "seat": 1, "action": "check"},
    )
    assert acted.status_code == 409
    assert "is awarded" in acted.content.decode()
    for what in ("last", "hand"):
        data = {"expected_seq": hand.seq, "reason": "misclick", "confirm_hand": hand.number}
        voided = post(client, f"/hands/{hand.pk}/void/{what}/", data)
        assert voided.status_code == 409, what
        assert "is awarded" in voided.content.decode()


def test_leaving_a_seat_dealt_into_the_hand_says_not_now_not_someone_else(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    heads_up(client, table)
    deal(client, table)
    answer = post(client, f"/tables/{table.number}/desk/seats/1/leave/", {})
    assert answer.status_code == 409
    html = answer.content.decode()
    assert "Not now:" in html and "is dealt into" in html
    assert "Someone else got there first" not in html


def test_a_deal_racing_another_devices_deal_says_it_was_just_dealt(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    heads_up(client, table)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    found = re.search(r'name="version" value="([^"]+)"', html)
    assert found is not None
    hand = deal(client, table)  # the other device
    late = post(client, f"/tables/{table.number}/desk/next/", {"version": found.group(1)})
    assert late.status_code == 409
    text = late.content.decode()
    assert "Someone else got there first" in text
    assert f"hand #{hand.number} was just dealt on another device" in text


def test_the_desk_poll_is_keyed_on_the_seat_map_too_and_runs_with_no_hand(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    heads_up(client, table)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    found = re.search(r'hx-get="(/tables/4/desk/\?seq=[^"]+)"', html)
    assert found is not None  # no hand yet: the desk polls all the same
    url = found.group(1).replace("&amp;", "&")
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 204
    post(client, f"/tables/{table.number}/desk/seats/2/out/", {})  # another device
    changed = client.get(url, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and "Sitting out" in changed.content.decode()


def test_the_log_and_the_facts_of_a_hand_with_a_missed_blind_post(
    persona_client: Any, table: Table, floor_manager: Any
) -> None:
    """Seat 1 posts 2 live + 1 dead (CR-BB.3): the log keeps its verbs and amounts, and the
    hand's facts say the pot includes the dead chip."""
    from cardroom.tables.services import record_action, start_hand

    hand = start_hand(
        table=table,
        by=floor_manager,
        button=4,
        seats=[{"seat": n, "stack": 100} for n in (1, 2, 3, 4)],
        blinds={"small": 2, "big": 3},
        posts=[{"seat": 1, "live": 2, "dead": 1}],
        names={"1": "Ana Ruiz", "2": "Bo Chen", "3": "Cy Diaz", "4": "Di Eng"},
    )
    client = persona_client("director")
    for seat_number, action in ((4, "call"), (1, "check"), (2, "fold")):
        hand.refresh_from_db()
        record_action(
            hand=hand, by=floor_manager, expected_seq=hand.seq, seat=seat_number, action=action
        )
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    log = re.findall(r'<span class="log-line">([^<]+)</span>', html)
    assert log == ["Seat 4 Di Eng calls 2", "Seat 1 Ana Ruiz checks", "Seat 2 Bo Chen folds"]
    assert "incl. 1 dead" in html


def test_a_bust_at_a_tournament_desk_is_announced_with_its_place_and_the_balancing(
    persona_client: Any, director: Any
) -> None:
    """The award says who is out and in which place, that balancing needs a move when the
    latest check says so, and chips carry thousands separators."""
    from tests.tournaments.test_table_hands import at, one_table, play, room, set_chips
    from tournaments import table_hands
    from tournaments.models import BalanceCheck

    tournament = one_table(director, button=3)
    table = room(tournament)
    set_chips(tournament, {4: 1_000})
    loser = at(tournament, 4)
    hand = table_hands.deal_tournament_hand(table=table, by=director)
    hand = play(hand, director, {4: "all_in", 5: "call"})
    table_hands.settle_tournament_hand(
        hand=hand, by=director, expected_seq=hand.seq, showdown={"ranking": [[5], [4]]}
    )
    BalanceCheck.objects.create(tournament=tournament, moves=[{"from": 1, "to": 2}])
    html = persona_client("director").get(f"/tables/{table.number}/desk/").content.decode()
    assert f"{loser.name} is out in 6th place" in html
    assert "Balancing: 1 move needed" in html
    assert "21,000" in html  # seat 5's stack after the award


def test_two_out_on_one_hand_for_hand_hand_are_announced_sharing_the_places_they_cover(
    persona_client: Any, director: Any
) -> None:
    """During hand-for-hand two players out on one hand share the best of their places (TDA
    RP-8-A): the desk says so of both, not the players left at each bust (7th, then 6th)."""
    from tests.tournaments.factories import make_tournament
    from tests.tournaments.test_table_hands import chips, play, room, settle
    from tournaments import eliminations, table_hands
    from tournaments.draw_services import draw_initial_seating

    tournament = make_tournament(by=director, tables=2, entrants=8, seats_per_table=9)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)
    hand = table_hands.deal_tournament_hand(table=room(tournament, 1), by=director)
    first, second, caller = sorted(chips(tournament, 1))[:3]
    hand = play(hand, director, {first: "all_in", second: "all_in", caller: "call"})
    settle(hand, director, [[caller], [first], [second]])
    out = tournament.entrants.filter(status="eliminated").order_by("number")
    assert [entrant.place for entrant in out] == [7, 7]
    html = persona_client("director").get(f"/tables/{room(tournament, 1).number}/desk/")
    for entrant in out:
        assert (
            f"{entrant.name} is out in 7th–8th place, shared (TDA-RP-8-A)." in html.content.decode()
        )


def test_why_a_seat_waits_and_no_straddle_offered_heads_up_or_behind_a_dead_small_blind(
    persona_client: Any, table: Table
) -> None:
    """A returning player who would post is held back by the button (CR-BB.6), not by a
    choice to wait for the big blind; the straddle box only where the engine posts one."""
    from cardroom.seats.words import proposal_view, waiting_words

    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz")):
        seat(client, table, number, name)
    TableSeat.objects.filter(table=table, seat=3).update(waits_for_big_blind=True)
    seated = list(TableSeat.objects.filter(table=table).select_related("player"))
    assert waiting_words(table, seated, [2, 3]) == [
        "Seat 2 (Bo Chen) waits for the button to pass (CR-BB.6), then posts.",
        "Seat 3 (Cy Diaz) waits for the big blind.",
    ]
    Table.objects.filter(pk=table.pk).update(straddle=4)
    table.refresh_from_db()
    three = [{"seat": n, "stack": 100} for n in (1, 2, 3)]
    base = {"button": 1, "blinds": {"small": 2, "big": 3}, "seats": three}
    assert proposal_view(table, base)["straddle"] == 4
    assert proposal_view(table, {**base, "seats": three[:2]})["straddle"] == 0  # heads-up
    dead = {**base, "blinds": {"small": None, "big": 3}}
    assert proposal_view(table, dead)["straddle"] == 0


def test_an_emptied_seat_map_folds_the_typed_deal_away_and_says_what_it_is(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    fresh = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert "type stacks here for a one-off hand" in fresh
    seat(client, table, 1, "Ana Ruiz")
    left = post(client, f"/tables/{table.number}/desk/seats/1/leave/", {}).content.decode()
    assert '<details class="card typed-deal">' in left
    assert "Deal a one-off hand with typed stacks" in left
    assert 'class="card stack deal-form"' in left  # still there, folded away


def test_add_chips_and_leave_are_disabled_for_a_seat_dealt_into_the_hand(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    for number, name in ((1, "Ana Ruiz"), (2, "Bo Chen")):
        seat(client, table, number, name)
    seat(client, table, 3, "Cy Diaz")
    hand = deal(client, table)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    row = html.split('id="seat-row-1"')[1].split("</li>")[0]
    assert f"Dealt into hand #{hand.number}: add chips or leave once its pots are pushed." in row
    assert re.search(r'<button class="button danger" disabled>Leave', row)
    assert re.search(r'<button class="button" disabled>Add', row)


def test_a_tournament_desk_says_when_the_clock_is_not_running(
    persona_client: Any, director: Any
) -> None:
    """A hand dealt while the clock is stopped is dealt at the level the clock shows; the
    desk says the clock is not running."""
    from tests.tournaments.test_table_hands import one_table, room
    from tournaments.models import Tournament

    tournament = one_table(director)
    Tournament.objects.filter(pk=tournament.pk).update(clock_state="stopped")
    html = persona_client("director").get(f"/tables/{room(tournament).number}/desk/").text
    assert "The tournament clock is not started: this hand is dealt at Level 1." in html
    Tournament.objects.filter(pk=tournament.pk).update(clock_state="running")
    html = persona_client("director").get(f"/tables/{room(tournament).number}/desk/").text
    assert 'id="clock-note"' not in html


def test_the_desk_replays_the_hand_once_for_its_seats_and_its_showdown(
    persona_client: Any, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One ``engine_state`` per render, shared by the seats and the showdown panel (the
    action log steps through the hand on its own, to word each action)."""
    from cardroom.seats import views as seat_views

    client = persona_client("director")
    heads_up(client, table)
    hand = deal(client, table)
    fold_to_the_big_blind(client, table, hand)
    calls: list[int] = []
    real = seat_views.engine_state

    def counted(replayed: Hand) -> Any:
        calls.append(replayed.pk)
        return real(replayed)

    monkeypatch.setattr(seat_views, "engine_state", counted)
    monkeypatch.setattr("cardroom.tables.desk.engine_state", counted)
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    assert 'id="showdown"' in html
    assert calls == [hand.pk]
