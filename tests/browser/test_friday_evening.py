"""A Friday evening on the cash-game floor, in Chromium.

Three games with lists. Two floor devices at once (a floor manager at 1366x900, staff on a
1024x768 tablet), the kiosk at the podium (no log-in) and the public board on a TV:

- lists opened from the floor page (one tap for a table's game, and a game with its own
  start threshold); players added from the floor (to two lists at once), as a call-in, and
  from the kiosk (with an alias), which says which lists they are on and shows nobody else's
  name;
- a player leaves a full table (the seat map's service, as the desk does): the floor calls the
  next player (the call-in who has not checked in is passed over), the offer counts down, the
  other device sees the offer and seats them with a buy-in, and the first device sees it;
- a stale screen (updates paused while a box is open) taps a seat someone just took: 409,
  said on the list;
- a must-move table feeding the main game: its longest-seated player moves to the seat that
  opens there, chips and all;
- a list reaches its threshold: a new table starts with a seat draw whose commitment replays;
- the public board shows the games, the tables and the lists by initials or alias only.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import between_requests

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The waitlist page polls every 3 s; a change shows by the next poll plus its answer.
A_POLL = 10_000
PAGE = "/floor/waitlists/"


def log_in(browser: Any, base: str, username: str, size: tuple[int, int]) -> tuple[Page, list[str]]:
    from tests.factories import TEST_PASSWORD

    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(TEST_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    page.goto(f"{base}{PAGE}")
    expect(page.get_by_role("heading", name="Waitlists", exact=True)).to_be_visible()
    return page, errors


def seat_everyone(table: Any, by: Any, *, leave_open: tuple[int, ...] = (), prefix: str) -> None:
    from cardroom.seats import services as players

    for seat in range(1, table.seats + 1):
        if seat not in leave_open:
            player = players.find_or_create_player(name=f"{prefix} {seat}", by=by)
            players.seat_player(table=table, player=player, seat=seat, buy_in=100, by=by)


def panel(page: Page, label: str) -> Any:
    return page.locator("article.list-panel").filter(
        has=page.get_by_role("heading", name=label, exact=True)
    )


def test_a_friday_evening_on_the_cash_floor(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    from cardroom.seats import services as players
    from cardroom.seats.models import TableSeat
    from cardroom.waitlists.models import WaitlistEntry, WaitlistEvent
    from tests.factories import make_table

    base = live_server.url
    fm = floor_manager
    # The room: two 1/2 hold'em tables, a 1/2 hold'em table that will be a must-move, a 2/5
    # hold'em table, a 1/2 Omaha table running and one set up but closed.
    t1 = make_table(number=1, by=fm, seats=9)
    t2 = make_table(number=2, by=fm, seats=9)
    t4 = make_table(number=4, by=fm, seats=9)
    t3 = make_table(
        number=3, by=fm, seats=9, small_blind=2, big_blind=5, min_buy_in=100, max_buy_in=500
    )
    omaha = {"variant": "omaha", "structure": "pot_limit", "min_buy_in": 50, "max_buy_in": 300}
    t5 = make_table(number=5, by=fm, seats=6, **omaha)
    make_table(number=6, by=fm, seats=6, status="closed", **omaha)
    seat_everyone(t1, fm, prefix="Early")
    seat_everyone(t2, fm, prefix="Regular")
    seat_everyone(t3, fm, prefix="Big")
    seat_everyone(t5, fm, prefix="Wheel")
    for seat, name in ((2, "Mia Must"), (5, "Ned Next")):  # Mia sat down first
        player = players.find_or_create_player(name=name, by=fm)
        players.seat_player(table=t4, player=player, seat=seat, buy_in=80, by=fm)

    manager, manager_errors = log_in(browser, base, "fm", (1366, 900))
    tablet, tablet_errors = log_in(browser, base, "staffer", (1024, 768))

    # Lists: two in one tap each from the tables' games, Omaha with its own threshold (3).
    manager.get_by_role("button", name="Open NLHE 1/2 list").click()
    expect(panel(manager, "NLHE 1/2")).to_contain_text("The NLHE 1/2 list is open.")
    manager.get_by_role("button", name="Open NLHE 2/5 list").click()
    expect(panel(manager, "NLHE 2/5")).to_be_visible()
    opener = manager.locator("section.open-list form.row")
    opener.get_by_label("Game").select_option("omaha")
    opener.get_by_label("Betting").select_option("pot_limit")
    opener.get_by_label("Small blind").fill("1")
    opener.get_by_label("Big blind").fill("2")
    opener.get_by_label("Start a table at").fill("3")
    opener.get_by_role("button", name="Open list").click()
    expect(panel(manager, "PLO 1/2")).to_contain_text("The PLO 1/2 list is open.")
    manager.screenshot(path="/tmp/friday-lists-open.png", full_page=True)

    # The floor adds a player to two lists at once, and a call-in.
    adder = manager.locator("#add-form")
    adder.get_by_label("Name or initials").fill("Ana Ruiz")
    adder.get_by_label("NLHE 1/2").check()
    adder.get_by_label("PLO 1/2").check()
    adder.get_by_role("button", name="Add to the list").click()
    expect(adder).to_contain_text("Ana Ruiz added to NLHE 1/2 (1st), PLO 1/2 (1st).")
    adder.get_by_label("Name or initials").fill("Bo Chen")
    adder.get_by_label("NLHE 1/2").check()
    adder.get_by_label("Call-in (must check in)").check()
    adder.get_by_role("button", name="Add to the list").click()
    expect(adder).to_contain_text("Bo Chen added to NLHE 1/2 (2nd).")
    bo = panel(manager, "NLHE 1/2").locator("li.entry").filter(has_text="Bo Chen")
    expect(bo).to_contain_text("Call-in")
    expect(bo).to_contain_text(re.compile(r"check in by \d\d:\d\d"))

    # The kiosk at the podium: no log-in, big buttons, nobody else's name.
    kiosk = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    kiosk_errors: list[str] = []
    kiosk.on("console", lambda m: kiosk_errors.append(m.text) if m.type == "error" else None)
    kiosk.goto(f"{base}/kiosk/")
    expect(kiosk.get_by_role("heading", name="Put your name on the list")).to_be_visible()
    expect(kiosk.locator("body")).not_to_contain_text("Ana")
    kiosk.get_by_label("Your name or initials").fill("Cy Dunn")
    kiosk.get_by_label(re.compile(r"^Alias")).fill("Lucky")
    kiosk.get_by_role("checkbox", name=re.compile(r"^NLHE 1.2 ")).check()
    kiosk.get_by_role("checkbox", name=re.compile(r"^PLO 1.2 ")).check()
    submit = kiosk.get_by_role("button", name="Put me on the list")
    assert submit.bounding_box()["height"] >= 64  # type: ignore[index]  # a thumb's target
    submit.click()
    done = kiosk.get_by_role("status")
    expect(done).to_contain_text("You're on the list, Lucky")
    expect(done.locator("li")).to_have_text(["NLHE 1/2", "PLO 1/2"])  # no place: no tell
    expect(kiosk.locator("body")).not_to_contain_text("Ana")
    kiosk.screenshot(path="/tmp/friday-kiosk-done.png")
    kiosk.get_by_role("link", name="Done").click()
    kiosk.get_by_label("Your name or initials").fill("")
    kiosk.get_by_role("button", name="Put me on the list").click()
    expect(kiosk.get_by_role("alert").first).to_be_visible()  # a form error, not a crash
    kiosk.get_by_label("Your name or initials").fill("Di Egan")
    kiosk.get_by_role("checkbox", name=re.compile(r"^PLO 1.2 ")).check()
    kiosk.get_by_role("button", name="Put me on the list").click()
    expect(kiosk.get_by_role("status")).to_contain_text("You're on the list, D.E.")

    # The tablet sees the kiosk's players within a poll.
    expect(
        panel(tablet, "NLHE 1/2").locator("li.entry").filter(has_text="Cy Dunn")
    ).to_contain_text("Kiosk", timeout=A_POLL)

    # A seat opens at table 1 (a player cashes out at the desk). Bo, a call-in not yet here,
    # is passed over: Ana is next.
    with between_requests():  # the test thread writes while the pages poll
        leaving = TableSeat.objects.get(table=t1, seat=4, left_at__isnull=True)
        players.leave_seat(seat=leaving, by=fm)
    seat_row = panel(manager, "NLHE 1/2").locator("li.open-seat").filter(has_text="Table 1, seat")
    expect(seat_row).to_contain_text("Next: Ana Ruiz", timeout=A_POLL)
    seat_row.get_by_role("button", name=re.compile(r"^Call next")).click()
    offered = panel(manager, "NLHE 1/2").locator("li.open-seat.offered")
    expect(offered).to_contain_text("Ana Ruiz called")
    countdown = offered.locator(".countdown")
    expect(countdown).to_have_text(re.compile(r"^[23]:\d\d$"))
    first = countdown.inner_text()
    manager.wait_for_timeout(1_500)
    assert countdown.inner_text() != first, "the offer's timer counts down"

    # The tablet sees the offer, and seats her with her buy-in in one tap.
    tablet_offer = panel(tablet, "NLHE 1/2").locator("li.open-seat.offered")
    expect(tablet_offer).to_contain_text("Ana Ruiz called", timeout=A_POLL)
    buy_in = tablet_offer.get_by_label("Buy-in")
    expect(buy_in).to_have_value("40")  # the table's minimum
    buy_in.fill("150")
    tablet_offer.get_by_role("button", name=re.compile(r"^Seat")).click()
    expect(panel(tablet, "NLHE 1/2")).to_contain_text(
        "Ana Ruiz seated at Table 1, seat 4, with 150."
    )
    with between_requests():
        seated = TableSeat.objects.get(table=t1, seat=4, left_at__isnull=True)
        assert (seated.player.name, seated.stack) == ("Ana Ruiz", 150)
    # ... and the manager's screen follows within a few seconds.
    manager_seats = panel(manager, "NLHE 1/2").locator("li.open-seat")
    expect(manager_seats.filter(has_text="Table 1,")).to_have_count(0, timeout=A_POLL)
    expect(
        panel(manager, "NLHE 1/2").locator("li.entry").filter(has_text="Ana Ruiz")
    ).to_have_count(0)

    # Bo, the call-in, arrives and checks in.
    bo = panel(manager, "NLHE 1/2").locator("li.entry").filter(has_text="Bo Chen")
    bo.get_by_role("button", name="Check in Bo Chen").click()
    expect(panel(manager, "NLHE 1/2")).to_contain_text("Bo Chen checked in.")

    # Table 4 becomes a must-move feeding the 1/2 main game.
    must = manager.locator("section.must-moves")
    must.get_by_label("Table", exact=True).select_option(label="Table 4")
    must.get_by_label("Feeds the main game").select_option(label="NLHE 1/2")
    must.get_by_role("button", name="Make must-move").click()
    expect(manager.locator("section.must-moves")).to_contain_text("Table 4 must move to NLHE 1/2")

    # A seat opens at table 2: the must-move player longest at table 4 goes there first.
    with between_requests():
        players.leave_seat(
            seat=TableSeat.objects.get(table=t2, seat=7, left_at__isnull=True), by=fm
        )
    main_seat = panel(manager, "NLHE 1/2").locator("li.open-seat").filter(has_text="Table 2, seat")
    expect(main_seat).to_contain_text("Must-move first: Mia Must from Table 4", timeout=A_POLL)
    main_seat.get_by_role("button", name=re.compile(r"^Move here")).click()
    expect(manager.locator("#waitlists")).to_contain_text(
        "Mia Must moved from Table 4 to Table 2, seat 7."
    )
    with between_requests():
        moved = TableSeat.objects.get(table=t2, seat=7, left_at__isnull=True)
        assert (moved.player.name, moved.stack) == ("Mia Must", 80)  # chips travel with her

    # Two devices, one seat: the tablet's screen is stale (a "Change" box open pauses its
    # updates), the manager seats Bo at a seat of table 4; the tablet then taps the same seat.
    manager.reload()
    t4_seat = panel(manager, "NLHE 1/2").locator("li.open-seat").filter(has_text="Table 4, seat")
    expect(t4_seat).to_contain_text("Next: Bo Chen", timeout=A_POLL)
    tablet_t4 = panel(tablet, "NLHE 1/2").locator("li.open-seat").filter(has_text="Table 4, seat")
    expect(tablet_t4).to_contain_text("Next: Bo Chen", timeout=A_POLL)
    panel(tablet, "NLHE 1/2").locator("li.entry").filter(has_text="Cy Dunn").get_by_text(
        "Change"
    ).click()
    expect(tablet.locator("#waitlist-paused")).to_be_visible(timeout=A_POLL)
    t4_seat.get_by_role("button", name=re.compile(r"^Seat now")).click()
    expect(panel(manager, "NLHE 1/2")).to_contain_text("Bo Chen seated at Table 4")
    tablet_t4.get_by_role("button", name=re.compile(r"^Seat now")).click()
    refusal = panel(tablet, "NLHE 1/2").locator(".list-error")
    expect(refusal).to_contain_text("Someone else changed this first")
    tablet.screenshot(path="/tmp/friday-tablet-409.png", full_page=True)

    # Omaha reaches its threshold (Ana, Lucky, Di): a new table, seats drawn, verifiable.
    plo = panel(manager, "PLO 1/2")
    expect(plo).to_contain_text("open Table 6 for PLO 1/2")
    plo.get_by_role("button", name=re.compile(r"^Start Table 6")).click()
    plo = panel(manager, "PLO 1/2")
    expect(plo).to_contain_text("Table 6 is open: players seated.")
    expect(plo).to_contain_text("Commitment (SHA-256)")
    expect(plo).to_contain_text("replayed: the seats match the draw")
    with between_requests():
        on_six = set(
            TableSeat.objects.filter(table__number=6, left_at__isnull=True).values_list(
                "player__name", flat=True
            )
        )
    assert on_six == {"Cy Dunn", "Di Egan"}  # Ana is already playing at table 1
    manager.screenshot(path="/tmp/friday-manager-1366.png", full_page=True)
    tablet.screenshot(path="/tmp/friday-tablet-1024.png", full_page=True)

    # Every change is on the lists' log.
    with between_requests():
        kinds = set(WaitlistEvent.objects.values_list("kind", flat=True))
        kiosk_adds = WaitlistEntry.objects.filter(source="kiosk").count()
    assert {"added", "called", "seated", "checked_in", "moved", "started"} <= kinds
    assert kiosk_adds == 3

    # The public board: what is running, and who waits, by initials or alias only.
    board = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    board.goto(f"{base}/board/")
    cash = board.locator("section.board-cash")
    expect(cash.locator(".board-table").filter(has_text="Table 6")).to_be_visible(timeout=A_POLL)
    expect(cash.locator(".board-table").filter(has_text="Table 1")).to_contain_text("9/9")
    expect(cash.locator(".board-table").filter(has_text="Table 2")).to_contain_text("9/9")
    expect(cash).to_contain_text("Lucky")
    for full_name in ("Ana Ruiz", "Bo Chen", "Cy Dunn", "Di Egan", "Mia Must"):
        expect(board.locator("body")).not_to_contain_text(full_name)
    board.screenshot(path="/tmp/friday-board.png", full_page=True)

    assert manager_errors == []
    # The kiosk's only console error is the 422 its empty form was answered with.
    assert all("422" in error for error in kiosk_errors) and len(kiosk_errors) == 1, kiosk_errors
    # The tablet's only console error is the 409 its stale tap was answered with.
    assert all("409" in error for error in tablet_errors), tablet_errors
