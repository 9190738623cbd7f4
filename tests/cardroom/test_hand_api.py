"""/api/v1/tables/{id}/hands/ and /api/v1/hands/{id}/actions/: the contract's error shape."""

from typing import Any

import pytest

from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db

SEATS = [{"seat": 1, "stack": 200}, {"seat": 2, "stack": 200}, {"seat": 3, "stack": 200}]


def test_deal_act_and_read_back(api_client_for: Any) -> None:
    table = make_table(number=2)
    client = api_client_for("director")
    dealt = client.post(
        f"/api/v1/tables/{table.pk}/hands/", {"button": 1, "seats": SEATS}, format="json"
    )
    assert dealt.status_code == 201, dealt.json()
    hand = dealt.json()
    assert hand["betting"]["to_act"] == 1 and hand["seq"] == 0
    entered = client.post(
        f"/api/v1/hands/{hand['id']}/actions/",
        {"expected_seq": 0, "seat": 1, "action": "raise", "to": 6},
        format="json",
    )
    assert entered.status_code == 201
    assert entered.json()["betting"]["current_bet"] == 6
    log = client.get(f"/api/v1/hands/{hand['id']}/actions/").json()
    assert [(a["seat"], a["action"], a["to"]) for a in log] == [(1, "raise", 6)]


def test_a_deal_says_whether_the_optional_straddle_was_posted(api_client_for: Any) -> None:
    table = make_table(number=3, straddle=4)
    seats = [{"seat": n, "stack": 200} for n in (1, 2, 3, 4)]
    client = api_client_for("director")
    dealt = client.post(
        f"/api/v1/tables/{table.pk}/hands/",
        {"button": 1, "seats": seats, "straddle": False},
        format="json",
    )
    assert dealt.status_code == 201, dealt.json()
    assert dealt.json()["betting"]["current_bet"] == 2


