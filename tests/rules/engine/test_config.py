"""GameConfig: the contract's ``game`` object, checked when it is built (400 bad_request)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine.config import GameConfig, Structure
from rules.engine.errors import BadInput

NL = {"structure": "no_limit", "small_blind": 100, "big_blind": 200}


def test_from_dict_reads_the_contract_game_object_with_its_defaults() -> None:
    config = GameConfig.from_dict(NL)
    assert config == GameConfig(Structure.NO_LIMIT, 100, 200)
    assert (config.ante, config.straddle, config.raise_cap, config.min_chip) == (0, 0, 3, 1)
    assert config.small_bet is None and config.big_bet is None
    assert config.pot_limit_small_blind_as_big is False


def test_from_dict_reads_every_field() -> None:
    config = GameConfig.from_dict(
        {
            "structure": "fixed_limit",
            "small_blind": 1,
            "big_blind": 2,
            "ante": 1,
            "small_bet": 2,
            "big_bet": 4,
            "raise_cap": 4,
            "min_chip": 1,
        }
    )
    assert config.structure is Structure.FIXED_LIMIT
    assert (config.limit_bets, config.raise_cap, config.ante) == ((2, 4), 4, 1)


def test_a_structure_given_as_text_becomes_the_enum() -> None:
    assert GameConfig("pot_limit", 5, 10).structure is Structure.POT_LIMIT  # type: ignore[arg-type]


def test_fixed_limit_bets_default_to_the_big_blind_and_twice_it() -> None:
    config = GameConfig(Structure.FIXED_LIMIT, 5, 10)
    assert config.limit_bets == (10, 20)
    assert [config.bet_size(street) for street in range(4)] == [10, 10, 20, 20]


def test_the_bring_in_is_the_straddle_when_one_is_posted() -> None:
    assert GameConfig(Structure.NO_LIMIT, 5, 10).bring_in == 10
    assert GameConfig(Structure.NO_LIMIT, 5, 10, straddle=20).bring_in == 20


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"small_blind": 0}, "small_blind"),
        ({"big_blind": 0}, "big_blind"),
        ({"big_blind": -200}, "big_blind"),
        ({"small_blind": 300}, "big_blind"),
        ({"ante": -1}, "ante"),
        ({"straddle": 300}, "straddle"),
        ({"straddle": -400}, "straddle"),
        ({"min_chip": 0}, "min_chip"),
        ({"raise_cap": -1}, "raise_cap"),
        ({"small_blind": True}, "small_blind"),
        ({"big_blind": "200"}, "big_blind"),
        ({"big_blind": 200.0}, "big_blind"),
        ({"ante": False}, "ante"),
        ({"small_bet": "x"}, "small_bet"),
        ({"pot_limit_small_blind_as_big": "yes"}, "pot_limit_small_blind_as_big"),
        ({"structure": "spread_limit"}, "structure"),
        ({"structure": 3}, "structure"),
    ],
)
def test_malformed_games_are_bad_input_naming_the_field(
    changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(BadInput) as bad:
        GameConfig.from_dict({**NL, **changes})
    assert bad.value.field == field
    assert bad.value.message and str(bad.value) == bad.value.message


@pytest.mark.parametrize("missing", ["small_blind", "big_blind", "structure"])
def test_a_game_without_blinds_or_structure_is_bad_input(missing: str) -> None:
    data = {key: value for key, value in NL.items() if key != missing}
    with pytest.raises(BadInput) as bad:
        GameConfig.from_dict(data)
    assert bad.value.field == missing


@pytest.mark.parametrize("data", [None, [], "no_limit", 7])
def test_a_game_that_is_not_an_object_is_bad_input(data: Any) -> None:
    with pytest.raises(BadInput) as bad:
        GameConfig.from_dict(data)
    assert bad.value.field == "game"


def test_optional_fields_given_as_null_take_their_defaults() -> None:
    config = GameConfig.from_dict({**NL, "ante": None, "small_bet": None, "min_chip": None})
    assert (config.ante, config.small_bet, config.min_chip) == (0, None, 1)


def test_bad_input_is_a_value_error() -> None:
    assert issubclass(BadInput, ValueError)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"small_bet": 100}, "small_bet"),  # below the big blind of 200
        ({"small_bet": 400, "big_bet": 200}, "big_bet"),
        ({"straddle": 400}, "straddle"),  # a live straddle is a big-bet rule
    ],
)
def test_fixed_limit_bets_must_fit_the_blinds(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(BadInput) as bad:
        GameConfig.from_dict({**NL, "structure": "fixed_limit", **changes})
    assert bad.value.field == field


def test_limit_only_fields_are_ignored_in_big_bet_games() -> None:
    config = GameConfig.from_dict({**NL, "small_bet": 50, "big_bet": 60, "raise_cap": 0})
    assert config.structure is Structure.NO_LIMIT


def test_the_config_is_frozen() -> None:
    config = GameConfig.from_dict(NL)
    with pytest.raises(AttributeError):
        config.big_blind = 400  # type: ignore[misc]
