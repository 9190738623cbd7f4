"""Rulings in Chromium: a director amends a ruling without re-citing its rules, the print view
carries the room's header and a signature line, and a refused page says which role it needs."""

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rulebook(transactional_db: None) -> None:
    from django.core.management import call_command

    call_command("load_rulebook", verbosity=0)


def original_ruling(director: Any, *, table: Any = None) -> Any:
    from cardroom.rulings.services import log_ruling
    from tests.factories import make_table

    return log_ruling(
        table=table or make_table(number=4),
        director=director,
        seats=[3],
        situation="Seat 3 put out a 1000 and two 500s facing 1400, silently.",
        decision="A call: short of the 50% threshold.",
        citations=[("TDA-45", "Example 4-B"), ("RRoP-BR.15", "")],
    )


def test_a_director_amends_a_ruling_keeping_its_citations(
    login_page: Any, director: Any, rulebook: None
) -> None:
    from cardroom.rulings.models import Ruling

    original = original_ruling(director)
    page = login_page("td")
    page.get_by_role("link", name="Rulings").click()
    page.get_by_role("link", name="Table 4 · 1").click()
    page.get_by_role("link", name="Amend or record appeal").click()

    expect(page.get_by_role("heading", name="Amend or appeal Table 4 ruling 1")).to_be_visible()
    cited = page.locator("#cited")
    expect(cited.locator(".cited-rule")).to_have_count(2)
    expect(cited.locator(".cited-rule").nth(0)).to_contain_text("TDA-45")
    expect(cited.locator(".cited-rule").nth(0).get_by_label("Pinpoint")).to_have_value(
        "Example 4-B"
    )
    expect(cited.locator(".cited-rule").nth(1)).to_contain_text("RRoP-BR.15")
    expect(page.get_by_label("Situation")).to_have_value(original.situation)
    expect(page.get_by_role("checkbox", name="Seat 3 ·")).to_be_checked()
    # Only the decision changes.
    page.get_by_label("Decision").fill("A raise to 2000: the 500s came out in a second motion.")
    page.get_by_role("button", name="Log ruling").click()

    expect(page.get_by_role("heading", name="Table 4 ruling 2")).to_be_visible()
    body = page.locator(".ruling")
    expect(body).to_contain_text("TDA-45")
    expect(body).to_contain_text("Example 4-B")
    expect(body).to_contain_text("RRoP-BR.15")
    expect(body.get_by_role("link", name="Table 4 ruling 1")).to_be_visible()
    expect(page.locator(".chain li")).to_have_count(2)
    amendment = Ruling.objects.get(number=2)
    assert (amendment.kind, amendment.amends_id) == ("amendment", original.pk)
    assert [(c.rule_id, c.note) for c in amendment.citations.all()] == [
        ("TDA-45", "Example 4-B"),
        ("RRoP-BR.15", ""),
    ]
    assert Ruling.objects.get(pk=original.pk).decision == original.decision  # append-only


def test_a_floor_manager_picks_the_table_from_a_list_and_the_players_by_name(
    login_page: Any, floor_manager: Any, rulebook: None, live_server: Any
) -> None:
    from cardroom.rulings.models import Ruling
    from cardroom.seats import services as players
    from tests.factories import make_table

    make_table(number=2, name="Feature")
    table = make_table(number=7)
    for name, seat in (("Alice Ray", 3), ("Bo Chen", 5)):
        player = players.find_or_create_player(name=name, by=floor_manager)
        players.seat_player(table=table, player=player, seat=seat, buy_in=100, by=floor_manager)
    page = login_page("fm")
    page.goto(f"{live_server.url}/rulings/new/")
    expect(page.get_by_text("Choose the table to pick the players by seat.")).to_be_visible()
    page.get_by_label("Table", exact=True).select_option(label="Table 7 · 1/2 NL Hold'em")
    # The table's seats come in with who sits in them.
    page.get_by_role("checkbox", name="Seat 3 · Alice Ray").check()
    expect(page.get_by_role("checkbox", name="Seat 4 · empty")).not_to_be_checked()
    page.get_by_label("Situation").fill("Seat 3 folded out of turn.")
    page.get_by_label("Decision").fill("The fold stands.")
    page.get_by_label("Find a rule (words or id)").fill("TDA 53")
    page.locator(".cite-option").first.click()
    expect(page.locator("#cited .cited-rule")).to_have_count(1)
    page.get_by_role("button", name="Log ruling").click()

    expect(page.get_by_role("heading", name="Table 7 ruling 1")).to_be_visible()
    expect(page.locator(".ruling")).to_contain_text("Seat 3 · Alice Ray")
    assert Ruling.objects.get().names == {"3": "Alice Ray"}
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Rulings").click()
    expect(page.locator("#ruling-rows")).to_contain_text("Seat 3 · Alice Ray")


