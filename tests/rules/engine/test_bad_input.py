"""Malformed input: each refusal's exact message and the field it names.

The betting API answers these as 400s with the engine's message and field (the contract's
``{"error": {"code": "bad_request", "message", "field"}}``), so the words are behaviour: a
client shows them, and the field says which part of the request to fix. Also the edges just
inside each limit, which must pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest

from rules.engine.chips import Physical
from rules.engine.config import GameConfig
from rules.engine.errors import BadInput
from rules.engine.pots import split_pot
from rules.engine.state import Action, ActionKind, Seat, start_hand

NL = {"structure": "no_limit", "small_blind": 1, "big_blind": 2}


def game(**changes: Any) -> GameConfig:
    return GameConfig.from_dict({**NL, **changes})


def deal(seats: list[tuple[int, int]], button: int = 1) -> Any:
    return start_hand(game(), button, [Seat(n, stack) for n, stack in seats])


ACTION_WORDS = "use fold, check, call, bet, raise or all_in."
SPOKEN_AMOUNT = 'A spoken amount goes with "bet" or "raise".'

REFUSALS: list[tuple[str, Callable[[], Any], str, str]] = [
    # --- seats ---
    ("seat not an object", lambda: Seat.from_dict(["1", 5]),
     "Each seat must be an object with seat and stack.", "seats"),
    ("seat without a stack", lambda: Seat.from_dict({"seat": 1}),
     "Each seat needs whole numbers for seat and stack.", "seats"),
    ("seat number as text", lambda: Seat.from_dict({"seat": "1", "stack": 5}),
     "Each seat needs whole numbers for seat and stack.", "seats"),
    ("stack as text", lambda: Seat.from_dict({"seat": 1, "stack": "5"}),
     "Each seat needs whole numbers for seat and stack.", "seats"),
    ("seat 0", lambda: Seat.from_dict({"seat": 0, "stack": 5}),
     "A seat number is a whole number from 1.", "seats"),
    ("seat true", lambda: Seat.from_dict({"seat": True, "stack": 5}),
     "A seat number is a whole number from 1.", "seats"),
    ("stack true", lambda: Seat.from_dict({"seat": 2, "stack": True}),
     "Seat 2: the stack must be a whole number.", "seats"),
    ("negative stack", lambda: Seat.from_dict({"seat": 2, "stack": -1}),
     "Seat 2 has a negative stack.", "seats"),
    # --- actions ---
    ("action not an object", lambda: Action.from_dict("fold"),
     "Each action must be an object.", "actions"),
    ("action without a word", lambda: Action.from_dict({"seat": 1}),
     "An action needs `action`: fold, check, call, bet, raise or all_in.", "actions"),
    ("action word not text", lambda: Action.from_dict({"seat": 1, "action": 3}),
     "An action needs `action`: fold, check, call, bet, raise or all_in.", "actions"),
    ("action without a seat", lambda: Action.from_dict({"action": "call"}),
     "An action needs the seat number acting.", "actions"),
    ("action seat true", lambda: Action.from_dict({"action": "call", "seat": True}),
     "An action needs the seat number acting.", "actions"),
    ("unknown action word", lambda: Action.from_dict({"action": "fly", "seat": 1}),
     f"Unknown action 'fly': {ACTION_WORDS}", "actions"),
    ("unknown action kind", lambda: ActionKind.parse(3), f"Unknown action 3: {ACTION_WORDS}",
     "actions"),
    ("raise without to", lambda: Action.from_dict({"action": "raise", "seat": 1}),
     "A raise needs `to`: the total wager on the street.", "actions"),
    ("bet to as text", lambda: Action.from_dict({"action": "bet", "seat": 1, "to": "5"}),
     "A bet needs `to`: the total wager on the street.", "actions"),
    ("bet to negative", lambda: Action(1, ActionKind.BET, -1),
     "A bet needs `to`: the total wager on the street.", "actions"),
    # --- chips and words ---
    ("physical not an object", lambda: Physical.from_dict([5]),
     "physical must be an object.", "physical"),
    ("spoken amount with call", lambda: Physical.from_dict({"verbal": {"action": "call", "to": 5}}),
     SPOKEN_AMOUNT, "physical.verbal"),
    ("spoken amount of 0", lambda: Physical.from_dict({"verbal": {"action": "raise", "to": 0}}),
     "A spoken amount needs a positive whole `to`.", "physical.verbal"),
    ("spoken amount as text",
     lambda: Physical.from_dict({"verbal": {"action": "bet", "to": "9"}}),
     "A spoken amount needs a positive whole `to`.", "physical.verbal"),
    ("verbal a number", lambda: Physical.from_dict({"verbal": 5}),
     "physical.verbal must be null, a word or an object.", "physical.verbal"),
    # --- the game ---
    ("game not an object", lambda: GameConfig.from_dict("no_limit"),
     "game must be an object.", "game"),
    ("game without a structure", lambda: GameConfig.from_dict({}),
     "game.structure must be no_limit, pot_limit or fixed_limit.", "structure"),
    ("game without a small blind", lambda: GameConfig.from_dict({"structure": "no_limit"}),
     "game.small_blind is required.", "small_blind"),
    ("game without a big blind",
     lambda: GameConfig.from_dict({"structure": "no_limit", "small_blind": 1}),
     "game.big_blind is required.", "big_blind"),
    ("unknown structure", lambda: game(structure="spread_limit"),
     "game.structure must be no_limit, pot_limit or fixed_limit.", "structure"),
    ("blind as text", lambda: game(small_blind="1"),
     "game.small_blind must be a whole number of chips.", "small_blind"),
    ("small bet as text", lambda: game(small_bet="4"),
     "game.small_bet must be a whole number of chips or null.", "small_bet"),
    ("small blind as big not a flag", lambda: game(pot_limit_small_blind_as_big=1),
     "game.pot_limit_small_blind_as_big must be true or false.", "pot_limit_small_blind_as_big"),
    ("small blind 0", lambda: game(small_blind=0), "game.small_blind must be more than 0.",
     "small_blind"),
    ("big blind 0", lambda: game(small_blind=0 + 1, big_blind=0),
     "game.big_blind must be more than 0.", "big_blind"),
    ("big blind under the small", lambda: game(small_blind=3, big_blind=2),
     "game.big_blind cannot be smaller than the small blind.", "big_blind"),
    ("negative ante", lambda: game(ante=-1), "game.ante cannot be negative.", "ante"),
    ("negative big-blind ante", lambda: game(big_blind_ante=-1),
     "game.big_blind_ante cannot be negative.", "big_blind_ante"),
    ("both antes", lambda: game(ante=1, big_blind_ante=2),
     "game: an ante from every player or a big-blind ante, not both.", "big_blind_ante"),
    ("negative pot round unit", lambda: game(pot_round_unit=-1),
     "game.pot_round_unit cannot be negative.", "pot_round_unit"),
    ("straddle not twice the big blind", lambda: game(straddle=3),
     "game.straddle is exactly twice the big blind (4), or 0 for none.", "straddle"),
    ("chip of 0 in the game", lambda: game(min_chip=0), "game.min_chip must be at least 1.",
     "min_chip"),
    ("negative raise cap", lambda: game(raise_cap=-1), "game.raise_cap cannot be negative.",
     "raise_cap"),
    ("straddle in limit", lambda: game(structure="fixed_limit", straddle=4),
     "game.straddle: a live straddle is a no-limit and pot-limit rule.", "straddle"),
    ("small bet under the big blind", lambda: game(structure="fixed_limit", small_bet=1),
     "game.small_bet (1) cannot be smaller than the big blind (2): preflop the big blind is"
     " the bet.", "small_bet"),
    ("big bet under the small bet", lambda: game(structure="fixed_limit", small_bet=4, big_bet=3),
     "game.big_bet (3) cannot be smaller than the small bet (4).", "big_bet"),
    # --- dealing ---
    ("game not a config", lambda: start_hand(cast(Any, NL), 1, [Seat(1, 5), Seat(2, 5)]),
     "The game must be a GameConfig.", "game"),
    ("one player", lambda: deal([(1, 5)]), "A hand needs at least two players dealt in.", "seats"),
    ("a seat twice", lambda: deal([(1, 5), (1, 5)]), "Each seat may be dealt in only once.",
     "seats"),
    ("button 0", lambda: deal([(1, 5), (2, 5)], button=0), "The button is a seat number.",
     "button"),
    ("button not dealt in", lambda: deal([(1, 5), (2, 5)], button=4),
     "The button (seat 4) must be a seat dealt in.", "button"),
    # --- splitting a pot ---
    ("negative pot", lambda: split_pot(-1, [1], 1, [1, 2]), "A pot cannot be negative.",
     "amount"),
    ("chip of 0", lambda: split_pot(10, [1], 1, [1, 2], min_chip=0),
     "The smallest chip must be at least 1.", "min_chip"),
    ("no winner", lambda: split_pot(10, [], 1, [1, 2]), "A pot needs at least one winner.",
     "winners"),
    ("winner twice", lambda: split_pot(10, [2, 2], 1, [1, 2]),
     "Each winner may be named only once.", "winners"),
    ("winner not dealt in", lambda: split_pot(10, [5], 1, [1, 2]),
     "Every winner must be a seat dealt in.", "winners"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("call", "message", "field"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_each_refusal_says_what_is_wrong_and_where(
    call: Callable[[], Any], message: str, field: str
) -> None:
    with pytest.raises(BadInput) as refused:
        call()
    assert (refused.value.message, refused.value.field, str(refused.value)) == (
        message,
        field,
        message,
    )


def test_the_edges_inside_each_limit_pass() -> None:
    assert Seat.from_dict({"seat": 1, "stack": 0}) == Seat(1, 0)
    assert Action.from_dict({"action": "bet", "seat": 1, "to": 0}).to == 0
    assert Action.from_dict({"action": "call", "seat": 2, "to": 50}).to is None  # ignored
    assert Action.from_dict({"action": "raise", "seat": 2, "to": 8}) == Action(
        2, ActionKind.RAISE, 8
    )
    bet = Physical.from_dict({"verbal": {"action": "bet", "to": 1}})
    assert (bet.verbal, bet.verbal_to) == ("bet", 1)
    raised = Physical.from_dict({"verbal": {"action": "raise", "to": 40}, "chips": [25, 5]})
    assert (raised.verbal, raised.verbal_to, raised.chips) == ("raise", 40, (25, 5))
    assert Physical.from_dict({"verbal": "call"}).verbal == "call"
    assert game(small_blind=2, big_blind=2, pot_round_unit=0, min_chip=1).big_blind == 2
    assert game(straddle=4, ante=0, big_blind_ante=0, raise_cap=0).straddle == 4
    limit = game(structure="fixed_limit", small_bet=2, big_bet=2)
    assert limit.limit_bets == (2, 2)
    assert deal([(1, 5), (2, 5)], button=2).to_act is not None
    assert split_pot(0, [1], 1, [1, 2]) == {1: 0}
    assert split_pot(3, [1, 2], 2, [1, 2], min_chip=1) == {1: 2, 2: 1}
