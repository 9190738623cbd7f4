"""POST /api/v1/betting/award, exactly as the contract says: every 400 and 422 it lists."""

from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

GAME = {"structure": "no_limit", "small_blind": 50, "big_blind": 100}
SEATS = [{"seat": 1, "stack": 1000}, {"seat": 2, "stack": 5000}, {"seat": 3, "stack": 5000}]
#: Button 1: seat 2 posts 50, seat 3 posts 100, seat 1 acts first. Seat 1 all-in for 1000,
#: seat 2 calls, seat 3 folds: one pot of 2100 for seats 1 and 2, shown down.
ALL_IN_CALLED = [
    {"seat": 1, "action": "all_in"},
    {"seat": 2, "action": "call"},
    {"seat": 3, "action": "fold"},
]


def award(body: Any) -> Any:
    return APIClient().post("/api/v1/betting/award", body, format="json")


def hand(actions: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    body = {"game": GAME, "button": 1, "seats": SEATS, "actions": actions or ALL_IN_CALLED}
    return {**body, **extra}


def bad(response: Any, field: str) -> None:
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "bad_request" and field in error["fields"], error


def test_a_showdown_pays_the_best_hand_and_lists_every_stack() -> None:
    response = award(hand(showdown={"ranking": [[2], [1]]}))
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "pots": [{"amount": 2100, "eligible": [1, 2], "awards": [{"seat": 2, "amount": 2100}]}],
        "returned": [],
        "stacks": [
            {"seat": 1, "stack": 0},
            {"seat": 2, "stack": 6100},
            {"seat": 3, "stack": 4900},
        ],
        "citations": [],
    }


def test_a_tie_splits_with_the_odd_chip_clockwise_from_the_button() -> None:
    game = {**GAME, "ante": 1}  # 1000 + 1000 + 100 + seat 3's ante: 2101, not two even halves
    body = award(hand(showdown={"ranking": [[1, 2]]}, game=game)).json()
    assert body["pots"][0]["amount"] == 2101
    # Button 1: seat 2 is the first tied player clockwise from it, then seat 1.
    assert body["pots"][0]["awards"] == [{"seat": 1, "amount": 1050}, {"seat": 2, "amount": 1051}]
    assert body["citations"] == ["TDA-20", "RRoP-TI.5"]


def test_uncalled_chips_are_returned_and_a_complete_hand_ignores_the_showdown() -> None:
    actions = [
        {"seat": 1, "action": "raise", "to": 400},
        {"seat": 2, "action": "fold"},
        {"seat": 3, "action": "fold"},
    ]
    body = award(hand(actions, showdown={"ranking": "not even a list"})).json()
    assert body["pots"] == [
        {"amount": 250, "eligible": [1], "awards": [{"seat": 1, "amount": 250}]}
    ]
    assert body["returned"] == [{"seat": 1, "amount": 300}]
    assert body["stacks"] == [
        {"seat": 1, "stack": 1150},
        {"seat": 2, "stack": 4950},
        {"seat": 3, "stack": 4900},
    ]


def test_run_it_twice_gives_each_board_half() -> None:
    boards = [{"ranking": [[1], [2]]}, {"ranking": [[2], [1]]}]
    body = award(hand(showdown={"boards": boards})).json()
    assert body["pots"][0]["awards"] == [{"seat": 1, "amount": 1050}, {"seat": 2, "amount": 1050}]
    assert "RRoP-14.17" in body["citations"]


def test_the_route_appears_in_the_openapi_schema(api_client_for: Any) -> None:
    schema = api_client_for("staff").get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/betting/award/"]["post"]
    assert set(operation["responses"]) >= {"200", "400", "422"}


@pytest.mark.parametrize(
    ("showdown", "field"),
    [
        ({"ranking": [[2], [1], [3]]}, "showdown.ranking.2.0"),  # seat 3 folded
        ({"ranking": [[2], [1], [7]]}, "showdown.ranking.2.0"),  # seat 7 not dealt in
        ({"ranking": [[2], [1, 2]]}, "showdown.ranking.1.1"),  # a seat twice
        ({"ranking": [[2]]}, "showdown.ranking"),  # leaves out seat 1, still in
        ({"ranking": [[2], [1]], "low_ranking": [[3]]}, "showdown.low_ranking.0.0"),
        ({"ranking": [[2], [1]], "low_ranking": [[1], [1]]}, "showdown.low_ranking.1.0"),
        ({"boards": [{"ranking": [[1], [2]]}]}, "showdown.boards"),  # one board
        ({"boards": [{"ranking": [[1], [2]]}] * 3}, "showdown.boards"),  # three boards
        ({"boards": [{"ranking": [[1], [2]]}, {"ranking": [[2]]}]}, "showdown.boards.1.ranking"),
        (
            {"ranking": [[2], [1]], "boards": [{"ranking": [[1], [2]]}, {"ranking": [[1, 2]]}]},
            "showdown.ranking",
        ),
        (
            {
                "low_ranking": [[1]],
                "boards": [{"ranking": [[1], [2]], "low_ranking": [[2]]}, {"ranking": [[1, 2]]}],
            },
            "showdown.low_ranking",
        ),
        ({"low_ranking": [[1]]}, "showdown.ranking"),  # no ranking at a showdown
        ("the river", "showdown"),
    ],
)
def test_a_ranking_the_hand_cannot_have_is_a_400(showdown: Any, field: str) -> None:
    bad(award(hand(showdown=showdown)), field)


