"""A straddle table dealt from the seat map: the player left of the big blind who cannot cover
the straddle does not straddle, and makes up what they owe like anyone else (RRoP-14.14,
CR-BB.3), instead of being dealt in for nothing."""

from typing import Any

import pytest

from cardroom.seats import hands as cash_hands
from cardroom.seats import services as players
from cardroom.seats.models import TableSeat
from cardroom.tables import services
from cardroom.tables.models import Hand, Table
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def seat(table: Table, name: str, number: int, buy_in: int, by: Any) -> TableSeat:
    player = players.find_or_create_player(name=name, by=by)
    return players.seat_player(table=table, player=player, seat=number, buy_in=buy_in, by=by)


def act(hand: Hand, by: Any, seat: int, action: str) -> None:
    hand.refresh_from_db()
    services.record_action(hand=hand, by=by, expected_seq=hand.seq, seat=seat, action=action)


def test_a_new_player_left_of_the_big_blind_short_of_the_straddle_posts_the_big_blind(
    floor_manager: Any,
) -> None:
    by = floor_manager
    table = make_table(number=1, by=by, seats=6, straddle=4, max_buy_in=400)
    for number, name in ((1, "Ana Ruiz"), (3, "Bo Li"), (5, "Cy Wu")):
        seat(table, name, number, 200, by)
    # Button 1, blinds 3 and 5; seat 1 chooses not to straddle.
    hand = cash_hands.deal_next_hand(table=table, by=by, straddle=False)
    for folder in (1, 3):
        act(hand, by, folder, "fold")
    hand.refresh_from_db()
    cash_hands.settle_cash_hand(hand=hand, by=by, expected_seq=hand.seq, showdown=None)
    # Di sits down in seat 2, left of the next big blind (seat 1), and has 3 after a recount:
    # she cannot post the straddle of 4, so she posts the big blind a new player owes
    # (CR-BB.6) and nobody straddles.
    di = seat(table, "Di Amos", 2, 100, by)
    players.correct_stack(seat=di, stack=3, reason="recount", by=by)
    proposal = cash_hands.propose_next_hand(table)
    assert (proposal["button"], proposal["blinds"]) == (3, {"small": 5, "big": 1})
    assert proposal["posts"] == [{"seat": 2, "live": 2, "dead": 0}]
    hand = cash_hands.deal_next_hand(table=table, by=by, version=proposal["version"])
    assert hand.posts == [{"seat": 2, "live": 2, "dead": 0}]
    assert not TableSeat.objects.get(pk=di.pk).new
