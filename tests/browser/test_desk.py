"""A short hand on the betting desk in Chromium: a refused raise with its rule, then showdown."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_hand_played_to_showdown_on_the_desk(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.factories import make_table

    make_table(number=3)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/3/desk/")
    page.get_by_label("Seat 1", exact=True).fill("200")
    page.get_by_label("Seat 2", exact=True).fill("200")
    page.get_by_label("Seat 3", exact=True).fill("200")
    page.get_by_label("Button").select_option("1")
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".to-act-line")).to_contain_text("Seat 1 to act")

    # A raise to 3 facing the big blind of 2 is short of the minimum (to 4): refused, cited.
    page.get_by_label("Raise to").fill("3")
    page.get_by_role("button", name="Raise", exact=True).click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("Refused")
    expect(refusal.locator(".citation").first).to_be_visible()

    page.get_by_label("Raise to").fill("6")
    page.get_by_role("button", name="Raise", exact=True).click()
    expect(page.locator(".to-act-line")).to_contain_text("Seat 2 to act")
    page.get_by_role("button", name="Fold").click()
    page.get_by_role("button", name="Call 4").click()  # big blind calls 4 more
    expect(page.locator(".hand-facts")).to_contain_text("Flop")
    for street in ("Flop", "Turn", "River"):  # the big blind, then the button, check
        expect(page.locator(".hand-facts")).to_contain_text(street)
        for seat in (3, 1):
            expect(page.locator(".to-act-line")).to_contain_text(f"Seat {seat} to act")
            page.get_by_role("button", name="Check").click()
    expect(page.get_by_text("cards to showdown")).to_be_visible()
    expect(page.locator(".pot")).to_have_text("13")
    expect(page.locator(".log li")).to_have_count(9)
