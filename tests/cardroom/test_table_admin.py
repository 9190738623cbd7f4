"""The admin uses the same rules and records the same history as the pages."""

from typing import Any

import pytest

from cardroom.tables.models import Table

pytestmark = pytest.mark.django_db

FORM = {
    "number": 30, "name": "", "status": "closed", "kind": "cash", "seats": 9,
    "variant": "holdem", "structure": "no_limit", "small_blind": 2, "big_blind": 5,
    "ante_type": "none", "ante": 0, "straddle": 0, "min_buy_in": 100, "max_buy_in": 500,
    "pot_round_unit": 0, "action_clock_seconds": 60, "clock_warning_seconds": 10,
    "button_rule": "dead", "missed_blinds": "post",
    "changes-TOTAL_FORMS": 0, "changes-INITIAL_FORMS": 0,
}  # fmt: skip


def test_admin_refuses_a_bad_straddle_and_records_history(persona_client: Any) -> None:
    client = persona_client("superuser")
    bad = client.post("/admin/cardroom/table/add/", {**FORM, "straddle": 15})
    assert bad.status_code == 200
    assert "RRoP-14.14" in bad.content.decode()
    assert not Table.objects.exists()
    good = client.post("/admin/cardroom/table/add/", FORM)
    assert good.status_code == 302, good.content.decode()[:2000]
    assert Table.objects.get(number=30).changes.get().action == "created"
