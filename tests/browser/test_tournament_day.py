"""A whole tournament day in Chromium, from the first registration to the winner: the
director sets up an event on three new tables, pastes a list of 22 names (one twice: refused and left in the box),
draws the seats and starts the clock; edits a later level and adds time; a desk hand puts two
players out at once; the director enters a table's counts at the break, sets a chip set whose
smallest chip leaves at that break and races it off at a table; breaks a table with the
double-blind draw, announces hand-for-hand one off the final table, redraws the final table
and plays to the winner. The room display and the public board stay open all day, never
reloaded, and are read at each step; the results page lists every place.

Every director task is the director's own clicks and keys; only the hands that are not the
point (the blinds won once, the busts between the steps) are played with the desk's services.

``DAY_TIMINGS=1`` prints how long three director tasks take from the first click to the
result shown: 50 names registered by a paste, one table's counts, the colour-up (the chip set
and the race at one table)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.chips_out import put_out_holding_chips
from tests.browser.test_page_memory import Taps
from tests.conftest import between_requests

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The room display polls every 3 s and the board a little slower: one poll, with a margin.
ONE_POLL = 15_000

NAMES = [
    "Ana Ruiz", "Bo Lind", "Cy Moss", "Dee Dow", "Eve Ng", "Fay Lu", "Gus Hale", "Hal Ortiz",
    "Ida Berg", "Jo Quinn", "Kai Park", "Lea Roth", "Max Ueda", "Nia Vance", "Oli Wren",
    "Pia Xu", "Quin Yates", "Ray Zorn", "Sue Abel", "Tom Baird", "Uma Cole", "Vic Dunn",
]  # fmt: skip

LEVELS = "\n".join(
    ("100/200 20", "200/400 20", "break 10", "500/1000 20", "1000/2000 20", "2000/4000 20",
     "3000/6000 20", "5000/10000 20", "10000/20000 20")
)  # fmt: skip

#: A JS heap that grows without bound grows by tens of megabytes over a day's polls; a page's
#: own working set moves by a few.
HEAP_BOUND = 24 * 1024 * 1024


def initials(name: str) -> str:
    return "".join(f"{part[0]}." for part in name.split())


@contextmanager
def timed(what: str) -> Iterator[None]:
    started = time.monotonic()
    yield
    if os.environ.get("DAY_TIMINGS") == "1":
        print(f"\n[day] {what}: {time.monotonic() - started:.2f} s")


def heap(cdp: Any) -> int:
    """The page's JS heap in use after a forced garbage collection (DevTools' own figure)."""
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return int(metrics["JSHeapUsedSize"])


def dealt_seats(hand: Any) -> set[int]:
    return {int(entry["seat"]) for entry in hand.seats}


def bust_one(tournament: Any, number: int, director: Any) -> None:
    """A hand at the tournament's table ``number`` played with the desk's services: the
    shortest stack dealt in moves all in and the biggest calls and wins (a player waiting for
    the button sits the hand out: the next hand then)."""
    from tests.tournaments.test_table_hands import chips, play, room, settle
    from tournaments import table_hands

    for _ in range(4):
        with between_requests():
            stacks = chips(tournament, number)
            hand = table_hands.deal_tournament_hand(table=room(tournament, number), by=director)
            dealt = {seat: stack for seat, stack in stacks.items() if seat in dealt_seats(hand)}
            winner = max(dealt, key=lambda seat: dealt[seat])
            loser = min((s for s in dealt if s != winner), key=lambda seat: dealt[seat])
            hand = play(hand, director, {loser: "all_in", winner: "call"})
            settle(hand, director, [[winner], [loser]])
            if loser not in chips(tournament, number):
                return
    raise AssertionError(f"nobody was put out at table {number} in four hands")


def fold_round(tournament: Any, number: int, director: Any) -> None:
    """A hand folded round to the big blind, with the desk's services."""
    from tests.tournaments.test_table_hands import play, room, settle
    from tournaments import table_hands

    with between_requests():
        hand = table_hands.deal_tournament_hand(table=room(tournament, number), by=director)
        settle(play(hand, director, {}), director)


def seated(tournament: Any) -> dict[int, int]:
    """Players seated at each of the tournament's tables in play (its own numbers)."""
    from tournaments.models import SeatAssignment

    with between_requests():
        counts: dict[int, int] = {}
        for number in SeatAssignment.objects.filter(
            tournament=tournament, ended_at__isnull=True
        ).values_list("table__number", flat=True):
            counts[number] = counts.get(number, 0) + 1
        return counts


