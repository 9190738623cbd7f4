"""The clock's room display in Chromium: a TV across the room with nobody at it.

It shows the level and the room's facts without navigation, keeps the server's time whatever
the TV's own clock says, changes level (with its chime) without a reload, numbers the level
after a break on from the one before it, and comes back by itself after the network drops.
"""

import re
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STRUCTURE: list[dict[str, Any]] = [
    {"small_blind": 1000, "big_blind": 2000, "ante": 0, "seconds": 1200},
    {"small_blind": 1500, "big_blind": 3000, "ante": 3000, "seconds": 1200},
    {"small_blind": 2000, "big_blind": 4000, "ante": 4000, "seconds": 1200},
    {"is_break": True, "seconds": 900},
    {"small_blind": 3000, "big_blind": 6000, "ante": 6000, "seconds": 1200},
]

#: Counts the notes the page's WebAudio plays (an oscillator started), before any page script.
AUDIO_SPY = """
window.__notes = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__notes += 1;
  return start.apply(this, args);
};
"""


def running_at(director: Any, *, seconds_in: float, entrants: int = 9) -> Any:
    """A tournament whose clock has run ``seconds_in`` seconds of the structure."""
    from django.db.models import F

    from tests.tournaments.factories import make_tournament
    from tournaments.clock.services import start_clock
    from tournaments.models import Tournament

    tournament = make_tournament(
        by=director, tables=1, entrants=entrants, levels=STRUCTURE, name="Sunday Major"
    )
    start_clock(tournament=tournament, by=director)
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=F("level_started_at") - timedelta(seconds=seconds_in)
    )
    return Tournament.objects.get(pk=tournament.pk)


def server_seconds_left(tournament: Any) -> float:
    from django.utils import timezone

    from tournaments.clock.reading import read_clock
    from tournaments.models import Tournament

    fresh = Tournament.objects.get(pk=tournament.pk)
    return read_clock(fresh, list(fresh.levels.all()), timezone.now()).remaining.total_seconds()


def shown_seconds(page: Any) -> int:
    text = page.locator("#room-time").inner_text()
    parts = [int(p) for p in text.split(":")]
    return sum(p * 60**i for i, p in enumerate(reversed(parts)))


def open_display(page: Any, live_server: Any, tournament: Any) -> None:
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/display/")


def test_the_room_display_shows_the_level_and_the_room_facts_without_navigation(
    login_page: Any, director: Any, staff: Any, live_server: Any
) -> None:
    from tournaments.clock.services import pause_clock
    from tournaments.models import Entrant, EntrantStatus

    tournament = running_at(director, seconds_in=1200 + 300)  # Level 2, 15 minutes left
    Entrant.objects.filter(tournament=tournament, number__in=[2, 5]).update(
        status=EntrantStatus.ELIMINATED, chips=0
    )
    # Their chips went to player 1: the average is the counts over the players left.
    Entrant.objects.filter(tournament=tournament, number=1).update(chips=60_000)
    page = login_page("staffer")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/")
    page.get_by_role("link", name="Room display").click()

    expect(page.locator("#room-level")).to_have_text("Level 2")
    expect(page.locator("#room-blinds-value")).to_have_text("1,500 / 3,000")
    expect(page.locator("#room-ante")).to_have_text("3,000")
    expect(page.locator("#room-time")).to_have_text(re.compile(r"^1[45]:\d\d$"))
    expect(page.locator("#room-next")).to_have_text("Level 3 · 2,000 / 4,000 ante 4,000")
    # The rest of Level 2 and all of Level 3 before the break: 35 minutes.
    expect(page.locator("#room-break")).to_have_text(re.compile(r"^3[45]:\d\d$"))
    expect(page.locator("#room-players")).to_have_text("7 / 9")
    expect(page.locator("#room-average")).to_have_text(f"{9 * 20_000 // 7:,}")
    expect(page.locator("#room-state")).to_have_text("Running")
    expect(page.locator("#room-paused")).to_be_hidden()
    # A room display: nothing to navigate to, nothing to click but full screen.
    expect(page.locator("nav, a")).to_have_count(0)
    expect(page.get_by_role("button")).to_have_text(["Full screen"])

    # The time counts down by itself between polls.
    first = shown_seconds(page)
    expect(page.locator("#room-time")).not_to_have_text(page.locator("#room-time").inner_text())
    assert shown_seconds(page) < first

    page.get_by_role("button", name="Full screen").click()
    page.wait_for_function("document.fullscreenElement === document.documentElement")
    expect(page.locator("#room-fullscreen")).to_have_text("Exit full screen")  # Esc, or this

    # The director pauses: the room sees it without a reload, and the time stops.
    pause_clock(tournament=tournament, by=director)
    expect(page.locator("#room-paused")).to_be_visible()
    expect(page.locator("#room-state")).to_have_text("Paused")
    held = page.locator("#room-time").inner_text()
    page.wait_for_timeout(1500)
    expect(page.locator("#room-time")).to_have_text(held)


