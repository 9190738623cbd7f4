"""One chip at the edges of the betting: an uncalled excess of one chip goes back, and a player
with one chip behind still acts. (Both survived mutation: every test had bigger margins.)"""

from __future__ import annotations

from tests.rules.engine.hands import game, played

NL = game("no_limit", 50, 100)  # button 1: seat 2 posts 50, seat 3 posts 100, seat 1 acts first


def test_an_uncalled_excess_of_one_chip_goes_back_to_the_bettor() -> None:
    # Seat 1 raises to 300; seat 2 can put in only 299 (all-in); seat 3 folds. One chip of the
    # raise is uncalled: nobody matched it, so it is not in the pot and goes back.
    state = played(NL, 1, {1: 1000, 2: 299, 3: 1000}, ["1 raise 300", "2 all_in", "3 fold"])
    assert state.stacks[1] == 1000 - 300 + 1
    assert state.pot == 299 + 299 + 100
    assert state.total_contributed[1] == 299


def test_a_player_with_one_chip_behind_still_acts() -> None:
    # Seat 2 posts the small blind of 50 from 51: one chip behind, and the action reaches it.
    state = played(NL, 1, {1: 1000, 2: 51, 3: 1000}, ["1 call"])
    assert state.stacks[2] == 1
    assert state.to_act == 2
    after = played(NL, 1, {1: 1000, 2: 51, 3: 1000}, ["1 call", "2 all_in"])
    assert after.stacks[2] == 0 and after.to_act == 3
