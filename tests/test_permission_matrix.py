"""Who gets what, for every URL pattern of the site, found by walking the URL configuration.

``READS`` is the expected answer to a GET for each persona; ``WRITES`` lists every write each
endpoint accepts and the roles allowed it. Both are keyed by pattern name and must name exactly
the patterns the resolver has: a new URL fails here until its permissions are written down.
"""

import copy
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from tests.module_rows import built_once_for_the_module
from tests.site_map import ROUTES, SKIPPED, build_world, discover, url_of

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "no_role_user", "staff", "director", "floor_manager", "cashier")

#: Sent to the log-in page with ``?next=`` the page asked for (LoginRequiredMiddleware).
LOGIN = "302 to log in"

# The usual rows (anonymous, no role, staff, director, floor manager[, cashier]). A row of five
# answers the cashier as it answers staff (a cashier reads the floor like staff, roles.READERS,
# and writes nothing staff cannot); a sixth answer is the cashier's own (the money pages).
PUBLIC = (200, 200, 200, 200, 200)
READ_PAGE = (LOGIN, 403, 200, 200, 200)  # role_required(*READERS)
MANAGER_PAGE = (LOGIN, 403, 403, 403, 200)  # role_required(FLOOR_MANAGER), GET shows the form
DIRECTOR_PAGE = (LOGIN, 403, 403, 200, 403)  # role_required(DIRECTOR), GET shows the form
RULING_PAGE = (LOGIN, 403, 403, 200, 200)  # role_required(*RULING_WRITERS): FM and TD
POST_PAGE = (LOGIN, 405, 405, 405, 405)  # require_POST is checked before the role
READ_API = (401, 403, 200, 200, 200)  # token auth first: anonymous gets 401
POST_API = (401, 403, 405, 405, 405)  # DRF checks permissions before the method
MONEY_PAGE = (LOGIN, 403, 403, 200, 403, 200)  # role_required(*MONEY_TAKERS): TD and cashier


def expected(row: tuple[int | str, ...], persona: str) -> int | str:
    """The row's answer for ``persona``: the cashier's is staff's unless the row has a sixth."""
    column = PERSONAS.index(persona)
    return row[column] if column < len(row) else row[PERSONAS.index("staff")]


