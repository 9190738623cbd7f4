"""The floor in Chromium: open dashboards follow the tables within one poll, with or without a
filter, with a poll address that never grows, and recover by themselves after failed polls."""

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: One poll every 3 s: a change shows by the next poll (plus the time to answer it).
ONE_POLL = 4_500

#: Collects the page's htmx "no target for an out-of-band swap" errors. Playwright injects it
#: before the page's scripts, outside the page's CSP.
OOB_LISTENER = """
window.__oobErrors = [];
document.addEventListener("htmx:oobErrorNoTarget", function (event) {
  window.__oobErrors.push(String(event.detail && event.detail.target));
});
"""


class Floor:
    """One open floor page in its own browser context (its own log-in), watched as it polls."""

    def __init__(self, browser: Any, base: str, username: str, path: str = "/floor/") -> None:
        from tests.factories import TEST_PASSWORD

        self.context = browser.new_context(viewport={"width": 1366, "height": 900})
        self.page = self.context.new_page()
        self.polls: list[str] = []
        self.statuses: list[int] = []
        self.console_errors: list[str] = []
        self.page.add_init_script(OOB_LISTENER)
        self.page.on("request", self._request)
        self.page.on("response", self._response)
        self.page.on(
            "console", lambda m: self.console_errors.append(m.text) if m.type == "error" else None
        )
        self.page.goto(f"{base}/login/")
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(TEST_PASSWORD)
        self.page.get_by_role("button", name="Log in").click()
        expect(self.page.get_by_role("heading", name="Floor")).to_be_visible()
        self.page.wait_for_load_state()  # htmx has wired the page up
        if path != "/floor/":
            self.page.goto(f"{base}{path}")

    def _request(self, request: Any) -> None:
        if "/floor/updates/" in request.url:
            self.polls.append(request.url)

    def _response(self, response: Any) -> None:
        if "/floor/updates/" in response.url:
            self.statuses.append(response.status)

    def card(self, number: int) -> Any:
        return self.page.locator(f"#card-{number}")

    def oob_errors(self) -> list[str]:
        errors: list[str] = self.page.evaluate("window.__oobErrors || []")
        return errors + [text for text in self.console_errors if "oobErrorNoTarget" in text]

    def wait_for_polls(self, count: int) -> None:
        """Let ``count`` more polls go out (and their answers come back)."""
        wanted = len(self.polls) + count
        for _ in range(count * 40):
            if len(self.polls) >= wanted and len(self.statuses) >= wanted:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"the page stopped polling ({len(self.polls)} polls)")


def start_tournament(director: Any) -> Any:
    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import start_clock
    from tournaments.draw_services import draw_initial_seating

    tournament = make_tournament(
        by=director, tables=2, entrants=12, first_table=41, name="Sunday Turbo"
    )
    draw_initial_seating(tournament=tournament, by=director)
    start_clock(tournament=tournament, by=director)
    return tournament


def seated_at(tournament: Any, number: int) -> int:
    live = tournament.assignments.filter(table__number=number, ended_at__isnull=True)
    return int(live.count())


def act(hand: Any, by: Any, seat: int, action: str) -> None:
    from cardroom.tables.models import Hand
    from cardroom.tables.services import record_action

    hand = Hand.objects.get(pk=hand.pk)
    record_action(hand=hand, by=by, expected_seq=hand.seq, seat=seat, action=action)


