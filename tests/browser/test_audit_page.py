"""The audit page in Chromium: a floor manager finds it from the floor, verifies the logs with
the keyboard, and sees a rewrite made outside the app headlined in red."""

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def verification_in_the_request() -> Iterator[None]:
    """Verify now goes to a worker when the suite has a broker: here it runs in the request."""
    from celery import current_app

    before = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    yield
    current_app.conf.task_always_eager = before


def test_a_floor_manager_verifies_the_logs_and_sees_a_rewrite(
    login_page: Any, floor_manager: Any
) -> None:
    from cardroom.core import checkpoints
    from tests.factories import make_table
    from tests.test_audit_tampering import as_the_owner

    table = make_table(number=8)
    line = checkpoints.write(force=True)
    assert line is not None
    page = login_page("fm")
    page.get_by_role("link", name="Audit logs").click()
    expect(page.get_by_role("heading", name="Audit logs")).to_be_visible()
    expect(page.locator("#audit-last-ok")).to_have_text("Never")
    expect(page.locator("#audit-checkpoint")).to_contain_text(f"seq {line.seq}")

    button = page.get_by_role("button", name="Verify now")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#audit-last-ok")).to_contain_text(f"held against checkpoint {line.seq}")
    expect(page.locator(".badge", has_text="Intact")).to_have_count(1)
    expect(page.locator("#audit-broken")).to_have_count(0)

    # Someone with the database's owner rights rewrites the table's history.
    with as_the_owner("cardroom_tablechange") as cursor:
        cursor.execute(
            "UPDATE cardroom_tablechange SET action = 'closed' WHERE table_id = %s", [table.pk]
        )
    page.get_by_role("button", name="Verify now").click()
    alert = page.locator("#audit-broken")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("found 1 finding")
    expect(page.locator(".findings-row").first).to_contain_text("cardroom_tablechange row")
    # The last good run is still the one shown as the last success.
    expect(page.locator("#audit-last-ok")).to_contain_text(f"held against checkpoint {line.seq}")
