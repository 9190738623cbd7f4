"""What a ruling points at (table number, hand, action, amended ruling) is looked up once, for
the page and the API alike; a reference to nothing is refused with a message, never dropped
(an unknown hand id would be logged as a ruling about no hand, 201 with ``hand: null``)."""

from typing import Any

import pytest
from django.core.management import call_command

from cardroom.rulings.models import Ruling
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def rulebook(db: None) -> None:
    call_command("load_rulebook", verbosity=0)


BODY = {"table": 4, "situation": "s", "decision": "d", "citations": [{"rule": "TDA-45"}]}
FORM = {"table": 4, "situation": "s", "decision": "d", "cite": ["TDA-45"], "note": [""]}


def test_the_api_refuses_an_unknown_hand(api_client_for: Any) -> None:
    make_table(number=4)
    response = api_client_for("director").post(
        "/api/v1/rulings/", {**BODY, "hand": 987654}, format="json"
    )
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert error["code"] == "bad_request"
    assert error["fields"]["hand"] == ["There is no hand 987654."]
    assert not Ruling.objects.exists()


def test_the_page_refuses_an_unknown_hand(persona_client: Any) -> None:
    make_table(number=4)
    response = persona_client("director").post("/rulings/new/", {**FORM, "hand": 987654})
    assert response.status_code == 422
    assert "There is no hand 987654." in response.content.decode()
    assert not Ruling.objects.exists()


@pytest.mark.parametrize(
    ("extra", "field", "message"),
    [
        ({"table": 99}, "table", "There is no table 99."),
        ({"action": 7}, "action", "That hand has no action with this number."),
        ({"amends": 123456, "kind": "amendment"}, "amends", "There is no ruling 123456."),
    ],
)
def test_the_api_and_the_page_say_the_same_about_other_references(
    api_client_for: Any, persona_client: Any, extra: dict[str, Any], field: str, message: str
) -> None:
    hand = make_hand(table=make_table(number=4))
    api = api_client_for("director").post(
        "/api/v1/rulings/", {**BODY, "hand": hand.pk, **extra}, format="json"
    )
    assert api.status_code == 400 and api.json()["error"]["fields"][field] == [message]
    if field != "amends":  # the page takes the amended ruling from its address (404 if none)
        page = persona_client("director").post("/rulings/new/", {**FORM, "hand": hand.pk, **extra})
        assert page.status_code == 422 and message in page.content.decode()
    assert not Ruling.objects.exists()


def test_a_known_hand_is_recorded(api_client_for: Any) -> None:
    hand = make_hand(table=make_table(number=4))
    response = api_client_for("director").post(
        "/api/v1/rulings/", {**BODY, "hand": hand.pk}, format="json"
    )
    assert response.status_code == 201 and response.json()["hand"] == hand.pk