def test_open_floor_pages_follow_every_change_within_one_poll(
    live_server: Any, browser: Any, floor_manager: Any, director: Any, staff: Any
) -> None:
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    from cardroom.rulings.services import log_ruling
    from cardroom.tables.models import Hand, Table
    from cardroom.tables.services import set_table_status, start_hand
    from tests.factories import make_table
    from tests.tournaments.factories import bust
    from tournaments.clock.services import advance_level

    call_command("load_rulebook", verbosity=0)
    cash = make_table(number=1, by=floor_manager)
    closed = make_table(number=2, by=floor_manager, status="closed")
    tournament = start_tournament(director)
    seats = [{"seat": s, "stack": 200} for s in (1, 2, 3)]
    hand = start_hand(table=cash, by=floor_manager, button=1, seats=seats)
    # Dealt a minute before anyone opened the floor.
    Hand.objects.filter(pk=hand.pk).update(updated_at=timezone.now() - timedelta(minutes=1))

    everything = Floor(browser, live_server.url, "fm")
    filtered = Floor(browser, live_server.url, "staffer", "/floor/?tournament=yes")
    both = (everything, filtered)
    expect(filtered.page.locator(".table-card")).to_have_count(2)  # tables 41 and 42 only
    for floor in both:
        expect(floor.card(41)).to_contain_text("Level 1: 100/200")

    # The pot, the street, the end of the hand, a new deal: the unfiltered page follows each.
    expect(everything.card(1)).to_contain_text("Hand #1: preflop, pot 3")
    act(hand, floor_manager, 1, "call")
    expect(everything.card(1)).to_contain_text("Hand #1: preflop, pot 5", timeout=ONE_POLL)
    act(hand, floor_manager, 2, "call")
    act(hand, floor_manager, 3, "check")
    expect(everything.card(1)).to_contain_text("Hand #1: flop, pot 6", timeout=ONE_POLL)
    act(hand, floor_manager, 2, "fold")
    act(hand, floor_manager, 3, "fold")
    expect(everything.card(1)).to_contain_text("No hand in progress", timeout=ONE_POLL)
    start_hand(table=cash, by=floor_manager, button=2, seats=seats)
    expect(everything.card(1)).to_contain_text("Hand #2: preflop, pot 3", timeout=ONE_POLL)

    # Open and close, at a table outside the filtered page's filter.
    set_table_status(table=closed, by=floor_manager, status="open")
    expect(everything.card(2)).to_contain_text("Open", timeout=ONE_POLL)

    # A ruling, a seat change and a new level at a tournament table: both pages follow.
    log_ruling(
        table=Table.objects.get(number=41), director=director,
        situation="Seat 3 acted out of turn.", decision="The action stands.",
        citations=[("TDA-45", "")],
    )  # fmt: skip
    for floor in both:
        expect(floor.card(41)).to_contain_text("Ruling 1", timeout=ONE_POLL)
    before = seated_at(tournament, 1)
    out = tournament.assignments.filter(table__number=1, ended_at__isnull=True).first()
    bust(entrant=out.entrant, by=director)
    for floor in both:
        expect(floor.card(41)).to_contain_text(f"Seats: {before - 1}/9", timeout=ONE_POLL)
    advance_level(tournament=tournament, by=director)
    for floor in both:
        expect(floor.card(41)).to_contain_text("Level 2: 200/400", timeout=ONE_POLL)
    expect(filtered.page.locator(".table-card")).to_have_count(2)

    for floor in both:
        floor.wait_for_polls(2)
        assert len(floor.polls) >= 8
        # A fixed-size request: the cursor is replaced, never appended.
        assert len({len(url) for url in floor.polls}) == 1, floor.polls[:3]
        assert "since=" not in floor.polls[-1]
        assert set(floor.statuses) == {200}
        assert floor.oob_errors() == []
    assert "tournament=yes" in filtered.polls[-1]


