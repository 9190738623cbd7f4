"""The desk's words: the action log, the award and the
ruling's action picker name the player and say each action in words, never its code; a walk
reads as a floor person says it; the seat map's status agrees with the proposal; the chip
reader offers the table's own chips and enters its reading as the action."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest

from cardroom.tables.models import Hand, Table
from tests.cardroom.desk_client import deal, fold_to_the_big_blind, post, seat, to_act
from tests.factories import make_table
from tests.tournaments.factories import make_tournament
from tournaments import eliminations
from tournaments.draw_services import draw_initial_seating

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(floor_manager: Any) -> Table:
    return make_table(number=4, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=400)


def seated(client: Any, table: Table, *names: tuple[int, str]) -> None:
    for number, name in names:
        answer = seat(client, table, number, name)
        assert answer.status_code == 200, answer.content.decode()


def desk(client: Any, table: Table) -> str:
    return html_lib.unescape(client.get(f"/tables/{table.number}/desk/").content.decode())


def test_the_log_names_the_player_and_says_all_in_in_words(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    seated(client, table, (1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz"))
    hand = deal(client, table)
    first = to_act(client, table)
    assert first is not None
    name = hand.names[str(first)]
    data = {"expected_seq": hand.seq, "seat": first, "action": "all_in"}
    assert post(client, f"/hands/{hand.pk}/act/", data).status_code == 200
    page = desk(client, table)
    assert f"Seat {first} {name} goes all-in for 200" in page, page
    assert "all_in" not in re.sub(r'value="all_in"', "", page)


def test_the_ruling_pickers_actions_are_in_words_with_names(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    seated(client, table, (1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz"))
    hand = deal(client, table)
    first = to_act(client, table)
    data = {"expected_seq": hand.seq, "seat": first, "action": "all_in"}
    assert post(client, f"/hands/{hand.pk}/act/", data).status_code == 200
    page = client.get(f"/rulings/new/?table={table.number}&hand={hand.pk}").content.decode()
    picker = page[page.index('<select name="action"') : page.index("</select>")]
    name = hand.names[str(first)]
    assert f"1. Seat {first} {name} goes all-in for 200</option>" in picker, picker
    assert "all_in<" not in picker and "seat 1 all_in" not in picker


def test_a_walk_reads_as_the_blinds_won_and_the_uncalled_part_returned(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    seated(client, table, (1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz"))
    hand = deal(client, table)
    fold_to_the_big_blind(client, table, hand)
    big = hand.blinds["big"]
    push = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq})
    assert push.status_code == 200, push.content.decode()
    page = html_lib.unescape(push.content.decode())
    row = re.search(rf'id="award-seat-{big}">(.*?)</li>', page, re.S)
    assert row is not None, page
    assert "wins the blinds: 3 (2 won, 1 uncalled returned)" in row.group(1), row.group(1)
    assert "back uncalled" not in page


def test_a_new_player_the_proposal_leaves_out_is_waiting_on_the_seat_map_too(
    floor_manager: Any, persona_client: Any
) -> None:
    """Button 1, blinds 3 and 5; a new player sits in seat 4 to post. The next hand's button
    goes to seat 3, so seat 4 sits between the button and the small blind: it waits for the
    button to pass (CR-BB.6), and the seat map says so rather than "Playing · new"."""
    table = make_table(
        number=5, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=400, missed_blinds="post"
    )
    client = persona_client("director")
    seated(client, table, (1, "Ana Ruiz"), (3, "Bo Chen"), (5, "Cy Diaz"))
    hand = deal(client, table)
    fold_to_the_big_blind(client, table, hand)
    assert post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq}).status_code == 200
    seated(client, table, (4, "Dee Ng"))
    page = desk(client, table)
    assert "Seat 4 (Dee Ng) waits for the button to pass (CR-BB.6), then posts." in page, page
    row = re.search(r'id="seat-row-4">(.*?)</details>', page, re.S)
    assert row is not None
    status = row.group(1)
    assert "Playing" not in status and ">new<" not in status, status
    assert "Waits for the button to pass (CR-BB.6), then posts" in status, status


def test_the_chip_readers_reading_is_entered_as_the_action_of_the_seat_to_act(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    seated(client, table, (1, "Ana Ruiz"), (2, "Bo Chen"), (3, "Cy Diaz"))
    hand = deal(client, table)
    first = to_act(client, table)
    name = hand.names[str(first)]
    read = post(
        client, f"/hands/{hand.pk}/count/", {"chips": ["1", "1", "1"], "add": "1", "on_desk": "1"}
    )
    assert read.status_code == 200
    assert 'name="on_desk" value="1"' in read.content.decode()  # kept for the next read
    assert 'name="on_desk" value="1"' in desk(client, table)
    reading = {"chips": ["1"] * 4, "read": "1", "on_desk": "1"}
    # The ruling form's reader (no on_desk) reads the chips and offers no entering.
    elsewhere = post(client, f"/hands/{hand.pk}/count/", {"chips": ["1"] * 4, "read": "1"})
    assert "Raise to 4" in elsewhere.content.decode()
    assert "enter-reading" not in elsewhere.content.decode()
    read = post(client, f"/hands/{hand.pk}/count/", reading)
    page = html_lib.unescape(read.content.decode())
    button = re.search(r'<button[^>]*id="enter-reading"[^>]*>([^<]*)</button>', page)
    assert button is not None, page
    assert button.group(1) == f"Enter for seat {first}: Raise to 4"
    assert f'formaction="/hands/{hand.pk}/act/"' in button.group(0)
    fields = dict(
        re.findall(r'<input type="hidden" name="(expected_seq|seat|to)" value="(\d+)">', page)
    )
    assert fields == {"expected_seq": str(hand.seq), "seat": str(first), "to": "4"}
    entered = post(client, f"/hands/{hand.pk}/act/", {**fields, "action": "raise"})
    assert entered.status_code == 200
    assert f"Seat {first} {name} raises to 4" in html_lib.unescape(entered.content.decode())
    # A staff log-in reads the chips but enters nothing: no button.
    staff = persona_client("staff")
    hand.refresh_from_db()
    page = staff.post(f"/hands/{hand.pk}/count/", reading)
    assert page.status_code == 200 and "enter-reading" not in page.content.decode()


def test_a_tournament_tables_chip_reader_offers_no_chip_smaller_than_the_level_plays(
    director: Any, persona_client: Any
) -> None:
    """Room table set up 1/2; the tournament's level is 100/200: the reader offers 100 and
    up, never +1, +5 or +25 (the smallest chip in play, citations.SMALLEST_CHIP)."""
    tournament = make_tournament(by=director, tables=1, entrants=6, seats_per_table=6)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    table = tournament.tables.get().table
    client = persona_client("director")
    assert post(client, f"/tables/{table.number}/desk/next/", {}).status_code == 200
    page = client.get(f"/tables/{table.number}/desk/").content.decode()
    helper = page[
        page.index('id="count-helper"') : page.index("</form>", page.index('id="count-helper"'))
    ]
    offered = re.findall(r'name="add" value="(\d+)"', helper)
    assert offered and int(offered[0]) == 100, offered
    hand = Hand.objects.filter(table=table).latest("number")
    refused = post(client, f"/hands/{hand.pk}/count/", {"add": "5"})
    assert refused.status_code == 422


def test_the_first_hands_proposal_says_how_the_button_was_chosen_and_how_to_correct_it(
    persona_client: Any, table: Table
) -> None:
    client = persona_client("director")
    seated(client, table, (2, "Ana Ruiz"), (4, "Bo Chen"), (6, "Cy Diaz"))
    page = desk(client, table)
    note = re.search(r'<p class="proposal-note" id="first-button">([^<]*)</p>', page)
    assert note is not None, page
    # The table's seed draws the high card to the lowest seat (tests.factories).
    assert note.group(1).startswith("Button by draw: seat 2 (Ana Ruiz), high card K♣ (CR-BB.9;")
    assert "Cards: seat 2 K♣, seat 4 J♥, seat 6 10♦." in note.group(1)
    assert "Correct" in note.group(1)
    # Moved by the dealer: the hand keeps the dealer's reason; the next proposal is silent.
    hand_page = post(
        client,
        f"/tables/{table.number}/desk/next/",
        {"correct": "on", "button": 6, "small": 2, "big": 4, "reason": "Drew for the button"},
    )
    assert hand_page.status_code == 200, hand_page.content.decode()
    assert "Drew for the button" in html_lib.unescape(hand_page.content.decode())
    hand = Hand.objects.filter(table=table).latest("number")
    assert hand.button == 6
    fold_to_the_big_blind(client, table, hand)
    assert post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq}).status_code == 200
    assert 'id="first-button"' not in desk(client, table)
