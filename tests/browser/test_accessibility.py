"""Every page a person uses, as every role that can see it, at desktop (1366x900) size, and once
more at tablet (1024x768) size by one role that can see it (the cashier, whose pages are staff's
and the money pages a director also sees, at desktop size only): axe-core finds no serious or
critical WCAG violation, and the console shows
no error (no Content-Security-Policy violation, no missing favicon, no failed script).

axe-core is vendored under tests/browser/vendor/axe-core/ (never a CDN) and injected into each
page by Playwright. Interactive states whose contrast once broke are opened before the check:
the rule suggestions of the ruling form, the chip reader with chips tapped, a desk refusal.
"""

import base64
import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.site_map import build_world, discover

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
#: axe-core 4.14.1's own published hash of axe.min.js (its sri-history.json).
AXE_SHA256 = "KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="

VIEWPORTS = ({"width": 1366, "height": 900}, {"width": 1024, "height": 768})
READERS = frozenset({"staff", "floor_manager", "director", "cashier"})
EVERYONE = READERS | {"anonymous"}
MANAGER = frozenset({"floor_manager"})
DIRECTOR = frozenset({"director"})
#: Who takes and pays a tournament's money (roles.MONEY_TAKERS).
MONEY = frozenset({"director", "cashier"})
USERNAMES = {
    "staff": "staffer", "floor_manager": "fm", "director": "td", "cashier": "cashier",
    "superuser": "root",
}  # fmt: skip


# --- interactive states ---------------------------------------------------------------------


def tap_chips(page: Page) -> None:
    """The chip reader with a chip pushed out and one already in front (its buttons, Clear
    and Read it all showing)."""
    helper = page.locator("#count-helper")
    helper.get_by_role("group", name="Chips pushed out").get_by_role("button").first.click()
    expect(page.locator("#chips-out")).not_to_have_text("none")
    helper = page.locator("#count-helper")
    helper.get_by_role("group", name="Chips already in front").get_by_role("button").first.click()
    expect(helper.get_by_role("group", name="Chips already in front")).not_to_contain_text("none")


def refuse_a_raise(page: Page) -> None:
    """A raise short of the minimum: the desk shows the refusal and the rules behind it."""
    page.get_by_label("Raise to").fill("1")
    page.get_by_role("button", name=re.compile(r"^Raise")).click()
    expect(page.get_by_role("alert")).to_contain_text("Refused")


def hold_out_of_turn(page: Page) -> None:
    """An action entered out of turn (TDA-53): the form open, the action held on its seat."""
    if not page.locator(".seat .held").count():  # held at the first viewport already
        page.get_by_text("Out of turn", exact=True).click()
        form = page.locator(".out-of-turn-form")
        form.get_by_label("Action", exact=True).select_option("call")
        form.get_by_role("button", name="Hold it").click()
    expect(page.locator(".seat .held")).to_contain_text("Held: call")
    page.get_by_text("Out of turn", exact=True).click()  # the form open, as the dealer sees it


def suggest_rules(page: Page) -> None:
    """The citation autocomplete with its options showing, then one rule cited."""
    page.get_by_label(re.compile(r"^Find a rule")).fill("multiple chips")
    options = page.locator("#cite-results [role=option]")
    expect(options.first).to_be_visible()
    options.filter(has_text="TDA-45").first.click()
    expect(page.locator("#cited")).to_contain_text("TDA-45")
    page.get_by_label(re.compile(r"^Find a rule")).fill("oversized chip")
    expect(page.locator("#cite-results [role=option]").first).to_be_visible()


def suggest_rules_and_tap_chips(page: Page) -> None:
    suggest_rules(page)
    tap_chips(page)


def open_an_operation(page: Page) -> None:
    """Swagger UI with one operation opened (its parameters, responses and buttons)."""
    page.locator(".opblock-summary-control").first.click()
    expect(page.locator(".opblock-body").first).to_be_visible()


