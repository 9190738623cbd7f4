"""POST /api/v1/tables/{id}/betting/evaluate: the public evaluate, the game from the table."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import make_table

pytestmark = pytest.mark.django_db

SEATS = [{"seat": n, "stack": 1000} for n in (1, 2, 3, 4)]


def evaluate(table_id: Any, body: Any) -> Any:
    return APIClient().post(f"/api/v1/tables/{table_id}/betting/evaluate", body, format="json")


def test_the_game_comes_from_the_tables_configuration() -> None:
    # 5/10 pot limit, the small blind counted as a big blind: the first raise is to 40.
    plo = make_table(number=3, structure="pot_limit", small_blind=5, big_blind=10,
                     min_buy_in=300, max_buy_in=1000, pot_limit_small_blind_as_big=True)  # fmt: skip
    body = evaluate(plo.pk, {"button": 4, "seats": SEATS, "actions": []}).json()
    assert body["to_act"] == 3 and body["options"]["raise"] == {"min_to": 20, "max_to": 40}


def test_a_straddle_and_a_big_blind_ante_at_the_table_are_posted() -> None:
    table = make_table(number=5, straddle=4, ante_type="big_blind", ante=2)
    body = evaluate(table.pk, {"button": 4, "seats": SEATS, "actions": []}).json()
    # Blinds 1 and 2, the big blind's ante 2, the straddle 4 by seat 3; seat 4 acts first.
    assert body["pot"] == 9 and body["current_bet"] == 4 and body["to_act"] == 4
    assert body["options"]["call"] == 4


def test_an_illegal_action_is_422_with_its_citations() -> None:
    table = make_table(number=6)
    response = evaluate(
        table.pk,
        {"button": 4, "seats": SEATS, "actions": [{"seat": 3, "action": "raise", "to": 3}]},
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["index"], error["code"]) == (0, "raise_too_small") and error["citations"]


def test_a_game_in_the_body_is_refused_the_tables_game_counts() -> None:
    table = make_table(number=7)
    game = {"structure": "no_limit", "small_blind": 50, "big_blind": 100}
    response = evaluate(table.pk, {"game": game, "button": 4, "seats": SEATS})
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"game": [response.json()["error"]["message"]]}


@pytest.mark.parametrize("body", [[], {"button": 4}, {"button": 9, "seats": SEATS}])
def test_a_malformed_body_is_400(body: Any) -> None:
    table = make_table(number=8)
    response = evaluate(table.pk, body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_an_unknown_table_is_404() -> None:
    assert evaluate(999999, {"button": 4, "seats": SEATS}).status_code == 404


def test_a_log_in_is_needed_when_the_betting_api_is_not_public(settings: Any) -> None:
    table = make_table(number=9)
    settings.CARDROOM_PUBLIC_BETTING_API = False
    assert evaluate(table.pk, {"button": 4, "seats": SEATS}).status_code == 401
