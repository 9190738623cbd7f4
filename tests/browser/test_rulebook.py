"""The rulebook in Chromium, without logging in: type, see results update, open a rule."""

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rulebook() -> None:
    from rules.rulebook_format import bundled_rulebooks
    from rules.services import load_rulebooks

    load_rulebooks(bundled_rulebooks())


def test_typing_a_query_updates_the_results_and_a_click_opens_the_rule(
    page: Any, live_server: Any, rulebook: None
) -> None:
    page.goto(f"{live_server.url}/rulebook/")
    box = page.get_by_role("searchbox")
    box.press_sequentially("straddel", delay=40)  # a typo, as typed on a tablet
    results = page.locator("#results")
    expect(results).to_have_attribute("data-query", "straddel")
    expect(results.locator("[data-search-result]").first).to_contain_text("RRoP-14.14")
    expect(page).to_have_url(re.compile(r"/rulebook/\?q=straddel"))
    results.get_by_role("link", name=re.compile("RRoP-14.14")).click()
    expect(page).to_have_url(re.compile(r"/rulebook/RRoP-14\.14/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("straddle")
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.get_by_role("link", name=re.compile("RRoP-14.15")).click()  # the next rule
    expect(page.get_by_role("heading", level=1)).to_contain_text("RRoP-14.15")


def test_the_keyboard_alone_finds_and_opens_a_rule(
    page: Any, live_server: Any, rulebook: None
) -> None:
    page.goto(f"{live_server.url}/rulebook/")
    box = page.get_by_role("searchbox")
    box.press_sequentially("undercall", delay=30)
    expect(page.locator("#results")).to_have_attribute("data-query", "undercall")
    box.press("ArrowDown")
    first = page.locator("#results [data-search-result]").first
    expect(first).to_be_focused()
    first.press("ArrowUp")
    expect(box).to_be_focused()
    box.fill("")
    box.press_sequentially("TDA 41", delay=30)  # the 2013 number of re-opening the bet
    expect(page.locator("#results")).to_have_attribute("data-query", "TDA 41")
    box.press("Enter")
    expect(page).to_have_url(re.compile(r"/rulebook/TDA-47/$"))
    expect(page.get_by_text("TDA-41")).to_be_visible()


def test_typing_a_floor_word_shows_the_rule_that_answers_it_first(
    page: Any, live_server: Any, rulebook: None
) -> None:
    page.goto(f"{live_server.url}/rulebook/")
    box = page.get_by_role("searchbox")
    box.press_sequentially("misdeal", delay=40)
    results = page.locator("#results")
    expect(results).to_have_attribute("data-query", "misdeal")
    first = results.get_by_role("listitem").first
    # Cardroom's misdeal procedure (CR-BB.8) first, then the books' ruling on a
    # misdealt hand: dead once substantial action has occurred.
    expect(first.get_by_role("link")).to_have_text(
        re.compile(r"^CR-BB\.8\s+A misdeal is dealt again \(cash games\)$")
    )
    expect(first.locator("mark").first).to_have_text(re.compile("misdeal", re.I))
    second = results.get_by_role("listitem").nth(1)
    expect(second.get_by_role("link")).to_have_text(
        re.compile(r"^TDA-38\s+Burns After Substantial Action$")
    )
    expect(results.get_by_role("status")).to_contain_text("for “misdeal”")
    box.fill("")
    box.press_sequentially("oversized chip", delay=30)
    expect(results).to_have_attribute("data-query", "oversized chip")
    expect(results.locator("[data-search-result]").first).to_contain_text("RRoP-BR.15")
    expect(results.locator("[data-search-result]").nth(1)).to_contain_text("RRoP-14.11")
    box.fill("")
    # The sources are silent on the dead button: Cardroom's written procedure answers it.
    box.press_sequentially("dead button", delay=30)
    expect(results).to_have_attribute("data-query", "dead button")
    expect(results.locator("[data-search-result]").first).to_contain_text("CR-BB.1")
    box.fill("")
    box.press_sequentially("rabbit hunting", delay=30)
    expect(results).to_have_attribute("data-query", "rabbit hunting")
    expect(results.get_by_role("status")).to_contain_text("No rule matches “rabbit hunting”")
    expect(results.locator("[data-search-result]")).to_have_count(0)
    box.fill("")
    box.press_sequentially("misdeal", delay=30)
    expect(results).to_have_attribute("data-query", "misdeal")
    box.press("Enter")  # opens the first result
    expect(page).to_have_url(re.compile(r"/rulebook/CR-BB\.8/$"))