# --- the pages ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Visit:
    label: str
    name: str  # the URL pattern
    roles: frozenset[str]
    #: Path parameter -> key of the world (tests/site_map.py), or "=value" for a literal.
    params: dict[str, str] = field(default_factory=dict)
    query: str = ""  # formatted with the world, e.g. "?table={table_number}"
    status: int = 200
    then: Callable[[Page], None] | None = None
    #: Status codes a request of the page may answer without it being a console error.
    expected_errors: frozenset[int] = field(default=frozenset())
    ours: bool = True  # False for Swagger UI: its buttons are not our button styles

    def path(self, world: dict[str, Any]) -> str:
        kwargs = {k: v[1:] if v.startswith("=") else world[v] for k, v in self.params.items()}
        return reverse(self.name, kwargs=kwargs) + self.query.format(**world)


TABLE = {"number": "table_number"}
T = {"pk": "tournament"}
VISITS: tuple[Visit, ...] = (
    Visit("log-in", "login", frozenset({"anonymous"})),
    Visit("floor", "cardroom:floor", READERS),
    Visit("audit logs", "cardroom:audit", MANAGER),
    Visit("public board", "cardroom:board", EVERYONE),
    Visit("waitlists", "cardroom:waitlists", READERS),
    Visit("kiosk", "cardroom:kiosk", EVERYONE),
    Visit("tables", "cardroom:table_list", READERS),
    Visit("table", "cardroom:table_detail", READERS, TABLE),
    Visit("new table", "cardroom:table_create", MANAGER),
    Visit("edit table", "cardroom:table_edit", MANAGER, TABLE),
    Visit("desk, hand in progress", "cardroom:desk", READERS, TABLE),
    Visit(
        "desk, a refusal shown",
        "cardroom:desk",
        MANAGER | DIRECTOR,
        TABLE,
        then=refuse_a_raise,
        expected_errors=frozenset({422}),
    ),
    Visit(
        "desk, chip reader with chips", "cardroom:desk", MANAGER | DIRECTOR, TABLE, then=tap_chips
    ),
    Visit(
        "desk, an action held out of turn",
        "cardroom:desk",
        MANAGER | DIRECTOR,
        TABLE,
        then=hold_out_of_turn,
    ),
    Visit("rulings", "cardroom:ruling_list", READERS),
    Visit("ruling", "cardroom:ruling_detail", READERS, {"ruling_id": "ruling"}),
    Visit(
        "ruling, print view",
        "cardroom:ruling_detail",
        READERS,
        {"ruling_id": "ruling"},
        query="?print=1",
    ),
    Visit(
        "new ruling, rules suggested and chips read",
        "cardroom:ruling_create",
        DIRECTOR | MANAGER,  # the world's table is a cash table: its floor manager rules too
        query="?table={table_number}&hand={hand}",
        then=suggest_rules_and_tap_chips,
    ),
    Visit("amend a ruling", "cardroom:ruling_create", DIRECTOR | MANAGER, query="?amends={ruling}"),
    Visit("rulebook search", "rules:search", EVERYONE, query="?q=chips"),
    Visit("rule permalink", "rules:rule_detail", EVERYONE, {"citation_id": "rule"}),
    Visit("new house rule", "rules:house_rule_create", MANAGER),
    Visit("edit house rule", "rules:house_rule_edit", MANAGER, {"citation_id": "house_rule"}),
    Visit("import the rulebook", "rules:import", MANAGER),
    Visit("import preview", "rules:import_preview", MANAGER, {"token": "import_preview"}),
    Visit(
        "rulebook edition", "rules:edition", EVERYONE, {"code": "room_book", "number": "edition"}
    ),
    Visit("tournaments", "tournaments:list", READERS),
    Visit("tournament", "tournaments:detail", READERS, T),
    Visit("new tournament", "tournaments:create", DIRECTOR),
    Visit("draws", "tournaments:draws", READERS, T),
    Visit("draw", "tournaments:draw_detail", READERS, {**T, "number": "draw"}),
    Visit("balance", "tournaments:balance", READERS, T),
    Visit("break", "tournaments:break_screen", READERS, {**T, "room": "tournament_room_table"}),
    Visit(
        "counts",
        "tournaments:table_counts",
        MANAGER | DIRECTOR,
        {**T, "number": "tournament_table"},
    ),
    Visit("chips", "tournaments:chip_set", DIRECTOR, T),
    Visit("chip race", "tournaments:chip_race", DIRECTOR, {**T, "number": "tournament_table"}),
    Visit(
        "chip race result",
        "tournaments:chip_race_result",
        DIRECTOR,
        {"pk": "raced_tournament", "race_id": "chip_race"},
    ),
    Visit("clock", "tournaments:clock", READERS, T),
    Visit("clock room display", "tournaments:clock_display", READERS, T),
    Visit("tournament results", "tournaments:results", READERS, T),
    Visit("deal quotes", "tournaments:deal", DIRECTOR, T, query="?prizes=500%0A300&unit=1"),
    Visit("money reconciliation", "tournaments:reconciliation", MONEY, T),
    Visit("money of a day", "tournaments:money_day", MONEY, query="?date=2026-11-27"),
    Visit(
        "money of a day, a date refused",
        "tournaments:money_day",
        MONEY,
        query="?date=2026-13-01",
        status=422,
        expected_errors=frozenset({422}),
    ),
    Visit("money", "tournaments:money", MONEY, T),
    Visit("prices", "tournaments:money_prices", DIRECTOR, T),
    Visit("deal sheet", "tournaments:deal_sheet", MONEY, {"pk": "raced_tournament"}),
    Visit("bounties", "tournaments:bounties", MONEY, T),
    Visit("seat card", "tournaments:seat_card", READERS, {**T, "number": "entrant"}),
    Visit("payouts", "tournaments:payouts", READERS, T),
    Visit("payout slip", "tournaments:payout_slip", READERS, {**T, "number": "entrant"}),
    Visit("last draw's seat cards", "tournaments:last_draw_cards", READERS, T),
    Visit("player", "cardroom:player_detail", MANAGER | DIRECTOR, {"player_id": "player"}),
    Visit(
        "refused (403)",
        "rules:house_rule_create",
        READERS - MANAGER,
        status=403,
        expected_errors=frozenset({403}),
    ),
    Visit(
        "refused (403)",
        "tournaments:create",
        MANAGER,
        status=403,
        expected_errors=frozenset({403}),
    ),
    Visit(
        "not found (404)",
        "rules:rule_detail",
        EVERYONE,
        {"citation_id": "=NO-SUCH-RULE"},
        status=404,
        expected_errors=frozenset({404}),
    ),
    Visit(
        "not found (404)",
        "cardroom:table_detail",
        READERS,
        {"number": "=999999"},
        status=404,
        expected_errors=frozenset({404}),
    ),
    Visit("API docs", "api-docs", READERS, then=open_an_operation, ours=False),
)