#: The answer to a GET, per persona.
READS: dict[str, tuple[int | str, ...]] = {
    "home": (LOGIN, "/floor/", "/floor/", "/floor/", "/floor/"),
    "login": PUBLIC,
    "admin_login": PUBLIC,  # the admin's log-in page, throttled like login
    "logout": (LOGIN, 405, 405, 405, 405),  # Django's LogoutView takes POST only
    "healthz": PUBLIC,
    "favicon": ("/static/favicon.svg",) * 5,  # a redirect to the icon, for everyone
    "schema": READ_API,  # CARDROOM_PUBLIC_API_DOCS is off by default
    "api-docs": READ_PAGE,  # a page: anonymous visitors are sent to log in
    "cardroom:table_list": READ_PAGE,
    "cardroom:table_create": MANAGER_PAGE,
    "cardroom:table_validate": POST_PAGE,
    "cardroom:table_detail": READ_PAGE,
    "cardroom:table_edit": MANAGER_PAGE,
    "cardroom:table_status": POST_PAGE,
    "cardroom:desk": READ_PAGE,
    "cardroom:desk_deal": POST_PAGE,
    "cardroom:desk_act": POST_PAGE,
    "cardroom:desk_interpret": POST_PAGE,
    "cardroom:desk_void": POST_PAGE,
    "cardroom:desk_award": POST_PAGE,
    "cardroom:desk_next": POST_PAGE,
    "cardroom:seat_add": POST_PAGE,
    "cardroom:seat_change": POST_PAGE,
    "cardroom:player_names": READ_PAGE,
    "cardroom:floor": READ_PAGE,
    "cardroom:floor_updates": READ_PAGE,
    "cardroom:audit": MANAGER_PAGE,  # the audit logs' verification: floor managers only
    "cardroom:audit_status": MANAGER_PAGE,
    "cardroom:audit_verify": POST_PAGE,
    "cardroom:board": PUBLIC,  # the public board: a TV in the room, players' phones
    "cardroom:board_live": PUBLIC,
    "cardroom:waitlists": READ_PAGE,
    "cardroom:waitlist_add": POST_PAGE,
    "cardroom:waitlist_open": POST_PAGE,
    "cardroom:waitlist_call": POST_PAGE,
    "cardroom:waitlist_seat": POST_PAGE,
    "cardroom:waitlist_release": POST_PAGE,
    "cardroom:waitlist_check_in": POST_PAGE,
    "cardroom:waitlist_remove": POST_PAGE,
    "cardroom:waitlist_reorder": POST_PAGE,
    "cardroom:waitlist_start": POST_PAGE,
    "cardroom:must_move_create": POST_PAGE,
    "cardroom:must_move_action": POST_PAGE,
    "cardroom:kiosk": PUBLIC,  # the podium's tablet: no log-in
    "cardroom:ruling_list": READ_PAGE,
    "cardroom:ruling_export": READ_PAGE,
    # Floor managers rule at cash tables, directors anywhere (the table decides, on the POST).
    "cardroom:ruling_create": RULING_PAGE,
    "cardroom:ruling_cite_search": RULING_PAGE,
    # Without ``?id=`` there is no rule to add: 422 once past the role check.
    "cardroom:ruling_cite_add": (LOGIN, 403, 403, 422, 422),
    "cardroom:ruling_detail": READ_PAGE,
    # The room's players: any staff member searches; floor managers and directors keep records.
    "cardroom:player_search": READ_PAGE,
    "cardroom:player_detail": RULING_PAGE,
    "cardroom:player_bar": POST_PAGE,
    "rules:search": PUBLIC,  # CARDROOM_PUBLIC_RULEBOOK is on by default
    "rules:house_rule_create": MANAGER_PAGE,
    "rules:rule_detail": PUBLIC,
    "rules:house_rule_edit": MANAGER_PAGE,
    "rules:import": MANAGER_PAGE,
    "rules:import_preview": MANAGER_PAGE,
    "rules:edition": PUBLIC,
    "tournaments:list": READ_PAGE,
    "tournaments:create": DIRECTOR_PAGE,
    "tournaments:detail": READ_PAGE,
    "tournaments:entrant_register": POST_PAGE,
    "tournaments:entrant_eliminate": POST_PAGE,
    "tournaments:entrant_reinstate": POST_PAGE,
    "tournaments:count_correct": POST_PAGE,
    "tournaments:chips_move": POST_PAGE,
    # A table's counts: the director or a floor manager (roles.CHIP_COUNTERS).
    "tournaments:table_counts": (LOGIN, 403, 403, 200, 200),
    "tournaments:registration_close": POST_PAGE,
    "tournaments:reserve_seat": POST_PAGE,
    "tournaments:wrong_seat": POST_PAGE,
    "tournaments:hand_for_hand": POST_PAGE,
    "tournaments:ante_type": POST_PAGE,
    "tournaments:table_button": POST_PAGE,
    "tournaments:break_screen": READ_PAGE,
    "tournaments:draws": READ_PAGE,
    "tournaments:draw_commit": POST_PAGE,
    "tournaments:draw_detail": READ_PAGE,
    "tournaments:draw_deal": POST_PAGE,
    "tournaments:draw_verify": READ_PAGE,
    "tournaments:balance": READ_PAGE,
    "tournaments:balance_check": POST_PAGE,
    "tournaments:balance_apply": POST_PAGE,
    "tournaments:clock": READ_PAGE,
    "tournaments:clock_action": POST_PAGE,
    "tournaments:structure_time": POST_PAGE,
    "tournaments:structure_step": POST_PAGE,
    "tournaments:structure_insert": POST_PAGE,
    "tournaments:structure_add": POST_PAGE,
    "tournaments:chip_set": DIRECTOR_PAGE,
    "tournaments:chip_save": POST_PAGE,
    "tournaments:chip_delete": POST_PAGE,
    "tournaments:chip_race": DIRECTOR_PAGE,  # the world's clock is not at a break: the reason
    "tournaments:chip_race_result": DIRECTOR_PAGE,
    "tournaments:clock_display": READ_PAGE,
    "tournaments:clock_state": READ_PAGE,
    "tournaments:results": READ_PAGE,
    "tournaments:seat_card": READ_PAGE,
    "tournaments:last_draw_cards": READ_PAGE,
    "tournaments:results_csv": READ_PAGE,
    "tournaments:deal": DIRECTOR_PAGE,  # the deal quotes: a GET form that writes nothing
    # The money reconciled, a tournament's and a day's (today without ?date=): read only.
    "tournaments:reconciliation": MONEY_PAGE,
    "tournaments:money_day": MONEY_PAGE,
    "tournaments:payouts": READ_PAGE,  # the pool and the table; editing and paying are POSTs
    "tournaments:payouts_edit": POST_PAGE,
    "tournaments:payout_pay": POST_PAGE,
    "tournaments:payout_slip": READ_PAGE,
    # The money: the cashier's page is the money takers' (MONEY_TAKERS: cashier, director); the
    # price list is the director's alone.
    "tournaments:money": MONEY_PAGE,
    "tournaments:money_prices": DIRECTOR_PAGE,
    "tournaments:money_pay": POST_PAGE,
    "tournaments:deal_record": POST_PAGE,
    "tournaments:deal_sheet": MONEY_PAGE,  # the recorded deal's sheet: the cashier pays from it
    "tournaments:bounties": MONEY_PAGE,
    "tournaments:bounty_pay": POST_PAGE,
    "api:table-list": READ_API,
    "api:table-detail": READ_API,
    "api:ruling-list": READ_API,
    "api:ruling-detail": READ_API,
    "api:tournament-list": READ_API,
    "api:tournament-detail": READ_API,
    "api:betting-evaluate": (405, 405, 405, 405, 405),  # public, POST only
    "api:betting-interpret": (405, 405, 405, 405, 405),
    "api:betting-award": (405, 405, 405, 405, 405),
    "api:deals-quote": (405, 405, 405, 405, 405),  # public like the betting API, POST only
    "api:table-betting-evaluate": (405, 405, 405, 405, 405),
    "api:table-hands": READ_API,
    "api:hand-detail": READ_API,
    "api:hand-actions": READ_API,
    "api:hand-void-last": POST_API,
    "api:hand-void": POST_API,
    # The seat map, the next hand and the award. The world's table has a hand in
    # progress dealt with typed stacks and two players seated, so the proposal answers.
    "api:table-seats": READ_API,
    "api:table-seat": READ_API,
    "api:table-next-hand": READ_API,
    "api:hand-award": POST_API,
    "api:player-search": (401, 403, 400, 400, 400),  # without ?q= there is nothing to find
    "api:rule-list": PUBLIC,  # the rulebook API reads like the rulebook pages
    "api:rule-detail": PUBLIC,
    "api:tournament-entrants": READ_API,
    "api:tournament-eliminate": POST_API,
    "api:tournament-eliminations": READ_API,
    "api:tournament-reinstate": POST_API,
    "api:tournament-reinstatements": READ_API,
    "api:tournament-chips": READ_API,
    "api:tournament-count": POST_API,
    "api:tournament-chips-move": POST_API,
    "api:tournament-payments": (401, 403, 403, 405, 403, 405),  # POST only: MONEY_TAKERS
    "api:tournament-table-counts": POST_API,
    "api:tournament-registration-close": POST_API,
    "api:tournament-seating": READ_API,
    "api:tournament-moves": READ_API,
    "api:tournament-draws": READ_API,
    "api:tournament-draw": READ_API,
    "api:tournament-draw-deal": READ_API,  # inherits the draw's GET; dealing is the POST
    "api:tournament-draw-verify": READ_API,
    "api:tournament-balance": READ_API,
    "api:tournament-balance-apply": POST_API,
    "api:tournament-reservations": POST_API,
    "api:tournament-wrong-seat": POST_API,
    "api:tournament-button": POST_API,
    "api:tournament-hand-for-hand": POST_API,
    "api:tournament-ante": POST_API,
    "api:tournament-clock": READ_API,
    "api:tournament-structure": READ_API,
    "api:tournament-structure-time": POST_API,
    "api:tournament-structure-add": POST_API,
    "api:tournament-structure-step": POST_API,
    "api:tournament-structure-delete": POST_API,
    # The waitlists' API: staff and floor managers run the lists, directors read.
    "api:waitlists": READ_API,
    "api:waitlist": READ_API,
    "api:waitlist-entries": READ_API,  # a page of the list; adding is the POST
    "api:waitlist-start-game": READ_API,  # the proposal; starting is the POST
    "api:entry": POST_API,  # PATCH and DELETE only
    "api:entry-call": POST_API,
    "api:entry-seat": POST_API,
    "api:must-moves": READ_API,
    "api:must-move-end": POST_API,
    "api:must-move-next": POST_API,
    "api:room-settings": READ_API,
    "api:kiosk-entries": PUBLIC,  # the lists a player may join, no names
}

