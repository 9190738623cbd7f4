"""Out of turn on the betting desk in Chromium (TDA-53 and the illustrated
addendum's two examples): the dealer holds seat 6's raise to 800, sees it on the seat, and sees
it stand or fall, with the rule, when seat 5 acts."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hold_seat_6s_raise(page: Any, live_server: Any) -> Any:
    """On the flop (seat 3 bet 300, seat 4 folded, seat 5 to act) the dealer enters seat 6's
    raise to 800, made out of turn, through the desk's "Out of turn" form."""
    from tests.cardroom.test_desk_out_of_turn import addendum_flop

    hand = addendum_flop(held=False)
    page.goto(f"{live_server.url}/tables/{hand.table.number}/desk/")
    expect(page.locator(".to-act-line")).to_contain_text("Seat 5 to act")
    page.get_by_text("Out of turn", exact=True).click()
    form = page.locator(".out-of-turn-form")
    form.get_by_label("Seat that acted").select_option("6")
    form.get_by_label("Action", exact=True).select_option("raise")
    amount = form.get_by_label("Amount", exact=True)
    amount.fill("800")
    amount.press("Enter")  # Enter never sends a form that holds Fold: nothing happens
    page.wait_for_timeout(300)
    expect(page.locator("#seat-6 .held")).to_have_count(0)
    form.get_by_role("button", name="Hold it").click()
    held = page.locator("#seat-6 .held")
    expect(held).to_contain_text("Held: raise to 800")
    expect(held).to_contain_text("out of turn")
    expect(held.get_by_role("link", name="TDA-53")).to_have_attribute("href", "/rulebook/TDA-53/")
    expect(page.locator(".to-act-line")).to_contain_text("Seat 5 to act")  # still seat 5's turn
    expect(page.locator("#action-panel")).to_be_focused()
    return page


def test_seat_5_calls_and_seat_6s_held_raise_to_800_stands(
    login_page: Any, director: Any, live_server: Any
) -> None:
    page = hold_seat_6s_raise(login_page("td"), live_server)
    page.keyboard.press("c")  # seat 5 calls 300 (the desk's C key)
    note = page.locator(".log .held-note")
    expect(note).to_contain_text(
        "Seat 6's out-of-turn raise to 800 stands: the action to it did not change"
    )
    expect(note.get_by_role("link", name="TDA-53")).to_be_visible()
    expect(page.locator("#seat-6 .wager")).to_have_text("in: 800")
    expect(page.locator("#seat-6 .held")).to_have_count(0)
    expect(page.locator(".to-act-line")).to_contain_text("Seat 1 to act")
    expect(page.locator("#action-panel")).to_be_focused()


def test_seat_5_raises_to_600_and_seat_6s_held_raise_is_void(
    login_page: Any, director: Any, live_server: Any
) -> None:
    page = hold_seat_6s_raise(login_page("td"), live_server)
    page.keyboard.press("r")  # the raise box
    page.keyboard.press("Control+a")
    page.keyboard.type("600")
    page.keyboard.press("Enter")
    note = page.locator(".log .held-note")
    expect(note).to_contain_text(
        "Seat 6's out-of-turn raise to 800 is void: seat 5 raised; seat 6 has every option"
    )
    expect(note.get_by_role("link", name="TDA-53")).to_be_visible()
    expect(page.locator(".to-act-line")).to_contain_text("Seat 6 to act")
    expect(page.get_by_role("button", name="Call 600")).to_be_visible()
    expect(page.get_by_label("Raise to")).to_have_attribute("min", "900")
    expect(page.locator("#seat-6 .held")).to_have_count(0)


def test_a_second_out_of_turn_action_by_the_same_seat_is_refused_with_the_rule(
    login_page: Any, director: Any, live_server: Any
) -> None:
    page = hold_seat_6s_raise(login_page("td"), live_server)
    page.get_by_text("Out of turn", exact=True).click()
    form = page.locator(".out-of-turn-form")
    form.get_by_label("Seat that acted").select_option("6")
    form.get_by_label("Action", exact=True).select_option("fold")
    form.get_by_role("button", name="Hold it").click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("already has an action held out of turn")
    expect(refusal.get_by_role("link", name="TDA-53")).to_be_visible()
    expect(page.locator("#seat-6 .held")).to_contain_text("Held: raise to 800")
