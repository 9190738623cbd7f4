"""A director registers a pasted list in Chromium: ten names, one of them a person already
entered and one barred. The two refused lines stay in the box with their reasons beside
them; the director corrects the duplicate (another person of that name, told apart by a
phone number), takes the barred line out, registers again, finds a known player with the
search as you type, and opens a seat card to print.

``PLAYER_SCREENSHOTS=<dir>`` keeps a screenshot of the registration and of the seat card."""

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASTED = [
    "Ana Ruiz, 600 111 222",
    "Bo Chan",
    "Cy Young",
    "Di Egan",
    "Ed Lowe",
    "Player 3",  # already entered
    "Fay Moss",
    "Gus Hale",
    "Cheat Carl",  # barred
    "Hal Ng",
]


def keep(page: Any, name: str) -> None:
    folder = os.environ.get("PLAYER_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_director_pastes_ten_names_corrects_the_refused_and_prints_a_seat_card(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from cardroom.seats import services as players
    from tests.tournaments.factories import make_tournament

    tournament = make_tournament(by=director, tables=2, entrants=4, name="Sunday Stack")
    carl = players.find_or_create_player(name="Cheat Carl", by=director)
    players.bar_player(player=carl, reason="Chip dumping in June", by=director)
    players.find_or_create_player(name="Zoe Quist", contact="zoe@quist.net", by=director)

    page = login_page("td")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    box = page.get_by_label("Names", exact=True)
    box.fill("\n".join(PASTED))
    page.get_by_role("button", name="Register").click()
    results = page.locator("#registration-results")
    expect(results).to_contain_text("Hal Ng registered (#12).")
    alerts = results.get_by_role("alert")
    expect(alerts).to_have_count(2)
    expect(alerts.nth(0)).to_contain_text("Player 3 is already entered (#3).")
    expect(alerts.nth(1)).to_contain_text("barred from the room")
    expect(alerts.nth(1)).to_contain_text("Chip dumping in June")
    # What was refused is still in the box, as typed; nothing else.
    expect(box).to_have_value("Player 3\nCheat Carl\n")
    keep(page, "registration-refused")

    # Another person called Player 3, told apart by a phone; the barred line taken out.
    box.fill("Player 3, 611 222 333")
    page.get_by_role("button", name="Register").click()
    expect(results).to_contain_text("Player 3 registered (#13).")
    expect(results.get_by_role("alert")).to_have_count(0)
    expect(box).to_have_value("")

    # The search as you type finds a player the room knows; the choice fills the box.
    page.get_by_label("Find a player the room knows").fill("zoe")
    choice = page.get_by_role("button", name="Zoe Quist")
    expect(choice).to_be_visible()
    expect(page.locator("#player-results-entrant-names")).to_contain_text("contact ….net")
    choice.click()
    expect(box).to_have_value("Zoe Quist, zoe@quist.net\n")
    page.get_by_role("button", name="Register").click()
    expect(results).to_contain_text("Zoe Quist registered (#14).")

    # The waiting tab counts the new entries (no draw yet: all fourteen wait for a seat).
    page.locator("#entrant-tab-waiting").click()
    expect(page.locator("#entrant-tab-waiting")).to_contain_text("(14)")
    keep(page, "registration-done")

    results.get_by_role("link", name="Seat card").last.click()
    expect(page.locator(".seat-card")).to_have_count(1)
    card = page.locator(".seat-card")
    expect(card).to_contain_text("Sunday Stack")
    expect(card).to_contain_text("Entry #14")
    expect(card).to_contain_text("Zoe Quist")
    expect(card).to_contain_text("Waiting for the draw")
    expect(card).not_to_contain_text("quist.net")  # a card shows no contact
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    keep(page, "seat-card")


def test_floor_manager_finds_a_player_on_the_waitlist_page_and_bars_them(
    login_page: Any, floor_manager: Any, live_server: Any
) -> None:
    from cardroom.seats import services as players
    from cardroom.waitlists import services as waitlists

    waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    players.find_or_create_player(name="Zoe Quist", contact="600 777 888", by=floor_manager)
    players.find_or_create_player(name="Zoe Quist", contact="zoe@quist.net", by=floor_manager)

    page = login_page("fm")
    page.goto(f"{live_server.url}/floor/waitlists/")
    name = page.get_by_label("Name or initials")
    name.fill("zoe q")
    found = page.locator("#add-form .player-list li")
    expect(found).to_have_count(2)  # two people of one name, told apart by their contacts
    expect(found.nth(0)).to_contain_text("contact …7888")
    found.nth(0).get_by_role("button", name="Zoe Quist").click()
    expect(name).to_have_value("Zoe Quist, 600 777 888")

    found.nth(0).get_by_role("link", name="Record").click()
    expect(page.get_by_role("heading", name="Zoe Quist", exact=True)).to_be_visible()
    page.get_by_label("Why").fill("Abused a dealer")
    page.get_by_role("button", name="Bar the player").click()
    expect(page.locator("#barred-note")).to_contain_text("Abused a dealer")
    expect(page.get_by_role("button", name="Lift the bar")).to_be_visible()
    keep(page, "player-barred")
