"""The floor's waitlist page in Chromium when its poll and a floor action cross: the page
ends in the newest state, with no htmx:oobErrorNoTarget and no false 409 on the next tap; and
after Enter adds a player, the Name box has the focus again."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Route, expect

from tests.browser.test_accessibility import AXE, AXE_RUN
from tests.browser.test_friday_evening import A_POLL, log_in, panel, seat_everyone
from tests.conftest import between_requests

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = re.compile(r".*/floor/waitlists/\?v=.*")
SEAT = re.compile(r".*/floor/waitlists/entries/\d+/seat/$")


def watch_oob_errors(page: Page) -> None:
    page.evaluate(
        "window.oobErrors = [];"
        "document.body.addEventListener('htmx:oobErrorNoTarget', function (e) {"
        "  window.oobErrors.push(String(e.detail.target)); });"
    )


def seat_now(lists: Any, name: str, seat: int) -> Any:
    form = lists.locator("form.seat-form", has_text=f"{name} at Table 1 seat {seat}")
    return form.get_by_role("button", name=re.compile(r"^Seat now"))


def wait_for(page: Page, held: list[Any], count: int = 1) -> None:
    for _ in range(100):
        if len(held) >= count:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the request never came")


def test_a_poll_crossing_seat_now_ends_in_the_newest_state(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    """A poll leaves with the lists as they are; "Seat now" goes out before it is answered;
    the poll's (older) answer lands first, then the action's. The page shows Ana seated and
    Bo next, and "Seat now" for Bo works (no "Someone else changed this first")."""
    from cardroom.seats.models import TableSeat
    from cardroom.waitlists import services as waitlists
    from tests.factories import make_table

    table = make_table(number=1, by=floor_manager, seats=9)
    seat_everyone(table, floor_manager, leave_open=(5, 6), prefix="Regular")
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    for name in ("Ana Ruiz", "Bo Chen"):
        waitlists.add_to_list(game_list=nlhe, name=name, by=floor_manager)
    page, errors = log_in(browser, live_server.url, "staffer", (1366, 900))
    watch_oob_errors(page)
    lists = panel(page, "NLHE 1/2")
    expect(lists).to_contain_text("Next: Ana Ruiz")

    # Someone adds Cy at the other device; the next poll that brings it is answered by the
    # server now (the lists before the tap) but held on its way to the page.
    with between_requests():  # the test thread writes while the page polls
        waitlists.add_to_list(game_list=nlhe, name="Cy Dunn", by=floor_manager)
    polls: list[tuple[Route, Any]] = []

    def hold_a_change(route: Route) -> None:
        answer = route.fetch()
        if answer.status == 204:
            route.fulfill(response=answer)
        else:
            polls.append((route, answer))

    page.route(POLL, hold_a_change)
    wait_for(page, polls)
    # "Seat now" for Ana: the server seats her; its answer is held until the poll's lands.
    seats: list[tuple[Route, Any]] = []
    page.route(SEAT, lambda route: seats.append((route, route.fetch())))
    seat_now(lists, "Ana Ruiz", 5).click()
    wait_for(page, seats)
    with between_requests():
        assert TableSeat.objects.filter(table=table, seat=5, left_at=None).exists()
    poll_route, poll_answer = polls[0]
    with contextlib.suppress(PlaywrightError):  # the page may have given up on it (aborted)
        poll_route.fulfill(response=poll_answer)
    page.wait_for_timeout(300)
    seat_route, seat_answer = seats[0]
    seat_route.fulfill(response=seat_answer)
    page.unroute(POLL)
    page.unroute(SEAT)

    expect(lists).to_contain_text("Ana Ruiz seated at Table 1, seat 5", timeout=A_POLL)
    expect(lists).to_contain_text("Next: Bo Chen")
    assert page.evaluate("window.oobErrors") == []
    # The next tap acts on what the page shows: no false 409.
    seat_now(lists, "Bo Chen", 6).click()
    expect(lists).to_contain_text("Bo Chen seated at Table 1, seat 6")
    expect(lists).not_to_contain_text("Someone else changed this first")
    with between_requests():
        assert TableSeat.objects.get(table=table, seat=6, left_at=None).player.name == "Bo Chen"
    assert page.evaluate("window.oobErrors") == []
    assert not [e for e in errors if "oob" in e.lower()], errors


def test_after_enter_adds_a_player_the_name_box_has_the_focus(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    """The floor types names one after the other: Enter adds (from the Name box or the Alias
    box), and the Name box, empty, has the focus for the next one."""
    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists.models import WaitlistEntry

    waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    page, errors = log_in(browser, live_server.url, "staffer", (1366, 900))
    adder = page.locator("#add-form")
    for name, alias, enter_in in (("Ana Ruiz", "", "Name"), ("Bo Chen", "Bobo", "Alias")):
        adder.get_by_label("Name or initials").fill(name)
        adder.get_by_label("Alias").fill(alias)
        adder.get_by_label("NLHE 1/2").check()
        box = (
            adder.get_by_label("Name or initials")
            if enter_in == "Name"
            else adder.get_by_label("Alias")
        )
        box.press("Enter")
        expect(adder).to_contain_text(f"{name} added to NLHE 1/2")
        expect(adder.get_by_label("Name or initials")).to_be_focused()
        expect(adder.get_by_label("Name or initials")).to_have_value("")
    assert WaitlistEntry.objects.count() == 2
    assert not errors, errors


def test_enter_in_a_reason_never_takes_a_player_off_the_list(
    live_server: Any, browser: Any, floor_manager: Any
) -> None:
    """In "Change", a first box for the Remove reason would let Enter there remove Xavier
    with no question. The move comes first, each reason says which it is,
    and Enter in the reason for taking off removes nobody (only the Remove button does);
    Enter in the reason for the move moves."""
    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists.models import WaitlistEntry

    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    for name in ("Hannah Hill", "Kim Kowalski", "Xavier Long"):
        waitlists.add_to_list(game_list=nlhe, name=name, by=floor_manager)
    page, errors = log_in(browser, live_server.url, "fm", (1024, 768))
    lists = panel(page, "NLHE 1/2")
    xavier = lists.locator("li.entry", has_text="Xavier Long")
    xavier.locator("summary").click()
    page.keyboard.press("Tab")  # the first stop in the box: the move, not the removal
    expect(xavier.get_by_label("Place")).to_be_focused()
    off = xavier.get_by_label("Reason for taking off")
    off.click()
    page.keyboard.type("moving up: floor error")
    page.keyboard.press("Enter")
    page.wait_for_timeout(800)
    expect(lists).not_to_contain_text("taken off the list")
    with between_requests():
        assert WaitlistEntry.objects.get(player__name="Xavier Long").status == "waiting"
    # The reason for the move, Enter: he moves up.
    xavier.get_by_label("Place").fill("1")
    move = xavier.get_by_label("Reason for the move")
    move.click()
    page.keyboard.type("floor error")
    page.keyboard.press("Enter")
    expect(lists).to_contain_text("Xavier Long moved to 1st place (floor error).")
    expect(lists.locator("li.entry").first).to_contain_text("Xavier Long")
    with between_requests():
        assert WaitlistEntry.objects.get(player__name="Xavier Long").status == "waiting"
    assert not errors, errors


FOCUS_IN = "sel => { const a = document.activeElement; return !!(a && a !== document.body && a.closest(sel)); }"


def test_after_each_action_the_focus_stays_in_its_panel(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    """After Call next, Seat, Release and Make must-move the focus does not fall to the top
    of the page: it lands on what the action said, in the same panel (the
    notice, announced), and the next Tab carries on from there."""
    from cardroom.waitlists import services as waitlists
    from tests.factories import make_table

    one = make_table(number=1, by=floor_manager, seats=9)
    make_table(number=2, by=floor_manager, seats=9)
    seat_everyone(one, floor_manager, leave_open=(8, 9), prefix="Regular")
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    for name in ("Hannah Hill", "Ian Ito", "Jo Jones"):
        waitlists.add_to_list(game_list=nlhe, name=name, by=floor_manager)
    page, errors = log_in(browser, live_server.url, "staffer", (1024, 768))
    lists = panel(page, "NLHE 1/2")
    in_panel = "article.list-panel"

    lists.get_by_role(
        "button", name=re.compile(r"^Call next\s?: Hannah Hill to Table 1")
    ).first.focus()
    page.keyboard.press("Enter")
    expect(lists).to_contain_text("Hannah Hill called to Table 1, seat 8")
    expect(lists.locator(".list-notice")).to_be_focused()  # after the swap has settled
    assert page.evaluate(f"({FOCUS_IN})('{in_panel}')"), "focus left the panel"

    lists.get_by_role("button", name=re.compile(r"^Release\s?the offer to Hannah Hill")).focus()
    page.keyboard.press("Enter")
    expect(lists).to_contain_text("Offer of Table 1, seat 8 to Hannah Hill released")
    expect(lists.locator(".list-notice")).to_be_focused()

    lists.get_by_role("button", name=re.compile(r"^Seat\s?: Ian Ito")).focus()
    page.keyboard.press("Enter")
    expect(lists).to_contain_text("Ian Ito seated at Table 1")
    expect(lists.locator(".list-notice")).to_be_focused()
    page.keyboard.press("Tab")  # the next Tab goes on in the panel, not from the top
    assert page.evaluate(f"({FOCUS_IN})('{in_panel}')"), "Tab left the panel"

    moves = page.locator("#must-moves")
    moves.get_by_label("Table").select_option(label="Table 2")
    moves.get_by_label("Feeds the main game").select_option(label="NLHE 1/2")
    moves.get_by_role("button", name="Make must-move").focus()
    page.keyboard.press("Enter")
    expect(moves).to_contain_text("Table 2 is now a must-move.")
    expect(moves.locator(".list-notice")).to_be_focused()
    assert page.evaluate("({FOCUS_IN})('#must-moves')".replace("{FOCUS_IN}", FOCUS_IN))
    assert not errors, errors


def test_a_refused_kiosk_name_puts_the_focus_on_the_field_in_error(
    live_server: Any, browser: Any, floor_manager: Any
) -> None:
    from cardroom.waitlists import services as waitlists

    waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    kiosk = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    kiosk.goto(f"{live_server.url}/kiosk/")
    kiosk.get_by_role("checkbox", name=re.compile(r"^NLHE 1.2 ")).check()
    kiosk.get_by_role("button", name="Put me on the list").press("Enter")  # no name
    expect(kiosk.get_by_label("Your name or initials")).to_be_focused()
    kiosk.get_by_label("Your name or initials").fill("Cy Dunn")
    kiosk.get_by_role("checkbox", name=re.compile(r"^NLHE 1.2 ")).uncheck()
    kiosk.get_by_role("button", name="Put me on the list").press("Enter")  # no game
    expect(kiosk.get_by_role("checkbox", name=re.compile(r"^NLHE 1.2 "))).to_be_focused()


def test_a_poll_keeps_the_focus_on_the_same_control(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    """The lists are swapped whole when a poll brings a change: the control that had the
    focus (here Call next) has it again afterwards, not the top of the page."""
    from cardroom.waitlists import services as waitlists
    from tests.factories import make_table

    one = make_table(number=1, by=floor_manager, seats=9)
    seat_everyone(one, floor_manager, leave_open=(8,), prefix="Regular")
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    waitlists.add_to_list(game_list=nlhe, name="Hannah Hill", by=floor_manager)
    page, errors = log_in(browser, live_server.url, "staffer", (1024, 768))
    lists = panel(page, "NLHE 1/2")
    call = lists.get_by_role("button", name=re.compile(r"^Call next\s?: Hannah Hill"))
    call.focus()
    with between_requests():  # another device adds Ian: the next poll swaps the lists
        waitlists.add_to_list(game_list=nlhe, name="Ian Ito", by=floor_manager)
    expect(lists).to_contain_text("Ian Ito", timeout=A_POLL)
    expect(call).to_be_focused()
    assert not errors, errors


def test_start_table_and_seat_now_ask_each_buy_in_and_keep_what_was_typed(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    """Start table bought everyone in at the minimum, with no box to say otherwise.
    Each player has a box (the table's minimum to start from); Tab goes from one to the next
    and on to Start; Enter in a box starts; a buy-in outside the table's limits is refused
    beside its box, naming the player and the limit, with every box as typed and the focus
    on the one to correct. Seat now the same, for its one player."""
    from cardroom.seats.models import TableSeat
    from cardroom.waitlists import services as waitlists
    from tests.factories import make_table

    one = make_table(number=1, by=floor_manager, seats=9)  # buy-in 40 to 200
    seat_everyone(one, floor_manager, leave_open=(5,), prefix="Regular")
    six = make_table(
        number=6, by=floor_manager, status="closed", variant="omaha", structure="pot_limit",
        seats=6, min_buy_in=300, max_buy_in=1000,
    )  # fmt: skip
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    plo = waitlists.open_list(
        variant="omaha", structure="pot_limit", small_blind=1, big_blind=2, by=floor_manager,
        start_threshold=3,
    )  # fmt: skip
    waitlists.add_to_list(game_list=nlhe, name="Dee Park", by=floor_manager)
    for name in ("Ana Ruiz", "Bo Chen", "Cy Dunn"):
        waitlists.add_to_list(game_list=plo, name=name, by=floor_manager)
    page, errors = log_in(browser, live_server.url, "staffer", (1366, 900))
    page.context.add_init_script(path=AXE)  # axe-core, to check the refusals as shown
    page.reload()

    start = panel(page, "PLO 1/2").get_by_role("region", name="Start a table for PLO 1/2")
    expect(start).to_contain_text("each with the buy-in below (Table 6: 300 to 1,000)")
    boxes = {name: start.get_by_label(name) for name in ("Ana Ruiz", "Bo Chen", "Cy Dunn")}
    for box in boxes.values():
        expect(box).to_have_value("300")
    boxes["Ana Ruiz"].click()
    page.keyboard.press("Control+A")
    page.keyboard.type("1000")
    page.keyboard.press("Tab")
    expect(boxes["Bo Chen"]).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("2000")
    page.keyboard.press("Tab")
    expect(boxes["Cy Dunn"]).to_be_focused()
    page.keyboard.press("Tab")
    expect(start.get_by_role("button", name=re.compile(r"^Start Table 6"))).to_be_focused()
    boxes["Bo Chen"].focus()
    page.keyboard.press("Enter")

    start = panel(page, "PLO 1/2").get_by_role("region", name="Start a table for PLO 1/2")
    bo = start.get_by_label("Bo Chen")
    expect(bo).to_have_accessible_description(
        "Bo Chen: buy-in 2,000 is above this table's maximum of 1,000 (RRoP-14.16)."
    )
    expect(start).to_contain_text(
        "Bo Chen: buy-in 2,000 is above this table's maximum of 1,000 (RRoP-14.16)."
    )
    expect(panel(page, "PLO 1/2")).to_contain_text(
        "Table 6 is not started: correct the buy-ins marked below."
    )
    expect(start.get_by_label("Ana Ruiz")).to_have_value("1000")
    expect(bo).to_have_value("2000")
    expect(start.get_by_label("Cy Dunn")).to_have_value("300")
    expect(bo).to_be_focused()
    assert page.evaluate(AXE_RUN) == []
    with between_requests():
        assert not TableSeat.objects.filter(table=six).exists()
    page.keyboard.press("Control+A")
    page.keyboard.type("800")
    page.keyboard.press("Enter")
    expect(panel(page, "PLO 1/2")).to_contain_text("Table 6 is open: players seated.")
    with between_requests():
        stacks = dict(
            TableSeat.objects.filter(table=six, left_at=None).values_list("player__name", "stack")
        )
    assert stacks == {"Ana Ruiz": 1000, "Bo Chen": 800, "Cy Dunn": 300}

    lists = panel(page, "NLHE 1/2")
    form = lists.locator("form.seat-form", has_text="Dee Park at Table 1 seat 5")
    expect(form).to_contain_text("40 to 200")
    buy_in = form.get_by_label("Buy-in")
    expect(buy_in).to_have_value("40")
    buy_in.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("500")
    page.keyboard.press("Enter")
    form = lists.locator("form.seat-form", has_text="Dee Park at Table 1 seat 5")
    expect(form).to_contain_text(
        "Dee Park: buy-in 500 is above this table's maximum of 200 (RRoP-14.16)."
    )
    expect(form.get_by_label("Buy-in")).to_have_value("500")
    expect(form.get_by_label("Buy-in")).to_be_focused()
    assert page.evaluate(AXE_RUN) == []
    page.keyboard.press("Control+A")
    page.keyboard.type("150")
    page.keyboard.press("Enter")
    expect(lists).to_contain_text("Dee Park seated at Table 1, seat 5, with 150.")
    with between_requests():
        assert TableSeat.objects.get(table=one, seat=5, left_at=None).stack == 150
    refused = "the server responded with a status of 422"  # the two refusals, as asked
    assert [e for e in errors if refused not in e] == [], errors


def test_a_long_list_shows_its_first_players_then_page_by_page_and_finds_a_name(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any, settings: Any
) -> None:
    """A list of 10,000 made a 14.9 MB page: the page shows the first players with
    how many more; Next goes down the list, a poll keeps that part, Find a player finds one
    at their place."""
    from cardroom.waitlists import services as waitlists
    from tests.cardroom.test_waitlist_bounds import fill_list

    settings.CARDROOM_WAITLIST_PAGE_ROWS = 5
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    fill_list(nlhe, 12)
    page, errors = log_in(browser, live_server.url, "staffer", (1366, 900))
    lists = panel(page, "NLHE 1/2")
    expect(lists).to_contain_text("12 waiting")
    expect(lists.locator("li.entry")).to_have_count(5)
    expect(lists).to_contain_text("and 7 more")
    lists.get_by_role("link", name=re.compile(r"^Next 5")).click()
    lists = panel(page, "NLHE 1/2")
    expect(lists.locator("li.entry").first).to_contain_text("Player 0005")
    expect(lists.locator("li.entry .entry-place").first).to_have_text("6")
    expect(lists).to_contain_text("6–10 of 12")
    with between_requests():  # a change: the next poll brings the same part of the list
        waitlists.add_to_list(game_list=nlhe, name="Zoe Park", by=floor_manager)
    expect(lists).to_contain_text("13 waiting", timeout=8000)
    expect(lists.locator("li.entry").first).to_contain_text("Player 0005")
    lists.get_by_label("Find a player").fill("0009")
    lists.get_by_role("button", name=re.compile(r"^Find")).click()
    lists = panel(page, "NLHE 1/2")
    expect(lists.locator("li.entry")).to_have_count(1)
    expect(lists.locator("li.entry .entry-place")).to_have_text("10")
    expect(lists.get_by_label("Find a player")).to_have_value("0009")
    assert not errors, errors


def test_an_offer_that_runs_out_is_said_lit_and_chimed_at_the_next_poll(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    """Leo's offer of Table 1, seat 9 runs out (the timer, as the beat runs it) and Mo is
    called in his place: the next poll lights Mo's rows for a few seconds, says so in the
    status line and chimes once. A page opened afterwards does not say it again."""
    from datetime import timedelta

    from django.utils import timezone

    from cardroom.waitlists import services as waitlists
    from cardroom.waitlists.models import WaitlistEntry
    from tests.factories import make_table

    table = make_table(number=1, by=floor_manager, seats=9)
    seat_everyone(table, floor_manager, leave_open=(9,), prefix="Regular")
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    leo = waitlists.add_to_list(game_list=nlhe, name="Leo Ray", by=floor_manager)
    mo = waitlists.add_to_list(game_list=nlhe, name="Mo Next", by=floor_manager)
    waitlists.call_player(entry=leo, table=table, seat=9, by=floor_manager)
    page, errors = log_in(browser, live_server.url, "staffer", (1366, 900))
    page.context.add_init_script(path=AXE)
    page.reload()
    lists = panel(page, "NLHE 1/2")
    expect(lists).to_contain_text("Leo Ray called")
    page.locator("h1").click()  # the floor's first tap turns the sound on
    status = page.locator("#waitlist-ran-out")
    expect(status).to_have_text("")
    lit = page.locator(".just-called")
    expect(lit).to_have_count(0)

    with between_requests():  # the test thread writes while the page polls
        past = timezone.now() - timedelta(seconds=1)
        WaitlistEntry.objects.filter(pk=leo.pk).update(call_expires_at=past)
    # Before the timers' sweep the poll (which writes nothing) shows the offer as ran out.
    expect(lists).to_contain_text("Leo Ray called · ran out at", timeout=A_POLL)
    expect(status).to_have_text("")
    with between_requests():
        assert waitlists.lapse_due() == 1
    said = "Offer to Leo Ray ran out: Mo Next called to Table 1, seat 9."
    expect(status).to_have_text(said, timeout=A_POLL)
    expect(lists.locator(f'li.open-seat[data-called="{mo.pk}"]')).to_have_class(
        re.compile(r"\bjust-called\b")
    )
    expect(page.locator(f"#entry-{mo.pk}")).to_have_class(re.compile(r"\bjust-called\b"))
    expect(lit).to_have_count(2)
    assert page.evaluate("document.body.dataset.chimes") == "1"
    assert page.evaluate(AXE_RUN) == []  # the lit rows and the line keep their contrast
    expect(lit).to_have_count(0, timeout=A_POLL)  # a few seconds, then the rows as usual
    expect(status).to_have_text(said)  # the line stays until the next one
    assert page.evaluate("document.body.dataset.chimes") == "1"

    page.reload()  # an offer that ran out before the page opened is not news to it
    expect(panel(page, "NLHE 1/2")).to_contain_text("Mo Next called")
    with between_requests():
        waitlists.add_to_list(game_list=nlhe, name="Ny Later", by=floor_manager)
    expect(panel(page, "NLHE 1/2")).to_contain_text("Ny Later", timeout=A_POLL)  # a poll
    expect(status).to_have_text("")
    assert page.evaluate("document.body.dataset.chimes") is None
    assert not errors, errors