def test_a_filter_chosen_on_the_page_gets_no_card_it_does_not_show(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    from cardroom.tables.services import set_table_status, start_hand, update_table
    from tests.factories import make_table

    tables = {n: make_table(number=n, by=floor_manager) for n in (1, 2, 3)}
    set_table_status(table=tables[3], by=floor_manager, status="closed")
    floor = Floor(browser, live_server.url, "staffer")
    floor.page.get_by_label("Status").select_option("open")
    expect(floor.page.locator(".table-card")).to_have_count(2)
    expect(floor.card(3)).to_have_count(0)
    floor.wait_for_polls(1)
    assert "status=open" in floor.polls[-1]

    # Table 3 opens: it joins the filter, and the page shows it.
    set_table_status(table=tables[3], by=floor_manager, status="open")
    expect(floor.card(3)).to_contain_text("Open", timeout=ONE_POLL)
    # Table 1 closes: it leaves the filter and the page; a deal at table 2 still shows.
    set_table_status(table=tables[1], by=floor_manager, status="closed")
    expect(floor.card(1)).to_have_count(0, timeout=ONE_POLL)
    seats = [{"seat": s, "stack": 200} for s in (1, 2)]
    start_hand(table=tables[2], by=floor_manager, button=1, seats=seats)
    expect(floor.card(2)).to_contain_text("Hand #1", timeout=ONE_POLL)
    # A change at the closed table (outside the filter) sends nothing to this page.
    update_table(table=tables[1], by=floor_manager, name="Feature table")
    floor.wait_for_polls(2)
    assert floor.oob_errors() == []
    assert len({len(url) for url in floor.polls}) == 1


def test_a_floor_page_recovers_by_itself_after_failed_polls(
    live_server: Any, browser: Any, floor_manager: Any, staff: Any
) -> None:
    from cardroom.tables.services import start_hand
    from tests.factories import make_table

    table = make_table(number=1, by=floor_manager)
    floor = Floor(browser, live_server.url, "staffer")
    failures: list[str] = []

    def fail_three(route: Any) -> None:
        if len(failures) < 3:
            failures.append(route.request.url)
            if len(failures) == 2:
                route.abort("connectionreset")  # the network drops
            else:
                route.fulfill(status=500, body="boom")
            return
        route.continue_()

    handler: Callable[[Any], None] = fail_three
    floor.page.route("**/floor/updates/**", handler)
    seats = [{"seat": s, "stack": 200} for s in (1, 2, 3)]
    hand = start_hand(table=table, by=floor_manager, button=1, seats=seats)
    expect(floor.page.locator("#notice")).to_be_visible(timeout=ONE_POLL)
    expect(floor.card(1)).to_contain_text("Hand #1: preflop, pot 3", timeout=4 * ONE_POLL)
    assert len(failures) == 3
    expect(floor.page.locator("#notice")).to_be_hidden()
    # Later changes keep arriving.
    act(hand, floor_manager, 1, "call")
    expect(floor.card(1)).to_contain_text("pot 5", timeout=ONE_POLL)
    assert floor.oob_errors() == []


def test_focus_stays_on_a_card_the_poll_changes(
    live_server: Any, browser: Any, floor_manager: Any
) -> None:
    from cardroom.tables.services import start_hand
    from tests.factories import make_table

    table = make_table(number=1, by=floor_manager)
    make_table(number=2, by=floor_manager)
    floor = Floor(browser, live_server.url, "fm")
    desk = floor.card(1).get_by_role("link", name="Desk")
    desk.focus()
    # Onto Close, two controls before Desk: a floor manager's cash card has Ruling between.
    floor.page.keyboard.press("Shift+Tab")
    expect(floor.card(1).get_by_role("link", name="Ruling")).to_be_focused()
    floor.page.keyboard.press("Shift+Tab")
    close = floor.card(1).get_by_role("button", name="Close")
    expect(close).to_be_focused()
    seats = [{"seat": s, "stack": 200} for s in (1, 2, 3)]
    start_hand(table=table, by=floor_manager, button=1, seats=seats)
    expect(floor.card(1)).to_contain_text("Hand #1", timeout=ONE_POLL)
    expect(floor.card(1).get_by_role("button", name="Close")).to_be_focused()
    floor.page.keyboard.press("Tab")
    floor.page.keyboard.press("Tab")
    floor.page.keyboard.press("Enter")
    expect(floor.page.get_by_role("heading", name="Table 1")).to_be_visible()


def cards_in_first_row(page: Any) -> int:
    tops = page.eval_on_selector_all(
        ".table-card", "cards => cards.map(card => Math.round(card.getBoundingClientRect().top))"
    )
    return sum(1 for top in tops if abs(top - tops[0]) <= 2)


@pytest.mark.parametrize(("width", "per_row"), [(1366, 5), (1024, 3)])
def test_a_room_fits_on_one_screen(
    live_server: Any, browser: Any, floor_manager: Any, director: Any, staff: Any,
    width: int, per_row: int,
) -> None:  # fmt: skip
    """Five cards a row at 1366 px, three at 1024 px, each with the facts a floor person scans
    first; a tournament table shows the tournament's level and who is seated there now."""
    from cardroom.tables.services import start_hand
    from tests.factories import make_table

    for number in range(1, 9):
        make_table(number=number, by=floor_manager, small_blind=2, big_blind=5)
    seats = [{"seat": s, "stack": 500} for s in (1, 2, 4)]
    start_hand(table=make_table(number=9, by=floor_manager), by=floor_manager, button=1,
               seats=seats)  # fmt: skip
    tournament = start_tournament(director)
    floor = Floor(browser, live_server.url, "staffer")
    floor.page.set_viewport_size({"width": width, "height": 800})
    expect(floor.page.locator(".table-card")).to_have_count(11)
    assert cards_in_first_row(floor.page) >= per_row
    # Nothing spills out of a card.
    spilled = floor.page.eval_on_selector_all(
        ".table-card", "cards => cards.filter(c => c.scrollWidth > c.clientWidth).map(c => c.id)"
    )
    assert spilled == []

    cash = floor.card(2)
    expect(cash).to_contain_text("2/5 NL Hold'em")
    expect(cash).to_contain_text("Seated 0/9 · all open")  # its seat map, empty
    expect(cash).to_contain_text("No hand in progress")
    live = floor.card(9)
    expect(live).to_contain_text("Hand #1: preflop, pot 3")
    expect(live).to_contain_text("Seats: 3/9 · open 3, 5, 6, 7, 8, 9")
    at_41 = floor.card(41)
    expect(at_41).to_contain_text("Sunday Turbo")
    expect(at_41).to_contain_text("Level 1: 100/200")
    expect(at_41).not_to_contain_text("1/2")  # the room table's cash blinds
    seated = sorted(
        tournament.assignments.filter(table__number=1, ended_at__isnull=True).values_list(
            "seat", flat=True
        )
    )
    open_seats = ", ".join(str(s) for s in range(1, 10) if s not in seated)
    expect(at_41).to_contain_text(f"Seats: {len(seated)}/9 · open {open_seats}")


def test_a_ruling_from_the_dashboard_reaches_another_dashboard(
    login_page: Any, director: Any, staff: Any, live_server: Any, browser: Any
) -> None:
    from django.core.management import call_command

    from tests.factories import TEST_PASSWORD, make_table

    call_command("load_rulebook", verbosity=0)
    make_table(number=4)

    # A second device: staff watching the floor.
    watcher = browser.new_page()
    watcher.goto(f"{live_server.url}/login/")
    watcher.get_by_label("Username").fill("staffer")
    watcher.get_by_label("Password").fill(TEST_PASSWORD)
    watcher.get_by_role("button", name="Log in").click()
    expect(watcher.get_by_role("heading", name="Floor")).to_be_visible()
    expect(watcher.locator("#feed")).to_contain_text("No rulings yet")

    page = login_page("td")
    expect(page.get_by_role("heading", name="Floor")).to_be_visible()
    page.locator("#card-4").get_by_role("link", name="Ruling").click()
    # The card's table is chosen on the form, from the room's tables.
    expect(page.get_by_label("Table", exact=True)).to_have_value("4")
    page.get_by_label("Situation").fill("Seat 3 put out a 1000 and two 500s facing 1400, silently.")
    page.get_by_label("Decision").fill("A call: short of the 50% threshold.")
    page.get_by_label("Find a rule (words or id)").fill("multiple chips")
    option = page.locator("#cite-results .cite-option", has_text="TDA-45")
    expect(option).to_be_visible()
    option.click()
    expect(page.locator("#cited")).to_contain_text("TDA-45")
    page.locator("#cited").get_by_label("Pinpoint").fill("Example 4-B")
    page.get_by_role("button", name="Log ruling").click()
    expect(page.get_by_role("heading", name="Table 4 ruling 1")).to_be_visible()
    expect(page.locator(".ruling")).to_contain_text("Example 4-B")

    # The watcher's page polls /floor/updates/: the ruling arrives without a reload.
    expect(watcher.locator("#feed")).to_contain_text("Table 4 · ruling 1", timeout=10_000)
    expect(watcher.locator("#feed")).to_contain_text("TDA-45")
    expect(watcher.locator("#card-4")).to_contain_text("Ruling 1")


def test_closing_a_table_with_players_seated_asks_naming_them(
    live_server: Any, browser: Any, floor_manager: Any
) -> None:
    """Close on a card with players seated asks "Close it anyway?" naming them; only the
    second button closes it; the closed table's desk says so instead of offering a Deal."""
    from cardroom.seats import services as players
    from cardroom.tables.models import Table
    from tests.factories import make_table

    table = make_table(number=2, by=floor_manager)
    for seat, name in ((1, "Ann Lee"), (4, "Bo Chan"), (7, "Cy Dunn")):
        player = players.find_or_create_player(name=name, by=floor_manager)
        players.seat_player(table=table, player=player, seat=seat, buy_in=100, by=floor_manager)
    floor = Floor(browser, live_server.url, "fm")
    floor.card(2).get_by_role("button", name="Close", exact=True).click()
    expect(floor.card(2).get_by_role("alert")).to_contain_text(
        "Table 2 still has 3 players seated: Ann Lee, Bo Chan, Cy Dunn. Close it anyway?"
    )
    assert Table.objects.get(number=2).status == "open"
    floor.card(2).get_by_role("button", name="Close anyway").click()
    expect(floor.card(2).get_by_role("button", name="Open")).to_be_visible()
    assert Table.objects.get(number=2).status == "closed"
    floor.page.goto(f"{live_server.url}/tables/2/desk/")
    expect(floor.page.locator("#proposal")).to_contain_text("Table closed")
    expect(floor.page.get_by_role("button", name="Deal")).to_have_count(0)
