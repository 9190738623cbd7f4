"""The public deal calculator, ``POST /api/v1/deals/quote``: open without a log-in, the shares
in the order of the stacks, 400 naming the field for every refusal, bounded and documented."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
PATH = "/api/v1/deals/quote"


def post(body: Any) -> Any:
    return APIClient().post(PATH, body, format="json")


def test_the_worked_icm_quote_without_a_log_in() -> None:
    response = post({"method": "icm", "stacks": [5000, 3000, 2000], "prizes": [500, 300, 200]})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["method"] == "icm" and body["shares"] == [384, 327, 289]
    assert [round(x, 2) for x in body["exact"]] == [383.93, 327.5, 288.57]
    assert set(body) == {"method", "shares", "exact"}


def test_the_shares_follow_the_order_of_the_stacks_with_a_unit_and_play_for() -> None:
    body = post(
        {"method": "chip_chop", "stacks": [2000, 5000, 3000], "prizes": [600, 300, 200],
         "unit": 10, "play_for": 100}
    ).json()  # fmt: skip
    assert body["shares"] == [200, 500, 300]
    also = post({"method": "chip_chop", "stacks": [2000, 5000, 3000], "prizes": [1000]}).json()
    assert also["shares"] == [200, 500, 300]  # missing places pay nothing


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"method": "icm", "stacks": [3, 2], "prizes": [3, 2], "unit": 2}, "prizes"),
        ({"method": "icm", "stacks": [0, 2], "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": [-5, 2], "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": [3, 2], "prizes": [3, 2, 1]}, "prizes"),
        ({"method": "icm", "stacks": [3, 2], "prizes": [3, 2], "play_for": 4}, "play_for"),
        ({"method": "icm", "stacks": [1] * 21, "prizes": [3]}, "stacks"),
        ({"method": "halves", "stacks": [3, 2], "prizes": [3]}, "method"),
        ({"stacks": [3, 2], "prizes": [3]}, "method"),
        ({"method": "icm", "stacks": [True, 2], "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": ["3", 2], "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": [3.5, 2], "prizes": [3]}, "stacks"),
        ({"method": "icm", "stacks": [3, 2], "prizes": [3], "unit": 0}, "unit"),
        ({"method": "icm", "stacks": [3, 2], "prizes": [10**16]}, "prizes"),
        ({"method": "equal", "stacks": [1] * 1001, "prizes": [3]}, "stacks"),
    ],
)
def test_a_refusal_is_a_400_naming_the_field(body: dict[str, Any], field: str) -> None:
    response = post(body)
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    named = [key for key in error["fields"] if key == field or key.startswith(f"{field}.")]
    assert error["code"] == "bad_request" and named, error
    assert error["message"]


@pytest.mark.parametrize("raw", [b"[1, 2]", b'"icm"', b"{not json", b""])
def test_a_body_that_is_not_an_object_is_a_400(raw: bytes) -> None:
    response = Client().post(PATH, raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_a_body_over_256_kb_is_a_413_before_it_is_read() -> None:
    raw = json.dumps({"method": "icm", "stacks": [1, 2], "prizes": [3], "pad": "x" * 262_145})
    response = Client().post(PATH, raw, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_the_calculator_is_rate_limited_per_client(settings: Any) -> None:
    settings.CARDROOM_THROTTLE_RATES = {"deals": "2/min"}
    cache.clear()
    client = APIClient(REMOTE_ADDR="203.0.113.21")
    body = {"method": "equal", "stacks": [1, 1], "prizes": [2]}
    assert [client.post(PATH, body, format="json").status_code for _ in range(3)] == [200, 200, 429]


def test_it_needs_a_log_in_when_the_public_apis_are_off(settings: Any, api_client_for: Any) -> None:
    settings.CARDROOM_PUBLIC_BETTING_API = False
    body = {"method": "equal", "stacks": [1, 1], "prizes": [2]}
    assert post(body).status_code in (401, 403)
    assert api_client_for("staff").post(PATH, body, format="json").status_code == 200


def test_the_route_is_in_the_openapi_schema(api_client_for: Any) -> None:
    schema = api_client_for("staff").get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/deals/quote/"]["post"]
    assert set(operation["responses"]) >= {"200", "400"}
    request = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][request.rsplit("/", 1)[1]]["properties"]
    assert set(fields) == {"method", "stacks", "prizes", "unit", "play_for"}
