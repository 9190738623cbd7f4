"""A director breaks a table in Chromium: seat cards shown, cards dealt, the draw verified."""

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.chips_out import put_out_holding_chips

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def field(director: Any) -> Any:
    from tests.tournaments.factories import make_tournament
    from tournaments.draw_services import draw_initial_seating

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
    page.get_by_role("link", name="Break table 103").click()
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
    # A player still holding chips is not put out: the chips go out of play first.
    put_out_holding_chips(page, seat.entrant.name)
    expect(page.locator("#table-map")).to_contain_text(f"{seat.entrant.name} eliminated.")
    expect(
        page.get_by_role("button", name=f"Eliminate {seat.entrant.name}", exact=True)
    ).to_have_count(0)


# --- free tables, one name per player, an undo for "Out", plain words ------------------------


def test_the_new_tournament_form_lists_only_free_tables(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.tournaments.factories import LEVELS, make_room_tables
    from tournaments.setup import create_tournament

    busy = make_room_tables(count=2, first=21)
    make_room_tables(count=1, first=23)
    create_tournament(by=director, name="Sunday Deepstack", tables=busy, levels=LEVELS)
    page = login_page("td")
    page.get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="New tournament").click()
    tables = page.get_by_role("group", name="Tables")
    expect(tables.get_by_role("checkbox")).to_have_count(1)
    expect(tables.get_by_role("checkbox", name="Table 23 (9 seats)")).to_be_visible()
    expect(tables).not_to_contain_text("Table 21")
    expect(tables).not_to_contain_text("Table 22")
    page.get_by_label("Name").fill("Monday Turbo")
    tables.get_by_role("checkbox", name="Table 23 (9 seats)").check()
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Monday Turbo")).to_be_visible()


def test_a_duplicate_name_is_refused_with_an_error_on_the_form(
    login_page: Any, field: Any, live_server: Any
) -> None:
    page = login_page("td")
    page.goto(f"{live_server.url}/tournaments/{field.pk}/")
    name = page.get_by_label("Names", exact=True)
    name.fill("  player 3 ")
    page.get_by_role("button", name="Register").click()
    results = page.locator("#registration-results")
    expect(results.get_by_role("alert")).to_contain_text("Player 3 is already entered (#3).")
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_have_value("player 3\n")  # left in the box, to correct; typing goes on below
    expect(name).to_be_focused()  # back where the director was typing, after the swap
    assert field.entrants.count() == 15
    name.fill("Player 16")
    page.get_by_role("button", name="Register").click()
    expect(results).to_contain_text("Player 16 registered (#16).")
    # The refusal went with the answer: no stale line beside the new one, nor the other way.
    expect(results.get_by_role("alert")).to_have_count(0)
    expect(name).not_to_have_attribute("aria-invalid", "true")
    assert field.entrants.count() == 16


def test_names_typed_while_a_registration_is_on_its_way_are_never_lost(
    login_page: Any, field: Any, live_server: Any
) -> None:
    """A reload 0.6 s after each Register wiped what the director had typed
    meanwhile (4 of 12 names lost). The first answer is held here until the next names are
    typed and submitted: nothing is timed, the request is simply still on its way."""
    page = login_page("td")
    page.goto(f"{live_server.url}/tournaments/{field.pk}/")
    held: list[Any] = []
    holding = [True]
    page.route(
        "**/entrants/", lambda route: held.append(route) if holding[0] else route.continue_()
    )
    name = page.get_by_label("Names", exact=True)
    name.click()
    page.keyboard.type("Ann Lee", delay=20)
    page.keyboard.press("Enter")
    expect(name).to_have_value("")  # taken out of the box as it is sent
    while not held:
        page.wait_for_timeout(20)  # until the request is on its way (held at the route)
    # The answer has not come; the director types on: the next name, Enter, and a third.
    page.keyboard.type("Bo Chan", delay=20)
    page.keyboard.press("Enter")
    page.keyboard.type("Cy", delay=20)
    expect(name).to_have_value("Cy")
    assert len(held) == 1  # the second waits for the first: one at a time, in order
    holding[0] = False
    held.pop().continue_()
    entrants = page.locator("#entrant-list")
    expect(entrants).to_contain_text("Ann Lee")
    expect(entrants).to_contain_text("Bo Chan")
    expect(page.locator("#registration-results")).to_contain_text("Bo Chan registered (#17).")
    expect(name).to_have_value("Cy")  # still being typed: never wiped by an answer
    expect(name).to_be_focused()
    # A quick session: each Enter straight after the name, no answer waited for.
    page.keyboard.type(" Dee", delay=20)
    page.keyboard.press("Enter")
    for i in range(1, 11):
        page.keyboard.type(f"Walk-in {i}", delay=10)
        page.keyboard.press("Enter")
    expect(page.locator("#registration-results")).to_contain_text("Walk-in 10 registered (#28).")
    expect(name).to_have_value("")
    expect(name).to_be_focused()
    names = list(field.entrants.filter(number__gt=15).values_list("name", flat=True))
    assert names == ["Ann Lee", "Bo Chan", "Cy Dee", *(f"Walk-in {i}" for i in range(1, 11))]
    # A refused name comes back ahead of what was typed since, the caret where it was.
    holding[0] = True
    page.keyboard.type("player 5", delay=20)
    page.keyboard.press("Enter")
    while not held:
        page.wait_for_timeout(20)
    page.keyboard.type("Gil", delay=20)
    holding[0] = False
    held.pop().continue_()
    expect(page.locator("#registration-results")).to_contain_text("Player 5 is already entered")
    expect(name).to_have_value("player 5\nGil")
    page.keyboard.type(" Moe", delay=20)
    expect(name).to_have_value("player 5\nGil Moe")
    expect(name).to_be_focused()


