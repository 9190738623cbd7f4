"""Out of turn at the betting desk (TDA-53 and the illustrated addendum's
two examples): the action is held on its seat, then binding or void, with the rule."""

from typing import Any

import pytest

from cardroom.tables.desk import desk_view
from cardroom.tables.models import Hand, HandAction
from cardroom.tables.services import engine_state, record_action, void_last_action
from rules.engine.errors import IllegalAction
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


def act(hand: Hand, seat: int, action: str, to: int | None = None, **extra: Any) -> HandAction:
    hand.refresh_from_db()
    return record_action(
        hand=hand, by=hand.started_by, expected_seq=hand.seq, seat=seat, action=action, to=to,
        **extra,
    )  # fmt: skip


def addendum_flop(*, held: bool = True) -> Hand:
    """Blinds 50-100, six players; on the flop seat 3 bets 300, seat 4 folds, and seat 6
    says "raise to 800" out of turn (seat 5 is to act). ``held=False``: not yet said."""
    table = make_table(number=18, small_blind=50, big_blind=100, min_buy_in=2000, max_buy_in=10000)
    hand = make_hand(table=table, button=6, stacks={seat: 5000 for seat in range(1, 7)})
    for seat in (3, 4, 5, 6, 1):
        act(hand, seat, "call")
    act(hand, 2, "check")
    act(hand, 1, "check")
    act(hand, 2, "check")
    act(hand, 3, "bet", 300)
    act(hand, 4, "fold")
    if held:
        act(hand, 6, "raise", 800, out_of_turn=True)
    return hand


def test_the_out_of_turn_raise_is_held_on_its_seat() -> None:
    hand = addendum_flop()
    stored = hand.actions.get(seat=6, out_of_turn=True)
    assert stored.out_of_turn and stored.as_engine_dict()["out_of_turn"] is True
    state = engine_state(hand)
    assert state.to_act == 5 and [h.seat for h in state.held] == [6]
    view = desk_view(hand)
    seat6 = next(s for s in view["seats"] if s["seat"] == 6)
    assert seat6["held"] == "raise to 800" and seat6["wager"] == 0
    assert "TDA-53" in view["out_of_turn_citations"]
    assert view["log"][-1]["text"] == "Seat 6: raise to 800 out of turn, held until its turn"
    assert 5 not in view["out_of_turn_seats"] and 4 not in view["out_of_turn_seats"]


def test_addendum_example_1_seat_5_calls_and_the_raise_to_800_stands() -> None:
    hand = addendum_flop()
    act(hand, 5, "call")
    state = engine_state(hand)
    assert state.street_wager[6] == 800 and state.current_bet == 800
    assert state.held == [] and state.voided == [] and state.to_act == 1
    view = desk_view(hand)
    assert view["log"][-1]["text"] == "Seat 5 calls 300"
    assert view["log"][-1]["notes"] == [
        "Seat 6's out-of-turn raise to 800 stands: the action to it did not change"
    ]
    assert next(s for s in view["seats"] if s["seat"] == 6)["held"] is None


def test_addendum_example_2_seat_5_raises_to_600_and_the_raise_is_void() -> None:
    hand = addendum_flop()
    act(hand, 5, "raise", 600)
    state = engine_state(hand)
    assert state.to_act == 6 and state.street_wager.get(6, 0) == 0
    assert [h.seat for h in state.voided] == [6]
    view = desk_view(hand)
    assert view["log"][-1]["notes"] == [
        "Seat 6's out-of-turn raise to 800 is void: seat 5 raised; seat 6 has every option"
    ]
    options = view["options"]  # every option: fold, call 600, or raise to at least 900
    assert options.call == 600 and options.raise_.min_to == 900
    act(hand, 6, "call")  # seat 6 chooses anew
    assert engine_state(hand).street_wager[6] == 600


def test_a_second_out_of_turn_action_by_the_same_seat_is_refused() -> None:
    hand = addendum_flop()
    with pytest.raises(IllegalAction) as refused:
        act(hand, 6, "fold", out_of_turn=True)
    assert refused.value.code == "not_your_turn"
    assert "TDA-53" in refused.value.citations
    assert hand.actions.count() == 11


