"""The betting engine rule by rule: forced bets, order of play, the options, the refusals."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine import citations as rule
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.state import (
    Action,
    ActionKind,
    Options,
    RaiseRange,
    Seat,
    apply,
    legal_options,
    replay,
    snapshot,
    start_hand,
)
from tests.rules.engine.hands import (
    check_round,
    game,
    limp_round,
    play,
    played,
    refused,
    seats,
    table,
)

NL = game("no_limit", 50, 100)
PL = game("pot_limit", 50, 100)
FL = game("fixed_limit", 5, 10)  # 10-20


def options(state: Any) -> Options:
    found = legal_options(state)
    assert found is not None
    return found


def raise_range(state: Any) -> RaiseRange:
    found = options(state).raise_
    assert found is not None
    return found


# --- forced bets and the order of play ------------------------------------------------------


def test_the_blinds_are_the_two_seats_left_of_the_button() -> None:
    state = played(NL, 4, table(6))
    assert (state.street_wager[5], state.street_wager[6]) == (50, 100)
    assert state.to_act == 1 and state.pot == 150 and state.current_bet == 100


def test_seat_numbers_wrap_clockwise_and_need_not_be_contiguous() -> None:
    state = played(NL, 9, {2: 1000, 5: 1000, 9: 1000})
    assert (state.street_wager[2], state.street_wager[5]) == (50, 100)
    assert state.to_act == 9


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_preflop() -> None:
    state = played(NL, 2, table(2))
    assert (state.street_wager[2], state.street_wager[1]) == (50, 100)
    assert state.to_act == 2


def test_heads_up_the_big_blind_acts_first_after_the_flop() -> None:
    state = played(NL, 2, table(2), ["2 call", "1 check"])
    assert (state.street, state.to_act) == ("flop", 1)


def test_the_big_blind_has_the_option_to_raise_when_everyone_limps() -> None:
    state = played(NL, 3, table(3), ["3 call", "1 call"])
    assert state.to_act == 2
    assert options(state) == Options(True, True, None, RaiseRange(200, 10_000))


def test_antes_are_dead_money_in_the_pot_but_not_in_anyones_wager() -> None:
    state = played(game("no_limit", 50, 100, ante=10), 3, table(3))
    assert state.pot == 180
    assert state.total_contributed == {1: 60, 2: 110, 3: 10}
    assert state.street_wager == {1: 50, 2: 100, 3: 0}
    assert options(state).call == 100


def test_a_player_who_cannot_cover_the_ante_is_all_in() -> None:
    state = played(game("no_limit", 50, 100, ante=10), 3, table(3, s3=6))
    assert state.stacks[3] == 0 and state.total_contributed[3] == 6
    assert state.to_act == 1  # seat 3 has nothing left to act with


def test_a_big_blind_ante_is_the_big_blinds_dead_money() -> None:
    state = played(game("no_limit", 50, 100, big_blind_ante=100), 3, table(3))
    assert state.pot == 250
    assert state.total_contributed == {1: 50, 2: 200, 3: 0}
    assert state.street_wager == {1: 50, 2: 100, 3: 0}  # the ante is not part of the bet
    assert options(state).call == 100 and raise_range(state).min_to == 200


def test_a_short_big_blind_posts_the_blind_before_the_big_blind_ante() -> None:
    state = played(game("no_limit", 50, 100, big_blind_ante=100), 3, table(3, s2=150))
    assert state.street_wager[2] == 100 and state.total_contributed[2] == 150
    assert state.stacks[2] == 0 and state.current_bet == 100


def test_heads_up_the_big_blind_ante_comes_from_the_player_off_the_button() -> None:
    state = played(game("no_limit", 50, 100, big_blind_ante=100), 1, table(2))
    assert state.total_contributed == {1: 50, 2: 200}
    assert state.to_act == 1


def test_an_ante_from_everyone_and_a_big_blind_ante_do_not_go_together() -> None:
    with pytest.raises(BadInput) as refused:
        game("no_limit", 50, 100, ante=10, big_blind_ante=100)
    assert refused.value.field == "big_blind_ante"


def test_a_short_small_blind_posts_what_it_has() -> None:
    state = played(NL, 3, table(3, s1=30))
    assert state.street_wager[1] == 30 and state.stacks[1] == 0
    assert state.current_bet == 100


def test_a_short_big_blind_leaves_the_bet_at_the_full_blind() -> None:
    state = played(NL, 3, table(3, s2=40))
    assert (state.current_bet, state.min_raise_increment) == (100, 100)
    assert options(state).call == 100 and raise_range(state).min_to == 200


def test_heads_up_a_short_big_blind_covered_by_the_small_blind_goes_to_showdown() -> None:
    # Our reading of the contract's "no further betting is possible": the small blind's 50
    # already covers the big blind's all-in 30, so there is nothing to call and nobody to
    # bet against. The 20 nobody matched goes back to the small blind.
    state = played(NL, 1, {1: 1000, 2: 30})
    assert (state.street, state.to_act) == ("showdown", None)
    assert state.total_contributed == {1: 30, 2: 30} and state.stacks[1] == 970


def test_a_player_alone_with_chips_still_calls_what_an_all_in_put_in() -> None:
    state = played(NL, 3, table(3, s3=500), ["3 all_in", "1 fold"])
    assert state.to_act == 2
    assert options(state) == Options(True, False, 400, None)


def test_the_big_blind_alone_with_chips_has_no_option_over_smaller_all_ins() -> None:
    state = played(NL, 3, table(3, s3=80, s1=50), ["3 all_in"])
    assert (state.street, state.to_act) == ("showdown", None)


def test_a_straddle_is_posted_left_of_the_big_blind_and_acts_last() -> None:
    state = played(game("no_limit", 50, 100, straddle=200), 5, table(5))
    assert state.street_wager[3] == 200 and state.bring_in == 200
    assert (state.to_act, state.current_bet, state.min_raise_increment) == (4, 200, 200)
    state = played(
        game("no_limit", 50, 100, straddle=200), 5, table(5), ["4 call", "5 call", "1 call"]
    )
    assert state.to_act == 2
    state = played(
        game("no_limit", 50, 100, straddle=200),
        5,
        table(5),
        ["4 call", "5 call", "1 call", "2 call"],
    )
    assert state.to_act == 3 and options(state).check


def test_a_straddle_seat_short_of_the_whole_straddle_posts_none() -> None:
    # Contract v2 "Straddle not posted" (RRoP-14.14: "must post an amount twice the size of
    # the big blind"): seat 3 has 150 for a 200 straddle, so the big blind is the bet.
    state = played(game("no_limit", 50, 100, straddle=200), 5, table(5, s3=150))
    assert state.current_bet == 100 and state.bring_in == 100 and state.to_act == 3
    assert options(state).call == 100 and raise_range(state).min_to == 150


def test_pot_limit_straddle_counts_in_the_pot() -> None:
    state = played(game("pot_limit", 50, 100, straddle=200), 5, table(5))
    # pot 350 + call 200 = 550, on top of the 200 bet.
    assert raise_range(state) == RaiseRange(400, 750)


# --- malformed hands --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("button", "stacks", "field"),
    [
        (1, [Seat(1, 100)], "seats"),
        (1, [Seat(1, 100), Seat(1, 100)], "seats"),
        (3, [Seat(1, 100), Seat(2, 100)], "button"),
        (True, [Seat(1, 100), Seat(2, 100)], "button"),
    ],
)
def test_a_hand_needs_two_distinct_seats_and_the_button_dealt_in(
    button: Any, stacks: list[Seat], field: str
) -> None:
    with pytest.raises(BadInput) as bad:
        start_hand(NL, button, stacks)
    assert bad.value.field == field


@pytest.mark.parametrize(
    ("seat", "stack"), [(0, 100), (-1, 100), (1, -5), (True, 100), (1, 2.5), ("1", 100)]
)
def test_a_seat_is_a_positive_number_with_a_whole_non_negative_stack(seat: Any, stack: Any) -> None:
    with pytest.raises(BadInput) as bad:
        Seat(seat, stack)
    assert bad.value.field == "seats"


def test_seats_read_from_the_contract() -> None:
    assert Seat.from_dict({"seat": 3, "stack": 500}) == Seat(3, 500)
    for data in (None, {"seat": 3}, {"seat": "3", "stack": 5}):
        with pytest.raises(BadInput):
            Seat.from_dict(data)


def test_an_action_by_a_seat_not_dealt_in_is_bad_input_before_anything_is_played() -> None:
    with pytest.raises(BadInput) as bad:
        replay(NL, 3, seats(table(3)), [Action(3, ActionKind.FOLD), Action(7, ActionKind.CALL)])
    assert bad.value.field == "actions.1.seat"


@pytest.mark.parametrize(
    "data",
    [
        {"seat": 3, "action": "shove"},
        {"seat": 3, "action": "raise"},
        {"seat": 3, "action": "bet", "to": "600"},
        {"seat": 3, "action": "raise", "to": -5},
        {"seat": 3, "action": "raise", "to": True},
        {"seat": 3, "action": "raise", "to": 600.5},
        {"seat": "3", "action": "call"},
        {"seat": True, "action": "call"},
        {"action": "call"},
        {"seat": 3},
        {"seat": 3, "action": None},
        ["seat", 3],
    ],
)
def test_malformed_actions_are_bad_input(data: Any) -> None:
    with pytest.raises(BadInput) as bad:
        Action.from_dict(data)
    assert bad.value.field == "actions"


def test_actions_read_from_the_contract_and_to_is_ignored_where_it_means_nothing() -> None:
    assert Action.from_dict({"seat": 3, "action": "raise", "to": 600}) == Action(
        3, ActionKind.RAISE, 600
    )
    assert Action.from_dict({"seat": 3, "action": "call", "to": 600}) == Action(3, ActionKind.CALL)
    assert Action(3, "all_in", 900) == Action(3, ActionKind.ALL_IN)  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        Action(3, ActionKind.BET)


# --- checks, calls and all-ins ----------------------------------------------------------------


def test_a_call_when_nothing_is_owed_is_a_check() -> None:
    state = played(NL, 3, table(3), ["3 call", "1 call", "2 call"])
    assert state.street == "flop" and state.pot == 300


def test_a_check_facing_a_bet_is_refused() -> None:
    error = refused(NL, 3, table(3), ["3 check"])
    assert error.code == "cannot_check" and rule.MIN_WAGER in error.citations


def test_the_call_is_capped_by_the_stack_and_calling_all_in_is_allowed() -> None:
    state = played(NL, 3, table(3, s3=60))
    assert options(state) == Options(True, False, 60, None)
    state = played(NL, 3, table(3, s3=60), ["3 call"])
    assert state.stacks[3] == 0 and state.street_wager[3] == 60


def test_all_in_for_less_than_the_call_is_a_call() -> None:
    state = played(NL, 3, table(3, s3=60), ["3 all_in"])
    assert (state.current_bet, state.min_raise_increment) == (100, 100)


def test_all_in_for_more_than_the_bet_is_a_raise_and_a_bet_on_an_open_round() -> None:
    state = played(NL, 3, table(3, s3=500), ["3 all_in"])
    assert (state.current_bet, state.min_raise_increment) == (500, 400)
    state = played(NL, 3, table(3, s1=400), [*limp_round([3, 1, 2]), "1 all_in"])
    assert (state.current_bet, state.min_raise_increment) == (300, 300)


def test_a_fold_is_always_offered_even_when_checking_is_free() -> None:
    state = played(NL, 3, table(3), ["3 call", "1 call", "2 fold"])
    assert state.folded == {2} and state.street == "flop"


# --- bets, raises and their sizes -------------------------------------------------------------


def test_bet_and_raise_are_synonyms() -> None:
    first = played(NL, 3, table(3), ["3 bet 300"])
    second = played(NL, 3, table(3), ["3 raise 300"])
    assert snapshot(first) == snapshot(second)


def test_the_minimum_bet_is_the_big_blind_on_every_street() -> None:
    state = played(NL, 3, table(3), [*limp_round([3, 1, 2]), *check_round([1, 2, 3])])
    assert state.street == "turn" and raise_range(state).min_to == 100


def test_an_all_in_short_of_the_minimum_is_offered_as_the_only_raise() -> None:
    state = played(NL, 3, table(3, s1=450), ["3 raise 300"])
    assert raise_range(state) == RaiseRange(450, 450)
    state = played(NL, 3, table(3, s1=450), ["3 raise 300", "1 raise 450"])
    assert (state.current_bet, state.min_raise_increment) == (450, 200)


def test_a_raise_to_the_current_bet_or_less_is_too_small() -> None:
    assert refused(NL, 3, table(3), ["3 raise 100"]).code == "raise_too_small"
    assert refused(NL, 3, table(3), ["3 raise 0"]).code == "raise_too_small"


def test_a_raise_to_more_than_the_player_has_is_too_large() -> None:
    error = refused(NL, 3, table(3), ["3 raise 10001"])
    assert error.code == "raise_too_large" and rule.PL_MAX_BET in error.citations


def test_no_limit_max_is_the_all_in_total() -> None:
    state = played(NL, 3, table(3, s3=777))
    assert raise_range(state) == RaiseRange(200, 777)


def test_a_short_all_in_bet_after_the_flop_keeps_the_bring_in_as_the_increment() -> None:
    state = played(NL, 3, table(3, s1=130), [*limp_round([3, 1, 2]), "1 all_in"])
    assert (state.current_bet, state.min_raise_increment) == (30, 100)
    assert raise_range(state).min_to == 130


def test_a_full_raise_after_short_all_ins_sets_the_new_increment() -> None:
    state = played(NL, 4, table(4, s1=250), ["3 raise 200", "4 call", "1 all_in", "2 raise 600"])
    # 250 was a short raise (50); 600 is a raise of 350 over it.
    assert (state.current_bet, state.min_raise_increment) == (600, 350)


# --- re-opening -------------------------------------------------------------------------------


def test_a_player_not_yet_acted_may_always_raise_a_short_all_in() -> None:
    state = played(NL, 4, table(4, s1=230), ["3 raise 200", "4 call", "1 all_in"])
    assert state.to_act == 2 and raise_range(state).min_to == 330


def test_short_all_ins_reopen_once_they_add_up_to_a_full_raise() -> None:
    hand = [*limp_round([3, 4, 1, 2]), "1 bet 100", "2 all_in", "3 all_in", "4 call"]
    state = played(NL, 4, table(4, s2=250, s3=300), hand)
    # 150 then 200: the bettor faces 100 more, a full raise.
    assert state.to_act == 1 and raise_range(state).min_to == 300


def test_short_all_ins_that_do_not_add_up_leave_a_call_or_fold() -> None:
    hand = [*limp_round([3, 4, 1, 2]), "1 bet 100", "2 all_in", "3 all_in", "4 call"]
    state = played(NL, 4, table(4, s2=230, s3=290), hand)
    assert state.to_act == 1 and options(state) == Options(True, False, 90, None)
    error = refused(NL, 4, table(4, s2=230, s3=290), [*hand, "1 all_in"])
    assert error.code == "raise_not_allowed"
    assert {rule.TDA_REOPENING, rule.NL_ALL_INS_ADD_UP} <= set(error.citations)


def test_a_re_raise_reopens_for_everyone_who_acted() -> None:
    state = played(NL, 4, table(4), ["3 raise 300", "4 call", "1 call", "2 raise 800"])
    assert state.to_act == 3 and raise_range(state).min_to == 1300


# --- refusals: the contract's order of checks -------------------------------------------------


def test_hand_over_comes_first() -> None:
    hand = ["3 fold", "1 fold"]
    state = played(NL, 3, table(3), hand)
    assert state.street == "complete"
    for text in ("2 check", "2 raise 1000", "1 call"):
        assert refused(NL, 3, table(3), [*hand, text]).code == "hand_over"


def test_not_your_turn_comes_before_cannot_check() -> None:
    error = refused(NL, 3, table(3), ["1 check"])
    assert error.code == "not_your_turn"
    assert {rule.ACT_IN_TURN, rule.TDA_ACTING_IN_TURN} <= set(error.citations)


def test_raise_not_allowed_comes_before_raise_too_small() -> None:
    hand = [*limp_round([3, 4, 1, 2]), "1 bet 100", "2 all_in", "3 all_in", "4 call"]
    error = refused(NL, 4, table(4, s2=230, s3=290), [*hand, "1 raise 150"])
    assert error.code == "raise_not_allowed"


def test_raise_too_small_comes_before_raise_too_large() -> None:
    # Pot limit, first to act: 200 to 350.
    assert refused(PL, 3, table(3), ["3 raise 150"]).code == "raise_too_small"
    assert refused(PL, 3, table(3), ["3 raise 351"]).code == "raise_too_large"


def test_nobody_to_call_a_raise_means_call_or_fold() -> None:
    state = played(NL, 3, table(3, s3=500, s1=800), ["3 all_in", "1 all_in"])
    assert state.to_act == 2 and options(state) == Options(True, False, 700, None)
    error = refused(NL, 3, table(3, s3=500, s1=800), ["3 all_in", "1 all_in", "2 raise 2000"])
    assert error.code == "raise_not_allowed"


def test_a_player_with_no_more_than_the_call_may_not_raise() -> None:
    error = refused(NL, 3, table(3, s3=100), ["3 raise 100"])
    assert error.code == "raise_not_allowed" and error.citations


def test_a_refused_action_changes_nothing() -> None:
    state = played(NL, 3, table(3), ["3 raise 300"])
    before = snapshot(state), dict(state.stacks), dict(state.acted_level)
    for bad in ("1 raise 350", "1 check", "2 call", "1 raise 99999"):
        with pytest.raises(IllegalAction):
            apply(state, Action(int(bad[0]), ActionKind(bad.split()[1]), _to(bad)))
        assert (snapshot(state), dict(state.stacks), dict(state.acted_level)) == before


def _to(text: str) -> int | None:
    parts = text.split()
    return int(parts[2]) if len(parts) > 2 else None


# --- streets and the end of the hand ----------------------------------------------------------


def test_the_streets_run_preflop_flop_turn_river_showdown() -> None:
    state = played(NL, 3, table(3))
    streets = [state.street]
    for round_ in (limp_round([3, 1, 2]), *[check_round([1, 2, 3])] * 3):
        for text in round_:
            apply(state, Action(int(text[0]), ActionKind(text.split()[1])))
        streets.append(state.street)
    assert streets == ["preflop", "flop", "turn", "river", "showdown"]
    assert state.to_act is None and legal_options(state) is None


def test_a_new_street_starts_left_of_the_button_with_nothing_to_call() -> None:
    state = played(NL, 3, table(3), limp_round([3, 1, 2]))
    assert (state.to_act, state.current_bet, state.min_raise_increment) == (1, 0, 100)
    assert state.street_wager == {1: 0, 2: 0, 3: 0}


def test_when_all_but_one_fold_the_hand_is_complete_and_the_raise_comes_back() -> None:
    state = played(NL, 3, table(3), ["3 raise 600", "1 fold", "2 fold"])
    assert (state.street, state.to_act) == ("complete", None)
    # The 500 nobody called is returned: 100 matched the big blind.
    assert state.total_contributed == {1: 50, 2: 100, 3: 100}
    assert state.pot == 250 and state.stacks[3] == 9900


def test_an_uncalled_all_in_excess_comes_back_at_showdown() -> None:
    state = played(NL, 2, {1: 300, 2: 5000}, ["2 all_in", "1 call"])
    assert state.street == "showdown"
    assert state.total_contributed == {1: 300, 2: 300} and state.pot == 600


def test_showdown_at_once_when_everyone_is_all_in() -> None:
    state = played(NL, 3, table(3, s1=500, s2=500), ["3 raise 500", "1 call", "2 call"])
    assert state.street == "showdown" and state.pot == 1500


def test_betting_goes_on_between_the_players_with_chips_behind_an_all_in() -> None:
    state = played(NL, 3, table(3, s3=500), ["3 all_in", "1 call", "2 call"])
    assert (state.street, state.to_act) == ("flop", 1)


# --- pot limit --------------------------------------------------------------------------------


def test_pot_limit_first_to_act_may_raise_to_three_and_a_half_blinds() -> None:
    assert raise_range(played(PL, 3, table(3))) == RaiseRange(200, 350)


def test_pot_limit_max_is_capped_by_the_stack() -> None:
    assert raise_range(played(PL, 3, table(3, s3=300))) == RaiseRange(200, 300)


def test_pot_limit_max_counts_every_bet_on_the_table_and_the_call() -> None:
    state = played(PL, 4, table(4), ["3 raise 350"])
    # pot 500 + call 350 = 850, on top of the 350 bet.
    assert raise_range(state) == RaiseRange(600, 1200)


def test_pot_limit_counts_the_antes() -> None:
    state = played(game("pot_limit", 50, 100, ante=10), 3, table(3))
    assert raise_range(state) == RaiseRange(200, 380)


def test_pot_limit_rounds_the_pot_up_to_the_unit() -> None:
    # RRoP-PL.4: pot 180 (blinds and antes) + the call of 100 = 280, counted as 300.
    state = played(game("pot_limit", 50, 100, ante=10, pot_round_unit=25), 3, table(3))
    assert raise_range(state) == RaiseRange(200, 400)
    # A pot already on the unit is unchanged: 150 + 100 = 250.
    assert raise_range(played(game("pot_limit", 50, 100, pot_round_unit=25), 3, table(3))) == (
        RaiseRange(200, 350)
    )


def test_pot_rounding_means_nothing_outside_pot_limit() -> None:
    config = game("no_limit", 50, 100, ante=10, pot_round_unit=25)
    assert raise_range(played(config, 3, table(3))).max_to == 9_990  # all-in, after the ante


def test_small_blind_as_big_stops_once_the_big_blind_has_acted() -> None:
    config = game("pot_limit", 50, 100, pot_limit_small_blind_as_big=True)
    assert raise_range(played(config, 3, table(3))).max_to == 400
    state = played(config, 3, table(3), ["3 call", "1 call"])
    assert state.to_act == 2 and raise_range(state).max_to == 400  # the big blind acting
    state = played(config, 3, table(3), ["3 call", "1 call", "2 raise 400", "3 call"])
    assert state.to_act == 1 and raise_range(state).max_to == 400 + 900 + 300


def test_pot_limit_over_the_pot_cites_the_small_blind_rule_when_it_applies() -> None:
    config = game("pot_limit", 50, 100, pot_limit_small_blind_as_big=True)
    error = refused(config, 3, table(3), ["3 raise 401"])
    assert error.code == "raise_too_large"
    assert {rule.PL_MAX_BET, rule.PL_OVERSIZE_REDUCED, rule.PL_SMALL_BLIND_AS_BIG} <= set(
        error.citations
    )


def test_small_blind_as_big_means_nothing_outside_pot_limit() -> None:
    config = game("no_limit", 50, 100, pot_limit_small_blind_as_big=True)
    assert raise_range(played(config, 3, table(3))).max_to == 10_000


# --- fixed limit ------------------------------------------------------------------------------


def test_fixed_limit_bets_and_raises_are_exactly_one_bet() -> None:
    state = played(FL, 3, table(3))
    assert raise_range(state) == RaiseRange(20, 20)
    assert refused(FL, 3, table(3), ["3 raise 25"]).code == "raise_too_large"
    assert refused(FL, 3, table(3), ["3 raise 15"]).code == "raise_too_small"


def test_fixed_limit_small_bet_on_the_flop_big_bet_on_turn_and_river() -> None:
    flop = played(FL, 3, table(3), limp_round([3, 1, 2]))
    assert raise_range(flop) == RaiseRange(10, 10) and flop.min_raise_increment == 10
    turn = played(FL, 3, table(3), [*limp_round([3, 1, 2]), *check_round([1, 2, 3])])
    assert raise_range(turn) == RaiseRange(20, 20) and turn.min_raise_increment == 20
    river = played(FL, 3, table(3), [*limp_round([3, 1, 2]), *check_round([1, 2, 3]) * 2])
    assert river.street == "river" and raise_range(river) == RaiseRange(20, 20)


def test_fixed_limit_custom_bets() -> None:
    config = game("fixed_limit", 10, 20, small_bet=20, big_bet=50)
    turn = played(config, 3, table(3), [*limp_round([3, 1, 2]), *check_round([1, 2, 3])])
    assert raise_range(turn) == RaiseRange(50, 50)


def test_the_cap_counts_players_not_all_in_at_the_time_of_the_raise() -> None:
    # Four dealt in, but seat 4 is all-in: the third raise is made with three players
    # not all-in, so it caps the betting.
    state = played(FL, 4, table(4, s4=10), ["3 raise 20", "4 call", "1 raise 30", "2 raise 40"])
    assert state.capped and options(state).raise_ is None
    # With two of the three others all-in, the action is heads-up: no cap.
    state = played(
        FL, 4, table(4, s4=10, s1=30), ["3 raise 20", "4 call", "1 all_in", "2 raise 40"]
    )
    assert not state.capped and raise_range(state) == RaiseRange(50, 50)


def test_a_raise_cap_of_zero_allows_only_the_bet() -> None:
    config = game("fixed_limit", 5, 10, raise_cap=0)
    state = played(config, 3, table(3))
    assert options(state).raise_ is None
    flop = played(config, 3, table(3), [*limp_round([3, 1, 2]), "1 bet 10"])
    assert options(flop).raise_ is None
    assert raise_range(played(config, 2, table(2))) == RaiseRange(20, 20)  # heads-up


def test_fixed_limit_the_cap_resets_on_the_next_street() -> None:
    hand = ["3 raise 20", "1 raise 30", "2 raise 40", "3 call", "1 call"]
    state = played(FL, 3, table(3), hand)
    assert state.street == "flop" and not state.capped and state.raises == 0


def test_fixed_limit_short_all_ins_add_up_against_the_last_full_bet() -> None:
    # Our reading of the half-bet rule: a short all-in is measured from the last full bet,
    # so 10 -> 14 (short) -> 17 adds up to 7 of a 10 raise, half a bet or more: a full raise.
    hand = [*limp_round([3, 4, 5, 1, 2]), "1 bet 10", "2 all_in", "3 call", "4 all_in"]
    state = played(FL, 5, table(5, s2=24, s4=27), hand)
    assert state.full_level == 17 and state.to_act == 5
    assert raise_range(state) == RaiseRange(27, 27)
    state = played(FL, 5, table(5, s2=24, s4=27), [*hand, "5 call"])
    assert state.to_act == 1 and raise_range(state) == RaiseRange(27, 27)


def test_fixed_limit_completing_a_short_all_in_bet_is_the_bet_not_a_raise() -> None:
    hand = [*limp_round([3, 1, 2]), "1 all_in", "2 raise 10"]
    state = played(FL, 3, table(3, s1=14), hand)
    assert state.raises == 0 and state.full_level == 10


def test_fixed_limit_errors_cite_the_limit_rules() -> None:
    error = refused(FL, 3, table(3), [*limp_round([3, 1, 2]), *check_round([1, 2, 3]), "1 bet 10"])
    assert {rule.MIN_WAGER, rule.BRING_UP_SHORT_WAGER} <= set(error.citations)
    error = refused(FL, 4, table(4), ["3 raise 20", "4 raise 30", "1 raise 40", "2 raise 50"])
    assert {rule.LIMIT_RAISE_CAP, rule.HEADS_UP_UNLIMITED} <= set(error.citations)


# --- reading the state ------------------------------------------------------------------------


def test_the_snapshot_is_exactly_the_contract_response_body() -> None:
    state = played(game("no_limit", 100, 200), 4, table(4), ["3 raise 600", "4 call", "1 fold"])
    assert snapshot(state) == {
        "street": "preflop",
        "to_act": 2,
        "pot": 1500,
        "current_bet": 600,
        "min_raise_increment": 400,
        "options": {
            "fold": True,
            "check": False,
            "call": 400,
            "raise": {"min_to": 1000, "max_to": 10000},
        },
        "pots": [{"amount": 1500, "eligible": [2, 3, 4]}],
        "blinds": {"button": 4, "small": 1, "big": 2},
        "held": [],
        "voided": [],
    }


def test_the_snapshot_when_the_hand_is_over_has_no_options() -> None:
    body = snapshot(played(NL, 3, table(3), ["3 fold", "1 fold"]))
    assert body["options"] is None and body["to_act"] is None and body["street"] == "complete"
    # The big blind's 50 that nobody matched is returned.
    assert body["pots"] == [{"amount": 100, "eligible": [2]}] and body["pot"] == 100


def test_options_to_dict_with_no_raise() -> None:
    assert Options(True, True, None, None).to_dict() == {
        "fold": True,
        "check": True,
        "call": None,
        "raise": None,
    }


def test_replay_stops_at_the_first_illegal_action_and_keeps_the_ones_before() -> None:
    state, error = play(NL, 3, table(3), ["3 raise 300", "1 raise 350", "1 call"])
    assert error is not None and error[0] == 1 and error[1].code == "raise_too_small"
    assert state.to_act == 1 and state.current_bet == 300


def test_a_copy_is_independent_of_the_original() -> None:
    state = played(NL, 3, table(3))
    trial = state.copy()
    apply(trial, Action(3, ActionKind.RAISE, 500))
    assert state.current_bet == 100 and state.stacks[3] == 10_000 and state.to_act == 3
    assert trial.current_bet == 500 and trial.to_act == 1


def test_every_refusal_carries_a_message_and_citations_from_the_rulebook() -> None:
    hands: list[tuple[Any, int, dict[int, int], list[str]]] = [
        (NL, 3, table(3), ["3 check"]),
        (NL, 3, table(3), ["1 call"]),
        (NL, 3, table(3), ["3 fold", "1 fold", "2 call"]),
        (NL, 3, table(3), ["3 raise 150"]),
        (NL, 3, table(3), [*limp_round([3, 1, 2]), "1 bet 50"]),
        (NL, 3, table(3), ["3 raise 20000"]),
        (NL, 3, table(3, s3=100), ["3 raise 150"]),
        (NL, 3, table(3, s3=500, s1=800), ["3 all_in", "1 all_in", "2 raise 2000"]),
        (PL, 3, table(3), ["3 raise 400"]),
        (FL, 3, table(3), ["3 raise 30"]),
        (FL, 4, table(4), ["3 raise 20", "4 raise 30", "1 raise 40", "2 raise 50"]),
        (
            FL,
            3,
            table(3, s2=14),
            [*limp_round([3, 1, 2]), "1 check", "2 all_in", "3 call", "1 raise 10"],
        ),
    ]
    for config, button, stacks, actions in hands:
        error = refused(config, button, stacks, actions)
        assert error.message and error.citations, error.code
        assert set(error.citations) <= rule.ALL
        assert isinstance(error.citations, tuple)
