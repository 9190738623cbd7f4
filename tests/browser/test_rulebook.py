"""The rulebook in Chromium: without logging in, type, see results update, open a rule; a
floor manager imports the room's rulebook from its PDF, finds a rule of it and cites it in a
ruling."""

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
    first = results.locator("li.hit").first
    # Cardroom's house procedure on misdeals (CR-DL.2) first, then its redeal (CR-BB.8).
    expect(first.get_by_role("link")).to_have_text(
        re.compile(r"^CR-DL\.2\s+Misdeal: when it is called and what follows$")
    )
    expect(first.locator("mark").first).to_have_text(re.compile("misdeal", re.I))
    second = results.locator("li.hit").nth(1)
    expect(second.get_by_role("link")).to_have_text(
        re.compile(r"^CR-BB\.8\s+A misdeal is dealt again \(cash games\)$")
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
    # The floor's word for a house procedure the books leave out.
    box.press_sequentially("rabbit", delay=30)
    expect(results).to_have_attribute("data-query", "rabbit")
    expect(results.locator("[data-search-result]").first).to_contain_text("CR-DL.5")
    box.fill("")
    box.press_sequentially("button ante", delay=30)
    expect(results).to_have_attribute("data-query", "button ante")
    expect(results.get_by_role("status")).to_contain_text("No rule matches “button ante”")
    expect(results.locator("[data-search-result]")).to_have_count(0)
    expect(results.locator(".closest")).to_contain_text("Blinds and the Button")
    expect(results.get_by_text("Write a house rule")).to_have_count(0)  # not logged in
    box.fill("")
    box.press_sequentially("misdeal", delay=30)
    expect(results).to_have_attribute("data-query", "misdeal")
    box.press("Enter")  # opens the first result
    expect(page).to_have_url(re.compile(r"/rulebook/CR-DL\.2/$"))


ROOM_PDF_PAGES = [
    [
        "Riverside Card Club House Rules",
        "Section 1 - Conduct",
        "Rule 1: Floor Decisions",
        "The floor person on duty decides every dispute at the table.",
        "Rule 2: Phones at the Table",
        "A player may not talk on a phone at the table while holding cards.",
        "Example 1: Seat 8 answers a call during a hand. His hand is dead.",
    ],
    [
        "Section 2 - Dealing",
        "Rule 3: Misdeals",
        "Two cards exposed by the dealer in the deal make a misdeal.",
    ],
]


def test_a_floor_manager_imports_the_room_s_pdf_finds_a_rule_and_cites_it_in_a_ruling(
    login_page: Any, floor_manager: Any, rulebook: None, live_server: Any, tmp_path: Any
) -> None:
    from cardroom.rulings.models import Ruling
    from tests.factories import make_table
    from tests.rules.pdf_files import pdf_of

    make_table(number=7)
    pdf = tmp_path / "riverside-rules.pdf"
    pdf.write_bytes(pdf_of(ROOM_PDF_PAGES))
    page = login_page("fm")
    page.goto(f"{live_server.url}/rulebook/")
    page.get_by_role("link", name="Import the room's rulebook").click()
    page.get_by_label("Rulebook file").set_input_files(str(pdf))
    page.get_by_label("Code").fill("RIVER")
    page.get_by_label("Edition").fill("2025")
    page.get_by_role("button", name="Read the file").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("What riverside-rules.pdf holds")
    found = page.get_by_role("region", name="Found")
    expect(found.locator(".counts > div").nth(1)).to_have_text(re.compile(r"^\s*Rules\s*3\s*$"))
    expect(found.locator(".counts > div").nth(3)).to_have_text(re.compile(r"^\s*Examples\s*1\s*$"))
    expect(page.locator(".preview-rules li").nth(1)).to_contain_text("RIVER-2 Phones at the Table")
    page.get_by_role("button", name="Save edition 2025").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("edition 2025")
    expect(page.get_by_role("status")).to_contain_text("RIVER edition 2025 saved: 3 added")

    # The floor's words find the room's rule; it has its permalink.
    page.goto(f"{live_server.url}/rulebook/")
    box = page.get_by_role("searchbox")
    box.press_sequentially("phone at the table", delay=30)
    results = page.locator("#results")
    expect(results).to_have_attribute("data-query", "phone at the table")
    expect(results.locator("[data-search-result]").first).to_contain_text("RIVER-2")
    results.get_by_role("link", name=re.compile("RIVER-2")).click()
    expect(page).to_have_url(re.compile(r"/rulebook/RIVER-2/$"))
    expect(page.locator(".example")).to_contain_text("Seat 8 answers a call")

    # A ruling cites it.
    page.goto(f"{live_server.url}/rulings/new/")
    page.get_by_label("Table", exact=True).select_option(label="Table 7 · 1/2 NL Hold'em")
    page.get_by_label("Situation").fill("Seat 8 took a call with cards in front of him.")
    page.get_by_label("Decision").fill("Hand dead; warned.")
    page.get_by_label("Find a rule (words or id)").fill("RIVER 2")
    page.locator(".cite-option").first.click()
    expect(page.locator("#cited .cited-rule")).to_have_count(1)
    page.get_by_role("button", name="Log ruling").click()
    expect(page.get_by_role("heading", name="Table 7 ruling 1")).to_be_visible()
    expect(page.locator(".ruling")).to_contain_text("RIVER-2")
    assert [c.rule_id for c in Ruling.objects.get().citations.all()] == ["RIVER-2"]
