"""A small tournament played to its winner in Chromium: the room display and the public board,
open all along, show the finish by themselves (the clock stopped, the final standings, the
winner by initials or alias, never a full name), the tournament page names the winner with
the director's controls that no longer apply gone, and the results page lists every place.

``FINISH_SCREENSHOTS=<dir>`` keeps a screenshot of the tournament page, the results page, the
room display and the board at the finish there."""

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.chips_out import put_out_holding_chips

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana Ruiz", "Bo Lind", "Cy Moss"]


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("FINISH_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_a_tournament_played_to_its_winner_shows_the_finish_everywhere(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.tournaments.factories import make_tournament
    from tests.tournaments.test_table_hands import at, chips, play, room, set_chips, settle
    from tournaments import eliminations, table_hands
    from tournaments.clock.services import start_clock
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import TournamentTable
    from tournaments.setup import register_entrants

    tournament = make_tournament(by=director, tables=1, seats_per_table=6, name="Sunday Turbo")
    register_entrants(tournament=tournament, names=NAMES, by=director)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    start_clock(tournament=tournament, by=director)
    a, b, c = sorted(chips(tournament))
    TournamentTable.objects.filter(tournament=tournament).update(button=a)
    set_chips(tournament, {b: 2_000})
    # The first bust at the desk: the short stack all in, called, beaten (3rd).
    hand = table_hands.deal_tournament_hand(table=room(tournament), by=director)
    settle(play(hand, director, {b: "all_in", c: "call"}), director, [[c], [b]])
    winner, second = at(tournament, a), at(tournament, c)

    page = login_page("td")
    page.on("dialog", lambda dialog: dialog.accept())  # "Eliminate <name>?" once out of chips
    display = page.context.new_page()
    display.goto(f"{live_server.url}/tournaments/{tournament.pk}/clock/display/")
    expect(display.locator("#room-players")).to_have_text("2 / 3")
    expect(display.locator("#room-finish")).to_be_hidden()
    board = page.context.new_page()
    board.goto(f"{live_server.url}/board/")
    expect(board.locator(".board-tourney")).to_contain_text("Players 2 / 3")

    # Heads-up: the director puts the second player out from the table map (their chips
    # taken out of play first: a player holding chips is not put out). The whole page comes
    # back with the winner.
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    put_out_holding_chips(page, second.name)
    expect(page.locator("#winner")).to_contain_text(f"Winner: {winner.name}")
    expect(page.locator(".out-button")).to_have_count(0)
    for gone in ("Final table redraw", "Announce hand-for-hand", "Close registration…"):
        expect(page.get_by_text(gone)).to_have_count(0)
    expect(page.locator("#entrant-form")).to_have_count(0)
    expect(page.locator("#director-finished")).to_be_visible()
    shot(page, "tournament")

    # The room display, never reloaded: the clock gone, the winner and the standings shown.
    initials = {"Ana Ruiz": "A.R.", "Bo Lind": "B.L.", "Cy Moss": "C.M."}
    expect(display.locator("#room-finish")).to_be_visible(timeout=10_000)
    expect(display.locator("#room-winner")).to_have_text(initials[winner.name])
    expect(display.locator("#room-standings li")).to_have_count(3)
    expect(display.locator("#room-standings li").nth(1)).to_have_text(f"2 {initials[second.name]}")
    expect(display.locator("#room-time")).to_be_hidden()
    expect(display.locator("#room-state")).to_have_text("Tournament over")
    for name in NAMES:
        expect(display.locator("body")).not_to_contain_text(name)
    display.set_viewport_size({"width": 1280, "height": 720})
    shot(display, "room-display")

    # The public board, never reloaded: finished, the winner by initials.
    tourney = board.locator(".board-tourney")
    expect(tourney).to_contain_text("Finished", timeout=10_000)
    expect(tourney.locator(".board-winner-name")).to_have_text(initials[winner.name])
    expect(tourney.locator("[data-ends-at]")).to_have_count(0)
    for name in NAMES:
        expect(board.locator("body")).not_to_contain_text(name)
    shot(board, "board")

    # The results: every place, the hand that busted the first player out.
    page.get_by_role("link", name="Results, every place").click()
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("1 (winner)")
    expect(rows.nth(0)).to_contain_text(winner.name)
    expect(rows.nth(1)).to_contain_text("put out by the director")
    expect(rows.nth(2)).to_contain_text(f"Table {room(tournament).number} hand #{hand.number}")
    expect(page.get_by_role("link", name="CSV")).to_be_visible()
    shot(page, "results")
