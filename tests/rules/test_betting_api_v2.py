"""The betting contract's version 2 through the API: the four bugs, blinds and posts, actions
out of turn (held and voided), and the errors in the contract's shape."""

from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

NL = {"structure": "no_limit", "small_blind": 50, "big_blind": 100}


def evaluate(body: Any, path: str = "evaluate") -> Any:
    return APIClient().post(f"/api/v1/betting/{path}", body, format="json")


def seats(*numbers: int, stack: int = 10000, **stacks: int) -> list[dict[str, int]]:
    return [{"seat": n, "stack": stacks.get(f"s{n}", stack)} for n in numbers]


def act(seat: int, action: str, to: int | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"seat": seat, "action": action, **extra}
    if to is not None:
        body["to"] = to
    return body


def test_a_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    game = {**NL, "big_blind_ante": 100}
    actions = [act(3, "call"), act(1, "call"), act(1, "bet", 500), act(3, "call")]
    body = evaluate(
        {"game": game, "button": 3, "seats": seats(1, 2, 3, s2=200), "actions": actions}
    ).json()
    assert body["street"] == "turn" and body["pot"] == 1400
    assert body["pots"] == [
        {"amount": 400, "eligible": [1, 2, 3]},
        {"amount": 1000, "eligible": [1, 3]},
    ]


def test_a_straddle_the_seat_cannot_post_in_full_is_not_posted() -> None:
    game = {**NL, "straddle": 200}
    body = evaluate({"game": game, "button": 1, "seats": seats(1, 2, 3, 4, s4=150)}).json()
    assert body["current_bet"] == 100 and body["to_act"] == 4


def test_the_seat_that_cannot_straddle_makes_up_its_missed_blinds() -> None:
    # Seat 4 (left of the big blind) has 150: no straddle, so its post of the missed blinds is
    # not "a blind or the straddle already" (RRoP-14.14, CR-BB.3). Live 100, dead 50: all-in.
    game = {**NL, "straddle": 200}
    posts = [{"seat": 4, "live": 100, "dead": 50}]
    response = evaluate(
        {"game": game, "button": 1, "seats": seats(1, 2, 3, 4, s4=150), "posts": posts}
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["current_bet"], body["pot"], body["to_act"]) == (100, 300, 1)
    assert body["pots"] == [{"amount": 300, "eligible": [1, 2, 3, 4]}]
    # A seat that does straddle posts nothing more.
    response = evaluate({"game": game, "button": 1, "seats": seats(1, 2, 3, 4), "posts": posts})
    assert response.status_code == 400 and "posts.0.seat" in response.json()["error"]["fields"]


def test_pot_limit_opener_facing_a_short_big_blind_may_raise_to_350() -> None:
    game = {**NL, "structure": "pot_limit"}
    body = evaluate({"game": game, "button": 1, "seats": seats(1, 2, 3, 4, s3=60)}).json()
    assert body["options"]["raise"] == {"min_to": 200, "max_to": 350}


def test_a_spoken_all_in_with_chips_that_do_not_play() -> None:
    game = {**NL, "min_chip": 25}
    body = evaluate(
        {
            "game": game,
            "button": 1,
            "seats": seats(1, 2, 3, s4=1010, s1=10000, s2=10000, s3=10000) + seats(4, stack=1010),
            "actions": [],
            "physical": {"chips": [1000, 5, 5], "verbal": "all_in"},
        },
        "interpret",
    ).json()
    assert (body["to"], body["returned"]) == (1000, 10)


def test_every_evaluate_response_echoes_blinds_held_and_voided() -> None:
    body = evaluate({"game": NL, "button": 4, "seats": seats(1, 2, 3, 4)}).json()
    assert body["blinds"] == {"button": 4, "small": 1, "big": 2}
    assert body["held"] == [] and body["voided"] == []


