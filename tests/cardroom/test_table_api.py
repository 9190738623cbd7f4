"""/api/v1/tables/: CRUD for floor managers, reads for everyone with a role, one error shape."""

from typing import Any

import pytest

from cardroom.tables.models import Table
from tests.factories import make_table

pytestmark = pytest.mark.django_db

BODY = {"number": 20, "small_blind": 2, "big_blind": 5, "min_buy_in": 100, "max_buy_in": 500}


def test_anonymous_is_401(api_client_for: Any) -> None:
    response = api_client_for("anonymous").get("/api/v1/tables/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.parametrize("persona", ["staff", "director", "floor_manager"])
def test_readers_list_tables_with_the_engine_game(api_client_for: Any, persona: str) -> None:
    make_table(number=1, structure="pot_limit", small_blind=5, big_blind=10, min_buy_in=300,
               max_buy_in=1000, pot_limit_small_blind_as_big=True)  # fmt: skip
    response = api_client_for(persona).get("/api/v1/tables/")
    assert response.status_code == 200
    table = response.json()["results"][0]
    assert table["game"] == {
        "structure": "pot_limit", "small_blind": 5, "big_blind": 10, "ante": 0, "straddle": 0,
        "min_chip": 5, "pot_limit_small_blind_as_big": True,
    }  # fmt: skip


@pytest.mark.parametrize("persona", ["staff", "director", "no_role_user"])
def test_only_floor_managers_write(api_client_for: Any, persona: str) -> None:
    table = make_table(number=1)
    client = api_client_for(persona)
    assert client.post("/api/v1/tables/", BODY, format="json").status_code == 403
    assert (
        client.patch(f"/api/v1/tables/{table.pk}/", {"max_buy_in": 400}, format="json").status_code
        == 403
    )
    assert client.delete(f"/api/v1/tables/{table.pk}/").status_code == 403
    assert Table.objects.get().max_buy_in == 200


def test_floor_manager_creates_updates_and_deletes(api_client_for: Any) -> None:
    client = api_client_for("floor_manager")
    created = client.post("/api/v1/tables/", {**BODY, "straddle": 10}, format="json")
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    assert created.json()["game"]["straddle"] == 10
    patched = client.patch(f"/api/v1/tables/{pk}/", {"max_buy_in": 1000}, format="json")
    assert patched.status_code == 200
    assert Table.objects.get(pk=pk).changes.count() == 2
    assert client.delete(f"/api/v1/tables/{pk}/").status_code == 204
    assert not Table.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**BODY, "straddle": 15}, "straddle"),
        ({**BODY, "max_buy_in": 50}, "max_buy_in"),
        ({**BODY, "structure": "fixed_limit"}, "small_bet"),
        ({**BODY, "seats": 12}, "seats"),
        ({**BODY, "big_blind": "five"}, "big_blind"),
        ({**BODY, "structure": "spread_limit"}, "structure"),
    ],
)
def test_bad_configurations_are_400_in_the_error_shape(
    api_client_for: Any, body: dict[str, Any], field: str
) -> None:
    response = api_client_for("floor_manager").post("/api/v1/tables/", body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_request"
    assert field in error["fields"]
    assert error["message"]
    assert not Table.objects.exists()


def test_duplicate_number_is_400(api_client_for: Any) -> None:
    make_table(number=20)
    response = api_client_for("floor_manager").post("/api/v1/tables/", BODY, format="json")
    assert response.status_code == 400
    assert "number" in response.json()["error"]["fields"]


def test_filters(api_client_for: Any) -> None:
    make_table(number=1)
    make_table(
        number=2, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500, status="closed"
    )
    client = api_client_for("staff")
    assert [t["number"] for t in client.get("/api/v1/tables/?stakes=2/5").json()["results"]] == [2]
    assert [t["number"] for t in client.get("/api/v1/tables/?status=open").json()["results"]] == [1]
    bad = client.get("/api/v1/tables/?status=melted")
    assert bad.status_code == 400 and "status" in bad.json()["error"]["fields"]
