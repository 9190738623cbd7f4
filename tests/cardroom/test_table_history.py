"""A table's configuration history reads in the settings form's words, not field names."""

from typing import Any

import pytest

from cardroom.tables.services import set_table_status, update_table
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def test_the_history_shows_labels_and_readable_values(
    floor_manager: Any, persona_client: Any
) -> None:
    table = make_table(number=5, by=floor_manager)
    update_table(
        table=table, by=floor_manager, structure="pot_limit", pot_limit_small_blind_as_big=True,
        min_buy_in=100, max_buy_in=400, min_chip=1,
    )  # fmt: skip
    set_table_status(table=table, by=floor_manager, status="closed")

    html = persona_client("staff").get("/tables/5/").content.decode()
    history = html[html.index("Configuration history") :]

    assert "<strong>Structure</strong>: No-limit → Pot-limit" in history
    assert "<strong>Count the small blind as a big blind (pot size)</strong>: No → Yes" in history
    assert "<strong>Smallest chip that plays</strong>: — → 1" in history
    assert "<strong>Status</strong>: Open → Closed" in history
    for field_name in ("pot_limit_small_blind_as_big", "min_chip", "max_buy_in", "no_limit"):
        assert field_name not in history


def test_a_new_table_lists_the_settings_it_was_created_with(
    floor_manager: Any, persona_client: Any
) -> None:
    make_table(number=6, by=floor_manager)

    html = persona_client("staff").get("/tables/6/").content.decode()
    created = html[html.index("Configuration history") :]

    # Seen at 1366 px: a creation read "Number: — → 1; Name: — → —; …" across four lines.
    assert "<strong>Structure</strong>: No-limit" in created
    assert "→" not in created and "—" not in created
