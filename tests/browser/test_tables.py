"""A floor manager sets up a table in Chromium: inline errors as fields change, then save."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_floor_manager_creates_a_2_5_table_fixing_a_bad_straddle(
    login_page: Any, floor_manager: Any, live_server: Any
) -> None:
    page = login_page("fm")
    page.get_by_role("link", name="Tables").click()
    page.get_by_role("link", name="New table").click()
    page.get_by_role("link", name="2/5 NL Hold'em").click()
    expect(page.get_by_label("Big blind", exact=True)).to_have_value("5")
    page.get_by_label("Min buy in", exact=True).fill("200")
    page.get_by_label("Max buy in", exact=True).fill("1000")
    straddle = page.get_by_label("Straddle", exact=True)
    straddle.fill("15")
    straddle.press("Tab")  # change event → htmx inline validation
    expect(page.locator("#straddle-errors")).to_contain_text("twice the big blind (10)")
    expect(page.locator("#straddle-errors")).to_contain_text("RRoP-14.14")
    page.get_by_label("Straddle", exact=True).fill("10")
    page.get_by_label("Straddle", exact=True).press("Tab")
    expect(page.locator("#straddle-errors")).to_be_empty()
    expect(page.get_by_role("status")).to_have_text("These settings are valid.")
    page.get_by_role("button", name="Save table").click()
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    row = page.locator("#table-1")
    expect(row).to_contain_text("2/5 NL Hold'em")
    expect(row).to_contain_text("10 live")
    expect(row).to_contain_text("200–1,000")


def test_quick_open_and_close_from_the_list(login_page: Any, floor_manager: Any) -> None:
    from tests.factories import make_table

    make_table(number=4, status="closed")
    page = login_page("fm")
    page.get_by_role("link", name="Tables").click()
    row = page.locator("#table-4")
    row.get_by_role("button", name="Open").click()
    expect(row.locator(".badge")).to_have_text("Open")
    row.get_by_role("button", name="Close").click()
    expect(row.locator(".badge")).to_have_text("Closed")


def test_staff_see_tables_without_change_buttons(login_page: Any, staff: Any) -> None:
    from tests.factories import make_table

    make_table(number=4)
    page = login_page("staffer")
    page.get_by_role("link", name="Tables").click()
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    page.get_by_role("link", name="Table 4").click()
    expect(page.get_by_role("heading", name="1/2 NL Hold'em")).to_be_visible()
    expect(page.get_by_role("link", name="Edit settings")).to_have_count(0)


def test_the_settings_refuse_stranding_players_and_ask_before_closing(
    login_page: Any, floor_manager: Any, live_server: Any
) -> None:
    """Fewer seats than a player sits in is refused on the page naming them, what
    was typed kept; closing asks, naming who is seated, and Close anyway closes."""
    from cardroom.seats import services as players
    from tests.factories import make_table

    table = make_table(number=4, by=floor_manager, max_buy_in=2000)
    for seat, name, chips in ((2, "Cy Ode", 300), (7, "Ana Ruiz", 1200)):
        player = players.find_or_create_player(name=name, by=floor_manager)
        players.seat_player(table=table, player=player, seat=seat, buy_in=chips, by=floor_manager)
    page = login_page("fm")
    page.goto(f"{live_server.url}/tables/4/")
    expect(page.get_by_role("term").filter(has_text="Button between hands")).to_be_visible()
    page.get_by_role("link", name="Edit settings").click()
    page.get_by_label("Name", exact=True).fill("Back room")
    page.get_by_label("Seats", exact=True).fill("6")
    page.get_by_role("button", name="Save table").click()
    expect(page.locator("#seats-errors")).to_have_text(
        "Seat 7: Ana Ruiz (1,200 chips) is seated above seat 6: move them to other seats or let"
        " them leave first."
    )
    expect(page.get_by_label("Name", exact=True)).to_have_value("Back room")
    expect(page.get_by_label("Seats", exact=True)).to_have_value("6")
    page.get_by_label("Seats", exact=True).fill("9")
    page.get_by_label("Status", exact=True).select_option("closed")
    page.get_by_role("button", name="Save table").click()
    expect(page.locator("#status-errors")).to_contain_text(
        "Table 4 still has 2 players seated: Cy Ode, Ana Ruiz. Close it anyway?"
    )
    page.get_by_role("button", name="Close anyway").click()
    expect(page.get_by_role("heading", name="Table 4 · Back room")).to_be_visible()
    expect(page.locator(".page-head .badge")).to_have_text("Closed")