def test_a_pasted_list_registers_each_name_and_leaves_the_refused_ones_in_the_box(
    login_page: Any, field: Any, live_server: Any
) -> None:
    page = login_page("td")
    page.goto(f"{live_server.url}/tournaments/{field.pk}/")
    name = page.get_by_label("Names", exact=True)
    name.click()
    page.keyboard.insert_text("Dee Dow\nplayer 3\nEve Ng\n\nPlayer 4\n")  # as a paste
    page.get_by_role("button", name="Register").click()
    results = page.locator("#registration-results")
    expect(results).to_contain_text("Dee Dow registered (#16).")
    expect(results).to_contain_text("Eve Ng registered (#17).")
    expect(results.get_by_role("alert")).to_have_count(2)
    expect(results).to_contain_text("Player 3 is already entered (#3).")
    expect(results).to_contain_text("Player 4 is already entered (#4).")
    expect(name).to_have_value("player 3\nPlayer 4\n")
    expect(name).to_be_focused()
    page.keyboard.type("Fay Lu")  # the next name, on its own line: never run into a refused one
    expect(name).to_have_value("player 3\nPlayer 4\nFay Lu")
    expect(page.locator("#entrant-list")).to_contain_text("Eve Ng")
    assert field.entrants.count() == 17


def test_a_misclicked_out_is_undone_by_the_director_and_recorded(
    login_page: Any, field: Any, live_server: Any
) -> None:
    from tournaments.models import SeatAssignment

    first, second = SeatAssignment.objects.filter(
        table__number=1, ended_at__isnull=True
    ).select_related("entrant")[:2]
    wrong = first.entrant.name
    page = login_page("td")
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server.url}/tournaments/{field.pk}/")
    # Touch targets: each "Out" at least 44 px high, and two rows' buttons never touch.
    out = page.get_by_role("button", name=f"Eliminate {wrong}", exact=True)
    below = page.get_by_role("button", name=f"Eliminate {second.entrant.name}", exact=True)
    box, next_box = out.bounding_box(), below.bounding_box()
    assert box and next_box and box["height"] >= 44 and box["width"] >= 44
    assert next_box["y"] - (box["y"] + box["height"]) >= 8
    put_out_holding_chips(page, wrong, reason="Counted out")
    expect(page.locator("#table-map")).to_contain_text(f"{wrong} eliminated.")
    # Focus lands on the way back; it leads to the undo, with no reload.
    undo = page.get_by_role("link", name="Wrong player? Undo it")
    expect(undo).to_be_focused()
    page.keyboard.press("Enter")
    row = page.locator(f"#elimination-{first.entrant.number}")
    expect(row).to_contain_text(wrong)
    row.get_by_label("Why").fill("Out clicked on the wrong player")
    row.get_by_role("button", name=f"Undo elimination of {wrong}").click()
    expect(page.locator(".messages")).to_contain_text(f"{wrong} is back in the tournament")
    table = page.locator("#ttable-1")
    expect(table.locator(".seat-list li").nth(first.seat - 1)).to_contain_text(wrong)
    expect(page.get_by_role("button", name=f"Eliminate {wrong}", exact=True)).to_be_visible()
    expect(page.locator("#reinstatements")).to_contain_text("Out clicked on the wrong player")
    expect(page.locator("#eliminations tbody")).to_contain_text("Nobody is out yet.")

    page.get_by_role("link", name="Draw audit").click()
    moves = page.locator("#moves tbody tr")
    expect(
        moves.filter(has_text="Elimination undone: Out clicked on the wrong player")
    ).to_have_count(1)
    expect(moves.filter(has_text="Eliminated")).to_have_count(1)  # the elimination stays


