"""A director breaks a table in Chromium: seat cards shown, cards dealt, the draw verified."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def field(director: Any) -> Any:
    from tests.tournaments.factories import make_tournament
    from tournaments.services import draw_initial_seating

    tournament = make_tournament(by=director, tables=3, entrants=15, name="Friday Freezeout")
    draw_initial_seating(tournament=tournament, by=director)
    return tournament


def test_director_breaks_a_table_with_the_double_blind_draw(
    login_page: Any, field: Any, live_server: Any
) -> None:
    page = login_page("td")
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="Friday Freezeout").click()
    expect(page.get_by_role("heading", name="Friday Freezeout")).to_be_visible()
    page.get_by_role("link", name="Break table 3").click()
    page.get_by_role("button", name="Step 1: show the seat cards").click()

    expect(page.get_by_role("heading", name="Step 1: the seat cards")).to_be_visible()
    commitment = page.locator("#commitment-hash").inner_text()
    assert len(commitment) == 64
    expect(page.locator("#seat-cards li")).to_have_count(5)
    expect(page.locator("#seed")).to_have_count(0)  # sealed until the deal

    page.get_by_role("button", name="Step 2: deal the cards").click()
    expect(page.get_by_role("heading", name="Step 2: the cards dealt")).to_be_visible()
    expect(page.locator("#dealt-cards tbody tr")).to_have_count(5)
    expect(page.locator("#commitment-hash")).to_have_text(commitment)
    expect(page.locator("#seed")).to_have_text(field.draws.get(number=2).seed)

    page.get_by_role("link", name="Verify this draw").click()
    expect(page.locator("#verification")).to_contain_text("Verified")

    page.get_by_role("link", name="Back to Friday Freezeout").click()
    expect(page.locator("#ttable-3")).to_contain_text("Broken")


def test_director_eliminates_a_player_from_the_table_map(
    login_page: Any, field: Any, live_server: Any
) -> None:
    from tournaments.models import SeatAssignment

    seat = SeatAssignment.objects.filter(table__number=1, ended_at__isnull=True).select_related(
        "entrant"
    )[0]
    page = login_page("td")
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server.url}/tournaments/{field.pk}/")
    page.get_by_role("button", name=f"Eliminate {seat.entrant.name}", exact=True).click()
    expect(page.locator("#table-map")).to_contain_text(f"{seat.entrant.name} eliminated.")
    expect(
        page.get_by_role("button", name=f"Eliminate {seat.entrant.name}", exact=True)
    ).to_have_count(0)