FM, TD, ST, CA = "floor_manager", "director", "staff", "cashier"

#: Every write an endpoint accepts, and the personas allowed it (everyone else: 403, or the
#: log-in page / 401 when anonymous).
WRITES: dict[str, dict[str, tuple[str, ...]]] = {
    "cardroom:table_create": {"POST": (FM,)},
    "cardroom:audit_verify": {"POST": (FM,)},
    "cardroom:table_validate": {"POST": (FM,)},
    "cardroom:table_edit": {"POST": (FM,)},
    # At the world's cash table; a director opens and closes a tournament's tables (tested in
    # tests/cardroom/test_roles.py, with its 403s).
    "cardroom:table_status": {"POST": (FM,)},
    "cardroom:desk_deal": {"POST": (FM, TD)},
    "cardroom:desk_act": {"POST": (FM, TD)},
    "cardroom:desk_void": {"POST": (FM, TD)},
    "cardroom:desk_award": {"POST": (FM, TD)},
    "cardroom:desk_next": {"POST": (FM, TD)},
    "cardroom:seat_add": {"POST": (FM, TD)},
    "cardroom:seat_change": {"POST": (FM, TD)},
    # The world's ruling table is a cash table: its floor manager or a director (a tournament
    # table's ruling is the director's alone: tests/cardroom/test_roles.py).
    "cardroom:ruling_create": {"POST": (FM, TD)},
    "cardroom:player_detail": {"POST": (FM, TD)},
    "cardroom:player_bar": {"POST": (FM, TD)},
    # The waitlists: staff and floor managers run them; moving a player is a floor manager's.
    "cardroom:waitlist_add": {"POST": (FM, ST)},
    "cardroom:waitlist_open": {"POST": (FM, ST)},
    "cardroom:waitlist_call": {"POST": (FM, ST)},
    "cardroom:waitlist_seat": {"POST": (FM, ST)},
    "cardroom:waitlist_release": {"POST": (FM, ST)},
    "cardroom:waitlist_check_in": {"POST": (FM, ST)},
    "cardroom:waitlist_remove": {"POST": (FM, ST)},
    "cardroom:waitlist_reorder": {"POST": (FM,)},
    "cardroom:waitlist_start": {"POST": (FM, ST)},
    "cardroom:must_move_create": {"POST": (FM, ST)},
    "cardroom:must_move_action": {"POST": (FM, ST)},
    "rules:house_rule_create": {"POST": (FM,)},
    "rules:house_rule_edit": {"POST": (FM,)},
    "rules:import": {"POST": (FM,)},
    "rules:import_preview": {"POST": (FM,)},
    "tournaments:create": {"POST": (TD,)},
    "tournaments:entrant_register": {"POST": (TD,)},
    "tournaments:entrant_eliminate": {"POST": (TD,)},
    "tournaments:entrant_reinstate": {"POST": (TD,)},
    # Counts are entered by the director or a floor manager; where chips go, the director.
    "tournaments:count_correct": {"POST": (FM, TD)},
    "tournaments:chips_move": {"POST": (TD,)},
    "tournaments:table_counts": {"POST": (FM, TD)},
    "tournaments:registration_close": {"POST": (TD,)},
    "tournaments:reserve_seat": {"POST": (TD,)},
    "tournaments:wrong_seat": {"POST": (TD,)},
    "tournaments:hand_for_hand": {"POST": (TD,)},
    "tournaments:ante_type": {"POST": (TD,)},
    "tournaments:table_button": {"POST": (TD,)},
    "tournaments:draw_commit": {"POST": (TD,)},
    "tournaments:draw_deal": {"POST": (TD,)},
    # The payout table is the director's alone; prizes are paid by MONEY_TAKERS (the director
    # and the cashier).
    "tournaments:payouts_edit": {"POST": (TD,)},
    "tournaments:payout_pay": {"POST": (TD, CA)},
    "tournaments:deal_record": {"POST": (TD,)},  # deals are the director's alone
    "tournaments:bounty_pay": {"POST": (TD, CA)},  # MONEY_TAKERS: the director and the cashier
    "tournaments:balance_check": {"POST": (TD,)},
    "tournaments:balance_apply": {"POST": (TD,)},
    "tournaments:clock_action": {"POST": (TD,)},
    "tournaments:structure_time": {"POST": (TD,)},
    "tournaments:structure_step": {"POST": (TD,)},
    "tournaments:structure_insert": {"POST": (TD,)},
    "tournaments:structure_add": {"POST": (TD,)},
    "tournaments:chip_save": {"POST": (TD,)},
    "tournaments:chip_delete": {"POST": (TD,)},
    "tournaments:chip_race": {"POST": (TD,)},
    # Money is taken by the money takers (the cashier or the director), priced by the director.
    "tournaments:money_prices": {"POST": (TD,)},
    "tournaments:money_pay": {"POST": (TD, CA)},
    "api:table-list": {"POST": (FM,)},
    "api:table-detail": {"PUT": (FM,), "PATCH": (FM,), "DELETE": (FM,)},
    "api:ruling-list": {"POST": (FM, TD)},
    "api:tournament-list": {"POST": (TD,)},
    "api:table-hands": {"POST": (FM, TD)},
    "api:hand-actions": {"POST": (FM, TD)},
    "api:hand-void-last": {"POST": (FM, TD)},
    "api:hand-void": {"POST": (FM, TD)},
    "api:table-seats": {"POST": (FM, TD)},
    "api:table-seat": {"PATCH": (FM, TD), "DELETE": (FM, TD)},
    "api:table-next-hand": {"POST": (FM, TD)},
    "api:hand-award": {"POST": (FM, TD)},
    "api:rule-list": {"POST": (FM,)},
    "api:rule-detail": {"PUT": (FM,), "PATCH": (FM,)},
    "api:tournament-entrants": {"POST": (TD,)},
    "api:tournament-eliminate": {"POST": (TD,)},
    "api:tournament-reinstate": {"POST": (TD,)},
    "api:tournament-count": {"POST": (FM, TD)},
    "api:tournament-chips-move": {"POST": (TD,)},
    "api:tournament-payments": {"POST": (TD, CA)},
    "api:tournament-table-counts": {"POST": (FM, TD)},
    "api:tournament-registration-close": {"POST": (TD,)},
    "api:tournament-draws": {"POST": (TD,)},
    "api:tournament-draw-deal": {"POST": (TD,)},
    "api:tournament-balance": {"POST": (TD,)},
    "api:tournament-balance-apply": {"POST": (TD,)},
    "api:tournament-reservations": {"POST": (TD,)},
    "api:tournament-wrong-seat": {"POST": (TD,)},
    "api:tournament-button": {"POST": (TD,)},
    "api:tournament-hand-for-hand": {"POST": (TD,)},
    "api:tournament-ante": {"POST": (TD,)},
    "api:tournament-clock": {"POST": (TD,)},
    "api:tournament-structure": {"POST": (TD,)},
    "api:tournament-structure-time": {"POST": (TD,)},
    "api:tournament-structure-add": {"POST": (TD,)},
    "api:tournament-structure-step": {"POST": (TD,)},
    "api:tournament-structure-delete": {"POST": (TD,)},
    "api:waitlists": {"POST": (FM, ST)},
    "api:waitlist": {"DELETE": (FM, ST)},
    "api:waitlist-entries": {"POST": (FM, ST)},
    "api:waitlist-start-game": {"POST": (FM, ST)},
    # PATCH: a check-in (staff too); a reorder is a floor manager's (tested in the API tests).
    "api:entry": {"PATCH": (FM, ST), "DELETE": (FM, ST)},
    "api:entry-call": {"POST": (FM, ST), "DELETE": (FM, ST)},
    "api:entry-seat": {"POST": (FM, ST)},
    "api:must-moves": {"POST": (FM, ST)},
    "api:must-move-end": {"POST": (FM, ST)},
    "api:must-move-next": {"POST": (FM, ST)},
    "api:room-settings": {"PATCH": (FM,)},
}