def test_an_illegal_action_is_422_with_code_and_citations(api_client_for: Any) -> None:
    hand = make_hand()
    response = api_client_for("director").post(
        f"/api/v1/hands/{hand.pk}/actions/",
        {"expected_seq": 0, "seat": 1, "action": "raise", "to": 3},
        format="json",
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "raise_too_small"
    assert error["citations"] and error["message"]


def test_a_stale_step_is_409(api_client_for: Any) -> None:
    hand = make_hand()
    client = api_client_for("director")
    body = {"expected_seq": 0, "seat": 1, "action": "call"}
    assert client.post(f"/api/v1/hands/{hand.pk}/actions/", body, format="json").status_code == 201
    again = client.post(f"/api/v1/hands/{hand.pk}/actions/", body, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["seq"] == 1


@pytest.mark.parametrize(
    "body",
    [
        {"seat": 1, "action": "call"},
        {"expected_seq": 0, "seat": 1, "action": "shove"},
        {"expected_seq": 0, "seat": 1, "action": "raise"},
        {"expected_seq": "zero", "seat": 1, "action": "call"},
    ],
)
def test_malformed_actions_are_400(api_client_for: Any, body: dict[str, Any]) -> None:
    hand = make_hand()
    response = api_client_for("director").post(
        f"/api/v1/hands/{hand.pk}/actions/", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_staff_read_but_cannot_enter(api_client_for: Any) -> None:
    hand = make_hand()
    client = api_client_for("staff")
    assert client.get(f"/api/v1/hands/{hand.pk}/").status_code == 200
    body = {"expected_seq": 0, "seat": 1, "action": "call"}
    assert client.post(f"/api/v1/hands/{hand.pk}/actions/", body, format="json").status_code == 403
    assert (
        client.post(
            f"/api/v1/hands/{hand.pk}/void/", {"expected_seq": 0, "reason": "x"}, format="json"
        ).status_code
        == 403
    )
    assert (
        client.post(
            f"/api/v1/tables/{hand.table_id}/hands/", {"button": 1, "seats": SEATS}, format="json"
        ).status_code
        == 403
    )


def test_void_endpoints(api_client_for: Any) -> None:
    hand = make_hand()
    client = api_client_for("floor_manager")
    client.post(
        f"/api/v1/hands/{hand.pk}/actions/",
        {"expected_seq": 0, "seat": 1, "action": "call"},
        format="json",
    )
    voided = client.post(
        f"/api/v1/hands/{hand.pk}/void-last/",
        {"expected_seq": 1, "reason": "Wrong seat"},
        format="json",
    )
    assert voided.status_code == 200
    assert voided.json()["actions"][0]["void_reason"] == "Wrong seat"
    dead = client.post(
        f"/api/v1/hands/{hand.pk}/void/",
        {"expected_seq": 2, "reason": "Misdeal", "confirm_hand": hand.number},
        format="json",
    )
    assert dead.json()["state"] == "voided"


def test_a_voided_hand_matches_the_schema_betting_is_null(api_client_for: Any) -> None:
    """Found by the Schemathesis run: a voided hand answered ``"betting": null`` where the
    schema promised an object."""
    import jsonschema
    from drf_spectacular.generators import SchemaGenerator

    hand = make_hand()
    dead = api_client_for("floor_manager").post(
        f"/api/v1/hands/{hand.pk}/void/",
        {"expected_seq": 0, "reason": "Misdeal", "confirm_hand": hand.number},
        format="json",
    )
    assert dead.json()["betting"] is None
    betting = SchemaGenerator().get_schema(public=True)["components"]["schemas"]["Hand"][
        "properties"
    ]["betting"]
    assert betting.get("nullable") is True
    as_json_schema = {**betting, "type": ["object", "null"]}
    as_json_schema.pop("nullable")
    as_json_schema.pop("readOnly", None)
    jsonschema.validate(dead.json()["betting"], as_json_schema)


def test_an_out_of_turn_action_is_held_then_binding(api_client_for: Any) -> None:
    """TDA-53 through the API: seat 3 (big blind) checks out of turn; seats 1 and 2 call, and
    the held check becomes seat 3's action; a second out-of-turn action is 422."""
    hand = make_hand(table=make_table(number=5))
    client = api_client_for("director")
    url = f"/api/v1/hands/{hand.pk}/actions/"
    held = client.post(
        url,
        {"expected_seq": 0, "seat": 3, "action": "check", "out_of_turn": True},
        format="json",
    )
    assert held.status_code == 201, held.json()
    betting = held.json()["betting"]
    assert betting["to_act"] == 1
    assert [(h["seat"], h["action"]) for h in betting["held"]] == [(3, "check")]
    again = client.post(
        url, {"expected_seq": 1, "seat": 3, "action": "fold", "out_of_turn": True}, format="json"
    )
    assert again.status_code == 422
    assert again.json()["error"]["code"] == "not_your_turn"
    assert "TDA-53" in again.json()["error"]["citations"]
    client.post(url, {"expected_seq": 1, "seat": 1, "action": "call"}, format="json")
    done = client.post(url, {"expected_seq": 2, "seat": 2, "action": "call"}, format="json")
    assert done.json()["betting"]["street"] == "flop" and done.json()["betting"]["held"] == []
    log = client.get(url).json()
    assert [a["out_of_turn"] for a in log] == [True, False, False]


def test_an_action_is_shown_as_the_generic_serializer_shows_it(api_client_for: Any) -> None:
    """``HandActionSerializer`` writes its fields out: the same values, types and order, to
    the byte, as DRF's field by field walk over the same ``Meta``, for an action entered, one
    with an amount, one out of turn and one voided."""
    from rest_framework import serializers
    from rest_framework.renderers import JSONRenderer

    from cardroom.tables.api import HandActionSerializer
    from cardroom.tables.models import HandAction

    class Generic(serializers.ModelSerializer[HandAction]):
        entered_by = serializers.CharField(source="entered_by.username", read_only=True)
        voided_by = serializers.CharField(
            source="voided_by.username", read_only=True, allow_null=True
        )

        class Meta(HandActionSerializer.Meta):
            pass

    hand = make_hand()
    client = api_client_for("floor_manager")
    url = f"/api/v1/hands/{hand.pk}/actions/"
    client.post(url, {"expected_seq": 0, "seat": 3, "action": "fold", "out_of_turn": True})
    client.post(url, {"expected_seq": 1, "seat": 1, "action": "raise", "to": 8}, format="json")
    client.post(url, {"expected_seq": 2, "seat": 2, "action": "call"}, format="json")
    client.post(f"/api/v1/hands/{hand.pk}/void-last/", {"expected_seq": 3, "reason": "Wrong seat"})
    actions = list(hand.actions.select_related("entered_by", "voided_by").order_by("seq"))
    assert len(actions) == 3 and actions[-1].voided_at is not None
    assert any(a.out_of_turn for a in actions) and any(a.to for a in actions)
    fast = HandActionSerializer(actions, many=True).data
    generic = Generic(actions, many=True).data
    assert JSONRenderer().render(fast) == JSONRenderer().render(generic)
    assert [list(row) for row in fast] == [list(row) for row in generic]


def test_a_written_hand_is_answered_as_a_read_back_shows_it() -> None:
    """``json_columns.as_read_back`` gives a hand's JSON columns as the database reads them
    back, key order included (PostgreSQL's ``jsonb`` orders an object's keys its own way)."""
    import json

    from cardroom.core.json_columns import as_read_back
    from cardroom.seats.api import JSON_SHOWN
    from cardroom.tables.models import Hand

    hand = make_hand()
    hand.result = {
        "stacks": [{"seat": 1, "stack": 200}],
        "pots": [{"amount": 6, "eligible": [1, 2], "awards": [{"seat": 1, "amount": 6}]}],
        "returned": (),
        "showdown": {"ranking": [[1], [2]], "low_ranking": None, "é": {"zz": 1, "b": 2}},
        "returned_to": {3: "x"},
    }
    hand.correction = {"reason": "Button moved", "proposed": {"small": 1, "button": 2, "big": 3}}
    hand.save(update_fields=["result", "correction"])
    shown = as_read_back(hand, JSON_SHOWN)
    read = Hand.objects.get(pk=hand.pk)
    for name in JSON_SHOWN:
        assert json.dumps(getattr(shown, name)) == json.dumps(getattr(read, name)), name