def test_the_time_left_is_the_servers_whatever_the_displays_own_clock_says(
    login_page: Any, director: Any, staff: Any, live_server: Any
) -> None:
    tournament = running_at(director, seconds_in=300)  # Level 1, 15 minutes left
    page = login_page("staffer")
    wrong = datetime.now(UTC) + timedelta(hours=5, minutes=17)
    page.clock.install(time=wrong)
    open_display(page, live_server, tournament)
    assert abs(page.evaluate("Date.now()") / 1000 - wrong.timestamp()) < 60  # the TV's clock is off

    expect(page.locator("#room-level")).to_have_text("Level 1")
    expect(page.locator("#room-state")).to_have_text("Running")
    page.wait_for_timeout(1200)  # a tick or more after the first answer
    assert abs(shown_seconds(page) - server_seconds_left(tournament)) <= 2
    shown = page.locator("#room-time").inner_text()
    expect(page.locator("#room-time")).not_to_have_text(shown)  # and it counts down from there
    assert abs(shown_seconds(page) - server_seconds_left(tournament)) <= 2
    expect(page.locator("#room-break")).to_have_text(re.compile(r"^5[45]:\d\d$"))


def test_a_level_change_appears_without_a_reload_and_sounds_the_chime(
    login_page: Any, director: Any, staff: Any, live_server: Any
) -> None:
    tournament = running_at(director, seconds_in=1200 - 4)  # 4 seconds left in Level 1
    page = login_page("staffer")
    page.add_init_script(AUDIO_SPY)
    open_display(page, live_server, tournament)
    expect(page.locator("#room-level")).to_have_text("Level 1")
    page.locator("#room-time").click()  # a touch on the TV: browsers start sound only after one
    assert page.locator("body").get_attribute("data-chimes") == "0"
    assert page.evaluate("window.__notes") == 0

    expect(page.locator("#room-level")).to_have_text("Level 2", timeout=8000)
    expect(page.locator("#room-blinds-value")).to_have_text("1,500 / 3,000")
    expect(page.locator("#room-time")).to_have_text(re.compile(r"^(20:00|19:5\d)$"))
    expect(page.locator("body")).to_have_attribute("data-chimes", "1")
    assert page.evaluate("window.__notes") == 3  # the three notes of one chime
    page.wait_for_timeout(3500)  # the server's confirmation does not sound it again
    expect(page.locator("body")).to_have_attribute("data-chimes", "1")
    expect(page.locator("#room-level")).to_have_text("Level 2")


def test_the_level_after_a_break_is_numbered_on_from_the_level_before_it(
    login_page: Any, director: Any, staff: Any, live_server: Any
) -> None:
    # 8 s left in the break: enough for a loaded machine to log in and open the display first.
    tournament = running_at(director, seconds_in=3 * 1200 + 900 - 8)
    page = login_page("staffer")
    open_display(page, live_server, tournament)
    expect(page.locator("#room-level")).to_have_text("Break")
    expect(page.locator("#room-blinds")).to_be_hidden()
    expect(page.locator("#room-next")).to_have_text("Level 4 · 3,000 / 6,000 ante 6,000")
    expect(page.locator("#room-break")).to_have_text("–")  # no break after this one

    expect(page.locator("#room-level")).to_have_text("Level 4", timeout=15000)
    expect(page.locator("#room-blinds-value")).to_have_text("3,000 / 6,000")
    expect(page.locator("#room-next")).to_have_text("–")
    page.wait_for_timeout(3500)  # and the server, asked again, agrees
    expect(page.locator("#room-level")).to_have_text("Level 4")


