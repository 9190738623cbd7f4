"""Bounds on what anyone may send: the betting contract's size limits
with the field they name, a 413 in the API's error shape for an oversize body, a 429 after the
rate, integers JSON clients cannot hold refused, and the API's schema and docs behind a log-in
unless ``CARDROOM_PUBLIC_API_DOCS`` is on."""

import json
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_table

pytestmark = pytest.mark.django_db

GAME = {"structure": "no_limit", "small_blind": 100, "big_blind": 200}
SEATS = [{"seat": n, "stack": 10000} for n in (1, 2, 3, 4)]
LIMIT = 10**15


def hand(**changes: Any) -> dict[str, Any]:
    return {"game": GAME, "button": 4, "seats": SEATS, "actions": [], **changes}


def post(body: Any, path: str = "/api/v1/betting/evaluate", **extra: Any) -> Any:
    return APIClient().post(path, body, format="json", **extra)


def refused(response: Any, field: str) -> None:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "bad_request"
    assert field in error["fields"], error


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (hand(seats=[{"seat": n, "stack": 100} for n in range(1, 14)]), "seats"),
        (hand(seats=[*SEATS[:3], {"seat": 13, "stack": 100}]), "seats.3.seat"),
        (hand(seats=[*SEATS[:2], {"seat": 3, "stack": 0}, SEATS[3]]), "seats.2.stack"),
        (hand(seats=[SEATS[0], {"seat": 2, "stack": LIMIT + 1}, *SEATS[2:]]), "seats.1.stack"),
        (hand(seats=[{"seat": 1, "stack": 10000.0}, *SEATS[1:]]), "seats.0.stack"),
        (hand(button=13), "button"),
        (hand(actions=[{"seat": 3, "action": "fold"}] * 1001), "actions"),
        (hand(actions=[{"seat": 13, "action": "fold"}]), "actions.0.seat"),
        (hand(actions=[{"seat": 3, "action": "raise", "to": LIMIT + 1}]), "actions.0.to"),
        (hand(actions=[{"seat": 3, "action": "raise", "to": 600.0}]), "actions.0.to"),
        (hand(game={**GAME, "ante": LIMIT + 1}), "game.ante"),
        (hand(game={**GAME, "big_blind": None}), "game.big_blind"),
    ],
)
def test_each_limit_is_a_400_naming_its_field(body: dict[str, Any], field: str) -> None:
    refused(post(body), field)


def test_the_limits_themselves_are_allowed() -> None:
    # Nine stacks of 10^15 and a tenth for the rest: the stacks' total is 2^53 - 1, the most a
    # hand holds (every total in an answer exact in a JSON client).
    seats = [{"seat": n, "stack": LIMIT} for n in range(1, 10)]
    seats.append({"seat": 12, "stack": 2**53 - 1 - 9 * LIMIT})
    actions = [{"seat": 3, "action": "call"}, {"seat": 4, "action": "call", "to": LIMIT}]
    response = post(hand(button=12, seats=seats, actions=actions))
    assert response.status_code == 200, response.json()
    assert response.json()["options"]["raise"]["max_to"] == LIMIT
    seats[-1] = {"seat": 12, "stack": 2**53 - 9 * LIMIT}
    refused(post(hand(button=12, seats=seats, actions=actions)), "seats")


def test_interpret_and_the_tables_evaluate_apply_the_same_limits() -> None:
    physical = {"chips": [100, LIMIT + 1]}
    refused(post(hand(physical=physical), "/api/v1/betting/interpret"), "physical.chips.1")
    verbal = {"chips": [], "verbal": {"action": "raise", "to": LIMIT + 1}}
    refused(post(hand(physical=verbal), "/api/v1/betting/interpret"), "physical.verbal.to")
    table = make_table(number=5)
    path = f"/api/v1/tables/{table.pk}/betting/evaluate"
    too_many = [{"seat": n, "stack": 100} for n in range(1, 14)]
    refused(post({"button": 1, "seats": too_many}, path), "seats")
    refused(
        post({"button": 1, "seats": [*SEATS[:3], {"seat": 4, "stack": 0}]}, path), "seats.3.stack"
    )


def test_the_body_form_is_judged_before_an_illegal_action() -> None:
    # The contract: 400 for the body's form first, then 422 for the first illegal action.
    body = hand(actions=[{"seat": 1, "action": "check"}], physical={"chips": [0]})
    refused(post(body, "/api/v1/betting/interpret"), "physical.chips.0")


def test_award_applies_the_same_limits_and_bounds_its_rankings() -> None:
    award = "/api/v1/betting/award"
    refused(post(hand(seats=[*SEATS[:3], {"seat": 13, "stack": 1}]), award), "seats.3.seat")
    # A ranking is never longer than the players dealt in: the work stays bounded.
    refused(post(hand(showdown={"ranking": [[1], [2], [3], [4], [1]]}), award), "showdown.ranking")
    crowded = {"ranking": [[1, 2, 3, 4, 1]]}
    refused(post(hand(showdown=crowded), award), "showdown.ranking.0")