#: POSTs open beyond the roles above, with what each persona gets for an empty body, and why.
OPEN_POSTS: dict[str, tuple[int | str, ...]] = {
    "home": (LOGIN, "/floor/", "/floor/", "/floor/", "/floor/"),  # a redirect: writes nothing
    "login": (200, 200, 200, 200, 200),  # the form again, with its errors
    "admin_login": (200, 200, 200, 200, 200),  # the admin's form again, with its errors
    "logout": (LOGIN, "/login/", "/login/", "/login/", "/login/"),
    # "What does this count as?" reads chips and writes nothing: every reader may ask.
    "cardroom:desk_interpret": (LOGIN, 403, 200, 200, 200),
    # The kiosk: a player adds themselves, no log-in; an empty form is refused on the form.
    "cardroom:kiosk": (422, 422, 422, 422, 422),
    # The public betting API (CARDROOM_PUBLIC_BETTING_API): an empty body is a bad request.
    "api:betting-evaluate": (400, 400, 400, 400, 400),
    "api:betting-interpret": (400, 400, 400, 400, 400),
    "api:betting-award": (400, 400, 400, 400, 400),
    # The public deal calculator: no log-in; an empty body is a bad request.
    "api:deals-quote": (400, 400, 400, 400, 400),
    # The kiosk's API: no log-in, it only adds a player to lists; an empty body is refused.
    "api:kiosk-entries": (400, 400, 400, 400, 400),
    "api:table-betting-evaluate": (400, 400, 400, 400, 400),
}

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def observed(response: Any, url: str) -> int | str:
    """The status, or for a redirect where it goes (``LOGIN`` for the log-in page)."""
    if response.status_code != 302:
        return int(response.status_code)
    location = response["Location"]
    return LOGIN if location == f"/login/?next={quote(url)}" else location