#: URL patterns that are not pages a person looks at, and why.
NOT_PAGES = {
    "home": "a redirect to the floor",
    "logout": "POST only",
    "healthz": "JSON for load balancers",
    "favicon": "a redirect to the icon",
    "admin_login": "the Django admin's own log-in page (throttled like /login/), styled like every /admin/ page",
    "schema": "the OpenAPI document (YAML)",
    "cardroom:table_validate": "a form fragment, checked inside the table form",
    "cardroom:table_status": "POST only",
    "cardroom:desk_deal": "POST only",
    "tournaments:deal_record": "POST only",
    "tournaments:bounty_pay": "POST only",
    "cardroom:desk_act": "POST only",
    "cardroom:desk_interpret": "the chip reader's fragment, checked with chips on the desk",
    "cardroom:desk_void": "POST only",
    "cardroom:desk_award": "POST only",
    "cardroom:desk_next": "POST only",
    "cardroom:seat_add": "POST only",
    "cardroom:player_search": "a fragment under a name box (the tournament and waitlist pages)",
    "cardroom:player_bar": "POST only",
    "cardroom:seat_change": "POST only",
    "cardroom:player_names": "the name box's suggestions (a datalist), checked on the desk",
    "cardroom:floor_updates": "the floor's polling fragment",
    "cardroom:audit_status": "the audit page's polling fragment (its page is checked)",
    "cardroom:audit_verify": "POST only",
    "cardroom:board_live": "the public board's polling fragment (its page is checked)",
    "cardroom:waitlist_add": "POST only",
    "cardroom:waitlist_open": "POST only",
    "cardroom:waitlist_call": "POST only",
    "cardroom:waitlist_seat": "POST only",
    "cardroom:waitlist_release": "POST only",
    "cardroom:waitlist_check_in": "POST only",
    "cardroom:waitlist_remove": "POST only",
    "cardroom:waitlist_reorder": "POST only",
    "cardroom:waitlist_start": "POST only",
    "cardroom:must_move_create": "POST only",
    "cardroom:must_move_action": "POST only",
    "cardroom:ruling_export": "CSV",
    "cardroom:ruling_cite_search": "the rule suggestions, checked open on the ruling form",
    "cardroom:ruling_cite_add": "a cited-rule fragment, checked on the ruling form",
    "tournaments:entrant_register": "POST only",
    "tournaments:entrant_eliminate": "POST only",
    "tournaments:entrant_reinstate": "POST only",
    "tournaments:count_correct": "POST only",
    "tournaments:chips_move": "POST only",
    "tournaments:registration_close": "POST only",
    "tournaments:reserve_seat": "POST only",
    "tournaments:wrong_seat": "POST only",
    "tournaments:hand_for_hand": "POST only",
    "tournaments:ante_type": "POST only",
    "tournaments:table_button": "POST only",
    "tournaments:draw_commit": "POST only",
    "tournaments:draw_deal": "POST only",
    "tournaments:payouts_edit": "POST only",
    "tournaments:payout_pay": "POST only",
    "tournaments:draw_verify": "POST only",
    "tournaments:balance_check": "POST only",
    "tournaments:balance_apply": "POST only",
    "tournaments:clock_action": "POST only",
    "tournaments:structure_time": "POST only",
    "tournaments:structure_step": "POST only",
    "tournaments:structure_insert": "POST only",
    "tournaments:structure_add": "POST only",
    "tournaments:chip_save": "POST only",
    "tournaments:chip_delete": "POST only",
    "tournaments:money_pay": "POST only",
    "tournaments:clock_state": "the room display's polling JSON",
    "tournaments:results_csv": "CSV",
}


