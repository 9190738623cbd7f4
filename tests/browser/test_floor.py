"""The floor in Chromium: a director logs a ruling from a table card, citing a rule found by
typing, and a second open dashboard shows it in its feed without a reload."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_ruling_from_the_dashboard_reaches_another_dashboard(
    login_page: Any, director: Any, staff: Any, live_server: Any, browser: Any
) -> None:
    from django.core.management import call_command

    from tests.factories import TEST_PASSWORD, make_table

    call_command("load_rulebook", verbosity=0)
    make_table(number=4)

    # A second device: staff watching the floor.
    watcher = browser.new_page()
    watcher.goto(f"{live_server.url}/login/")
    watcher.get_by_label("Username").fill("staffer")
    watcher.get_by_label("Password").fill(TEST_PASSWORD)
    watcher.get_by_role("button", name="Log in").click()
    expect(watcher.get_by_role("heading", name="Floor")).to_be_visible()
    expect(watcher.locator("#feed")).to_contain_text("No rulings yet")

    page = login_page("td")
    expect(page.get_by_role("heading", name="Floor")).to_be_visible()
    page.locator("#card-4").get_by_role("link", name="Ruling").click()
    expect(page.get_by_text("Table 4")).to_be_visible()
    page.get_by_label("Situation").fill("Seat 3 put out a 1000 and two 500s facing 1400, silently.")
    page.get_by_label("Decision").fill("A call: short of the 50% threshold.")
    page.get_by_label("Find a rule (words or id)").fill("multiple chips")
    option = page.locator("#cite-results .cite-option", has_text="TDA-45")
    expect(option).to_be_visible()
    option.click()
    expect(page.locator("#cited")).to_contain_text("TDA-45")
    page.locator("#cited").get_by_label("Pinpoint").fill("Example 4-B")
    page.get_by_role("button", name="Log ruling").click()
    expect(page.get_by_role("heading", name="Table 4 ruling 1")).to_be_visible()
    expect(page.locator(".ruling")).to_contain_text("Example 4-B")

    # The watcher's page polls /floor/updates/: the ruling arrives without a reload.
    expect(watcher.locator("#feed")).to_contain_text("Table 4 · ruling 1", timeout=10_000)
    expect(watcher.locator("#feed")).to_contain_text("TDA-45")
    expect(watcher.locator("#card-4")).to_contain_text("Ruling 1")