def test_a_director_drops_a_citation_when_amending(
    login_page: Any, director: Any, rulebook: None, live_server: Any
) -> None:
    from cardroom.rulings.models import Ruling

    original = original_ruling(director)
    page = login_page("td")
    page.goto(f"{live_server.url}/rulings/{original.pk}/")
    page.get_by_role("link", name="Amend or record appeal").click()
    page.get_by_label("This entry is").select_option("appeal")
    page.get_by_role("button", name="Remove RRoP-BR.15").click()
    expect(page.locator("#cited .cited-rule")).to_have_count(1)
    expect(page.get_by_label("Find a rule (words or id)")).to_be_focused()
    page.get_by_role("button", name="Log ruling").click()

    expect(page.get_by_role("heading", name="Table 4 ruling 2")).to_be_visible()
    expect(page.locator(".badge")).to_have_text("Appeal outcome")
    expect(page.locator(".ruling")).not_to_contain_text("RRoP-BR.15")
    assert [c.rule_id for c in Ruling.objects.get(number=2).citations.all()] == ["TDA-45"]


def test_the_print_view_carries_the_room_header_and_a_signature_line(
    login_page: Any, director: Any, staff: Any, rulebook: None, settings: Any
) -> None:
    from tests.tournaments.factories import make_tournament

    settings.CARDROOM_NAME = "Riverside Card Club"
    tournament = make_tournament(by=director, tables=2, first_table=301)
    original = original_ruling(director, table=tournament.tables.get(number=1).table)
    page = login_page("staffer")
    page.get_by_role("link", name="Rulings").click()
    page.get_by_role("link", name=f"{original.table} · 1").click()
    page.get_by_role("link", name="Print view").click()

    page.emulate_media(media="print")
    header = page.get_by_role("banner")
    expect(header).to_contain_text("Riverside Card Club")
    expect(header.get_by_role("heading", level=1)).to_have_text("Ruling 1 · Table 301")
    expect(header).to_contain_text("Saturday Deepstack")
    expect(header).to_contain_text("td")
    expect(header).to_contain_text(original.created_at.strftime("%Y-%m-%d"))
    expect(page.get_by_text("Director's signature")).to_be_visible()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()  # not on paper
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")


def test_a_refused_page_keeps_the_navigation_and_names_the_role_needed(
    login_page: Any, staff: Any, live_server: Any
) -> None:
    page = login_page("staffer")
    page.goto(f"{live_server.url}/tournaments/new/")
    expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("This needs a tournament director.")
    expect(page.get_by_role("main")).not_to_contain_text("floor manager")
    # A ruling is a floor manager's (at a cash table) or a director's: the page says both.
    page.goto(f"{live_server.url}/rulings/new/")
    expect(page.get_by_role("main")).to_contain_text(
        "This needs a floor manager or a tournament director."
    )

    page.goto(f"{live_server.url}/tables/new/")
    expect(page.get_by_role("main")).to_contain_text("This needs a floor manager.")
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Rulings").click()
    expect(page.get_by_role("heading", name="Rulings")).to_be_visible()