def test_applying_a_balancing_check_says_one_move_made_in_plain_words(
    login_page: Any, director: Any, live_server: Any
) -> None:
    from tests.tournaments.factories import bust, make_tournament
    from tournaments.balance_checks import check_balance
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import SeatAssignment

    tournament = make_tournament(by=director, tables=3, entrants=24, name="Balancing Act")
    draw_initial_seating(tournament=tournament, by=director)
    for assignment in SeatAssignment.objects.filter(
        table__number=1, ended_at__isnull=True
    ).select_related("entrant")[:2]:
        bust(entrant=assignment.entrant, by=director)
    assert len(check_balance(tournament_id=tournament.pk).moves) == 1
    page = login_page("td")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/balance/")
    page.get_by_role("button", name="Apply 1 move").click()
    expect(page.locator(".messages")).to_contain_text("1 move made.")
    # ...and where the player walks: the room's table, its one name.
    expect(page.locator(".messages")).to_contain_text(re.compile(r"moved to Table 10\d seat"))


def test_closing_registration_asks_first(login_page: Any, field: Any, live_server: Any) -> None:
    """Closing registration must not take one click: it fixes the finishing places and cannot be
    undone, so the first click shows what it does, and only the second closes."""
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=field.pk).update(status="running")
    page = login_page("td")
    page.goto(f"{live_server.url}/tournaments/{field.pk}/")
    page.get_by_text("Close registration…").click()
    expect(page.get_by_text("This cannot be undone.")).to_be_visible()
    assert Tournament.objects.get(pk=field.pk).registration_open
    page.get_by_role("button", name="Close registration now").click()
    expect(page.locator(".messages")).to_contain_text("Registration and re-entry are closed")
    assert not Tournament.objects.get(pk=field.pk).registration_open


def test_a_desk_that_has_played_its_hand_for_hand_hand_waits_for_the_other_tables(
    login_page: Any, director: Any, live_server: Any
) -> None:
    """In hand-for-hand the desk's Deal was enabled, then refused. A table that has
    pushed its hand of the round shows Deal disabled with the reason beside it; the last
    table's push releases the next hand and the desk's poll brings Deal back. The director's
    Next hand is refused while a table plays, and asks before it is forced."""
    from tests.tournaments.factories import make_tournament
    from tests.tournaments.test_table_hands import play, settle
    from tournaments import eliminations, table_hands
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import Tournament

    tournament = make_tournament(by=director, tables=2, entrants=8, name="Bubble Night")
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)

    def push(number: int) -> None:
        table = tournament.tables.get(number=number).table
        hand = table_hands.deal_tournament_hand(table=table, by=director)
        settle(play(hand, director, {}), director)

    push(1)
    page = login_page("td")
    page.goto(f"{live_server.url}/tables/{tournament.tables.get(number=1).table.number}/desk/")
    deal = page.locator("#deal-next")
    expect(deal).to_be_disabled()
    expect(page.locator("#deal-hold")).to_have_text(
        "Waiting for the other tables: hand-for-hand, 1 of 2 have played."
    )
    expect(deal).to_have_attribute("aria-describedby", "deal-hold")
    box, reason = deal.bounding_box(), page.locator("#deal-hold").bounding_box()
    assert box is not None and reason is not None
    # Beside the button: on its line, or the line under it when the card is narrow.
    assert 0 <= reason["y"] - box["y"] <= 2 * box["height"]
    assert reason["x"] < box["x"] + box["width"] + 40

    push(2)  # the last table pushes: the next hand is released, the poll brings Deal back
    expect(deal).to_be_enabled()
    expect(page.locator("#deal-hold")).to_have_count(0)

    # The director's Next hand, with table 2 still to play the new hand: refused, then asked.
    push(1)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(page.locator("#hand-for-hand-round")).to_contain_text("1 of 2 tables have played")
    page.get_by_role("button", name="Next hand (hand-for-hand)").click()
    expect(page.locator(".messages")).to_contain_text("(Table 102 not yet)")
    hand = Tournament.objects.get(pk=tournament.pk).hand_for_hand_hand
    page.get_by_text("Release anyway…").click()
    expect(page.get_by_text("release the next hand anyway?")).to_be_visible()
    page.get_by_role("button", name="Release the next hand").click()
    expect(page.locator(".messages")).to_contain_text("The next hand-for-hand hand is released")
    assert Tournament.objects.get(pk=tournament.pk).hand_for_hand_hand == hand + 1
