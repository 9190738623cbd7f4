"""Tests for the gaps the mutation run named (docs/mutation.md): each pins a behaviour no other
test reached, so the mutant that changed it survived."""

from __future__ import annotations

import pytest

from rules.engine.award import Board, Showdown, parse_showdown
from rules.engine.config import GameConfig, Structure
from rules.engine.errors import BadInput
from rules.engine.state import Action, ActionKind, Seat, legal_options, replay

DEALT = (1, 2, 3)


def test_run_it_twice_accepts_a_top_level_ranking_and_low_ranking_equal_to_the_first_board() -> (
    None
):
    raw = {
        "ranking": [[1], [2, 3]],
        "low_ranking": [[3]],
        "boards": [
            {"ranking": [[1], [3, 2]], "low_ranking": [[3]]},
            {"ranking": [[2], [1, 3]]},
        ],
    }
    assert parse_showdown(raw, dealt=DEALT) == Showdown(
        (Board(((1,), (3, 2)), ((3,),)), Board(((2,), (1, 3)), None))
    )


@pytest.mark.parametrize(
    ("top", "field"),
    [
        ({"ranking": [[2], [1, 3]]}, "showdown.ranking"),
        ({"low_ranking": [[1]]}, "showdown.low_ranking"),
        ({"low_ranking": [[9]]}, "showdown.low_ranking.0.0"),  # a seat not dealt in
    ],
)
def test_run_it_twice_refuses_a_top_level_ranking_other_than_the_first_board(
    top: dict[str, object], field: str
) -> None:
    raw = {
        **top,
        "boards": [
            {"ranking": [[1], [2, 3]], "low_ranking": [[3]]},
            {"ranking": [[2], [1, 3]]},
        ],
    }
    with pytest.raises(BadInput) as refused:
        parse_showdown(raw, dealt=DEALT)
    assert refused.value.field == field


def test_pot_limit_rounds_the_pot_up_to_a_unit_of_two() -> None:
    # RRoP-PL.4: an odd pot counts as the next unit up. Blinds 1-3 with a unit of 2: the
    # opener's call makes the pot 1 + 3 + 3 = 7, rounded to 8, so the maximum is 3 + 8 = 11
    # (without rounding it would be 10).
    config = GameConfig(Structure.POT_LIMIT, 1, 3, pot_round_unit=2)
    state, error = replay(config, 1, [Seat(1, 500), Seat(2, 500), Seat(3, 500)], [])
    assert error is None
    options = legal_options(state)
    assert options is not None and options.raise_ is not None
    assert options.raise_.max_to == 11
    unrounded = GameConfig(Structure.POT_LIMIT, 1, 3)
    state, _ = replay(unrounded, 1, [Seat(1, 500), Seat(2, 500), Seat(3, 500)], [])
    options = legal_options(state)
    assert options is not None and options.raise_ is not None
    assert options.raise_.max_to == 10


def test_fixed_limit_with_the_smallest_blinds_raises_by_the_small_bet() -> None:
    # A 1-2 game with a small bet of 2: a raise goes to 4, the next to 6 (raises of the
    # limit's size, RRoP-BR.3), whatever the small chip amounts.
    config = GameConfig(Structure.FIXED_LIMIT, 1, 2, small_bet=2, big_bet=4, raise_cap=3)
    seats = [Seat(1, 100), Seat(2, 100), Seat(3, 100)]
    state, error = replay(config, 1, seats, [Action(1, ActionKind.RAISE, 4)])
    assert error is None
    options = legal_options(state)
    assert options is not None and options.raise_ is not None
    assert (options.raise_.min_to, options.raise_.max_to) == (6, 6)