def test_a_folded_seat_cannot_act_out_of_turn() -> None:
    hand = addendum_flop()
    with pytest.raises(IllegalAction) as refused:
        act(hand, 4, "call", out_of_turn=True)
    assert refused.value.code == "not_your_turn"


def test_out_of_turn_from_the_seat_to_act_is_an_ordinary_action() -> None:
    hand = addendum_flop()
    entry = act(hand, 5, "call", out_of_turn=True)
    assert entry.out_of_turn is False
    assert engine_state(hand).street_wager[6] == 800  # the held raise stood


def test_voiding_the_last_action_when_it_was_held() -> None:
    hand = addendum_flop()
    hand.refresh_from_db()
    voided = void_last_action(
        hand=hand, by=hand.started_by, expected_seq=hand.seq, reason="misheard"
    )
    assert voided.seat == 6 and voided.out_of_turn
    state = engine_state(hand)
    assert state.held == [] and state.to_act == 5
    view = desk_view(hand)
    assert next(s for s in view["seats"] if s["seat"] == 6)["held"] is None
    act(hand, 5, "call")  # the hand goes on without it
    assert engine_state(hand).to_act == 6


def test_a_held_action_whose_turn_never_comes_is_void() -> None:
    hand = make_hand()  # 1/2, button 1: seat 2 small blind, seat 3 big blind, seat 1 to act
    act(hand, 3, "check", out_of_turn=True)
    act(hand, 1, "fold")
    act(hand, 2, "fold")  # the hand is over before seat 3's turn
    view = desk_view(hand)
    assert view["log"][-1]["notes"] == [
        "Seat 3's out-of-turn check is void: its turn never came on the preflop"
    ]


def test_the_desk_holds_an_out_of_turn_action_and_shows_it(persona_client: Any) -> None:
    hand = addendum_flop()
    client = persona_client("director")
    page = client.get(f"/tables/{hand.table.number}/desk/").content.decode()
    assert "Held: raise to 800" in page and 'href="/rulebook/TDA-53/"' in page
    assert '<option value="6">Seat 6</option>' in page  # may be entered again: the engine says no
    assert '<option value="5">' not in page and '<option value="4">' not in page
    hand.refresh_from_db()
    refused = client.post(
        f"/hands/{hand.pk}/act/",
        {"expected_seq": hand.seq, "seat": 6, "action": "fold", "out_of_turn": "on"},
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 422
    html = refused.content.decode()
    assert "Refused" in html and "already has an action held" in html
    assert 'href="/rulebook/TDA-53/"' in html and '<details class="out-of-turn" open>' in html
    raised = client.post(
        f"/hands/{hand.pk}/act/",
        {"expected_seq": hand.seq, "seat": 5, "action": "raise", "to": 600},
        HTTP_HX_REQUEST="true",
    )
    assert raised.status_code == 200
    html = raised.content.decode()
    assert "Seat 6&#x27;s out-of-turn raise to 800 is void: seat 5 raised" in html
    assert "Held:" not in html


def test_the_desk_form_posts_an_out_of_turn_bet_with_its_amount(persona_client: Any) -> None:
    hand = make_hand()
    client = persona_client("director")
    response = client.post(
        f"/hands/{hand.pk}/act/",
        {"expected_seq": 0, "seat": 2, "action": "raise", "to": 10, "out_of_turn": "on"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "Held: raise to 10" in response.content.decode()
    entry = hand.actions.get()
    assert entry.out_of_turn and entry.to == 10


def test_a_held_check_that_cannot_stand_refuses_the_action_that_reaches_it() -> None:
    """Contract v2: a held action is checked at its turn. Seat 2 (small blind, facing the big
    blind) checks out of turn; seat 1's call reaches seat 2 with the action unchanged, and the
    check cannot stand: the call is refused with the held check's error, nothing written."""
    hand = make_hand()
    act(hand, 2, "check", out_of_turn=True)
    with pytest.raises(IllegalAction) as refused:
        act(hand, 1, "call")
    assert refused.value.code == "cannot_check"
    assert refused.value.message.startswith("Seat 2's out-of-turn check cannot stand at its turn")
    assert hand.actions.count() == 1