def test_every_page_of_the_site_is_checked() -> None:
    """A new page fails here until it is visited above (or said not to be a page)."""
    pages = {name for name in discover() if not name.startswith("api:")}
    visited = {visit.name for visit in VISITS if visit.status == 200}
    assert pages - set(NOT_PAGES) - visited == set(), "add them to VISITS (or NOT_PAGES)"
    assert set(NOT_PAGES) <= pages, "NOT_PAGES names a pattern the site no longer has"


# --- the check ------------------------------------------------------------------------------


AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map(n => ({
        target: n.target.join(' '),
        why: (n.failureSummary || '').split('\\n').slice(1).join(' ').trim(),
      })),
    }));
}"""


#: One button style per meaning (static/css/app.css): computed (text, background, border).
FELT, DANGER, WHITE = "rgb(15, 81, 50)", "rgb(166, 27, 27)", "rgb(255, 255, 255)"
BUTTON_STYLES = {
    (FELT, WHITE, FELT): "secondary",
    (WHITE, FELT, FELT): "primary",
    (DANGER, WHITE, DANGER): "danger",
    # The clock's room display is dark (a TV across the room): its one control is secondary.
    (
        "rgb(245, 246, 244)",
        "rgba(0, 0, 0, 0)",
        "rgb(185, 199, 191)",
    ): "secondary on the room display",
}
BUTTONS = """() => [...document.querySelectorAll('button, .button, input[type=submit]')]
  .filter(el => !el.disabled && el.getAttribute('aria-disabled') !== 'true')
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map(el => {
    const cs = getComputedStyle(el);
    return {
      label: (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 40),
      style: [cs.color, cs.backgroundColor, cs.borderTopColor],
    };
  })"""


def odd_buttons(page: Page) -> list[str]:
    """Buttons in none of the three styles (the mouse is moved off first: hover is a state)."""
    page.mouse.move(0, 0)
    return [
        f"button {b['label']!r} is in no button style: text, background, border = {b['style']}"
        for b in page.evaluate(BUTTONS)
        if tuple(b["style"]) not in BUTTON_STYLES
    ]


@dataclass
class Console:
    """Errors the page reported: console errors, uncaught exceptions, CSP violations."""

    errors: list[str] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))
        page.expose_function("reportCspViolation", lambda text: self.errors.append(text))
        page.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => window.reportCspViolation("
            "'CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')"
            " + ' ' + (e.sample || '')));"
        )

    def _on_console(self, message: Any) -> None:
        if message.type == "error":
            where = message.location.get("url", "")
            self.errors.append(f"console: {message.text} ({where})")

    def take(self, expected: frozenset[int]) -> list[str]:
        """The errors so far, minus the answers the visit expects (a 404 page is a 404)."""
        allowed = tuple(f"status of {code} " for code in expected)
        found = [
            e for e in self.errors
            if not ("Failed to load resource" in e and any(a in e for a in allowed))
        ]  # fmt: skip
        self.errors.clear()
        return found


@pytest.fixture(scope="module")
def axe_source() -> str:
    data = AXE.read_bytes()
    digest = base64.b64encode(hashlib.sha256(data).digest()).decode()
    assert digest == AXE_SHA256, "tests/browser/vendor/axe-core/axe.min.js is not axe-core 4.14.1"
    return data.decode()


@pytest.fixture
def as_role(
    request: pytest.FixtureRequest, live_server: Any, browser: Any, axe_source: str
) -> Iterator[Callable[[str], tuple[Page, Console]]]:
    """One browser context per role, logged in through the real form."""
    contexts = []

    def open_as(role: str) -> tuple[Page, Console]:
        from tests.factories import TEST_PASSWORD

        context = browser.new_context(viewport=VIEWPORTS[0])
        context.add_init_script(axe_source)
        contexts.append(context)
        page = context.new_page()
        console = Console()
        console.attach(page)
        if role != "anonymous":
            request.getfixturevalue(role)
            page.goto(f"{live_server.url}/login/")
            page.get_by_label("Username").fill(USERNAMES[role])
            page.get_by_label("Password").fill(TEST_PASSWORD)
            page.get_by_role("button", name="Log in").click()
            expect(page.get_by_role("button", name="Log out")).to_be_visible()
        return page, console

    yield open_as
    for context in contexts:
        context.close()


def check(page: Page, console: Console, url: str, visit: Visit) -> list[str]:
    response = page.goto(url)
    assert response is not None
    problems = []
    if response.status != visit.status:
        problems.append(f"answered {response.status}, expected {visit.status}")
    page.wait_for_load_state("load")
    if visit.then is not None:
        visit.then(page)
    expect(page.locator(".htmx-request")).to_have_count(0)  # no swap under way
    problems += console.take(visit.expected_errors)
    if visit.ours:
        problems += odd_buttons(page)
    for violation in page.evaluate(AXE_RUN):
        problems.append(f"[{violation['impact']}] {violation['id']}: {violation['help']}")
        problems += [f"    {n['target']}: {n['why']}" for n in violation["nodes"]]
    return problems


#: At the tablet size each page is walked once, by the first of these roles that sees it: a
#: page's layout at a size is the same whoever reads it, and the desktop walk already checks
#: every page as every role (contrast, labels, console). Half the walk's time, every page kept.
TABLET_WALKER = ("director", "floor_manager", "staff", "anonymous")


def walks(visit: Visit, role: str) -> bool:
    return next((r for r in TABLET_WALKER if r in visit.roles), role) == role


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["anonymous", "staff", "floor_manager", "director", "cashier"])
def test_every_page_meets_wcag_aa_with_a_clean_console(
    role: str, as_role: Callable[[str], tuple[Page, Console]], live_server: Any
) -> None:
    world = build_world()
    page, console = as_role(role)
    console.take(frozenset())  # the log-in itself
    report = []
    visits = [v for v in VISITS if role in v.roles]
    for viewport in VIEWPORTS:
        page.set_viewport_size(viewport)
        for visit in visits if viewport is VIEWPORTS[0] else [v for v in visits if walks(v, role)]:
            url = live_server.url + visit.path(world)
            problems = check(page, console, url, visit)
            if problems:
                size = f"{viewport['width']}x{viewport['height']}"
                report.append(f"{size} {role}, {visit.label} ({url}):")
                report += [f"  {p}" for p in problems]
    assert not report, "\n".join(["Accessibility or console problems:", *report])


TOP_BAR = """() => {
  const bar = document.querySelector('.topbar');
  const box = e => e.getBoundingClientRect();
  const parts = [...bar.children].map(box).filter(r => r.height > 0);
  const links = [...bar.querySelectorAll('.nav a, .brand, .button')].map(box);
  const nav = bar.querySelector('.nav');
  return {
    bar: box(bar).height,
    lowestTop: Math.max(...parts.map(r => r.top)),
    highestBottom: Math.min(...parts.map(r => r.bottom)),
    tallest: Math.max(...parts.map(r => r.height)),
    nav: nav ? box(nav).height : 0,
    link: Math.max(...links.map(r => r.height)),
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""


@pytest.mark.django_db(transaction=True)
def test_the_top_bar_fits_one_row_on_a_tablet(
    as_role: Callable[[str], tuple[Page, Console]], live_server: Any
) -> None:
    """At 1024 px the brand, the links and the account sit side by side on one row, for every
    role (a superuser's roles included), and nothing spills sideways."""
    wrong = []
    for role in ("anonymous", "staff", "floor_manager", "director", "cashier", "superuser"):
        page, _ = as_role(role)
        page.set_viewport_size({"width": 1024, "height": 768})
        page.goto(live_server.url + reverse("rules:search"))
        bar = page.evaluate(TOP_BAR)
        one_row = (
            bar["lowestTop"] < bar["highestBottom"]  # every part overlaps every other vertically
            and bar["nav"] <= bar["link"] + 1  # the links do not wrap
            and bar["bar"] <= bar["tallest"] + 24  # the bar is one part tall, plus its padding
            and bar["overflow"] <= 0
        )
        if not one_row:
            wrong.append(f"{role}: {bar}")
    assert not wrong, "the top bar takes more than one row at 1024 px:\n" + "\n".join(wrong)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["floor_manager", "director"])  # between them, every page
def test_no_page_scrolls_sideways_on_a_phone(
    role: str, as_role: Callable[[str], tuple[Page, Console]], live_server: Any
) -> None:
    """At 390x844 every page fits the screen's width (a wide table scrolls inside its own
    box) and the top bar is two short rows, not a third of the screen (it was 266 of 844 px,
    and the waitlists, tournament, rulings and tables pages scrolled sideways)."""
    world = build_world()
    page, _ = as_role(role)
    page.set_viewport_size({"width": 390, "height": 844})
    wrong = []
    for visit in (v for v in VISITS if role in v.roles):
        url = live_server.url + visit.path(world)
        page.goto(url)
        if visit.then is not None:
            visit.then(page)
        bar = page.evaluate(TOP_BAR) if page.locator(".topbar").count() else {"bar": 0}
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 0 or bar["bar"] > 130:
            wrong.append(f"{visit.label} ({url}): {overflow} px too wide, top bar {bar['bar']} px")
    assert not wrong, "on a phone:\n" + "\n".join(wrong)


@pytest.mark.django_db(transaction=True)
def test_the_site_has_an_icon(
    as_role: Callable[[str], tuple[Page, Console]], live_server: Any
) -> None:
    page, console = as_role("anonymous")
    page.goto(live_server.url + reverse("login"))
    icon = page.locator("link[rel=icon]")
    assert icon.get_attribute("type") == "image/svg+xml"
    linked = page.request.get(live_server.url + icon.get_attribute("href"))
    assert linked.status == 200 and linked.headers["content-type"] == "image/svg+xml"
    # Browsers and bookmarks also ask /favicon.ico whatever the page links.
    answer = page.goto(live_server.url + "/favicon.ico")
    assert answer is not None and answer.status == 200
    assert answer.headers["content-type"] == "image/svg+xml"
    assert console.take(frozenset()) == []
