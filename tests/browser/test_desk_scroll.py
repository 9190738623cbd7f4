"""The desk keyed from start to finish with a full table: after every
key the to-act line and the action panel stay inside the window, and at showdown the taps
and Push do, wherever Deal or Push left the page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NINE = ("Ana Ruiz", "Bo Chen", "Cy Diaz", "Dee Ray", "Eve Moss", "Fay Lund", "Gus Hale",
        "Hal Ortiz", "Ida Park")  # fmt: skip


def inside(page: Any, selector: str, height: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + min(box["height"], 60) <= height, (selector, box)


def settled(page: Any) -> None:
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    page.wait_for_timeout(150)


@pytest.mark.parametrize("size", [(1024, 768), (1366, 900)])
def test_a_hand_keyed_with_nine_seated_keeps_the_hand_in_view(
    login_page: Any, director: Any, live_server: Any, size: tuple[int, int]
) -> None:
    from cardroom.seats import services as players
    from cardroom.tables.models import Hand
    from tests.factories import make_table

    width, height = size
    table = make_table(number=7, seats=9, min_buy_in=2000, max_buy_in=20000)
    for number, name in enumerate(NINE, start=1):
        player = players.find_or_create_player(name=name, by=director)
        players.seat_player(table=table, player=player, seat=number, buy_in=12000, by=director)
    page = login_page("td")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    for number in (1, 2):  # the second hand starts from where the first one's Push left it
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.keyboard.press("d")
        settled(page)
        for _ in range(60):
            if page.locator("#to-act-line").count() == 0:
                break
            inside(page, "#to-act-line", height)
            inside(page, "#action-panel", height)
            inside(page, ".hand-facts", height)
            with page.expect_response(lambda r: r.request.method == "POST"):
                page.keyboard.press("c")
            settled(page)
        expect(page.locator("#showdown")).to_be_visible()
        inside(page, "#action-panel", height)
        for tap in page.locator("#showdown input[type='checkbox']").all()[:3]:
            box = tap.bounding_box()
            assert box is not None and 0 <= box["y"] <= height - box["height"], box
        box = page.locator("#push").bounding_box()
        assert box is not None and 0 <= box["y"] <= height - box["height"], ("push", box)
        page.locator("#showdown input[type='checkbox']").first.check()
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.keyboard.press("p")
        settled(page)
        assert Hand.objects.filter(table=table, awarded_at__isnull=False).count() == number


def test_seat_map_forms_keep_the_focus_and_show_their_refusal_beside_them(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """Between hands: after seating a player the focus is on the next
    open seat, not Deal (a second Enter must not deal); a refused Add chips keeps its form
    open with the amount, the refusal beside it on screen, the focus in the box."""
    from cardroom.seats import services as players
    from cardroom.tables.models import Hand
    from tests.factories import make_table

    table = make_table(number=7, seats=9, min_buy_in=2000, max_buy_in=20000)
    for number, name in enumerate(NINE[:3], start=1):
        player = players.find_or_create_player(name=name, by=director)
        players.seat_player(table=table, player=player, seat=number, buy_in=12000, by=director)
    page = login_page("td")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    row = page.locator("#seat-row-4")
    row.get_by_text("Seat a player").click()
    row.get_by_label("Player").fill("Dee Ray")
    row.get_by_label("Buy-in").fill("5000")
    with page.expect_response(lambda r: r.request.method == "POST"):
        row.get_by_label("Buy-in").press("Enter")
    settled(page)
    expect(page.locator("#seat-row-4 .seat-name")).to_have_text("Dee Ray")
    expect(page.locator("#seat-row-5 summary")).to_be_focused()
    page.keyboard.press("Enter")  # the "slow first press" second Enter: opens seat 5's form
    page.wait_for_timeout(500)
    assert not Hand.objects.filter(table=table).exists()
    page.locator("#seat-row-5 summary").click()  # closed again

    row = page.locator("#seat-row-2")
    row.locator("summary").click()
    row.get_by_label("Add chips").fill("50000")
    with page.expect_response(lambda r: r.request.method == "POST"):
        row.get_by_label("Add chips").press("Enter")
    settled(page)
    refusal = page.locator("#seat-row-2 .refusal")
    expect(refusal).to_contain_text("Refused")
    box = refusal.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 900, box
    expect(row.get_by_label("Add chips")).to_have_value("50000")
    expect(row.get_by_label("Add chips")).to_be_focused()
    expect(page.locator("#deal-next")).not_to_be_focused()
    assert not Hand.objects.filter(table=table).exists()


def test_an_open_seat_form_holds_only_the_seat_map_and_folded_seats_stay_legible(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """On this device a Change box is open with an amount typed while
    another device enters actions: the hand (to act, pot) keeps following, the box stays
    open with the amount and the focus; closed, the seat map catches up. A folded seat
    is drawn at full opacity (its text keeps its contrast)."""
    from cardroom.seats import hands as cash_hands
    from cardroom.seats import services as players
    from cardroom.tables.services import engine_state, record_action
    from tests.conftest import between_requests
    from tests.factories import make_table

    table = make_table(number=7, seats=9, min_buy_in=2000, max_buy_in=20000)
    for number, name in enumerate(NINE[:4], start=1):
        player = players.find_or_create_player(name=name, by=director)
        players.seat_player(table=table, player=player, seat=number, buy_in=12000, by=director)
    hand = cash_hands.deal_next_hand(table=table, by=director, straddle=False)
    page = login_page("td")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    first = engine_state(hand).to_act
    expect(page.locator("#to-act-line")).to_contain_text(f"Seat {first} to act")
    row = page.locator("#seat-row-3")
    row.locator("summary").click()
    row.get_by_label("Add chips").fill("777")
    with between_requests():  # another device's action, while this page polls
        record_action(hand=hand, by=director, expected_seq=hand.seq, seat=first, action="fold")
    hand.refresh_from_db()
    second = engine_state(hand).to_act
    assert second != first
    expect(page.locator("#to-act-line")).to_contain_text(f"Seat {second} to act", timeout=8000)
    expect(page.locator(f"#seat-{first}")).to_contain_text("Folded")
    assert page.locator(f"#seat-{first}").evaluate("e => getComputedStyle(e).opacity") == "1"
    expect(row.get_by_label("Add chips")).to_have_value("777")
    expect(row.get_by_label("Add chips")).to_be_focused()
    expect(page.locator("#desk-paused")).to_be_visible()
    with between_requests():
        dee = players.find_or_create_player(name="Dee Lane", by=director)
        players.seat_player(table=table, player=dee, seat=6, buy_in=5000, by=director)
    page.wait_for_timeout(3500)
    expect(page.locator("#seat-row-6 .seat-name")).to_have_count(0)  # held while open
    row.locator("summary").click()  # closed: the seat map catches up
    expect(page.locator("#seat-row-6 .seat-name")).to_have_text("Dee Lane", timeout=8000)


def test_a_full_table_fits_1366x900_without_scrolling(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """Nine seated, the desk opened afresh at 1366x900: the action buttons
    during the hand, and at showdown the taps and Push, are on screen without scrolling."""
    from cardroom.seats import hands as cash_hands
    from cardroom.seats import services as players
    from cardroom.tables.services import engine_state, record_action
    from rules.engine.state import legal_options
    from tests.factories import make_table

    table = make_table(number=7, seats=9, min_buy_in=2000, max_buy_in=20000)
    for number, name in enumerate(NINE, start=1):
        player = players.find_or_create_player(name=name, by=director)
        players.seat_player(table=table, player=player, seat=number, buy_in=12000, by=director)
    hand = cash_hands.deal_next_hand(table=table, by=director, straddle=False)
    page = login_page("td")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    for button in page.locator("#action-panel .action-row .button.big").all():
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 900, box
    while (state := engine_state(hand)).to_act is not None:
        options = legal_options(state)
        action = "check" if options is not None and options.check else "call"
        record_action(
            hand=hand, by=director, expected_seq=hand.seq, seat=state.to_act, action=action
        )
        hand.refresh_from_db()
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    for what in ("#showdown input[type='checkbox'] >> nth=-1", "#push"):
        box = page.locator(what).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 900, (what, box)
