"""A ruling post retried (its answer lost, a double tap) is logged once: the idempotency key
of the API and the key every blank ruling form carries."""

import json
import re
import threading
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from cardroom.core.roles import Role
from cardroom.rulings.models import Ruling
from cardroom.rulings.services import log_ruling
from tests.factories import make_table, make_user
from tests.live_requests import post_json

KEY = "0b5c2d9e-7a51-4f1e-9a3c-2f6f0c8d1e47"
BODY = {
    "table": 4,
    "situation": "Seat 2 pushed out two chips facing 400",
    "decision": "A call",
    "citations": [{"rule": "TDA-45", "note": "Example 1"}],
}


@pytest.fixture
def rulebook(db: None) -> None:
    call_command("load_rulebook", verbosity=0)


def logged(director: Any, key: str | None, table: Any = None) -> Ruling:
    return log_ruling(
        table=table or make_table(number=4), director=director, situation="s", decision="d",
        citations=[("TDA-45", "")], request_key=key,
    )  # fmt: skip


@pytest.mark.django_db
def test_the_same_key_finds_the_ruling_it_wrote(director: Any, rulebook: None) -> None:
    first = logged(director, KEY)
    again = logged(director, KEY, table=first.table)
    assert again.pk == first.pk
    assert Ruling.objects.count() == 1
    assert logged(director, None, table=first.table).number == 2  # no key: a new ruling


@pytest.mark.django_db
def test_a_key_is_one_rulings_only(director: Any, rulebook: None) -> None:
    first = logged(director, KEY)
    other = make_user(username="td2", role=Role.DIRECTOR)
    with pytest.raises(ValidationError) as refused:
        logged(other, KEY, table=first.table)
    assert "another ruling" in refused.value.message_dict["request_key"][0]
    with pytest.raises(ValidationError):
        logged(director, KEY, table=make_table(number=5))
    assert Ruling.objects.count() == 1


@pytest.mark.django_db
def test_api_retry_with_the_key_answers_200_with_the_first_ruling(
    api_client_for: Any, rulebook: None
) -> None:
    make_table(number=4)
    client = api_client_for("director")
    first = client.post("/api/v1/rulings/", BODY, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first
    again = client.post("/api/v1/rulings/", BODY, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    assert Ruling.objects.count() == 1
    # Without a key, every post is a new ruling.
    assert client.post("/api/v1/rulings/", BODY, format="json").status_code == 201
    assert Ruling.objects.count() == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change",
    [
        {"decision": "A raise"},
        {"situation": "Seat 3 pushed out two chips facing 400"},
        {"citations": [{"rule": "TDA-45", "note": "Example 2"}]},
        {"citations": [{"rule": "TDA-40", "note": ""}]},
        {"seats": [2]},
    ],
)
def test_api_refuses_a_key_sent_again_with_another_ruling(
    api_client_for: Any, rulebook: None, change: dict[str, Any]
) -> None:
    make_table(number=4)
    client = api_client_for("director")
    first = client.post("/api/v1/rulings/", BODY, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 201
    other = client.post(
        "/api/v1/rulings/", {**BODY, **change}, format="json", HTTP_IDEMPOTENCY_KEY=KEY
    )
    assert other.status_code == 422, other.content
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert "Idempotent-Replayed" not in other
    assert Ruling.objects.count() == 1
    # The same body (blanks around the text are not part of the ruling) is still a replay.
    same = {**BODY, "decision": f"  {BODY['decision']}  "}
    again = client.post("/api/v1/rulings/", same, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert (again.status_code, again["Idempotent-Replayed"]) == (200, "true")


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["x" * 65, "two words", "ключ"])
def test_api_refuses_a_malformed_key(api_client_for: Any, rulebook: None, bad: str) -> None:
    make_table(number=4)
    response = api_client_for("director").post(
        "/api/v1/rulings/", BODY, format="json", headers={"Idempotency-Key": bad}
    )
    assert response.status_code == 400
    assert "Idempotency-Key" in json.dumps(response.json())
    assert Ruling.objects.count() == 0


@pytest.mark.django_db
def test_the_same_form_sent_twice_logs_one_ruling(persona_client: Any, rulebook: None) -> None:
    make_table(number=4)
    client = persona_client("director")
    page = client.get("/rulings/new/?table=4").text
    key = re.search(r'name="request_key" value="([0-9a-f]{32})"', page)
    assert key, "a blank ruling form carries a fresh key"
    assert key.group(1) not in client.get("/rulings/new/?table=4").text  # new with each form
    form = {"table": 4, "situation": "s", "decision": "d", "cite": ["TDA-45"], "note": [""],
            "request_key": key.group(1)}  # fmt: skip
    first = client.post("/rulings/new/", form)
    again = client.post("/rulings/new/", form)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert Ruling.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_real_requests_with_one_key_at_once_log_one_ruling(
    live_server: Any, director: Any
) -> None:
    call_command("load_rulebook", verbosity=0)
    make_table(number=4)
    token = Token.objects.create(user=director).key
    barrier, answers = threading.Barrier(2), []

    def send() -> None:
        barrier.wait()
        status, body = post_json(
            f"{live_server.url}/api/v1/rulings/", token, BODY, {"Idempotency-Key": KEY}
        )
        answers.append((status, body["id"] if status in (200, 201) else 0))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(status in (200, 201) for status, _ in answers), answers
    assert len({ruling for _, ruling in answers}) == 1
    assert Ruling.objects.count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_real_requests_with_one_key_at_once_answer_one_201_and_nine_replays(
    live_server: Any, director: Any
) -> None:
    call_command("load_rulebook", verbosity=0)
    make_table(number=4)
    token = Token.objects.create(user=director).key
    barrier, answers = threading.Barrier(10), []

    def send() -> None:
        barrier.wait()
        answers.append(post_with_headers(f"{live_server.url}/api/v1/rulings/", token))

    threads = [threading.Thread(target=send) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted((status, replayed) for status, replayed, _ in answers)
    assert statuses == [(200, "true")] * 9 + [(201, None)], answers
    assert len({ruling for _, _, ruling in answers}) == 1
    assert Ruling.objects.count() == 1


def post_with_headers(url: str, token: str) -> tuple[int, str | None, int]:
    """POST the ruling with the key: status, Idempotent-Replayed header, ruling id."""
    request = urllib.request.Request(  # noqa: S310 - the test's own live server
        url,
        data=json.dumps(BODY).encode(),
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Token {token}",
            "Idempotency-Key": KEY,
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:  # noqa: S310
            body = json.loads(response.read())
            return response.status, response.headers.get("Idempotent-Replayed"), body["id"]
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Idempotent-Replayed"), 0
