"""Live hands: actions checked by the engine, nothing written when refused, voids on record."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cardroom.tables.models import Hand, HandAction
from cardroom.tables.services import (
    StaleHand,
    engine_state,
    record_action,
    start_hand,
    update_table,
    void_hand,
    void_last_action,
)
from rules.engine.errors import IllegalAction
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


def act(hand: Hand, user: Any, seat: int, action: str, to: int | None = None) -> HandAction:
    hand.refresh_from_db()
    return record_action(hand=hand, by=user, expected_seq=hand.seq, seat=seat, action=action, to=to)


def test_dealing_posts_blinds_from_the_tables_game(floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    state = engine_state(hand)
    # Button 1: seat 2 small blind (1), seat 3 big blind (2), seat 1 first to act.
    assert (state.to_act, state.current_bet, state.pot) == (1, 2, 3)
    assert hand.number == 1 and hand.game["big_blind"] == 2


def test_the_straddle_is_optional_each_hand(floor_manager: Any) -> None:
    table = make_table(number=6, straddle=4)
    seats = [{"seat": n, "stack": 200} for n in (1, 2, 3, 4)]
    posted = start_hand(table=table, by=floor_manager, button=1, seats=seats)
    state = engine_state(posted)
    # Seat 4, left of the big blind, straddles to 4; seat 1 acts first.
    assert (state.current_bet, state.pot, state.to_act) == (4, 7, 1)
    void_hand(hand=posted, by=floor_manager, expected_seq=0, reason="dealt again")
    declined = start_hand(table=table, by=floor_manager, button=1, seats=seats, straddle=False)
    state = engine_state(declined)
    assert declined.game["straddle"] == 0 and table.engine_game()["straddle"] == 4
    assert (state.current_bet, state.pot, state.to_act) == (2, 3, 4)


def test_a_legal_action_is_recorded_and_moves_the_hand(floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    action = act(hand, floor_manager, 1, "raise", 6)
    hand.refresh_from_db()
    assert (action.seq, hand.seq) == (1, 1)
    assert action.entered_by == floor_manager
    assert engine_state(hand).to_act == 2


def test_an_illegal_action_is_refused_with_its_rule_and_writes_nothing(floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    with pytest.raises(IllegalAction) as refused:
        act(hand, floor_manager, 1, "raise", 3)
    assert refused.value.code == "raise_too_small"
    assert refused.value.citations
    with pytest.raises(IllegalAction) as out_of_turn:
        act(hand, floor_manager, 2, "call")
    assert out_of_turn.value.code == "not_your_turn"
    hand.refresh_from_db()
    assert hand.seq == 0 and not hand.actions.exists()


def test_a_stale_sequence_number_is_refused(floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    act(hand, floor_manager, 1, "call")
    with pytest.raises(StaleHand):
        record_action(hand=hand, by=floor_manager, expected_seq=0, seat=2, action="call")
    assert hand.actions.count() == 1


def test_the_hand_completes_when_all_but_one_fold(floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    act(hand, floor_manager, 1, "fold")
    act(hand, floor_manager, 2, "fold")
    hand.refresh_from_db()
    assert hand.state == "complete"
    assert engine_state(hand).street == "complete"


def test_void_last_action_keeps_it_on_record_and_replays_without_it(floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    act(hand, floor_manager, 1, "raise", 10)
    hand.refresh_from_db()
    voided = void_last_action(hand=hand, by=floor_manager, expected_seq=hand.seq, reason="Misheard")
    assert voided.void_reason == "Misheard" and voided.voided_by == floor_manager
    hand.refresh_from_db()
    assert hand.seq == 2
    assert engine_state(hand).to_act == 1  # seat 1 acts again
    assert hand.actions.count() == 1  # still in the history
    act(hand, floor_manager, 1, "call")
    assert [a.seq for a in hand.actions.all()] == [1, 3]


def test_voiding_needs_a_reason(floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    with pytest.raises(ValidationError):
        void_hand(hand=hand, by=floor_manager, expected_seq=0, reason=" ")


def test_one_hand_at_a_time_and_the_game_is_frozen_meanwhile(floor_manager: Any) -> None:
    table = make_table(number=5)
    hand = make_hand(table=table, by=floor_manager)
    with pytest.raises(ValidationError, match="still in progress"):
        start_hand(table=table, by=floor_manager, button=2, seats=hand.seats)
    with pytest.raises(ValidationError, match="hand is in progress"):
        update_table(table=table, by=floor_manager, big_blind=4, small_blind=2)
    void_hand(hand=hand, by=floor_manager, expected_seq=0, reason="Misdeal")
    second = start_hand(table=table, by=floor_manager, button=2, seats=hand.seats)
    assert second.number == 2


@pytest.mark.parametrize(
    ("button", "seats", "field"),
    [
        (4, [{"seat": 1, "stack": 100}, {"seat": 2, "stack": 100}], "button"),
        (1, [{"seat": 1, "stack": 100}, {"seat": 12, "stack": 100}], "seats"),
        (1, [{"seat": 1, "stack": 100}, {"seat": 2, "stack": -5}], "seats"),
    ],
)
def test_bad_deals_are_refused(floor_manager: Any, button: int, seats: Any, field: str) -> None:
    with pytest.raises(ValidationError):
        start_hand(table=make_table(number=6), by=floor_manager, button=button, seats=seats)
    assert not Hand.objects.exists()


def test_a_closed_table_deals_no_hand(floor_manager: Any) -> None:
    table = make_table(number=6, status="closed")
    with pytest.raises(ValidationError, match="open it first"):
        make_hand(table=table, by=floor_manager)
