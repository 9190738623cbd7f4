"""A table's rules between hands: the button rule and the missed-blind rule, on the
table form and in the tables API, each explained where it is set (CR-BB.1-6)."""

from typing import Any

import pytest

from cardroom.tables.models import Table
from tests.cardroom.test_table_pages import FORM
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def test_the_form_offers_both_rules_with_their_help(persona_client: Any) -> None:
    html = persona_client("floor_manager").get("/tables/new/").content.decode()
    assert '<select name="button_rule"' in html and '<select name="missed_blinds"' in html
    assert '<option value="moving">Moving button' in html
    assert '<option value="wait">Must wait for the big blind' in html
    assert "a tournament table ignores this and always uses the dead button" in html
    assert "CR-BB.3" in html and "CR-BB.6" in html


def test_a_new_table_takes_the_chosen_rules(persona_client: Any) -> None:
    body = {**FORM, "button_rule": "moving", "missed_blinds": "wait"}
    assert persona_client("floor_manager").post("/tables/new/", body).status_code == 302
    table = Table.objects.get(number=12)
    assert (table.button_rule, table.missed_blinds) == ("moving", "wait")
    assert table.changes.get().changes["button_rule"] == [None, "moving"]


def test_without_the_fields_a_table_keeps_its_rules(persona_client: Any) -> None:
    """An older client posting the form without them changes nothing (the defaults for a
    new table: dead button, post or wait)."""
    client = persona_client("floor_manager")
    assert client.post("/tables/new/", FORM).status_code == 302
    table = Table.objects.get(number=12)
    assert (table.button_rule, table.missed_blinds) == ("dead", "post")
    make_table(number=13, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500,
               button_rule="moving")  # fmt: skip
    assert client.post("/tables/13/edit/", {**FORM, "number": 13}).status_code == 302
    assert Table.objects.get(number=13).button_rule == "moving"


def test_editing_the_rules_is_in_the_history(persona_client: Any) -> None:
    make_table(number=12, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500)
    response = persona_client("floor_manager").post(
        "/tables/12/edit/", {**FORM, "button_rule": "moving", "missed_blinds": "wait"}
    )
    assert response.status_code == 302
    latest = Table.objects.get(number=12).changes.order_by("-id").first()
    assert latest is not None
    assert latest.changes["button_rule"] == ["dead", "moving"]
    assert latest.changes["missed_blinds"] == ["post", "wait"]


def test_an_unknown_rule_is_a_form_error(persona_client: Any) -> None:
    response = persona_client("floor_manager").post(
        "/tables/new/", {**FORM, "button_rule": "sideways"}
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "Select a valid choice. sideways is not one of the available choices." in html
    assert not Table.objects.exists()


def test_the_api_reads_and_writes_the_rules(api_client_for: Any) -> None:
    client = api_client_for("floor_manager")
    body = {"number": 20, "small_blind": 2, "big_blind": 5, "min_buy_in": 100,
            "max_buy_in": 500, "button_rule": "moving"}  # fmt: skip
    created = client.post("/api/v1/tables/", body, format="json")
    assert created.status_code == 201, created.json()
    assert (created.json()["button_rule"], created.json()["missed_blinds"]) == ("moving", "post")
    pk = created.json()["id"]
    patched = client.patch(f"/api/v1/tables/{pk}/", {"missed_blinds": "wait"}, format="json")
    assert patched.status_code == 200
    assert Table.objects.get(pk=pk).missed_blinds == "wait"
    bad = client.patch(f"/api/v1/tables/{pk}/", {"button_rule": "sideways"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["error"]["fields"] == {"button_rule": ['"sideways" is not a valid choice.']}
    assert Table.objects.get(pk=pk).button_rule == "moving"


def test_the_schema_explains_the_rules(api_client_for: Any) -> None:
    schema = api_client_for("floor_manager").get("/api/schema/?format=json").json()
    fields = schema["components"]["schemas"]["Table"]["properties"]
    assert "always uses the dead button (CR-BB.1, TDA 32)" in fields["button_rule"]["description"]
    assert "CR-BB.3" in fields["missed_blinds"]["description"]