def test_a_dead_button_and_named_blinds() -> None:
    body = evaluate(
        {
            "game": NL,
            "button": 4,
            "blinds": {"small": 5, "big": 6},
            "seats": seats(1, 2, 3, 5, 6),
        }
    ).json()
    assert body["blinds"] == {"button": 4, "small": 5, "big": 6} and body["to_act"] == 1


def test_a_dead_small_blind_and_a_live_post_with_its_option() -> None:
    body = evaluate(
        {
            "game": NL,
            "button": 1,
            "blinds": {"small": None, "big": 3},
            "seats": seats(1, 2, 3, 4, 5),
            "posts": [{"seat": 5, "live": 100, "dead": 50}],
            "actions": [act(4, "call")],
        }
    ).json()
    assert body["blinds"]["small"] is None
    # The action reaches the live poster unraised: the big blind's option, check or raise.
    assert body["to_act"] == 5 and body["options"]["check"] is True
    assert body["options"]["raise"]["min_to"] == 200
    assert body["pot"] == 350 and body["pots"] == [{"amount": 350, "eligible": [1, 2, 3, 4, 5]}]


def test_the_addendum_s_out_of_turn_examples() -> None:
    base = {"game": NL, "button": 6, "seats": seats(1, 2, 3, 4, 5, 6)}
    preflop = [act(3, "call"), act(4, "call"), act(5, "call"), act(6, "call"), act(1, "call")]
    flop = [act(2, "check"), act(1, "check"), act(2, "check"), act(3, "bet", 300)]
    held = [act(4, "fold"), act(6, "raise", 800, out_of_turn=True)]
    actions = [*preflop, *flop, *held]
    body = evaluate({**base, "actions": actions}).json()
    assert body["to_act"] == 5
    assert body["held"] == [{"seat": 6, "action": "raise", "to": 800, "index": 10}]
    stands = evaluate({**base, "actions": [*actions, act(5, "call")]}).json()
    assert stands["current_bet"] == 800 and stands["to_act"] == 1 and stands["held"] == []
    void = evaluate({**base, "actions": [*actions, act(5, "raise", 600)]}).json()
    assert void["to_act"] == 6 and void["held"] == []
    assert void["voided"] == [{"seat": 6, "action": "raise", "to": 800, "index": 10}]
    assert void["options"]["call"] == 600 and void["options"]["raise"]["min_to"] == 900


def test_a_held_action_illegal_at_its_turn_is_422_at_its_index_without_held_or_voided() -> None:
    base = {"game": NL, "button": 4, "seats": seats(1, 2, 3, 4)}
    actions = [act(4, "check", out_of_turn=True), act(3, "raise", 300)]
    response = evaluate({**base, "actions": actions})
    assert response.status_code == 200 and response.json()["voided"][0]["seat"] == 4
    actions = [act(4, "check", out_of_turn=True), act(3, "call")]
    response = evaluate({**base, "actions": actions})
    assert response.status_code == 422
    assert response.json() == {
        "error": {
            "index": 0,
            "code": "cannot_check",
            "message": response.json()["error"]["message"],
            "citations": response.json()["error"]["citations"],
        }
    }


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seats": [{"seat": 1, "stack": 10000.0}, {"seat": 2, "stack": 5}]}, "seats.0.stack"),
        ({"seats": [{"seat": 1, "stack": 0}, {"seat": 2, "stack": 5}]}, "seats.0.stack"),
        ({"blinds": {"small": 1, "big": 7}}, "blinds.big"),
        ({"blinds": {"small": 2, "big": 2}}, "blinds.small"),
        ({"blinds": {"big": 2}}, "blinds.small"),
        ({"posts": [{"seat": 3, "live": 50}]}, "posts.0.live"),
        ({"posts": [{"seat": 1, "live": 100}]}, "posts.0.seat"),
        ({"posts": [{"seat": 3, "dead": 50}, {"seat": 3, "live": 100}]}, "posts.1.seat"),
        (
            {"actions": [{"seat": 3, "action": "call", "out_of_turn": "yes"}]},
            "actions.0.out_of_turn",
        ),
        ({"actions": [{"seat": 3, "action": "raise"}]}, "actions.0.to"),
        ({"game": {**NL, "ante": 10, "big_blind_ante": 100}}, "game.big_blind_ante"),
        ({"button": 13}, "button"),
    ],
)
def test_bad_bodies_are_400_naming_the_dotted_field(change: dict[str, Any], field: str) -> None:
    body = {"game": NL, "button": 4, "seats": seats(1, 2, 3, 4), **change}
    response = evaluate(body)
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "bad_request" and field in error["fields"]