def test_a_showdown_is_required_when_the_hand_is_not_complete() -> None:
    bad(award(hand()), "showdown")


def test_the_hand_body_is_checked_like_evaluate() -> None:
    bad(award({**hand(showdown={"ranking": [[2], [1]]}), "seats": []}), "seats")


def test_an_illegal_action_is_a_422_before_hand_not_over() -> None:
    actions = [{"seat": 2, "action": "call"}]  # seat 1 is first to act
    response = award(hand(actions, showdown={"ranking": [[1], [2], [3]]}))
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "not_your_turn"
    assert response.json()["error"]["index"] == 0


def test_a_hand_still_being_bet_is_hand_not_over() -> None:
    actions = [{"seat": 1, "action": "call"}]
    response = award(hand(actions, showdown={"ranking": [[1], [2], [3]]}))
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "hand_not_over" and error["index"] == 1


def test_a_ranking_error_waits_for_the_illegal_action() -> None:
    # The ranking names a folded seat only once the actions are played: the 422 comes first.
    actions = [{"seat": 1, "action": "all_in"}, {"seat": 3, "action": "fold"}]
    response = award(hand(actions, showdown={"ranking": [[3], [1], [2]]}))
    assert response.status_code == 422 and response.json()["error"]["code"] == "not_your_turn"


def test_a_dead_button_counts_the_odd_chip_from_its_seat_number() -> None:
    # TDA-32's dead button on seat 4, nobody there; seats 5 and 6 post the blinds. Seat 2
    # shoves 1001, seats 5 and 6 call and check it down: 3003 chips, seats 2 and 6 tie.
    seats = [{"seat": 2, "stack": 1001}, {"seat": 5, "stack": 5000}, {"seat": 6, "stack": 5000}]
    actions = [
        {"seat": 2, "action": "all_in"},
        {"seat": 5, "action": "call"},
        {"seat": 6, "action": "call"},
    ]
    actions += [{"seat": s, "action": "check"} for _ in range(3) for s in (5, 6)]
    body = {
        "game": GAME,
        "button": 4,
        "blinds": {"small": 5, "big": 6},
        "seats": seats,
        "actions": actions,
        "showdown": {"ranking": [[2, 6], [5]]},
    }
    response = award(body)
    assert response.status_code == 200, response.json()
    (pot,) = response.json()["pots"]
    # Clockwise from seat 4: 5, 6, ..., 2. Seat 6 is the first tied player: the odd chip.
    assert pot["amount"] == 3003
    assert pot["awards"] == [{"seat": 2, "amount": 1501}, {"seat": 6, "amount": 1502}]


def test_dead_money_from_a_post_goes_to_the_main_pot_winner() -> None:
    # Button 1 (seat 2 small blind, seat 3 big blind); seat 1 raises and both blinds fold.
    seats = [{"seat": n, "stack": 5000} for n in (1, 2, 3)]
    actions = [{"seat": 1, "action": "raise", "to": 300}]
    actions += [{"seat": 2, "action": "fold"}, {"seat": 3, "action": "fold"}]
    body = {"game": GAME, "button": 1, "seats": seats, "actions": actions}
    plain = award(body).json()
    assert plain["pots"][0]["amount"] == 250 and plain["returned"] == [{"seat": 1, "amount": 200}]
    # Seat 1 makes up missed blinds: 100 live (part of its 300) and 50 dead in the pot.
    posted = award({**body, "posts": [{"seat": 1, "live": 100, "dead": 50}]})
    assert posted.status_code == 200, posted.json()
    result = posted.json()
    assert result["pots"] == [
        {"amount": 300, "eligible": [1], "awards": [{"seat": 1, "amount": 300}]}
    ]
    stacks = {s["seat"]: s["stack"] for s in result["stacks"]}
    assert stacks == {1: 5150, 2: 4950, 3: 4900}


def test_a_player_all_in_on_a_dead_post_wins_the_dead_money() -> None:
    # Blinds 50-100, button 4: seat 3 posts its last 50 dead (a missed small blind) and is
    # all-in; seats 4 and 1 fold; seat 3 shows the best hand. The dead 50 is the main pot
    # (contract v2, "Dead money"; CR-DM.1), the small blind's 50 and the big blind's called 50
    # the side pot, and the big blind's other 50 is returned.
    body = {
        "game": GAME,
        "button": 4,
        "seats": [{"seat": n, "stack": 50 if n == 3 else 1000} for n in (1, 2, 3, 4)],
        "posts": [{"seat": 3, "dead": 50}],
        "actions": [{"seat": 4, "action": "fold"}, {"seat": 1, "action": "fold"}],
        "showdown": {"ranking": [[3], [2]]},
    }
    response = award(body)
    assert response.status_code == 200, response.json()
    assert response.json() == {
        "pots": [
            {"amount": 50, "eligible": [2, 3], "awards": [{"seat": 3, "amount": 50}]},
            {"amount": 100, "eligible": [2], "awards": [{"seat": 2, "amount": 100}]},
        ],
        "returned": [{"seat": 2, "amount": 50}],
        "stacks": [
            {"seat": 1, "stack": 950},
            {"seat": 2, "stack": 1050},
            {"seat": 3, "stack": 50},
            {"seat": 4, "stack": 1000},
        ],
        "citations": ["CR-DM.1", "RRoP-TI.5"],
    }
