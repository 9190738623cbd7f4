"""The betting desk with the keyboard only: deal, shortcut keys, Tab, the raise box and Enter.

A dealer keeps both hands on the keyboard: after every action the focus must come back to the
action panel (never the page body), so the next shortcut key works at once."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUS_IN_PANEL = """() => {
  const panel = document.getElementById("action-panel");
  return !!panel && panel.contains(document.activeElement);
}"""


def tab_to(page: Any, selector: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches ``selector`` (the keyboard, not a click)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} is not reachable with Tab")


def assert_focus_in_panel(page: Any) -> None:
    page.wait_for_function(FOCUS_IN_PANEL, timeout=3000)


def act(page: Any, key: str, log_line: str, count: int) -> None:
    """Press a key; the log gains ``log_line`` and the focus is back in the action panel."""
    page.keyboard.press(key)
    log = page.locator(".log li")
    expect(log).to_have_count(count)
    expect(log.nth(count - 1)).to_contain_text(log_line)
    assert_focus_in_panel(page)


def deal_with_the_keyboard(page: Any, stacks: dict[int, int]) -> None:
    tab_to(page, "#id_button")  # Seat 1 has the button (the first choice)
    for seat, stack in stacks.items():
        tab_to(page, f"#id_stack_{seat}")
        page.keyboard.type(str(stack))
    page.keyboard.press("Enter")  # Enter in a stack box deals: Deal is the form's only button
    expect(page.locator(".to-act-line")).to_contain_text("Seat 1 to act")
    assert_focus_in_panel(page)


def test_one_desk_hand_played_with_the_keyboard_only(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.factories import make_table

    make_table(number=3)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/3/desk/")
    deal_with_the_keyboard(page, {1: 200, 2: 200, 3: 50})  # blinds 1/2: seat 2 SB, seat 3 BB

    # The shortcut keys are shown on their buttons.
    expect(page.get_by_role("button", name="Fold").locator("kbd")).to_have_text("F")
    expect(page.get_by_role("button", name="Call 2").locator("kbd")).to_have_text("C")
    expect(page.get_by_role("button", name="All-in").locator("kbd")).to_have_text("A")
    expect(page.get_by_role("button", name="Raise", exact=False).locator("kbd")).to_have_text("R")

    # R goes to the raise box; typing the amount and Enter raises.
    page.keyboard.press("r")
    expect(page.get_by_label("Raise to")).to_be_focused()
    page.keyboard.type("6")
    page.keyboard.press("Enter")
    log = page.locator(".log li")
    expect(log.first).to_contain_text("Seat 1 raises to 6")
    assert_focus_in_panel(page)

    act(page, "c", "Seat 2 calls 5", 2)  # the small blind had 1 in
    act(page, "c", "Seat 3 calls 4", 3)  # the big blind had 2 in
    expect(page.locator(".hand-facts")).to_contain_text("Flop")

    # Check is one Tab away from the panel, Fold the next (drawn first, but never the first
    # stop: Tab + Enter must not fold); Enter on Check checks.
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Check")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Fold")).to_be_focused()
    fold = page.get_by_role("button", name="Fold").bounding_box()
    check = page.get_by_role("button", name="Check").bounding_box()
    assert fold is not None and check is not None and fold["x"] < check["x"]  # drawn first
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_role("button", name="Check")).to_be_focused()
    page.keyboard.press("Enter")
    expect(log).to_have_count(4)
    expect(log.nth(3)).to_contain_text("Seat 2 checks")
    assert_focus_in_panel(page)

    act(page, "a", "Seat 3 goes all-in for 44", 5)  # 50 less the 6 put in before the flop
    act(page, "c", "Seat 1 calls 44", 6)
    act(page, "f", "Seat 2 folds", 7)
    expect(page.locator("#action-panel")).to_contain_text("cards to showdown")
    expect(page.locator(".pot")).to_have_text("106")


def test_enter_in_the_raise_box_raises_and_an_illegal_amount_is_refused_not_folded(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.factories import make_table

    make_table(number=4)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/4/desk/")
    deal_with_the_keyboard(page, {1: 200, 2: 200, 3: 200})

    box = page.get_by_label("Raise to")
    box.fill("3")  # short of the minimum raise (to 4)
    box.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("Refused")
    expect(page.locator(".log li")).to_have_text(["Blinds posted; no action yet."])
    expect(page.locator(".to-act-line")).to_contain_text("Seat 1 to act")
    # The focus goes back to the raise box to put the amount right.
    expect(page.get_by_label("Raise to")).to_be_focused()

    page.keyboard.type("8")
    page.keyboard.press("Enter")
    expect(page.locator(".log li").first).to_contain_text("Seat 1 raises to 8")
    expect(page.locator(".to-act-line")).to_contain_text("Seat 2 to act")


def test_shortcut_keys_do_not_fire_while_typing_or_with_a_modifier(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.factories import make_table

    make_table(number=5)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/5/desk/")
    deal_with_the_keyboard(page, {1: 200, 2: 200, 3: 200})

    page.get_by_text("Corrections").click()
    reason = page.get_by_label("Reason").first
    reason.fill("")
    reason.press_sequentially("fcra")  # letters typed into a box stay there
    expect(reason).to_have_value("fcra")
    page.locator("#action-panel").focus()
    page.keyboard.press("Shift+F")
    page.keyboard.press("Control+f")
    page.keyboard.press("Alt+c")
    page.wait_for_timeout(400)
    expect(page.locator(".log li")).to_have_text(["Blinds posted; no action yet."])
    expect(page.locator(".to-act-line")).to_contain_text("Seat 1 to act")
    page.keyboard.press("c")  # the plain key does act
    expect(page.locator(".log li").first).to_contain_text("Seat 1 calls 2")


def test_enter_reads_the_chips_and_never_voids(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.factories import make_table

    make_table(number=8)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/8/desk/")
    deal_with_the_keyboard(page, {1: 200, 2: 200, 3: 200})

    # "What does this count as?": a 5 pushed out with "raise" said, Enter in the amount said.
    helper = page.locator("#count-helper")
    helper.get_by_role("button", name="+5").first.click()
    expect(page.locator("#chips-out")).to_have_text("5")
    expect(helper.get_by_role("button", name="+5").first).to_be_focused()  # back where it was
    helper.locator("select[name=verbal]").select_option("raise")
    helper.get_by_label("Amount said").fill("5")
    helper.get_by_label("Amount said").press("Enter")
    expect(helper.get_by_role("status")).to_contain_text("Raise to 5")
    expect(page.locator("#chips-out")).to_have_text("5")  # read, not a 1 chip added

    # Enter in a void's reason box does nothing: a void takes a press of its own button.
    page.get_by_role("button", name="Call 2").click()
    expect(page.locator(".to-act-line")).to_contain_text("Seat 2 to act")
    page.get_by_text("Corrections").click()
    page.get_by_text("Void hand #1…").click()  # the void of the hand's own step
    reason = page.locator("details.confirm-step").get_by_label("Reason")
    reason.fill("misdeal")
    reason.press("Enter")
    page.wait_for_timeout(500)
    expect(page.locator(".to-act-line")).to_contain_text("Seat 2 to act")
    expect(page.locator(".log li")).to_have_count(1)


def test_a_refused_raise_keeps_the_amount_typed_beside_its_reason(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """A raise below the minimum is refused without the page jumping to a reason far above
    the window or the box falling back to the minimum, selected (a second Enter would raise
    an amount nobody typed). The typed amount stays, the reason is beside the box
    and in the window, and Enter again is refused again: nothing is logged."""
    from tests.factories import make_table

    make_table(number=3)
    page = login_page("td")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/tables/3/desk/")
    deal_with_the_keyboard(page, {1: 200, 2: 200, 3: 50})
    page.evaluate("window.scrollBy(0, 120)")  # as after a push and a deal
    page.keyboard.press("r")
    page.keyboard.type("3")  # the minimum raise is to 4
    page.keyboard.press("Enter")
    reason = page.locator("#raise-refusal")
    expect(reason).to_contain_text("Refused")
    box = page.get_by_label("Raise to")
    expect(box).to_be_focused()
    expect(box).to_have_value("3")
    expect(box).to_have_attribute("aria-invalid", "true")
    seen = reason.bounding_box()
    assert seen and seen["y"] >= -1 and seen["y"] + seen["height"] <= 768, seen
    with page.expect_response(lambda r: r.request.method == "POST" and r.status == 422):
        page.keyboard.press("Enter")  # the same 3 again: refused again, never a raise to 4
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    expect(page.locator("#raise-refusal")).to_contain_text("Refused")
    expect(page.get_by_label("Raise to")).to_have_value("3")
    expect(page.locator(".log")).to_contain_text("no action yet")
    expect(page.get_by_label("Raise to")).to_be_focused()
    page.keyboard.type("6")  # the selected 3 is typed over
    page.keyboard.press("Enter")
    expect(page.locator(".log li").first).to_contain_text("Seat 1 raises to 6")


def test_the_desk_clears_its_cannot_reach_notice_once_the_server_answers_again(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """The server stopped for 15 s: the desk says "Cannot reach the server", and must not
    keep saying it once the server is back and the desk works again. The desk's own poll
    getting through takes the notice away."""
    from tests.factories import make_table

    make_table(number=3)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/3/desk/")
    page.route("**/tables/3/desk/?seq=*", lambda route: route.abort("connectionrefused"))
    notice = page.locator("#notice")
    expect(notice).to_contain_text("Cannot reach the server", timeout=8_000)
    page.unroute("**/tables/3/desk/?seq=*")
    expect(notice).to_be_hidden(timeout=8_000)
