"""A director sets up an event on three new tables in Chromium and, once the players are
drawn, finds each table under its one name, the room's ("Table 101"), on the tournament page,
at the desk and on the public board."""

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_director_creates_an_event_on_new_tables_and_sees_their_room_numbers(
    login_page: Any, director: Any, live_server: Any
) -> None:
    page = login_page("td")
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="New tournament").click()
    expect(page.locator("#no-free-tables")).to_contain_text("Set up new tables below")
    page.get_by_label("Name", exact=True).fill("Event Sunday")
    page.get_by_label("Seats per table").fill("6")
    page.get_by_label("New tables").fill("3")
    page.get_by_label("Numbered from").fill("101")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Event Sunday")).to_be_visible()
    for number in (101, 102, 103):
        expect(page.get_by_role("heading", name=f"Table {number}")).to_be_visible()

    page.get_by_label("Names", exact=True).fill("\n".join(f"Player {i}" for i in range(1, 13)))
    page.get_by_role("button", name="Register").click()
    expect(page.locator("#registration-results")).to_contain_text("Player 12 registered")
    page.reload()
    page.get_by_role("button", name="Initial draw").click()
    page.get_by_role("button", name="Deal the draw").click()
    expect(page.locator("#dealt-cards tbody tr")).to_have_count(12)
    expect(page.locator("#dealt-cards")).to_contain_text("101")
    page.get_by_role("link", name="Back to Event Sunday").click()
    map_ = page.locator("#table-map")
    expect(map_.get_by_role("heading", name="Table 101")).to_contain_text("4/6")
    # The tournament's own numbering (1..3) never names a table.
    assert not re.search(r"\b[Tt]ables? [1-3]\b", map_.inner_text())
    expect(page.get_by_role("link", name="Break table 101")).to_be_visible()

    page.goto(f"{live_server.url}/tables/101/desk/")
    expect(page.get_by_role("heading", name="Table 101 · betting desk")).to_be_visible()

    page.goto(f"{live_server.url}/board/")
    event = page.get_by_role("article", name="Event Sunday")
    for number in (101, 102, 103):
        expect(event.get_by_text(f"Table {number}", exact=True)).to_be_visible()
