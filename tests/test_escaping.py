"""Every free-text field a user can set holds markup, and no page shows it as markup.

The room of ``tests.site_map`` is built with a script tag and an attribute breakout in each
field (tagged, so each field can be traced to the pages that show it); then a superuser opens
every URL pattern, as a page, as an htmx fragment, as the browsable API, and with the same
markup in each query parameter the views read.
"""

import copy
import csv
import io
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.test import Client

from tests.module_rows import built_once_for_the_module
from tests.site_map import ROUTES, build_world, url_of

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
BREAKOUT = "\"'><img src=x onerror=alert(1)>"
PAYLOAD = SCRIPT + BREAKOUT
RAW = (SCRIPT, "<img src=x onerror=alert(1)>")

#: Each free-text field, tagged so that its escaped value can be found on a page.
FIELDS = {
    "table.name": "t01",
    "action.void_reason": "t02",
    "hand.void_reason": "t03",
    "ruling.situation": "t04",
    "ruling.decision": "t05",
    "citation.note": "t06",
    "house_rule.title": "t07",
    "house_rule.text": "t08",
    "tournament.name": "t09",
    "entrant.name": "t10",
    "entrant.special_needs": "t11",
    "reservation.reason": "t12",
    "seat_move.note": "t13",
    "reinstatement.reason": "t14",
    "player.name": "t15",
    "player.alias": "t16",
    "chip.colour": "t17",  # at most 30 characters: the tag and the script tag fit
    "room_rule.title": "t18",  # the room's rulebook file: what the import reads from it
    "room_rule.text": "t19",
    "room_rule.example": "t20",
}

#: Query parameters the views read (``request.GET`` and the filter and search forms).
PARAMETERS = (
    "q", "table", "hand", "amends", "director", "rule", "date_from", "date_to", "status",
    "structure", "stakes", "tournament", "variant", "book", "section", "since", "seq", "part",
    "tables", "entrants", "preset", "id", "cite", "print",
)  # fmt: skip

#: Pages beyond one per pattern: the printable ruling, a house rule, a search that finds it.
EXTRA_PAGES = [
    ("cardroom:ruling_detail", "?print"),
    ("rules:search", "?q=alert"),
    ("cardroom:ruling_cite_search", "?q=alert"),
]


def tagged(field: str) -> str:
    return FIELDS[field] + PAYLOAD


def escaped(tag: str) -> str:
    return f"{tag}&lt;script&gt;alert(1)&lt;/script&gt;"


def tagged_world() -> dict[str, Any]:
    return build_world(text=tagged)


@pytest.fixture(scope="module")
def module_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """The world, built once for this module's tests (each test's writes roll back)."""
    with built_once_for_the_module(django_db_blocker, tagged_world) as world:
        yield world


@pytest.fixture
def world(module_world: dict[str, Any], db: None) -> dict[str, Any]:
    return copy.deepcopy(module_world)  # its users are objects a test may change


@pytest.fixture
def superuser_client(superuser: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(superuser)
    return client


def pages(world: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(pattern name, URL, headers) for every GET the sweep makes."""
    for name in ROUTES:
        if name == "logout":
            continue
        url = url_of(name, world)
        yield name, url, {}
        yield name, url, {"HX-Request": "true"}
        if url.startswith("/api/"):
            yield name, url, {"Accept": "text/html"}  # DRF's browsable API
    for name, query in EXTRA_PAGES:
        yield name, url_of(name, world) + query, {}
    yield "rules:rule_detail", f"/rulebook/{world['house_rule']}/", {}


def is_html(response: Any) -> bool:
    return response.get("Content-Type", "").startswith("text/html")


def test_no_page_shows_a_field_as_markup(world: dict[str, Any], superuser_client: Client) -> None:
    shown: dict[str, set[str]] = {field: set() for field in FIELDS}
    problems = []
    for name, url, headers in pages(world):
        response = superuser_client.get(url, headers=headers)
        body = response.content.decode()
        if response.status_code >= 500:
            problems.append(f"{url} {headers}: {response.status_code}")
        elif is_html(response):
            problems += [f"{url} {headers}: raw {raw}" for raw in RAW if raw in body]
            for field, tag in FIELDS.items():
                if escaped(tag) in body:
                    shown[field].add(name)
        else:
            # JSON, CSV, the schema: data, never rendered as a page (nosniff).
            assert not response.get("Content-Type", "").startswith(("text/html", "text/xml"))
    assert not problems, "\n".join(problems)
    unseen = {field for field, names in shown.items() if not names}
    # Each field reaches some page (the browsable API counts): the sweep checked it somewhere.
    assert not unseen, f"fields the sweep never saw on a page: {unseen}"


def test_markup_in_a_query_parameter_is_never_echoed_as_markup(
    world: dict[str, Any], superuser_client: Client
) -> None:
    """One parameter at a time, so that a parameter refused early hides no other."""
    problems = []
    for name in ROUTES:
        url = url_of(name, world)
        if name == "logout" or url.startswith("/api/"):
            continue
        for parameter in PARAMETERS:
            full = f"{url}?{urlencode({parameter: PAYLOAD})}"
            response = superuser_client.get(full)
            if response.status_code >= 500:
                problems.append(f"{full}: {response.status_code}")
            elif is_html(response):
                problems += [f"{full}: raw {raw}" for raw in RAW if raw in response.text]
    assert not problems, "\n".join(problems)


def test_the_rulings_export_is_a_download_not_a_page(
    world: dict[str, Any], superuser_client: Client
) -> None:
    response = superuser_client.get("/rulings/export.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="rulings.csv"'
    assert response["X-Content-Type-Options"] == "nosniff"
    (row,) = list(csv.DictReader(io.StringIO(response.text)))
    assert row["situation"] == tagged("ruling.situation")  # the data, as written


def test_the_sweep_tells_escaped_from_raw() -> None:
    """The check itself: Django's escaping gives ``escaped(tag)``; ``|safe`` gives the raw."""
    from django.template import engines

    template = engines["django"].from_string("<p>{{ name }}</p><p>{{ name|safe }}</p>")
    escaped_part, raw_part = template.render({"name": tagged("table.name")}).split("</p><p>")
    assert escaped(FIELDS["table.name"]) in escaped_part
    assert not any(raw in escaped_part for raw in RAW)
    assert all(raw in raw_part for raw in RAW)


# --- what the sweep found ------------------------------------------------------------------


def test_a_ruling_form_with_junk_for_its_table_hand_or_amends_is_no_crash(
    world: dict[str, Any], superuser_client: Client
) -> None:
    assert superuser_client.get("/rulings/new/?table=x&hand=y").status_code == 200
    assert superuser_client.get("/rulings/new/?amends=x").status_code == 404
    posted = superuser_client.post("/rulings/new/", {"table": PAYLOAD, "hand": "2x"})
    assert posted.status_code == 422
    assert not any(raw in posted.text for raw in RAW)


def test_a_browser_opening_the_public_rulebook_api_gets_the_browsable_page(
    world: dict[str, Any],
) -> None:
    response = Client().get("/api/v1/rules/?limit=2", headers={"Accept": "text/html"})
    assert response.status_code == 200
    assert "TDA-" in response.text or "RRoP-" in response.text