def test_the_display_reconnects_by_itself_after_the_network_drops(
    login_page: Any, director: Any, staff: Any, live_server: Any
) -> None:
    from tournaments.clock.services import advance_level

    tournament = running_at(director, seconds_in=60)
    page = login_page("staffer")
    open_display(page, live_server, tournament)
    expect(page.locator("#room-level")).to_have_text("Level 1")
    expect(page.locator("#room-reconnecting")).to_be_hidden()

    page.route("**/clock/display/state/", lambda route: route.abort("internetdisconnected"))
    expect(page.locator("#room-reconnecting")).to_be_visible(timeout=6000)
    expect(page.locator("#room-reconnecting")).to_have_text("Reconnecting…")
    # Meanwhile the room still sees the time run, from the last answer.
    counting = page.locator("#room-time").inner_text()
    expect(page.locator("#room-time")).not_to_have_text(counting)
    advance_level(tournament=tournament, by=director)  # a change made while the TV is cut off
    page.wait_for_timeout(2500)
    expect(page.locator("#room-level")).to_have_text("Level 1")

    page.unroute("**/clock/display/state/")
    expect(page.locator("#room-reconnecting")).to_be_hidden(timeout=10000)
    expect(page.locator("#room-level")).to_have_text("Level 2")
    expect(page.locator("#room-time")).to_have_text(re.compile(r"^(20:00|19:\d\d)$"))


def test_an_answer_read_before_the_level_ended_but_arriving_after_it_changes_nothing(
    login_page: Any, director: Any, staff: Any, live_server: Any
) -> None:
    """A slow poll across the level's end: the server read its clock while Level 1 ran, the
    answer arrives after the display has moved to Level 2 on its own. The room sees Level 2 and
    hears one chime, not the old level's answer chiming back and the change chiming again."""
    page = login_page("staffer")
    tournament = running_at(director, seconds_in=1200 - 5)  # 5 seconds left in Level 1
    page.add_init_script(AUDIO_SPY)
    held: list[tuple[Any, Any]] = []

    def hold_one(route: Any) -> None:
        if held or not holding:
            route.continue_()
        else:  # asked now, answered later
            held.append((route, route.fetch()))

    holding = False
    page.route("**/clock/display/state/", hold_one)
    open_display(page, live_server, tournament)
    expect(page.locator("#room-level")).to_have_text("Level 1")
    page.locator("#room-time").click()  # sound on
    holding = True
    deadline = datetime.now(UTC) + timedelta(seconds=4)
    while not held and datetime.now(UTC) < deadline:
        page.wait_for_timeout(100)
    assert held, "the display polled again within its 3 s"
    expect(page.locator("#room-level")).to_have_text("Level 2", timeout=5000)
    expect(page.locator("body")).to_have_attribute("data-chimes", "1")
    route, answer = held[0]
    assert answer.json()["level"]["number"] == 1  # read while Level 1 ran
    route.fulfill(response=answer)  # Level 1, its end already passed
    page.wait_for_timeout(500)
    expect(page.locator("#room-level")).to_have_text("Level 2")
    expect(page.locator("body")).to_have_attribute("data-chimes", "1")
    assert page.evaluate("window.__notes") == 3


