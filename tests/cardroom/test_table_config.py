"""Table configuration: every rule accepted and refused, with the rule named in the error."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cardroom.tables.choices import smallest_chip_in_play
from cardroom.tables.models import Table
from cardroom.tables.services import create_table, update_table
from tests.factories import make_table

pytestmark = pytest.mark.django_db

NL = {"small_blind": 2, "big_blind": 5, "min_buy_in": 100, "max_buy_in": 500}
LIMIT = {
    "structure": "fixed_limit", "small_blind": 2, "big_blind": 4, "small_bet": 4, "big_bet": 8,
    "raise_cap": 3, "min_buy_in": 80, "max_buy_in": 400,
}  # fmt: skip


def errors_of(**fields: Any) -> dict[str, list[str]]:
    table = Table(number=1, **fields)
    try:
        table.full_clean()
    except ValidationError as exc:
        return exc.message_dict
    return {}


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param(NL, id="2/5 no-limit"),
        pytest.param({**NL, "straddle": 10}, id="live straddle of twice the big blind"),
        pytest.param(LIMIT, id="4/8 limit, a bet and three raises"),
        pytest.param({**LIMIT, "variant": "omaha_hilo"}, id="limit Omaha Hi-Lo"),
        pytest.param(
            {
                "structure": "pot_limit",
                "variant": "omaha",
                "small_blind": 5,
                "big_blind": 10,
                "min_buy_in": 300,
                "max_buy_in": 1000,
                "pot_limit_small_blind_as_big": True,
                "pot_round_unit": 25,
            },
            id="PLO with small blind as big and rounding",
        ),
        pytest.param({**NL, "ante_type": "each", "ante": 1}, id="ante from every player"),
        pytest.param({**NL, "ante_type": "big_blind", "ante": 5}, id="big-blind ante"),
        pytest.param({**NL, "min_chip": 1}, id="explicit smallest chip"),
        pytest.param({**NL, "run_it_twice": True}, id="run it twice in a cash game"),
    ],
)
def test_valid_games_are_accepted(fields: dict[str, Any]) -> None:
    assert errors_of(**fields) == {}


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({**NL, "straddle": 15}, "straddle", "twice the big blind (10) (RRoP-14.14)"),
        ({**NL, "straddle": 10, "kind": "tournament"}, "straddle", "not allowed at tournament"),
        ({**LIMIT, "straddle": 8}, "straddle", "no-limit and pot-limit rule"),
        ({**NL, "big_blind": 2}, "big_blind", "larger than the small blind"),
        ({**NL, "small_blind": 0}, "small_blind", "more than 0"),
        ({**NL, "max_buy_in": 50}, "max_buy_in", "cannot be below the minimum (RRoP-14.16)"),
        ({**NL, "min_buy_in": 4}, "min_buy_in", "at least the big blind"),
        ({**NL, "min_chip": 5, "min_buy_in": 100}, "min_chip", "smallest chip in the blinds"),
        (
            {**NL, "small_blind": 25, "big_blind": 50, "min_buy_in": 1010, "max_buy_in": 5000},
            "min_buy_in",
            "multiple of the smallest chip that plays (25)",
        ),
        ({**LIMIT, "small_bet": None}, "small_bet", "need a small bet"),
        ({**LIMIT, "big_bet": 2}, "big_bet", "cannot be smaller than the small bet"),
        ({**LIMIT, "raise_cap": None}, "raise_cap", "a bet and 3 raises"),
        ({**LIMIT, "variant": "single_draw", "raise_cap": None}, "raise_cap", "a bet and 4 raises"),
        ({**NL, "small_bet": 4}, "small_bet", "fixed-limit games only"),
        ({**NL, "pot_limit_small_blind_as_big": True}, "pot_limit_small_blind_as_big", "RRoP-PL.5"),
        ({**NL, "pot_round_unit": 25}, "pot_round_unit", "pot-limit games only"),
        ({**NL, "run_it_twice": True, "kind": "tournament"}, "run_it_twice", "cash games only"),
        ({**NL, "ante": 1}, "ante", "Choose an ante type"),
        ({**NL, "ante_type": "each"}, "ante", "Give the ante amount"),
        ({**LIMIT, "ante_type": "big_blind", "ante": 4}, "ante_type", "big-blind ante"),
        ({**NL, "seats": 11}, "seats", "less than or equal to 10"),
        ({**NL, "seats": 1}, "seats", "greater than or equal to 2"),
        ({**NL, "clock_warning_seconds": 60}, "clock_warning_seconds", "before the clock"),
    ],
)
def test_bad_games_are_refused_naming_the_rule(
    fields: dict[str, Any], field: str, words: str
) -> None:
    errors = errors_of(**fields)
    assert field in errors, errors
    assert any(words in message for message in errors[field]), errors[field]


def test_smallest_chip_defaults_to_the_smallest_in_the_blinds() -> None:
    assert smallest_chip_in_play(25, 50) == 25
    assert smallest_chip_in_play(100, 200, 25) == 25
    assert smallest_chip_in_play(2, 5) == 1
    assert Table(small_blind=5, big_blind=10).chip_that_plays == 5


def test_engine_game_is_the_contract_game_object() -> None:
    limit = Table(number=1, **LIMIT)
    assert limit.engine_game() == {
        "structure": "fixed_limit", "small_blind": 2, "big_blind": 4, "ante": 0, "straddle": 0,
        "min_chip": 1, "small_bet": 4, "big_bet": 8, "raise_cap": 3,
    }  # fmt: skip
    plo = Table(number=2, structure="pot_limit", small_blind=5, big_blind=10,
                pot_limit_small_blind_as_big=True)  # fmt: skip
    assert plo.engine_game()["pot_limit_small_blind_as_big"] is True
    bb_ante = Table(number=3, **NL, ante_type="big_blind", ante=5)
    assert bb_ante.engine_game()["ante"] == 0  # a big-blind ante is not everyone's ante
    assert bb_ante.engine_game()["big_blind_ante"] == 5  # it is the big blind's
    rounded = Table(number=4, structure="pot_limit", small_blind=5, big_blind=10,
                    pot_round_unit=25)  # fmt: skip
    assert rounded.engine_game()["pot_round_unit"] == 25
    assert "pot_round_unit" not in plo.engine_game() and "big_blind_ante" not in plo.engine_game()


def test_creating_a_table_records_who_and_every_setting(floor_manager: Any) -> None:
    table = create_table(by=floor_manager, number=7, **NL)
    change = table.changes.get()
    assert change.action == "created"
    assert change.changed_by == floor_manager
    assert change.changes["big_blind"] == [None, 5]


def test_updating_records_only_what_changed(floor_manager: Any) -> None:
    table = make_table(number=3, **NL)
    update_table(table=table, by=floor_manager, max_buy_in=1000, min_buy_in=100)
    latest = table.changes.first()
    assert latest is not None
    assert latest.action == "updated"
    assert latest.changes == {"max_buy_in": [500, 1000]}
    update_table(table=table, by=floor_manager, max_buy_in=1000)
    assert table.changes.count() == 2  # nothing changed, nothing recorded


def test_a_refused_update_writes_nothing(floor_manager: Any) -> None:
    table = make_table(number=3, **NL)
    with pytest.raises(ValidationError) as caught:
        update_table(table=table, by=floor_manager, straddle=15)
    assert "straddle" in caught.value.message_dict
    table.refresh_from_db()
    assert table.straddle == 0
    assert table.changes.count() == 1


def test_a_duplicate_number_is_a_validation_error(floor_manager: Any) -> None:
    make_table(number=4)
    with pytest.raises(ValidationError) as caught:
        create_table(by=floor_manager, number=4, **NL)
    assert "number" in caught.value.message_dict


def test_history_is_append_only(floor_manager: Any) -> None:
    change = make_table(number=5).changes.get()
    change.action = "rewritten"
    with pytest.raises(ValidationError):
        change.save()
    with pytest.raises(ValidationError):
        change.delete()
