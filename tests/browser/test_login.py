"""Logging in through the real form in Chromium."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_staff_logs_in_and_sees_their_role(login_page, staff, live_server) -> None:  # type: ignore[no-untyped-def]
    page = login_page("staffer")
    expect(page.locator(".who")).to_contain_text("staffer")
    expect(page.locator(".who")).to_contain_text("Staff")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()


def test_a_wrong_password_shows_an_error_on_the_form(login_page, staff) -> None:  # type: ignore[no-untyped-def]
    page = login_page("staffer", "not-the-password")
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