def send(client: Client, method: str, url: str) -> Any:
    body = {"content_type": "application/json"} if url.startswith("/api/") else {}
    return client.generic(method, url, **body)


@pytest.fixture(scope="module")
def module_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """The world, built once for this module's tests (each test's writes roll back)."""
    with built_once_for_the_module(django_db_blocker, build_world) as world:
        yield world


@pytest.fixture
def world(module_world: dict[str, Any], db: None) -> dict[str, Any]:
    return copy.deepcopy(module_world)  # its users are objects a test may change


@pytest.fixture
def client_for(request: pytest.FixtureRequest) -> Callable[[str], Client]:
    """A fresh client per call: a POST to /logout/ must not log out the next request."""

    def build(persona: str) -> Client:
        client = Client(raise_request_exception=False)
        if persona != "anonymous":
            client.force_login(request.getfixturevalue(persona))
        return client

    return build


def test_every_url_pattern_is_in_the_tables() -> None:
    found = set(discover())
    assert found == set(ROUTES), f"fill the parameters of: {sorted(found ^ set(ROUTES))}"
    assert found == set(READS), f"write down who may read: {sorted(found ^ set(READS))}"
    rows = [*READS.values(), *OPEN_POSTS.values()]
    assert all(len(row) in (5, len(PERSONAS)) for row in rows), "a row of 5 answers, or of 6"
    assert set(WRITES) <= found and set(OPEN_POSTS) <= found
    assert not set(WRITES) & set(OPEN_POSTS)
    assert SKIPPED.keys() == {"admin"}, "say why a pattern is left out"


