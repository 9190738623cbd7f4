"""The director changes the structure on the clock page in Chromium while the room display
runs on another screen: a later level edited and a minute added show on the display at its
next poll, without a reload; a refused change keeps what was typed."""

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/cardroom-clock-structure-shots")


def running(director: Any) -> Any:
    """Level 1 of three, five minutes played."""
    from django.db.models import F

    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import start_clock
    from tournaments.models import Tournament

    tournament = make_tournament(by=director, tables=1, entrants=9, name="Sunday Major")
    start_clock(tournament=tournament, by=director)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=F("level_started_at") - timedelta(minutes=5)
    )
    return Tournament.objects.get(pk=tournament.pk)


def minutes_shown(display: Any) -> int:
    return int(display.locator("#room-time").inner_text().split(":")[0])


def test_the_director_edits_a_level_and_adds_time_and_the_room_display_follows(
    login_page: Any, director: Any, live_server: Any
) -> None:
    tournament = running(director)
    page = login_page("td")
    display = page.context.new_page()
    display.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/display/")
    expect(display.locator("#room-next")).to_have_text("Level 2 · 200 / 400")
    expect(display.locator("#room-time")).to_have_text(re.compile(r"^1[45]:\d\d$"))

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/")
    second = page.locator("#clock-structure tbody tr").nth(1)
    second.get_by_label("Level 2 small blind").fill("250")
    second.get_by_label("Level 2 big blind").fill("500")
    second.get_by_label("Level 2 ante").fill("500")
    # No reason: refused beside the row, the typed blinds kept.
    second.get_by_role("button", name="Save").click()
    expect(second.get_by_role("alert")).to_contain_text("Say why")
    expect(second.get_by_label("Level 2 big blind")).to_have_value("500")
    second.get_by_label("Why Level 2 changes").fill("Field is small")
    second.get_by_role("button", name="Save").click()
    expect(page.locator("#structure-changes")).to_contain_text("Field is small")
    expect(page.locator("#structure-changes")).to_contain_text("200 / 400 · 20 min")
    expect(page.locator("#structure-changes")).to_contain_text("250 / 500 ante 500 · 20 min")

    # The room display shows the new next level at its next poll, no reload.
    expect(display.locator("#room-next")).to_have_text(
        re.compile(r"^Level 2 · 250 / 500 ante 500"), timeout=15_000
    )

    before = minutes_shown(display)
    page.get_by_label("Why the time changes").fill("Late start at table 2")
    page.get_by_role("button", name="+5 min").click()
    expect(page.locator("#structure-changes")).to_contain_text("Late start at table 2")
    expect(page.locator("#structure-changes")).to_contain_text("Time added or removed")
    expect(display.locator("#room-time")).to_have_text(
        re.compile(rf"^({before + 4}|{before + 5}):\d\d$"), timeout=15_000
    )
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "clock-page.png"), full_page=True)
    display.screenshot(path=str(SHOTS / "room-display.png"))


def test_a_structure_that_ran_out_says_so_and_levels_added_start_at_once(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from django.db.models import F

    from tournaments.models import Tournament

    tournament = running(director)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=F("level_started_at") - timedelta(minutes=60)
    )
    page = login_page("td")
    display = page.context.new_page()
    display.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/display/")
    expect(display.locator("#room-state")).to_have_text("Last level: no more levels scheduled")
    expect(display.locator("#room-level")).to_have_text("Level 3")
    expect(display.locator("#room-blinds-value")).to_have_text("300 / 600")

    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/")
    expect(page.locator("#clock-state")).to_have_text("Structure ended: add levels")
    expect(page.locator("#structure-ran-out")).to_be_visible()
    expect(page.get_by_text("Finished", exact=True)).to_have_count(0)
    add = page.locator("#structure-add")
    add.get_by_label("Add").fill("2")
    add.get_by_label("Why").fill("Six players left")
    add.get_by_role("button", name="Add levels").click()
    expect(page.locator("#structure-changes")).to_contain_text("Six players left")
    expect(page.locator("#structure-ran-out")).to_have_count(0)
    expect(page.locator("#clock-state")).to_have_text("Running", timeout=5_000)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "clock-page-levels-added.png"), full_page=True)
    # The display moves to the first level added at its next poll.
    expect(display.locator("#room-level")).to_have_text("Level 4", timeout=15_000)
    expect(display.locator("#room-blinds-value")).to_have_text("600 / 1,200")
    expect(display.locator("#room-state")).to_have_text("Running")
    display.screenshot(path=str(SHOTS / "room-display-levels-added.png"))


def test_the_structure_editor_stays_inside_a_tablets_width(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """At 1024 px the editor's rows (three blinds, the minutes, Why and two buttons) fit: its
    table ran 84 px past the window before the numbers' boxes were sized for their digits."""
    tournament = running(director)
    page = login_page("td")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/")
    expect(page.get_by_label("Level 2 small blind")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    table = page.locator(".structure-table").bounding_box()
    card = page.locator("#clock-structure").bounding_box()
    assert table is not None and card is not None
    assert table["x"] + table["width"] <= card["x"] + card["width"]
