"""Four engine bugs once confirmed against main, each reproduced as it was reported: a
big-blind ante as dead money, a straddle that could not be posted in full, a spoken all-in, and
pot limit's count of a short big blind."""

from __future__ import annotations

from rules.engine import citations as rule
from rules.engine.chips import Physical, interpret
from rules.engine.state import legal_options, pots
from tests.rules.engine.hands import game, played, refused
from tests.rules.engine.test_chips import table as facing


def test_a_big_blind_ante_is_dead_money_never_returned_as_uncalled() -> None:
    # Blinds 50-100, big-blind ante 100; the big blind (seat 2) has 200: all-in for blind
    # and ante. Seat 3 calls, seat 1 completes, checked down: the pot is 400, not 300.
    config = game("no_limit", 50, 100, big_blind_ante=100)
    checks = ["1 check", "3 check"] * 3
    state = played(config, 3, {1: 5000, 2: 200, 3: 5000}, ["3 call", "1 call", *checks])
    assert state.street == "showdown"
    assert state.pot == 400 and state.stacks[2] == 0
    assert [(p.amount, p.eligible) for p in pots(state)] == [(400, (1, 2, 3))]


def test_a_big_blind_ante_lies_in_the_main_pot_and_raises_nobody_s_pot_level() -> None:
    # The contract's reading: with a flop bet of 500 called, main pot 400, side pot 1000.
    config = game("no_limit", 50, 100, big_blind_ante=100)
    state = played(
        config, 3, {1: 5000, 2: 200, 3: 5000}, ["3 call", "1 call", "1 bet 500", "3 call"]
    )
    assert [(p.amount, p.eligible) for p in pots(state)] == [(400, (1, 2, 3)), (1000, (1, 3))]
    assert state.pot == 1400


def test_a_straddle_nobody_could_post_is_no_straddle() -> None:
    # Ante 100: seat 4 (the straddle seat) has 100, all of it the ante. The big blind is
    # the bet and seat 4 itself, the first left of the big blind, is not to act (all-in).
    config = game("no_limit", 50, 100, ante=100, straddle=200)
    state = played(config, 1, {1: 5000, 2: 5000, 3: 5000, 4: 100, 5: 5000})
    assert state.current_bet == 100 and state.bring_in == 100
    assert state.street_wager[4] == 0 and state.to_act == 5


def test_a_straddle_short_of_the_whole_amount_is_not_posted() -> None:
    config = game("no_limit", 50, 100, straddle=200)
    state = played(config, 1, {1: 5000, 2: 5000, 3: 5000, 4: 150, 5: 5000})
    assert state.current_bet == 100 and state.min_raise_increment == 100
    assert state.street_wager[4] == 0 and state.to_act == 4


def test_a_spoken_all_in_puts_in_only_the_chips_that_play() -> None:
    # min_chip 25, 1,010 behind, 1000 + 5 + 5 pushed with "all in": to 1000, 10 back.
    ruling = interpret(
        facing("no_limit", bet=100, stack=1010, min_chip=25),
        Physical(chips=(1000, 5, 5), verbal="all_in"),
    )
    # A raise to 1000, not the engine's all_in (that would put in the 10 that do not play).
    assert (ruling.action, ruling.to, ruling.returned) == ("raise", 1000, 10)
    assert "RRoP-BR.7" in ruling.citations


def test_pot_limit_counts_a_short_big_blind_at_full_size_for_the_opener() -> None:
    # Seed 004: blinds 50-100, the big blind all-in for 60: the first player may raise to 350.
    state = played(game("pot_limit", 50, 100), 1, {1: 5000, 2: 5000, 3: 60, 4: 5000})
    options = legal_options(state)
    assert options is not None and options.raise_ is not None
    assert (options.raise_.min_to, options.raise_.max_to) == (200, 350)


def test_pot_limit_counts_a_short_big_blind_at_full_size_for_every_preflop_raise() -> None:
    # After 4 calls 100, seat 1 (button): pot 50 + 60 (+40 short) + 100, call 100: to 450.
    state = played(game("pot_limit", 50, 100), 1, {1: 5000, 2: 5000, 3: 60, 4: 5000}, ["4 call"])
    options = legal_options(state)
    assert options is not None and options.raise_ is not None
    assert options.raise_.max_to == 450


def test_a_pot_limit_raise_over_a_pot_counting_a_short_blind_cites_the_short_blind_rule() -> None:
    error = refused(
        game("pot_limit", 50, 100), 1, {1: 5000, 2: 5000, 3: 60, 4: 5000}, ["4 raise 351"]
    )
    assert error.code == "raise_too_large" and "350" in error.message
    assert rule.BRING_IN_AND_SHORT_BLIND in error.citations
