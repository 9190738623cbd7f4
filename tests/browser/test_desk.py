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


def deal(
    page: Any, live_server: Any, number: int, stacks: dict[int, int], straddle: bool = False
) -> None:
    page.goto(f"{live_server.url}/tables/{number}/desk/")
    for seat, stack in stacks.items():
        page.get_by_label(f"Seat {seat}", exact=True).fill(str(stack))
    page.get_by_label("Button").select_option("1")
    if straddle:  # optional each hand (RRoP-14.14): unticked until the dealer sees it posted
        page.locator(".deal-form input[name='straddle']").check()
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".to-act-line")).to_contain_text("Seat 1 to act")


def test_a_refusal_lists_each_citation_as_its_own_item(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.factories import make_table

    make_table(number=6)
    page = login_page("td")
    deal(page, live_server, 6, {1: 200, 2: 200, 3: 200})
    page.get_by_label("Raise to").fill("3")
    page.get_by_role("button", name="Raise").click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("A raise must be to at least 4")
    # NL minimum raise and the TDA raise amounts: two rules, two items, each a link.
    cited = refusal.get_by_role("listitem")
    expect(cited).to_have_count(2)
    expect(cited.nth(0).get_by_role("link")).to_have_text("RRoP-14.3")
    expect(cited.nth(1).get_by_role("link")).to_have_text("TDA-43")


def test_the_desk_raises_no_content_security_policy_violation(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """Deal, act, refuse, read chips and void on the desk under the strict CSP (style-src
    'self', script-src 'self'): the console stays free of violations."""
    from tests.factories import make_table

    make_table(number=7, straddle=4)
    page = login_page("td")
    problems: list[str] = []
    page.on(
        "console",
        lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.expose_function("reportViolation", lambda text: problems.append(text))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e =>"
        " window.reportViolation(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample));"
    )
    deal(page, live_server, 7, {1: 200, 2: 200, 3: 200, 4: 200}, straddle=True)
    page.get_by_label("Raise to").fill("5")  # short of the minimum: a refusal is swapped in
    page.get_by_role("button", name="Raise").click()
    expect(page.get_by_role("alert")).to_contain_text("Refused")
    page.get_by_label("Raise amount slider").fill("20")
    page.get_by_role("button", name="Raise").click()
    expect(page.locator(".to-act-line")).to_contain_text("Seat 2 to act")
    page.get_by_role("button", name="Call 19").click()
    expect(page.locator(".to-act-line")).to_contain_text("Seat 3 to act")

    helper = page.locator("#count-helper")
    helper.get_by_role("button", name="+25").first.click()
    expect(page.locator("#chips-out")).to_have_text("25")
    helper.get_by_role("button", name="Read it").click()
    expect(helper.get_by_role("status")).to_be_visible()

    page.get_by_text("Corrections").click()
    page.get_by_label("Reason").first.fill("wrong seat")
    page.get_by_role("button", name="Void last action").click()
    expect(page.locator(".log li.voided")).to_have_count(1)
    page.reload()
    expect(page.locator(".to-act-line")).to_contain_text("Seat 2 to act")

    # Voiding the whole hand is a step of its own that names the hand and says what it does.
    page.get_by_text("Corrections").click()
    expect(page.get_by_role("button", name="Void hand #1", exact=True)).to_be_hidden()
    page.get_by_text("Void hand #1…").click()
    step = page.locator("details.confirm-step")
    expect(step).to_contain_text("Hand #1 is called dead: no pot is awarded")
    step.get_by_label("Reason").fill("fouled deck")
    step.get_by_role("button", name="Void hand #1").click()
    expect(page.locator("#desk")).to_contain_text("Hand #1 was voided by td: fouled deck")
    assert problems == []
