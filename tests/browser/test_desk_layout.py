"""The desk's layout: at 1024x768 the seat map sits
beside the hand, not under its action log, with the hand's line and the action panel in view;
opening "Seat a player" moves nothing else on the desk; the chip reader enters its reading."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Screenshots for a person to look at (not compared by the test).
SHOTS = Path("/tmp/cardroom-desk-shots")


def seated_table(director: Any) -> Any:
    from cardroom.seats import services as players
    from tests.factories import make_table

    table = make_table(number=5, seats=6)
    for number, name in enumerate(("Ana Ruiz", "Bo Chen", "Cy Diaz"), start=1):
        player = players.find_or_create_player(name=name, by=director)
        players.seat_player(table=table, player=player, seat=number, buy_in=100, by=director)
    return table


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return {key: round(value) for key, value in found.items()}


@pytest.mark.parametrize("size", [(1024, 768), (1366, 900), (390, 844)])
def test_the_seat_map_is_beside_the_hand_not_under_its_log(
    login_page: Any, director: Any, live_server: Any, size: tuple[int, int]
) -> None:
    from cardroom.seats import hands as cash_hands

    width, height = size
    table = seated_table(director)
    cash_hands.deal_next_hand(table=table, by=director, straddle=False)
    page = login_page("td")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    expect(page.locator("#to-act-line")).to_be_visible()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"desk-layout-{width}x{height}.png"))
    seats, log = box(page, "#seat-panel"), box(page, "ol.log")
    for selector in (".hand-facts", "#action-panel"):
        assert box(page, selector)["y"] < height, (selector, size)
    if width < 700:
        return  # a phone: one column, the hand first; the seat map is a scroll away
    # Beside the hand: the seat map starts at the top of the desk, in the first screen, and
    # is not stacked under the action log.
    assert seats["y"] < height / 2, seats
    assert seats["y"] < log["y"] and seats["x"] >= log["x"] + log["width"] - 1, (seats, log)


@pytest.mark.parametrize("size", [(1024, 768), (1366, 900)])
def test_opening_seat_a_player_moves_nothing_else_on_the_desk(
    login_page: Any, director: Any, live_server: Any, size: tuple[int, int]
) -> None:
    width, height = size
    table = seated_table(director)
    page = login_page("td")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    watched = ("#seat-row-4", "#seat-row-5", "#seat-row-6", "#proposal", "#seat-panel h2")
    before = {selector: box(page, selector) for selector in watched}
    page.locator("#seat-row-4 summary", has_text="Seat a player").click()
    form = page.locator("#seat-row-4 .seat-form")
    expect(form).to_be_visible()
    expect(form.get_by_label("Player")).to_be_visible()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"desk-seat-open-{width}x{height}.png"))
    after = {selector: box(page, selector) for selector in watched}
    assert after == before
    # The form is usable where it opened: inside the window, over nothing it needs.
    opened = box(page, "#seat-row-4 .seat-form")
    assert opened["x"] >= 0 and opened["x"] + opened["width"] <= width, opened


def test_the_chip_readers_reading_goes_in_as_the_action_with_one_press(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from cardroom.seats import hands as cash_hands

    table = seated_table(director)
    hand = cash_hands.deal_next_hand(table=table, by=director, straddle=False)
    page = login_page("td")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    helper = page.locator("#count-helper")
    helper.get_by_role("button", name="+5").first.click()
    expect(page.locator("#chips-out")).to_have_text("5")
    helper.locator("select[name=verbal]").select_option("raise")
    helper.get_by_label("Amount said").fill("5")
    helper.get_by_label("Amount said").press("Enter")
    to_act = page.locator("#to-act-line strong").inner_text()
    enter = helper.get_by_role("button", name=f"Enter for seat {to_act}: Raise to 5")
    expect(enter).to_be_visible()
    enter.click()
    name = hand.names[to_act]
    expect(page.locator(".log li").first).to_contain_text(f"Seat {to_act} {name} raises to 5")
    expect(page.locator("#to-act-line")).not_to_contain_text(f"Seat {to_act} to act")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "desk-reading-entered.png"))