def test_the_walk_finds_nested_includes_and_skips_only_the_admin() -> None:
    found = discover()
    assert found["api:tournament-draw"].route == "api/v1/tournaments/<id:pk>/draws/<id:number>/"
    assert found["rules:rule_detail"].route == "rulebook/<str:citation_id>/"
    assert not any(name.startswith("admin:") for name in found)


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_get_answers_each_persona_as_the_table_says(
    persona: str, world: dict[str, Any], client_for: Callable[[str], Client]
) -> None:
    client = client_for(persona)
    wrong = []
    for name, row in READS.items():
        url = url_of(name, world)
        got = observed(client.get(url), url)
        if got != expected(row, persona):
            wrong.append(f"{name} {url}: expected {expected(row, persona)}, got {got}")
    assert not wrong, "\n".join(wrong)


def test_staff_and_anonymous_are_refused_every_write(
    world: dict[str, Any], client_for: Callable[[str], Client]
) -> None:
    wrong = []
    for name, methods in WRITES.items():
        url = url_of(name, world)
        anonymous_refusal = 401 if url.startswith("/api/") else LOGIN
        for method in methods:
            for persona, refusal in [
                ("anonymous", anonymous_refusal), ("no_role_user", 403), ("staff", 403),
            ]:  # fmt: skip
                if persona in methods[method]:
                    continue  # staff run the waitlists
                got = observed(send(client_for(persona), method, url), url)
                if got != refusal:
                    wrong.append(f"{persona} {method} {url}: expected {refusal}, got {got}")
    assert not wrong, "\n".join(wrong)