def test_a_body_over_256_kb_is_413_in_the_error_shape() -> None:
    body = {"game": NL, "button": 4, "seats": seats(1, 2, 3, 4), "pad": "x" * 262_145}
    response = evaluate(body)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_the_schema_documents_what_the_reader_checks() -> None:
    from rules.betting_request import HAND, HandSerializer

    documented = set(HandSerializer().fields)
    assert documented == {field.name for field in HAND.fields}
    action = HandSerializer().fields["actions"].child.fields
    assert set(action) == {"seat", "action", "to", "out_of_turn"}


def test_the_openapi_schema_has_one_component_per_part_of_the_body() -> None:
    from drf_spectacular.generators import SchemaGenerator

    components = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    hand = components["HandRequest"]["properties"]
    assert {"game", "button", "seats", "actions", "blinds", "posts"} <= set(hand)
    assert "out_of_turn" in components["ActionRequest"]["properties"]
    assert set(components["PostRequest"]["properties"]) == {"seat", "live", "dead"}
    assert "physical" in components["InterpretRequest"]["properties"]


#: The largest whole number every JSON client holds exactly (a double's 53-bit mantissa).
EXACT = 2**53 - 1


@pytest.mark.parametrize("path", ["evaluate", "award", "interpret"])
def test_stacks_whose_total_no_json_client_holds_exactly_are_a_400(path: str) -> None:
    # Each stack is within the contract's 10^15, but twelve of them total 1.2 x 10^16: the pot
    # would be a number JavaScript rounds. The body is refused, naming `seats`.
    body = {
        "game": NL,
        "button": 1,
        "seats": seats(*range(1, 13), stack=10**15),
        "actions": [act(seat, "all_in") for seat in (*range(4, 13), 1, 2, 3)],
        "showdown": {"ranking": [list(range(1, 13))]},
        "physical": {"chips": [100]},
    }
    response = evaluate(body, path)
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "bad_request" and list(error["fields"]) == ["seats"]
    assert "9,007,199,254,740,991" in error["message"]


def test_stacks_up_to_the_exact_total_are_played_and_every_number_stays_exact() -> None:
    stacks = [10**15] * 9 + [EXACT - 9 * 10**15]
    body = {
        "game": NL,
        "button": 1,
        "seats": [{"seat": n, "stack": stack} for n, stack in enumerate(stacks, start=1)],
        "actions": [act(seat, "all_in") for seat in (*range(4, 11), 1, 2, 3)],
        "showdown": {"ranking": [[10], [1, 2, 3, 4, 5, 6, 7, 8, 9]]},
    }
    response = evaluate(body, "award")
    assert response.status_code == 200, response.json()
    assert sum(pot["amount"] for pot in response.json()["pots"]) == EXACT


def test_chips_pushed_out_whose_total_no_json_client_holds_exactly_are_a_400() -> None:
    # Ten chips of 10^15 pushed out (and as many already in front): `returned` would pass 2^53.
    body = {
        "game": NL,
        "button": 1,
        "seats": seats(1, 2, 3),
        "physical": {"chips": [10**15] * 5, "prior_chips": [10**15] * 5},
    }
    response = evaluate(body, "interpret")
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "bad_request" and list(error["fields"]) == ["physical.chips"]
    body["physical"] = {"chips": [10**15] * 5, "prior_chips": [10**15] * 4}
    assert evaluate(body, "interpret").status_code == 200