def next_level(page: Any, base: str, tournament: Any) -> None:
    """The clock page's Next level, and the confirmation it asks for."""
    page.goto(f"{base}/tournaments/{tournament.pk}/clock/")
    page.get_by_role("button", name="Next level").click()
    page.get_by_role("button", name="Yes, next level").click()


def test_a_tournament_day_from_a_pasted_list_to_the_winner(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.tournaments.test_table_hands import at, chips
    from tournaments.models import Tournament

    base = live_server.url
    page = login_page("td")
    page.on("dialog", lambda dialog: dialog.accept())  # "Eliminate <name>?" once out of chips

    # 1. The event, on three new tables of eight numbered from 101.
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name", exact=True).fill("Saturday Main")
    page.get_by_label("Seats per table").fill("8")
    page.get_by_label("New tables").fill("3")
    page.get_by_label("Numbered from").fill("101")
    page.get_by_label("Levels").fill(LEVELS)
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Saturday Main")).to_be_visible()
    for number in (101, 102, 103):
        expect(page.get_by_role("heading", name=f"Table {number}")).to_be_visible()
    tournament = Tournament.objects.get(name="Saturday Main")

    # 2. The list pasted: 22 names, one of them twice. The second is refused, left in the box.
    names_box = page.get_by_label("Names", exact=True)
    names_box.click()
    page.keyboard.insert_text("\n".join([*NAMES[:10], "Cy Moss", *NAMES[10:]]))
    page.get_by_role("button", name="Register").click()
    results = page.locator("#registration-results")
    expect(results).to_contain_text("Vic Dunn registered (#22).")
    expect(results.get_by_role("alert")).to_have_count(1)
    expect(results).to_contain_text("Cy Moss is already entered (#3).")
    expect(names_box).to_have_value("Cy Moss\n")
    expect(page.locator("#entrant-tab-all")).to_contain_text("(22)")

    page.reload()
    page.get_by_role("button", name="Initial draw").click()
    expect(page.locator("#commitment-hash")).to_be_visible()
    page.get_by_role("button", name="Deal the draw").click()
    expect(page.locator("#dealt-cards tbody tr")).to_have_count(22)
    page.get_by_role("link", name="Back to Saturday Main").click()
    table_map = page.locator("#table-map")
    drawn = seated(tournament)
    assert sorted(drawn.values()) == [7, 7, 8]
    for number, players in drawn.items():
        heading = table_map.get_by_role("heading", name=f"Table {100 + number}")
        expect(heading).to_contain_text(f"{players}/8")
    # The new tables are set up closed: the desk deals only at an open one.
    for number in (101, 102, 103):
        page.get_by_role("button", name=f"Open room table {number}").click()
        expect(page.get_by_role("button", name=f"Open room table {number}")).to_have_count(0)
    page.get_by_text("Close registration…").click()
    page.get_by_role("button", name="Close registration now").click()
    expect(page.locator(".messages")).to_contain_text("Registration and re-entry are closed")

    page.get_by_role("link", name="Clock", exact=True).click()
    page.get_by_role("button", name="Start clock").click()
    expect(page.locator("#clock-state")).to_have_text("Running")

    # The room display and the public board, open all day and never reloaded.
    display = page.context.new_page()
    display.goto(f"{base}/tournaments/{tournament.pk}/clock/display/")
    expect(display.locator("#room-level")).to_have_text("Level 1")
    expect(display.locator("#room-players")).to_have_text("22 / 22")
    expect(display.locator("#room-next")).to_have_text("Level 2 · 200 / 400")
    cdp = page.context.new_cdp_session(display)
    cdp.send("Performance.enable")
    heap_at_start = heap(cdp)
    board = page.context.new_page()
    board.goto(f"{base}/board/")
    event = board.get_by_role("article", name="Saturday Main")
    expect(event).to_contain_text("Players 22 / 22")
    expect(event).to_contain_text("Next: Level 2 · 200 / 400")

    # 3. A later level edited and time added on the clock page; both screens follow.
    row = page.locator("#clock-structure tbody tr").nth(1)
    row.get_by_label("Level 2 small blind").fill("300")
    row.get_by_label("Level 2 big blind").fill("600")
    row.get_by_label("Why Level 2 changes").fill("Field of 22: faster")
    row.get_by_role("button", name="Save").click()
    changes = page.locator("#structure-changes")
    expect(changes).to_contain_text("Field of 22: faster")
    expect(changes).to_contain_text("300 / 600")
    page.get_by_label("Why the time changes").fill("Late start")
    page.get_by_role("button", name="+5 min").click()
    expect(changes).to_contain_text("Late start")
    expect(display.locator("#room-next")).to_have_text("Level 2 · 300 / 600", timeout=ONE_POLL)
    expect(display.locator("#room-time")).to_have_text(re.compile(r"^2[45]:\d\d$"))
    expect(event).to_contain_text("Next: Level 2 · 300 / 600", timeout=ONE_POLL)

    # 4. Two players out on one hand at the desk of table 101. The blinds won once (a hand
    # folded round, the desk's services) make the big blind the one bigger stack there.
    fold_round(tournament, 1, director)
    with between_requests():
        stacks = chips(tournament, 1)
    big = max(stacks, key=lambda seat: stacks[seat])
    page.goto(f"{base}/tables/101/desk/")
    taps = Taps(page)
    taps.key("d")
    expect(page.locator(".hand-facts")).to_be_visible()
    all_in: list[int] = []
    while page.locator(".to-act-line").count():
        text = page.locator(".to-act-line").inner_text()
        found = re.search(r"Seat (\d+) to act", text)
        assert found is not None, text
        seat = int(found.group(1))
        if seat == big:
            taps.key("c")
        elif len(all_in) < 2 and stacks[seat] == 20_000:
            all_in.append(seat)
            taps.key("a")
        else:
            taps.key("f")
    assert len(all_in) == 2
    pots = page.locator(f'#showdown input[value="{big}"][name$="-high-0"]')
    expect(pots).to_have_count(1)
    pots.check()
    expect(page.locator("#push")).to_be_enabled()
    taps.key("p")
    expect(page.locator("#awarded")).to_be_visible()
    expect(page.locator(".award-row")).to_have_count(drawn[1])
    expect(display.locator("#room-players")).to_have_text("20 / 22", timeout=ONE_POLL)
    expect(event).to_contain_text("Players 20 / 22", timeout=ONE_POLL)

    # The results, in play: the two out on that hand are 21st and 22nd, the same hand beside
    # each; everyone else still in.
    page.goto(f"{base}/tournaments/{tournament.pk}/")
    page.get_by_role("link", name="Results", exact=True).first.click()
    expect(page.locator("#results-winner")).to_have_text("not yet: in play")
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(22)
    expect(rows.nth(19)).to_contain_text("still in")
    for row, place in ((rows.nth(20), "21"), (rows.nth(21), "22")):
        expect(row.locator("td").first).to_have_text(place)
        expect(row).to_contain_text(re.compile(r"Table 101 hand #\d+"))
    hand_cells = [rows.nth(n).locator("td").nth(3).inner_text() for n in (20, 21)]
    assert hand_cells[0] == hand_cells[1], hand_cells
    page.get_by_role("link", name="Back to the tournament").click()

    # 6 (announced before the break). The chip set: the 100s leave at the break after
    # Level 2, and the room display announces it through Level 2 (CR-CU.2).
    with timed("colour-up: the chip set (four chips)"):
        page.get_by_role("link", name="Chips and colour-ups").click()
        for value, colour, leaves in (
            ("100", "green", "Break after Level 2 (step 3)"),
            ("500", "purple", "Plays to the end"),
            ("1000", "yellow", "Plays to the end"),
            ("5000", "orange", "Plays to the end"),
        ):
            page.get_by_label("Value").fill(value)
            page.get_by_label("Colour", exact=True).fill(colour)
            page.get_by_label("Leaves play at").select_option(label=leaves)
            page.get_by_role("button", name="Save chip").click()
            expect(page.locator(f"#chip-{value}")).to_be_visible()
    expect(page.locator("#chip-100")).to_contain_text("at the break (step 3)")
    next_level(page, base, tournament)
    expect(display.locator("#room-level")).to_have_text("Level 2", timeout=ONE_POLL)
    expect(display.locator("#room-colour-up")).to_have_text(
        "Colour-up at this break: 100 chips (green) leave play", timeout=ONE_POLL
    )
    next_level(page, base, tournament)
    expect(display.locator("#room-break")).to_be_visible(timeout=ONE_POLL)

    # 5. At the break, table 101's counts as the dealer reads them: the first player's count
    # is 1,000 more than the desk kept; the room display's average moves.
    expect(display.locator("#room-average")).to_have_text("22,000")
    page.goto(f"{base}/tournaments/{tournament.pk}/")
    with timed("one table's counts"):
        page.get_by_role("link", name="Enter counts at table 101").click()
        form = page.locator("#counts-form-1")
        boxes = form.get_by_role("textbox")
        expect(boxes.first).to_be_focused()
        first = int(boxes.first.input_value())
        page.keyboard.press("Control+a")
        page.keyboard.type(str(first + 1_000))
        for _ in range(drawn[1] - 3):  # to the last player's box, then to Why
            page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        expect(form.get_by_label("Why")).to_be_focused()
        page.keyboard.type("Counts at the first break")
        page.keyboard.press("Enter")
        expect(page.locator("#table-map")).to_contain_text(
            f"Table 101 counted: {drawn[1] - 2} counts recorded."
        )
    expect(page.locator("#chip-check")).to_contain_text("1,000 more than bought")
    expect(display.locator("#room-average")).to_have_text("22,050", timeout=ONE_POLL)

    # 6. The race at table 101, from the counts just entered.
    with timed("colour-up: the race at one table"):
        page.get_by_role("link", name="Chips and colour-ups").click()
        page.get_by_role("link", name="Race table 101").click()
        page.get_by_label("From the chip counts").check()
        page.get_by_role("button", name="Preview the race").click()
        expect(page.locator("#race-preview")).to_contain_text("The race, as it will be recorded")
        page.get_by_role("button", name="Confirm and record").click()
        expect(page.locator("#race-result tbody tr")).to_have_count(drawn[1] - 2)
    expect(page.locator("h1")).to_contain_text("Saturday Main · Table 101")
    with between_requests():
        raced = chips(tournament, 1)
    assert all(count % 500 == 0 and count > 0 for count in raced.values()), raced
    next_level(page, base, tournament)
    expect(display.locator("#room-level")).to_have_text("Level 3", timeout=ONE_POLL)
    expect(display.locator("#room-colour-up")).to_be_hidden()

    # 7. Four more out, the fullest table losing one each time (16 left); then table 103 is
    # broken with the double-blind draw: its players fill the open seats at 101 and 102.
    while sum(seated(tournament).values()) > 16:
        now = seated(tournament)
        bust_one(tournament, max(now, key=lambda number: now[number]), director)
    breaking = seated(tournament)[3]
    page.goto(f"{base}/tournaments/{tournament.pk}/")
    page.get_by_role("link", name="Break table 103").click()
    page.get_by_role("button", name="Step 1: show the seat cards").click()
    expect(page.locator("#seat-cards li")).to_have_count(breaking)
    page.get_by_role("button", name="Step 2: deal the cards").click()
    expect(page.locator("#dealt-cards tbody tr")).to_have_count(breaking)
    page.get_by_role("link", name="Back to Saturday Main").click()
    expect(page.locator("#ttable-3")).to_contain_text("Broken")
    table_map = page.locator("#table-map")
    expect(table_map.get_by_role("heading", name="Table 101")).to_contain_text("8/8")
    expect(table_map.get_by_role("heading", name="Table 102")).to_contain_text("8/8")
    expect(display.locator("#room-players")).to_have_text("16 / 22", timeout=ONE_POLL)

    # Down to nine, the tables kept even; then hand-for-hand, one off the final table.
    while sum(seated(tournament).values()) > 9:
        now = seated(tournament)
        bust_one(tournament, max(now, key=lambda number: now[number]), director)
    assert sorted(seated(tournament).values()) == [4, 5]
    page.reload()
    page.get_by_role("button", name="Announce hand-for-hand").click()
    expect(page.locator("#clock-panel")).to_contain_text("Hand-for-hand since")
    expect(display.locator("#room-hand-for-hand")).to_be_visible(timeout=ONE_POLL)
    now = seated(tournament)
    fuller = max(now, key=lambda number: now[number])
    bust_one(tournament, fuller, director)
    fold_round(tournament, 3 - fuller, director)
    page.reload()
    # Both tables played hand 1 (one player out at the fuller): hand 2 is released.
    expect(page.locator("#hand-for-hand-round")).to_contain_text(
        "Hand 2: 0 of 2 tables have played"
    )
    page.get_by_role("button", name="Final table redraw").click()
    page.get_by_role("button", name="Deal the draw").click()
    expect(page.locator("#dealt-cards tbody tr")).to_have_count(8)
    page.get_by_role("link", name="Back to Saturday Main").click()
    expect(page.locator(".tournament-panels")).not_to_contain_text("Hand-for-hand since")
    final = [number for number, players in seated(tournament).items() if players]
    assert len(final) == 1 and seated(tournament)[final[0]] == 8
    expect(
        page.locator("#table-map").get_by_role("heading", name=f"Table {100 + final[0]}")
    ).to_contain_text("8/8")
    expect(display.locator("#room-players")).to_have_text("8 / 22", timeout=ONE_POLL)
    page.get_by_role("link", name="Results", exact=True).first.click()
    rows = page.locator("#results tbody tr")
    expect(rows.nth(7)).to_contain_text("still in")
    expect(rows.nth(8).locator("td").first).to_have_text("9")  # out on hand-for-hand hand 1
    page.get_by_role("link", name="Back to the tournament").click()
    expect(display.locator("#room-hand-for-hand")).to_be_hidden(timeout=ONE_POLL)

    # 8. Down to two with the desk's services; the director puts the last player out.
    while sum(seated(tournament).values()) > 2:
        bust_one(tournament, final[0], director)
    with between_requests():
        stacks = chips(tournament, final[0])
        winner_seat, loser_seat = sorted(stacks, key=lambda seat: -stacks[seat])
        winner, second = at(tournament, winner_seat, final[0]), at(tournament, loser_seat, final[0])
    page.reload()
    put_out_holding_chips(page, second.name, reason="Lost heads-up away from the desk")
    expect(page.locator("#winner")).to_contain_text(f"Winner: {winner.name}")

    expect(display.locator("#room-finish")).to_be_visible(timeout=ONE_POLL)
    expect(display.locator("#room-winner")).to_have_text(initials(winner.name))
    expect(display.locator("#room-standings li")).to_have_count(10)  # the best ten places
    expect(display.locator("#room-standings li").nth(1)).to_have_text(f"2 {initials(second.name)}")
    expect(display.locator("#room-state")).to_have_text("Tournament over")
    expect(event).to_contain_text("Finished", timeout=ONE_POLL)
    expect(event.locator(".board-winner-name")).to_have_text(initials(winner.name))
    for name in NAMES:
        expect(board.locator("body")).not_to_contain_text(name)
    if folder := os.environ.get("DAY_SCREENSHOTS"):
        display.screenshot(path=f"{folder}/room-display.png")
        board.screenshot(path=f"{folder}/board.png", full_page=True)

    page.get_by_role("link", name="Results, every place").click()
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(22)
    expect(rows.nth(0)).to_contain_text("1 (winner)")
    expect(rows.nth(0)).to_contain_text(winner.name)
    expect(rows.nth(1)).to_contain_text(second.name)
    expect(rows.nth(1)).to_contain_text("put out by the director")
    csv_link = page.get_by_role("link", name="CSV")
    expect(csv_link).to_be_visible()
    csv = page.request.get(f"{base}{csv_link.get_attribute('href')}")
    assert csv.ok
    lines = csv.text().strip().splitlines()
    assert len(lines) == 23 and lines[0].startswith("place,place_note,name"), lines[
        :2
    ]  # a header, 22 places

    # The room display, open all day: its JS heap did not grow without bound.
    heap_at_end = heap(cdp)
    if os.environ.get("DAY_TIMINGS") == "1":
        print(f"\n[day] room display JS heap: {heap_at_start:,} -> {heap_at_end:,} bytes")
    assert heap_at_end <= heap_at_start + HEAP_BOUND, (heap_at_start, heap_at_end)

    if os.environ.get("DAY_TIMINGS") == "1":
        from tests.tournaments.factories import make_tournament

        with between_requests():
            second_event = make_tournament(
                by=director, tables=6, seats_per_table=9, first_table=201, name="Sunday Main"
            )
        page.goto(f"{base}/tournaments/{second_event.pk}/")
        box = page.get_by_label("Names", exact=True)
        with timed("50 names registered by a paste"):
            box.click()
            page.keyboard.insert_text("\n".join(f"Guest {i} Player" for i in range(1, 51)))
            page.get_by_role("button", name="Register").click()
            expect(page.locator("#registration-results")).to_contain_text(
                "Guest 50 Player registered (#50)."
            )
        expect(page.locator("#registration-results .message.success")).to_have_count(50)
