"""The desk between and after hands, at the keyboard and on two devices: Enter on a showdown
tap never pushes the pot, P pushes right after a tap, the desk follows seat-map changes made
on another device between hands (and a desk with no hand polls too), and the poll holds while a
seat form is open."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seated_table(director: Any, names: tuple[str, ...] = ("Ana Ruiz", "Bo Chen", "Cy Diaz")) -> Any:
    from cardroom.seats import services as players
    from tests.factories import make_table

    table = make_table(number=5, seats=6)
    for number, name in enumerate(names, start=1):
        player = players.find_or_create_player(name=name, by=director)
        players.seat_player(table=table, player=player, seat=number, buy_in=100, by=director)
    return table


def to_showdown(table: Any, director: Any) -> Any:
    """Deal the proposal and call or check it down: the hand waits for the taps."""
    from cardroom.seats import hands as cash_hands
    from cardroom.tables.services import engine_state, record_action
    from rules.engine.state import legal_options

    hand = cash_hands.deal_next_hand(table=table, by=director, straddle=False)
    for _ in range(40):
        hand.refresh_from_db()
        state = engine_state(hand)
        if state.to_act is None:
            break
        options = legal_options(state)
        action = "check" if options is not None and options.check else "call"
        record_action(
            hand=hand, by=director, expected_seq=hand.seq, seat=state.to_act, action=action
        )
    hand.refresh_from_db()
    return hand


def test_enter_on_a_showdown_tap_does_nothing_and_p_pushes_from_the_tap(
    login_page: Any, director: Any, live_server: Any
) -> None:
    table = seated_table(director)
    hand = to_showdown(table, director)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    tap = page.locator('input[name="1-high-0"][value="2"]')
    tap.click()  # the dealer taps seat 2; the focus stays on the tap
    expect(tap).to_be_focused()
    page.keyboard.press("Enter")  # a split is one more tap away: Enter must not push
    page.wait_for_timeout(800)
    hand.refresh_from_db()
    assert hand.awarded_at is None
    expect(page.locator("#showdown")).to_be_visible()
    page.locator('input[name="1-high-0"][value="3"]').press("Space")  # seats 2 and 3 tie
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.keyboard.press("p")  # P pushes from the tap
    expect(page.locator("#awarded")).to_be_visible()
    hand.refresh_from_db()
    assert hand.result is not None and hand.result["showdown"]["ranking"][0] == [2, 3]
    expect(page.locator("#deal-next")).to_be_focused()


def test_a_second_device_sees_seat_changes_between_hands_and_before_the_first(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from cardroom.seats import services as players
    from cardroom.seats.models import TableSeat

    table = seated_table(director)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")  # no hand yet
    expect(page.locator("#seat-row-3 .seat-status")).to_contain_text("Playing")
    row = TableSeat.objects.get(table=table, seat=3, left_at__isnull=True)
    players.sit_out(seat=row, by=director)  # the other device
    expect(page.locator("#seat-row-3 .seat-status")).to_contain_text("Sitting out", timeout=8000)
    expect(page.locator("#next-seat-3")).to_have_count(0)  # the proposal follows

    # While a seat form is open on this device, the poll holds: what is typed stays.
    page.locator("#seat-row-4").get_by_text("Seat a player").click()
    page.locator("#seat-row-4").get_by_label("Player").fill("Dee Ray")
    gus = players.find_or_create_player(name="Gus Hale", by=director)
    players.seat_player(table=table, player=gus, seat=5, buy_in=100, by=director)
    page.wait_for_timeout(4500)
    expect(page.locator("#seat-row-4").get_by_label("Player")).to_have_value("Dee Ray")
    expect(page.locator("#desk")).to_contain_text("paused")
    page.locator("#seat-row-4 summary").click()  # closed: the desk catches up
    expect(page.locator("#seat-row-5 .seat-name")).to_have_text("Gus Hale", timeout=8000)


NINE = ("Ana Ruiz", "Bo Chen", "Cy Diaz", "Dee Ray", "Eve Moss", "Fay Lund", "Gus Hale",
        "Hal Ortiz", "Ida Park")  # fmt: skip


def test_after_a_push_the_next_deal_is_on_screen_at_1024x768_with_nine_seated(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """A laptop's 1024x768, nine players. Pushing the pot swaps the award in; the
    next hand's Deal must be on screen without scrolling (the dealer's next press)."""
    from cardroom.seats import hands as cash_hands
    from cardroom.seats import services as players
    from cardroom.tables.services import engine_state, record_action
    from tests.factories import make_table

    table = make_table(number=7, seats=9, min_buy_in=2000, max_buy_in=20000)
    for number, name in enumerate(NINE, start=1):
        player = players.find_or_create_player(name=name, by=director)
        players.seat_player(table=table, player=player, seat=number, buy_in=12000, by=director)
    hand = cash_hands.deal_next_hand(table=table, by=director, straddle=False)
    while (seat := engine_state(hand).to_act) is not None:  # everyone folds to the big blind
        record_action(hand=hand, by=director, expected_seq=hand.seq, seat=seat, action="fold")
        hand.refresh_from_db()
    page = login_page("td")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#push").click()
    expect(page.locator("#awarded")).to_be_visible()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    deal = page.locator("#deal-next")
    expect(deal).to_be_visible()
    page.wait_for_timeout(300)
    box = deal.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= 768, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1024, box
    # The award it answers and the proposal it deals are on screen too: neither heading is
    # scrolled away (the page was scrolled down to Push).
    for title in ("#awarded-title", "#proposal-title"):
        box = page.locator(title).bounding_box()
        assert box is not None and 0 <= box["y"] <= 768 - box["height"], (title, box)
    # And without the swap (the desk opened afresh between hands): no scrolling either.
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    box = page.locator("#deal-next").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 768, box


def test_a_corrected_deal_shows_the_hands_header_and_its_correction_at_1024x768(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """The dealer scrolls down to Correct, corrects the button with a reason and deals: the
    new hand's header (with the correction and its reason) and the action panel are on
    screen, not scrolled past."""
    from cardroom.seats import services as players
    from cardroom.tables.models import Hand
    from tests.factories import make_table

    table = make_table(number=7, seats=9, min_buy_in=2000, max_buy_in=20000)
    for number, name in enumerate(NINE, start=1):
        player = players.find_or_create_player(name=name, by=director)
        players.seat_player(table=table, player=player, seat=number, buy_in=12000, by=director)
    page = login_page("td")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    page.locator("#proposal .correct summary").click()
    form = page.locator(".correct-form")
    proposed = form.get_by_label("Button").input_value()
    form.get_by_label("Button").select_option("9" if proposed != "9" else "8")
    form.get_by_label("Reason").fill("The button was <em>moved</em> by a player")
    with page.expect_response(lambda r: r.request.method == "POST"):
        form.get_by_role("button", name="Deal with this correction").click()
    expect(page.locator(".hand-facts")).to_be_visible()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    hand = Hand.objects.get(table=table)
    assert hand.correction["reason"] == "The button was <em>moved</em> by a player"
    note = page.locator("#hand-correction")
    expect(note).to_contain_text("The button was <em>moved</em> by a player")  # escaped, as typed
    page.wait_for_timeout(300)
    for what in (".hand-facts", "#hand-correction", "#action-panel .to-act-line"):
        box = page.locator(what).bounding_box()
        assert box is not None and 0 <= box["y"] <= 768 - box["height"], (what, box)


def test_enter_in_the_name_box_does_not_seat_a_player_for_a_buy_in_nobody_typed(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """The buy-in starts empty and required, so Enter in the name box stops there."""
    from cardroom.seats.models import TableSeat

    table = seated_table(director)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    row = page.locator("#seat-row-5")
    row.get_by_text("Seat a player").click()
    expect(row.locator(".buy-in-range")).to_have_text("40–200")
    row.get_by_label("Player").fill("Zed Enter")
    row.get_by_label("Player").press("Enter")
    expect(row.get_by_label("Buy-in")).to_be_focused()  # the browser asks for the buy-in
    page.wait_for_timeout(500)
    assert not TableSeat.objects.filter(table=table, seat=5).exists()
    row.get_by_label("Buy-in").fill("60")
    with page.expect_response(lambda r: r.request.method == "POST"):
        row.get_by_label("Buy-in").press("Enter")
    expect(page.locator("#seat-row-5 .seat-name")).to_have_text("Zed Enter")
    assert TableSeat.objects.get(table=table, seat=5, left_at__isnull=True).stack == 60


def test_with_correct_open_the_note_says_the_whole_desk_is_held(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """The next hand's Correct holds the whole desk (it is the next hand being edited), not
    only the seat map: the note says so ("the hand keeps updating" would be wrong: a hand
    dealt on another device does not show)."""
    table = seated_table(director)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    page.locator("#proposal .correct summary").click()
    note = page.locator("#desk-paused")
    expect(note).to_contain_text("next hand is being corrected", timeout=8_000)
    expect(note).not_to_contain_text("the hand keeps updating")


def test_a_refused_seat_form_keeps_what_was_typed_with_the_reason_in_its_row(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """A player who sits at another table (a 409, not a race lost: "Not now", not "Someone
    else got there first") and a name of spaces: the reason is in the seat's row, not at the
    top of the desk off screen, in the page's words ("Player: ...", never "name: ..."), and
    the focus is on the Player box, with what was typed."""
    from cardroom.seats import services as players
    from tests.factories import make_table

    table = seated_table(director)
    other = make_table(number=6, seats=6)
    di = players.find_or_create_player(name="Di Egan", by=director)
    players.seat_player(table=other, player=di, seat=1, buy_in=100, by=director)
    page = login_page("td")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/tables/{table.number}/desk/")
    row = page.locator("#seat-row-5")
    row.get_by_text("Seat a player").click()
    row.get_by_label("Player").fill("Di Egan")
    row.get_by_label("Buy-in").fill("100")
    row.get_by_label("Buy-in").press("Enter")
    reason = page.locator("#seat-row-5 .seat-refusal")
    expect(reason).to_contain_text("Not now:")
    expect(reason).to_contain_text("Di Egan")
    expect(reason).not_to_contain_text("got there first")
    expect(page.locator("#seat-row-5").get_by_label("Player")).to_be_focused()
    expect(page.locator("#seat-row-5").get_by_label("Player")).to_have_value("Di Egan")
    box = reason.bounding_box()
    assert box and 0 <= box["y"] <= 768 - box["height"], box

    page.locator("#seat-row-5").get_by_label("Player").fill("   ")
    page.locator("#seat-row-5").get_by_label("Player").press("Enter")
    reason = page.locator("#seat-row-5 .seat-refusal")
    expect(reason).to_contain_text("Player: This field is required.")
    expect(page.locator("#seat-row-5").get_by_label("Player")).to_be_focused()
