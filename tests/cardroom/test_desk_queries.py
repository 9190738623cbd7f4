"""The betting desk's writes at a cash table do the same work however long the hand and however
many players an award pays: each request family's queries are counted (never timed) on a short
hand and a long one, at the desk (htmx) and through the API, and held equal and under a bound.

Families: an action entered (the hand at 4 actions and at 20, on the river), the next hand
dealt and the proposal read (after a hand of 5 actions and one of 24), the pots pushed (a hand
won after 5 actions and one after 24), and the deal and the award at tables of three and six
players. ``bench/bench_desk.py`` reports the same families' queries and CPU time.
"""

from typing import Any

import pytest
from django.db import connection

from cardroom.seats import hands as cash_hands
from cardroom.seats import services as players
from cardroom.tables.models import Hand, Table
from cardroom.tables.services import award_hand
from tests.cardroom.desk_client import Desk, counted, fold_out, last_hand, play_to, warm_up, won
from tests.factories import make_table

pytestmark = pytest.mark.django_db

#: The most queries each request may make, on SQLite and on PostgreSQL (a session, its user
#: and their roles included for the desk's pages; SQLite's transaction statements and
#: PostgreSQL's lock timeouts counted). A table's first deal draws for its button.
#: A deal and an award each write the hand's record on its table's chain: its head read, its
#: row written (``cardroom.tables.hand_records.record_hand``). An action links to its chain's
#: head as read with the hand's actions (no read of it alone); the API's reads the hand once,
#: locked, with its table. The API's answer to a deal or
#: an award works out the hand's JSON columns as stored (``json_columns``): no read back.
BOUNDS = {
    "action_htmx": (18, 19),
    "action_api": (6, 7),
    "deal_htmx": (22, 24),
    "deal_api": (16, 18),
    "first_deal_htmx": (23, 25),
    "first_deal_api": (17, 19),
    "proposal_api": (5, 5),
    "award_htmx": (24, 26),
    "award_api": (14, 16),
}


def bound(family: str) -> int:
    sqlite, postgresql = BOUNDS[family]
    return postgresql if connection.vendor == "postgresql" else sqlite


def seated(number: int, by: Any, count: int = 6) -> Table:
    """A six-seat cash table with ``count`` players seated from the seat map."""
    table = make_table(number=number, by=by, seats=6, max_buy_in=1000)
    for seat in range(1, count + 1):
        player = players.find_or_create_player(name=f"Player {number}-{seat}", by=by)
        players.seat_player(table=table, player=player, seat=seat, buy_in=1000, by=by)
    return table


DOORS = pytest.mark.parametrize("door", ["htmx", "api"])


@DOORS
def test_an_action_reads_as_much_late_in_a_hand_as_early(
    door: str, persona_client: Any, api_client_for: Any, floor_manager: Any
) -> None:
    desk = Desk(door, persona_client, api_client_for, "floor_manager")
    hand = cash_hands.deal_next_hand(table=seated(1, floor_manager), by=floor_manager)
    early = desk.act(play_to(hand, floor_manager, 4))
    hand.refresh_from_db()
    late = desk.act(play_to(hand, floor_manager, 20))
    assert Hand.objects.get(pk=hand.pk).actions.count() == 21
    assert early == late <= bound(f"action_{door}"), (early, late)


@DOORS
def test_the_pots_are_pushed_in_as_many_queries_after_24_actions_as_after_5(
    door: str, persona_client: Any, api_client_for: Any, floor_manager: Any
) -> None:
    desk = Desk(door, persona_client, api_client_for, "floor_manager")
    table = seated(2, floor_manager)
    short = won(cash_hands.deal_next_hand(table=table, by=floor_manager), floor_manager, 0)
    assert short.actions.count() == 5
    after_short = desk.award(short)
    long = won(cash_hands.deal_next_hand(table=table, by=floor_manager), floor_manager, 19)
    assert long.actions.count() == 24
    after_long = desk.award(long)
    assert after_short == after_long <= bound(f"award_{door}"), (after_short, after_long)


@DOORS
def test_the_next_hand_is_dealt_and_proposed_alike_after_a_short_hand_and_a_long_one(
    door: str, persona_client: Any, api_client_for: Any, floor_manager: Any
) -> None:
    desk = Desk(door, persona_client, api_client_for, "floor_manager")
    table = seated(3, floor_manager)
    proposal = f"/api/v1/tables/{table.pk}/next-hand/"
    reader = warm_up(api_client_for("floor_manager"))
    deals, proposals = [], []
    for length in (0, 19):  # won after 5 actions, then after 24
        hand = won(cash_hands.deal_next_hand(table=table, by=floor_manager), floor_manager, length)
        award_hand(hand=hand, by=floor_manager, expected_seq=hand.seq, showdown=None)
        proposals.append(counted(lambda: reader.get(proposal), 200, '"version"'))
        deals.append(desk.deal(table))
        fold_out(last_hand(table), floor_manager)
        settled = last_hand(table)
        award_hand(hand=settled, by=floor_manager, expected_seq=settled.seq, showdown=None)
    assert deals[0] == deals[1] <= bound(f"deal_{door}"), deals
    assert proposals[0] == proposals[1] <= bound("proposal_api"), proposals


@DOORS
def test_a_deal_and_an_award_cost_the_same_at_three_players_as_at_six(
    door: str, persona_client: Any, api_client_for: Any, floor_manager: Any
) -> None:
    """The first deal clears every new player's flag and the award writes every stack with its
    log line: each one write, however many players."""
    desk = Desk(door, persona_client, api_client_for, "floor_manager")
    deals, awards = [], []
    for number, count in ((4, 3), (5, 6)):
        table = seated(number, floor_manager, count)
        deals.append(desk.deal(table))
        awards.append(desk.award(fold_out(last_hand(table), floor_manager)))
    assert deals[0] == deals[1] <= bound(f"first_deal_{door}"), deals
    assert awards[0] == awards[1] <= bound(f"award_{door}"), awards