def test_the_room_display_says_a_big_blind_ante_and_follows_the_directors_switch(
    login_page: Any, director: Any, staff: Any, live_server: Any
) -> None:
    """The wall says which ante the level's is; the director's switch reaches an open
    display at its next poll, without a reload."""
    from tournaments.models import Tournament
    from tournaments.setup import set_ante_type

    tournament = running_at(director, seconds_in=1200 + 300)  # Level 2: 1,500 / 3,000 ante 3,000
    Tournament.objects.filter(pk=tournament.pk).update(ante_type="big_blind")
    page = login_page("staffer")
    open_display(page, live_server, tournament)
    expect(page.locator("#room-ante-kind")).to_have_text("Big-blind ante")
    expect(page.locator("#room-ante")).to_have_text("3,000")
    expect(page.locator("#room-next")).to_have_text(
        "Level 3 · 2,000 / 4,000 ante 4,000 (big blind)"
    )

    set_ante_type(tournament=tournament, ante_type="each", by=director)
    expect(page.locator("#room-ante-kind")).to_have_text("Ante each", timeout=10_000)
    expect(page.locator("#room-next")).to_have_text("Level 3 · 2,000 / 4,000 ante 4,000")


#: The room display's screens: a tablet, two laptops, a 1080p TV.
SCREENS = [(1024, 768), (1366, 768), (1366, 900), (1920, 1080)]
#: Screenshots for a person to look at (not compared by the test).
SHOTS = Path("/tmp/cardroom-clock-shots")
#: Top to bottom, the display's parts that must never overlap.
ROWS = [
    ".room-head", "#room-level", "#room-time", "#room-paused", "#room-blinds", ".room-facts",
    "#room-colour-up", ".room-leaders", ".room-foot",
]  # fmt: skip