def test_each_write_is_refused_to_the_other_role_and_let_through_to_its_own(
    world: dict[str, Any], client_for: Callable[[str], Client]
) -> None:
    """An empty body: the allowed role gets past the role check (a refusal of the body,
    never 401/403/405 or a crash); the other floor roles get 403 (the cashier too: it writes
    nothing but money, so every write it is not listed for refuses it)."""
    wrong = []
    for name, methods in WRITES.items():
        url = url_of(name, world)
        for method, allowed in methods.items():
            for persona in (FM, TD, CA):
                got = observed(send(client_for(persona), method, url), url)
                if persona not in allowed and got != 403:
                    wrong.append(f"{persona} {method} {url}: expected 403, got {got}")
                if (
                    persona in allowed
                    and isinstance(got, int)
                    and (got in (401, 403, 405) or got >= 500)
                ):
                    wrong.append(f"{persona} {method} {url}: refused or failed with {got}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_open_posts_answer_as_the_table_says(
    persona: str, world: dict[str, Any], client_for: Callable[[str], Client]
) -> None:
    wrong = []
    for name, row in OPEN_POSTS.items():
        url = url_of(name, world)
        got = observed(send(client_for(persona), "POST", url), url)
        if got != expected(row, persona):
            wrong.append(f"{name} {url}: expected {expected(row, persona)}, got {got}")
    assert not wrong, "\n".join(wrong)


def test_every_write_the_site_accepts_is_in_the_tables(
    world: dict[str, Any], client_for: Callable[[str], Client]
) -> None:
    """A superuser tries every write method on every pattern: whatever is not turned away with
    405 must be listed in ``WRITES`` (or ``OPEN_POSTS``), so no write goes unchecked."""
    listed = {(name, method) for name, methods in WRITES.items() for method in methods}
    listed |= {(name, "POST") for name in OPEN_POSTS}
    accepted = set()
    for name in discover():
        url = url_of(name, world)
        for method in WRITE_METHODS if url.startswith("/api/") else ("POST",):
            if send(client_for("superuser"), method, url).status_code != 405:
                accepted.add((name, method))
    assert accepted == listed, f"unlisted: {accepted - listed}; not accepted: {listed - accepted}"