def padded(body: dict[str, Any], size: int) -> bytes:
    raw = json.dumps(body).encode()
    return raw[:-1] + b" " * (size - len(raw)) + b"}"


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/betting/evaluate",
        "/api/v1/betting/interpret",
        "/api/v1/betting/award",
        "/api/v1/tables/1/betting/evaluate",
    ],
)
def test_a_betting_body_over_256_kb_is_a_json_413(path: str) -> None:
    response = Client().post(path, padded(hand(), 262_145), content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "payload_too_large"


def test_a_betting_body_of_256_kb_is_read() -> None:
    response = Client().post(
        "/api/v1/betting/evaluate", padded(hand(), 262_144), content_type="application/json"
    )
    assert response.status_code == 200


@pytest.mark.parametrize("path", ["/api/v1/rulings/", "/api/v1/tables/", "/api/v1/rules/"])
def test_any_api_body_over_its_limit_is_a_json_413_before_log_in(path: str, settings: Any) -> None:
    body = padded({"title": "x"}, settings.CARDROOM_API_MAX_BODY + 1)
    response = Client().post(path, body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_the_public_endpoints_answer_429_after_the_rate(settings: Any) -> None:
    settings.CARDROOM_THROTTLE_RATES = {"betting": "3/min", "rulebook": "2/min"}
    cache.clear()
    client = APIClient(REMOTE_ADDR="203.0.113.7")
    for _ in range(3):
        assert client.post("/api/v1/betting/evaluate", hand(), format="json").status_code == 200
    # A forged X-Forwarded-For is not a new client: only trusted proxies set the address.
    over = client.post(
        "/api/v1/betting/interpret", hand(), format="json", HTTP_X_FORWARDED_FOR="198.51.100.9"
    )
    assert over.status_code == 429
    error = over.json()["error"]
    assert error["code"] == "throttled" and error["retry_after"] >= 1
    assert 1 <= int(over["Retry-After"]) <= 60
    other = APIClient(REMOTE_ADDR="203.0.113.8")
    assert other.post("/api/v1/betting/evaluate", hand(), format="json").status_code == 200
    for expected in (200, 200, 429):
        assert client.get("/api/v1/rules/").status_code == expected


def test_the_rate_is_counted_in_the_shared_cache(settings: Any) -> None:
    # Two web processes share the database cache: what one counted, the other sees.
    settings.CARDROOM_THROTTLE_RATES = {"betting": "1/min", "rulebook": None}
    cache.clear()
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    assert client.post("/api/v1/betting/evaluate", hand(), format="json").status_code == 200
    assert any(key for key in _cache_keys() if "betting" in key)
    assert client.post("/api/v1/betting/evaluate", hand(), format="json").status_code == 429


def _cache_keys() -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT cache_key FROM cardroom_cache")
        return [row[0] for row in cursor.fetchall()]


BEYOND = 2**53 + 1


def test_integers_beyond_2_53_are_refused_by_every_api_endpoint(api_client_for: Any) -> None:
    director = api_client_for("director")
    ruling = {
        "table": BEYOND,
        "situation": "s",
        "decision": "d",
        "citations": [{"rule": "TDA-1"}],
    }
    refused(director.post("/api/v1/rulings/", ruling, format="json"), "table")
    nested = {"table": 1, "seats": [1, BEYOND], "situation": "s", "decision": "d"}
    refused(director.post("/api/v1/rulings/", nested, format="json"), "seats.1")
    refused(post(hand(seats=[{"seat": 1, "stack": BEYOND}, *SEATS[1:]])), "seats.0.stack")
    huge = b'{"game": {"structure": "no_limit", "small_blind": 1e400, "big_blind": 2}}'
    response = Client().post("/api/v1/betting/evaluate", huge, content_type="application/json")
    refused(response, "game.small_blind")


def test_2_53_minus_1_is_still_a_number_the_api_reads(api_client_for: Any) -> None:
    response = api_client_for("staff").get("/api/v1/tables/")
    assert response.status_code == 200
    body = hand(seats=[{"seat": 1, "stack": 2**53 - 1}, *SEATS[1:]])
    refused(post(body), "seats.0.stack")  # still over the betting contract's 10^15


@pytest.mark.parametrize(
    ("persona", "schema", "docs"),
    [
        ("anonymous", 401, 302),
        ("no_role_user", 403, 403),
        ("staff", 200, 200),
    ],
)
def test_the_schema_and_docs_need_a_role_unless_public(
    persona: str, schema: int, docs: int, persona_client: Any, settings: Any
) -> None:
    client = persona_client(persona)
    assert client.get("/api/schema/").status_code == schema
    page = client.get("/api/docs/")
    assert page.status_code == docs
    if docs == 302:
        assert page["Location"].startswith("/login/?next=/api/docs/")
    settings.CARDROOM_PUBLIC_API_DOCS = True
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200


def test_the_worst_request_the_limits_allow_is_bounded_work() -> None:
    # Twelve players, a thousand raises (the most work an action can make): bounded work. The
    # deepest twelve equal stacks a hand holds (their total at most 2^53 - 1). Bounded by the
    # CPU time this process spends (about 0.8 s here), generously, not by the wall clock: a
    # busy machine stretches the wall clock (1.04 s once on CI), never this request's work.
    seats = [{"seat": n, "stack": (2**53 - 1) // 12} for n in range(1, 13)]
    order = [*range(4, 13), 1, 2, 3]
    actions = [{"seat": order[i % 12], "action": "raise", "to": 400 + 200 * i} for i in range(1000)]
    body = hand(button=1, seats=seats, actions=actions)
    assert len(json.dumps(body)) < 262_144
    start = time.process_time()
    response = post(body)
    spent = time.process_time() - start
    assert response.status_code == 200, response.json()
    assert response.json()["current_bet"] == 400 + 200 * 999
    assert spent < 3.0


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query", ["limit=83512876360003724625350319883308629699", "offset=99999999999999999999999"]
)
def test_a_huge_page_number_is_clamped_not_a_server_error(query: str) -> None:
    # Found by the Schemathesis run: the number went straight into the SQL and overflowed.
    answer = Client().get(f"/api/v1/rules/?{query}")
    assert answer.status_code == 200, answer.content