def fits_every_screen(page: Any, state: str) -> None:
    """At each screen size: no scrolling, the bottom row and Full screen inside the window,
    the parts one above the other, the clock's type large."""
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        page.screenshot(path=str(SHOTS / f"room-display-{state}-{width}x{height}.png"))
        size = f"{state} {width}x{height}"
        scroll = page.evaluate(
            "[document.documentElement.scrollHeight, innerHeight,"
            " document.documentElement.scrollWidth, innerWidth]"
        )
        assert scroll[0] <= scroll[1] and scroll[2] <= scroll[3], (size, scroll)
        for part in ("#room-fullscreen", "#room-players", "#room-average", "#room-next"):
            box = page.locator(part).bounding_box()
            assert box is not None, (size, part)
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (size, part, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (size, part, box)
        shown = [row for row in ROWS if page.locator(row).is_visible()]
        boxes = [page.locator(row).bounding_box() for row in shown]
        for (above, a), (below, b) in pairwise(zip(shown, boxes, strict=True)):
            assert a is not None and b is not None
            assert a["y"] + a["height"] <= b["y"] + 1, (size, above, a, below, b)
        # As large as fits: the clock's digits take a good part of the screen's height.
        time_size = page.locator("#room-time").evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert time_size >= 0.25 * height, (size, time_size)
        # The chip leaders on one line, each inside the window.
        leaders = [row.bounding_box() for row in page.locator("#room-leaders li").all()]
        assert len({round(box["y"]) for box in leaders if box}) <= 1, (size, leaders)
        for box in leaders:
            assert box is not None and box["x"] >= 0, (size, box)
            assert box["x"] + box["width"] <= width, (size, box)


def colour_up_at_the_break(tournament: Any, director: Any) -> None:
    """A chip set whose 500s (green) leave play at the break (step 4 of STRUCTURE)."""
    from tournaments import colour_ups

    colour_ups.save_chip(tournament=tournament, value=500, colour="green", removed_at=4,
                         by=director)  # fmt: skip
    for value, colour in ((1000, "yellow"), (5000, "orange")):
        colour_ups.save_chip(
            tournament=tournament, value=value, colour=colour, removed_at=None, by=director
        )


def test_the_room_display_fits_the_screen_with_nothing_below_the_fold(
    login_page: Any, director: Any, staff: Any, live_server: Any
) -> None:
    """A TV with nobody at it cannot scroll: at every screen size the whole display fits, its
    fullest state too (paused, hand-for-hand, the long next level of a big-blind ante, the chip
    leaders on their one line, the colour-up line), the bottom row (players left, average
    stack) and Full screen inside the window, the big clock as large as the space left (it was
    1190 px tall at 1920x1080)."""
    from tournaments.clock.services import advance_level, pause_clock, resume_clock
    from tournaments.models import Level, Tournament

    tournament = running_at(director, seconds_in=1200 + 300)  # Level 2, 15 minutes left
    Tournament.objects.filter(pk=tournament.pk).update(ante_type="big_blind", hand_for_hand=True)
    pause_clock(tournament=tournament, by=director)
    SHOTS.mkdir(exist_ok=True)
    page = login_page("staffer")
    open_display(page, live_server, tournament)
    expect(page.locator("#room-paused")).to_be_visible()
    expect(page.locator("#room-hand-for-hand")).to_be_visible()
    expect(page.locator("#room-next")).to_have_text(
        "Level 3 · 2,000 / 4,000 ante 4,000 (big blind)"
    )
    expect(page.locator("#room-leaders li")).to_have_count(5)
    fits_every_screen(page, "paused")

    # Running, the clock is taller (no "Paused" line under it): it still fits.
    resume_clock(tournament=tournament, by=director)
    expect(page.locator("#room-paused")).to_be_hidden(timeout=10_000)
    fits_every_screen(page, "running")

    # A level of two hours reads h:mm:ss, half as wide again: still inside the narrowest screen.
    Level.objects.filter(tournament=tournament, number=2).update(duration=timedelta(hours=2))
    expect(page.locator("#room-time")).to_have_text(re.compile(r"^1:5[45]:\d\d$"), timeout=10_000)
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_timeout(100)
    page.screenshot(path=str(SHOTS / "room-display-running-1024x768-hours.png"))
    box = page.locator("#room-time").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1024, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024

    # The colour-up line (CR-CU.2), shown through the level before the break and the break
    # itself: with it, paused, the display still fits, at the break too (the next level, of
    # a big-blind ante, the longest).
    colour_up_at_the_break(tournament, director)
    pause_clock(tournament=tournament, by=director)
    advance_level(tournament=tournament, by=director)  # Level 3, the level before the break
    expect(page.locator("#room-colour-up")).to_have_text(
        "Colour-up at this break: 500 chips (green) leave play", timeout=10_000
    )
    expect(page.locator("#room-paused")).to_be_visible()
    fits_every_screen(page, "colour-up")
    advance_level(tournament=tournament, by=director)  # the break
    expect(page.locator("#room-next")).to_have_text(
        "Level 4 · 3,000 / 6,000 ante 6,000 (big blind)", timeout=10_000
    )
    expect(page.locator("#room-colour-up")).to_be_visible()
    fits_every_screen(page, "colour-up-break")


def test_a_tv_opens_the_room_display_from_its_link_without_a_log_in(
    login_page: Any, director: Any, live_server: Any, browser: Any
) -> None:
    """The director copies the TV link from the clock page; a TV with nobody logged in opens
    it, follows the clock through its polls, and a touch turns the sound on and its note off."""
    from tests.conftest import between_requests
    from tournaments.clock.services import advance_level

    tournament = running_at(director, seconds_in=60)
    page = login_page("td")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/")
    link = page.get_by_label(re.compile("TV link")).input_value()
    assert "?tv=" in link
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.add_init_script(AUDIO_SPY)
    tv.goto(link)
    expect(tv.locator("#room-level")).to_have_text("Level 1")
    tv.locator("#room-time").click()  # a touch: sound on
    expect(tv.locator("#room-sound")).to_be_hidden()
    with between_requests():
        advance_level(tournament=tournament, by=director)  # the director moves the clock on
    expect(tv.locator("#room-level")).to_have_text("Level 2", timeout=8000)
    expect(tv.locator("body")).to_have_attribute("data-chimes", "1")
    expect(tv.locator("#room-reconnecting")).to_be_hidden()
    # The link opens the display, nothing else.
    tv.goto(f"{live_server.url}/tournaments/{tournament.pk}/?tv={link.split('?tv=')[1]}")
    expect(tv.get_by_label("Username")).to_be_visible()
