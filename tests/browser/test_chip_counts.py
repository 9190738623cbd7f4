"""A table's counts entered on the director's page in Chromium, with the keyboard: the form of
the seated players with their counts comes up under the table, Tab goes box to box, Enter
records them; the table map says so, the chips-in-play line shows the difference, and the room
display open on another page shows the new average and the chip leaders at its next poll.

``CHIP_SCREENSHOTS=<dir>`` keeps a screenshot of the form, the table map after it and the room
display there."""

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The room display polls every 3 s; one poll and its answer, with a margin.
ONE_POLL = 8_000


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("CHIP_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_a_tables_counts_entered_at_the_break_move_the_room_displays_average(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import SeatAssignment

    tournament = make_tournament(
        by=director, tables=1, entrants=6, seats_per_table=6, name="Chip Count Cup"
    )
    draw_initial_seating(tournament=tournament, by=director)
    seated = list(
        SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
        .select_related("entrant", "table__table")
        .order_by("seat")
    )
    room = seated[0].table.table.number

    page = login_page("td")
    display = page.context.new_page()
    display.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/display/")
    expect(display.locator("#room-average")).to_have_text("20,000")

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(page.locator("#chip-check")).to_contain_text(
        "Chips in play 120,000 · expected 120,000 ✓"
    )
    page.get_by_role("link", name=f"Enter counts at table {room}").click()
    form = page.locator("#counts-form-1")
    expect(form).to_contain_text(f"Counts at table {room}")
    boxes = form.get_by_role("textbox")
    expect(boxes.first).to_be_focused()  # the first player's count, ready to type
    expect(boxes.first).to_have_value("20000")
    shot(page, "counts-form")
    # The counts as the dealer reads them out, box by box: the first player was miscounted
    # by 6,000 at the start, the others are as the desk left them.
    page.keyboard.press("Control+a")
    page.keyboard.type("26000")
    for _ in seated[1:]:
        page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(form.get_by_label("Why")).to_be_focused()
    page.keyboard.type("Counts at the first break")
    page.keyboard.press("Enter")

    table_map = page.locator("#table-map")
    expect(table_map).to_contain_text(f"Table {room} counted: 6 counts recorded.")
    expect(page.locator("#chip-check")).to_contain_text(
        "Chips in play 126,000 · expected 120,000: 6,000 more than bought"
    )
    expect(page.locator("#chip-check")).to_contain_text("count 20,000 → 26,000")
    expect(table_map.locator(".seat-list li").first).to_contain_text("26,000 chips")
    shot(page, "table-map")

    # The room display, untouched, shows the new average and who leads at its next poll.
    expect(display.locator("#room-average")).to_have_text("21,000", timeout=ONE_POLL)
    leaders = display.locator("#room-leaders li")
    expect(leaders).to_have_count(5)
    expect(leaders.first).to_contain_text("26,000")
    expect(leaders.first).not_to_contain_text(seated[0].entrant.name)  # public names only
    shot(display, "room-display")
