"""Actions out of turn: held, then binding or void when the turn comes (TDA-53; the
illustrated addendum's "Action out of turn" examples 1 and 2; contract v2's readings)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules.engine import citations as rule
from rules.engine.errors import IllegalAction
from rules.engine.hand import Action
from rules.engine.out_of_turn import play_action
from rules.engine.state import HandState, legal_options, replay, snapshot
from tests.rules.engine.hands import action, game, seats, table

NL = game("no_limit", 50, 100)  # THE 50-100: small and big blinds in seats 1 and 2
FOLD = action("1 fold").kind
PREFLOP = ["3 call", "4 call", "5 call", "6 call", "1 call", "2 check"]


def oot(text: str) -> Action:
    made = action(text)
    return Action(made.seat, made.kind, made.to, out_of_turn=True)


def play(actions: Sequence[str | Action]) -> tuple[HandState, tuple[int, IllegalAction] | None]:
    parsed = [a if isinstance(a, Action) else action(a) for a in actions]
    return replay(NL, 6, seats(table(6)), parsed)


def played(actions: Sequence[str | Action]) -> HandState:
    state, error = play(actions)
    assert error is None, f"{error[0]}: {error[1].code} {error[1].message}" if error else ""
    return state


FLOP_BET = [*PREFLOP, "1 check", "2 check", "3 bet 300", "4 fold"]


def test_addendum_example_1_a_call_leaves_the_action_unchanged_so_the_raise_stands() -> None:
    state = played([*FLOP_BET, oot("6 raise 800")])
    assert state.to_act == 5
    assert snapshot(state)["held"] == [{"seat": 6, "action": "raise", "to": 800, "index": 10}]
    state = played([*FLOP_BET, oot("6 raise 800"), "5 call"])
    assert state.street_wager[6] == 800 and state.current_bet == 800 and state.to_act == 1
    assert snapshot(state)["held"] == [] and snapshot(state)["voided"] == []


def test_addendum_example_1_a_fold_leaves_the_action_unchanged_too() -> None:
    state = played([*FLOP_BET, oot("6 raise 800"), "5 fold"])
    assert state.street_wager[6] == 800 and state.to_act == 1


def test_addendum_example_1_a_raise_voids_it_and_seat_6_has_every_option() -> None:
    state = played([*FLOP_BET, oot("6 raise 800"), "5 raise 600"])
    assert state.to_act == 6 and state.street_wager[6] == 0
    body = snapshot(state)
    assert body["voided"] == [{"seat": 6, "action": "raise", "to": 800, "index": 10}]
    assert body["held"] == []
    options = legal_options(state)
    assert options is not None and options.fold and options.call == 600
    assert options.raise_ is not None and options.raise_.min_to == 900


def test_addendum_example_2_a_held_check_binds_when_nobody_bets() -> None:
    flop = [*PREFLOP, "1 check", "2 check", "3 check", "4 check", oot("6 check"), "5 check"]
    state = played(flop)
    assert state.street == "turn"  # seat 6's check closed the flop


def test_addendum_example_2_a_bet_voids_the_held_check() -> None:
    flop = [*PREFLOP, "1 check", "2 check", "3 check", "4 check", oot("6 check"), "5 bet 300"]
    state = played(flop)
    assert state.to_act == 6 and [v["seat"] for v in snapshot(state)["voided"]] == [6]
    options = legal_options(state)
    assert options is not None and options.call == 300
    assert options.raise_ is not None and options.raise_.min_to == 600


def test_a_short_all_in_above_the_bet_changes_the_action() -> None:
    stacks = table(6, s5=500)  # all-in for 400 on the flop: short of a raise to 600
    actions = [*(action(a) for a in FLOP_BET), oot("6 call"), action("5 all_in")]
    state, error = replay(NL, 6, seats(stacks), actions)
    assert error is None and state.to_act == 6 and len(state.voided) == 1


def test_a_held_call_calls_what_is_owed_at_its_turn() -> None:
    state = played([*FLOP_BET, oot("6 call"), "5 call"])
    assert state.street_wager[6] == 300 and state.to_act == 1


def test_a_held_check_facing_an_unchanged_bet_is_cannot_check_at_its_index() -> None:
    _state, error = play([*FLOP_BET, oot("6 check"), "5 call"])
    assert error is not None and error[0] == 10 and error[1].code == "cannot_check"


def test_a_held_raise_that_is_too_small_when_its_turn_comes_is_refused_at_its_index() -> None:
    _state, error = play([*FLOP_BET, oot("6 raise 400"), "5 call"])
    assert error is not None and error[0] == 10 and error[1].code == "raise_too_small"


def test_a_seat_holding_an_action_may_not_act_again_before_its_turn() -> None:
    _state, error = play([*FLOP_BET, oot("6 raise 800"), "6 call"])
    assert error is not None and error[0] == 11 and error[1].code == "not_your_turn"
    _state, error = play([*FLOP_BET, oot("6 raise 800"), oot("6 call")])
    assert error is not None and error[0] == 11 and error[1].code == "not_your_turn"


def test_a_folded_or_all_in_seat_cannot_act_out_of_turn() -> None:
    _state, error = play([*FLOP_BET, oot("4 call")])
    assert error is not None and error[1].code == "not_your_turn"
    assert rule.TDA_ACTING_IN_TURN in error[1].citations
    stacks = table(6, s3=100)
    actions = [action(a) for a in PREFLOP] + [action("1 check"), action("2 check"), oot("3 check")]
    _state, error = replay(NL, 6, seats(stacks), actions)
    assert error is not None and error[0] == 8 and error[1].code == "not_your_turn"


def test_a_seat_not_dealt_in_cannot_act_out_of_turn() -> None:
    """The desk and the hand API play one action on a stored hand, with no ``replay`` check
    of the seat before it: seat 9 of a six-handed hand was a ``KeyError`` in ``_hold``."""
    state, _ = play(PREFLOP)
    for seat in (7, 9, 0):
        with pytest.raises(IllegalAction, match=f"Seat {seat} is not dealt in") as refused:
            play_action(state, len(PREFLOP), Action(seat, FOLD, None, out_of_turn=True))
        assert refused.value.code == "not_your_turn"
        assert rule.TDA_ACTING_IN_TURN in refused.value.citations
    assert state.held == []


def test_out_of_turn_sent_by_the_seat_whose_turn_it_is_is_an_ordinary_action() -> None:
    state = played([*FLOP_BET, oot("5 call")])
    assert state.street_wager[5] == 300 and state.to_act == 6 and state.held == []


def test_a_held_action_whose_turn_never_comes_is_void() -> None:
    # Seat 4 has called; it says "raise" out of turn, but nobody raises after it, so the flop
    # closes without its turn: the held raise is void.
    flop = [*PREFLOP, "1 check", "2 check", "3 bet 300", "4 call", "5 call", "6 call", "1 call"]
    state = played([*flop, oot("4 raise 900"), "2 call"])
    assert state.street == "turn" and state.street_wager[4] == 0
    assert snapshot(state)["voided"] == [{"seat": 4, "action": "raise", "to": 900, "index": 13}]
    assert snapshot(state)["held"] == []


def test_an_action_read_from_a_dict_keeps_out_of_turn() -> None:
    assert Action.from_dict({"seat": 6, "action": "check", "out_of_turn": True}).out_of_turn
    assert not Action.from_dict({"seat": 6, "action": "check"}).out_of_turn
