"""A colour-up in Chromium: the director sets the chip set with the 25s leaving at the first
break, the room display announces it through the level before (CR-CU.2), and at the break the
director runs the race at a table, previews it and records it, and reads the result.

``COLOUR_UP_SCREENSHOTS=<dir>`` keeps a screenshot of each page looked at."""

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LEVELS: list[dict[str, Any]] = [
    {"small_blind": 25, "big_blind": 50, "ante": 0, "minutes": 20},
    {"small_blind": 50, "big_blind": 100, "ante": 0, "minutes": 20},
    {"is_break": True, "minutes": 10},
    {"small_blind": 100, "big_blind": 200, "ante": 0, "minutes": 20},
]


def keep(page: Any, name: str) -> None:
    if folder := os.environ.get("COLOUR_UP_SCREENSHOTS"):
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_the_director_sets_the_chips_the_room_sees_the_colour_up_and_a_table_races(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import advance_level
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import Entrant, SeatAssignment

    tournament = make_tournament(
        by=director, tables=1, entrants=6, seats_per_table=6, levels=LEVELS, name="Colour Cup"
    )
    draw_initial_seating(tournament=tournament, by=director)
    page = login_page("td")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.get_by_role("link", name="Chips and colour-ups").click()

    # A number typed wrong comes back on the form, with what was typed.
    page.get_by_label("Value").fill("2²")
    page.get_by_label("Colour", exact=True).fill("green")
    page.get_by_role("button", name="Save chip").click()
    expect(page.locator("#chip-form .form-error")).to_have_text(
        ["A whole number in digits, like 100."]
    )

    for value, colour, leaves in (
        ("25", "green", "Break after Level 2 (step 3)"),
        ("100", "black", "Plays to the end"),
        ("500", "purple", "Plays to the end"),
    ):
        page.get_by_label("Value").fill(value)
        page.get_by_label("Colour", exact=True).fill(colour)
        page.get_by_label("Leaves play at").select_option(label=leaves)
        page.get_by_role("button", name="Save chip").click()
        expect(page.locator(f"#chip-{value}")).to_be_visible()
    expect(page.locator("#chip-25")).to_contain_text("at the break (step 3)")
    keep(page, "chip-set")

    # Level 2, the level before the break: the room display announces the colour-up.
    advance_level(tournament=tournament, by=director)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/display/")
    expect(page.locator("#room-colour-up")).to_have_text(
        "Colour-up at this break: 25 chips (green) leave play"
    )
    keep(page, "room-display")

    # The break: the odd chips are raced at the table.
    advance_level(tournament=tournament, by=director)
    counts = [1_075, 2_025, 475, 10_000, 50, 3_125]
    seated = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    for assignment, chips in zip(seated.order_by("seat"), counts, strict=True):
        Entrant.objects.filter(pk=assignment.entrant_id).update(chips=chips)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/chips/")
    page.get_by_role("link", name="Race table 101").click()
    page.get_by_label("From the chip counts").check()
    page.get_by_role("button", name="Preview the race").click()
    expect(page.locator("#race-preview")).to_contain_text("The race, as it will be recorded")
    expect(page.locator("#race-summary")).to_contain_text("2 chips of 100 raced; 50 left play")
    keep(page, "race-preview")
    page.get_by_role("button", name="Confirm and record").click()

    expect(page.locator("h1")).to_contain_text("Colour Cup · Table 101")
    expect(page.locator("#race-result tbody tr")).to_have_count(6)
    expect(page.locator("#race-result")).to_contain_text("won a chip")
    keep(page, "race-result")
    after = list(Entrant.objects.filter(tournament=tournament).values_list("chips", flat=True))
    assert all(chips % 100 == 0 and chips > 0 for chips in after)
