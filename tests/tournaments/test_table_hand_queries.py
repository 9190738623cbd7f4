"""The desk's writes at a tournament's table do the same work however long the hand and however
many entrants an award pays: each request family's queries are counted (never timed) at the
desk (htmx) and through the API, on a short hand and a long one, and held equal and under a
bound (``tests/cardroom/test_desk_queries.py`` does the same at a cash table).
"""

from typing import Any

import pytest
from django.db import connection

from cardroom.tables.models import Hand, Table
from tests.cardroom.desk_client import Desk, counted, last_hand, play_to, warm_up, won
from tests.tournaments.factories import make_tournament
from tournaments import eliminations, table_hands
from tournaments.draw_services import draw_initial_seating

pytestmark = pytest.mark.django_db

#: The most queries each request may make, on SQLite and on PostgreSQL (as in the cash
#: table's test: the session and roles for the desk's pages, transaction statements and lock
#: timeouts counted). A table's first deal draws for its button.
#: A deal and an award each write the hand's record on its table's chain: its head read, its
#: row written (``cardroom.tables.hand_records.record_hand``). On PostgreSQL a deal and an
#: award hold the tournament shared: its queue, then the row (``seating.share_tournament``).
#: The deal's and the award's own writes run in the tournament's transaction block without a
#: savepoint of their own; the API's answer works out the JSON columns as stored (no read
#: back); the last hand's button and the final table's redraw are one query.
BOUNDS = {
    "action_htmx": (20, 21),
    "action_api": (8, 9),
    "deal_htmx": (24, 27),
    "deal_api": (17, 20),
    "first_deal_htmx": (25, 28),
    "first_deal_api": (18, 21),
    "proposal_api": (6, 6),
    "award_htmx": (24, 27),
    "award_api": (12, 15),
}


def bound(family: str) -> int:
    sqlite, postgresql = BOUNDS[family]
    return postgresql if connection.vendor == "postgresql" else sqlite


def one_table(director: Any, *, players: int = 6, first_table: int = 101) -> Table:
    """A tournament's one six-seat table, ``players`` entrants drawn to it, registration
    closed: the room table its desk deals at."""
    tournament = make_tournament(
        by=director, tables=1, entrants=players, seats_per_table=6, first_table=first_table,
        name=f"Queries {first_table}",
    )  # fmt: skip
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    return tournament.tables.get().table


def dealt(table: Table, director: Any) -> Hand:
    return table_hands.deal_tournament_hand(table=table, by=director)


def settled(hand: Hand, director: Any) -> None:
    table_hands.settle_tournament_hand(hand=hand, by=director, expected_seq=hand.seq, showdown=None)


DOORS = pytest.mark.parametrize("door", ["htmx", "api"])


@DOORS
def test_an_action_reads_as_much_late_in_a_hand_as_early(
    door: str, persona_client: Any, api_client_for: Any, director: Any
) -> None:
    desk = Desk(door, persona_client, api_client_for, "director")
    hand = dealt(one_table(director), director)
    early = desk.act(play_to(hand, director, 4))
    hand.refresh_from_db()
    late = desk.act(play_to(hand, director, 20))
    assert Hand.objects.get(pk=hand.pk).actions.count() == 21
    assert early == late <= bound(f"action_{door}"), (early, late)


@DOORS
def test_the_pots_are_pushed_in_as_many_queries_after_24_actions_as_after_5(
    door: str, persona_client: Any, api_client_for: Any, director: Any
) -> None:
    desk = Desk(door, persona_client, api_client_for, "director")
    table = one_table(director)
    short = won(dealt(table, director), director, 0)
    assert short.actions.count() == 5
    after_short = desk.award(short)
    long = won(dealt(table, director), director, 19)
    assert long.actions.count() == 24
    after_long = desk.award(long)
    assert after_short == after_long <= bound(f"award_{door}"), (after_short, after_long)


@DOORS
def test_the_next_hand_is_dealt_and_proposed_alike_after_a_short_hand_and_a_long_one(
    door: str, persona_client: Any, api_client_for: Any, director: Any
) -> None:
    desk = Desk(door, persona_client, api_client_for, "director")
    table = one_table(director)
    proposal = f"/api/v1/tables/{table.pk}/next-hand/"
    reader = warm_up(api_client_for("director"))
    deals, proposals = [], []
    for length in (0, 19):  # won after 5 actions, then after 24
        settled(won(dealt(table, director), director, length), director)
        proposals.append(counted(lambda: reader.get(proposal), 200, '"version"'))
        deals.append(desk.deal(table))
        settled(won(last_hand(table), director, 0), director)
    assert deals[0] == deals[1] <= bound(f"deal_{door}"), deals
    assert proposals[0] == proposals[1] <= bound("proposal_api"), proposals


@DOORS
def test_a_deal_and_an_award_cost_the_same_with_three_entrants_as_with_six(
    door: str, persona_client: Any, api_client_for: Any, director: Any
) -> None:
    """The award writes every entrant's count in one write, however many were dealt in."""
    desk = Desk(door, persona_client, api_client_for, "director")
    deals, awards = [], []
    for first_table, count in ((101, 3), (201, 6)):
        table = one_table(director, players=count, first_table=first_table)
        deals.append(desk.deal(table))
        awards.append(desk.award(won(last_hand(table), director, 0)))
    assert deals[0] == deals[1] <= bound(f"first_deal_{door}"), deals
    assert awards[0] == awards[1] <= bound(f"award_{door}"), awards
