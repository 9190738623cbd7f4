"""Hostile input, for every URL pattern, every form field and every serializer field: wrong
types, huge and negative numbers, NUL bytes, impossible dates, deep nesting, bodies that are
not JSON objects, digits that are not ASCII (superscript, Arabic-Indic, full-width:
``str.isdigit`` says yes to all three), cursors past any date, JSON keys that are not ids,
seats not dealt in, as nobody and as every role. Nothing may answer 5xx, and a refused request
(4xx) may write nothing: the rows of every table are counted before and after each request
(on PostgreSQL, after each request whose transaction tried to insert or delete a row).

The URL patterns come from the resolver walk the permission matrix uses (``tests/site_map``);
the page forms' fields are read from the pages themselves, the API's from its OpenAPI schema,
so a new form field or serializer field is swept without being listed here.
"""

from __future__ import annotations

import copy
import json
import re
import time
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from typing import Any
from unittest import mock

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.urls import resolve, reverse

from tests.budget import FULL, personas
from tests.module_rows import built_once_for_the_module
from tests.site_map import ROUTES, build_world, discover, url_of
from tests.test_permission_matrix import OPEN_POSTS, WRITES

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "staff", "floor_manager", "director", "superuser")
#: ``make fuzz`` (``CARDROOM_FULL_SWEEPS=1``) sends every hostile value to every field as every
#: persona. ``make test`` sends a fixed share of it, the same on every run, that still reaches
#: every endpoint, form and field (below, ``Share``): the writes as the roles allowed to make
#: them (the permission matrix, tests/test_permission_matrix.py, proves each refusal to the
#: others), and each field the values that found faults before (a NUL byte, a 5,000-digit
#: number, 2^63, Unicode digits) with the rest taken in turn across its fields.
#: On CI's second database each sweep runs as the superuser alone (``tests/budget.py``).
WRITERS = PERSONAS if FULL else personas("floor_manager", "director", "superuser")
READERS = PERSONAS if FULL else personas("staff", "floor_manager", "director", "superuser")
CURSOR_READERS = ("staff", "superuser") if FULL else ("superuser",)
#: The long sweeps run in this many parts, so that pytest-xdist spreads them over the cores.
PARTS = 4

#: Typed into a form field or a query parameter.
TEXT = (
    "\x00",
    "TDA-45\x00",
    "9" * 5000,
    "9999999999",
    str(10**12),
    str(2**63),
    "-1",
    "-99999999999999999999",
    "2026-02-30",
    "0001-01-01T00:00:00",
    "9999-12-31T23:59:59",
    "1e400",
    "NaN",
    "²",
    "3²/5",
    "٣",
    "１２",
    "x" * 5000,
)
#: Digits ``str.isdigit`` accepts but ``int`` refuses ("²") or reads as another number.
UNICODE_DIGITS = ("²", "٣", "１")
#: Seats no hand of the world is dealt (its hands deal seats 1 to 3, its seat map 4 and 5).
NOT_IN_HAND = ("7", "0")
#: The core of ``TEXT``, for the sweeps that send one request per field or per page.
CORE = ("\x00", "9" * 5000, "9999999999", str(2**63), "-1", "2026-02-30",
        "0001-01-01T00:00:00", *UNICODE_DIGITS, *NOT_IN_HAND, "x" * 5000)  # fmt: skip
#: The values every field gets whatever the budget.
ALWAYS: tuple[Any, ...] = ("\x00", "9" * 5000, str(2**63), "²", None, -1, 2**63, [])


class Share:
    """The hostile values each field gets, split once: all of them under ``make fuzz``; else
    those in ``ALWAYS`` and one in ``turns`` of the rest, a different one for the next field
    (``share(turn)``, the field's turn counted from 0 in its form or body, the same in every
    sweep), so that every value still reaches every form and every operation."""

    def __init__(self, values: tuple[Any, ...], turns: int) -> None:
        kept: list[Any] = []
        rest: list[Any] = []
        for value in values:
            (kept if always(value) else rest).append(value)
        parts = [(*kept, *rest[turn::turns]) for turn in range(turns)]
        self.parts: tuple[tuple[Any, ...], ...] = (values,) if FULL else tuple(parts)

    def __call__(self, turn: int) -> tuple[Any, ...]:
        return self.parts[turn % len(self.parts)]


def always(value: Any) -> bool:
    """Is ``value`` one of ``ALWAYS`` (by type too: ``True == 1`` and ``0 == False``)?"""
    return any(type(value) is type(kept) and value == kept for kept in ALWAYS)


def test_a_share_splits_its_values_once_and_each_reaches_a_field_within_its_turns() -> None:
    values = (*ALWAYS, "a", "b", "c", "d", "e")
    with mock.patch(f"{__name__}.always", wraps=always) as split:
        share = Share(values, 3)
        given = [share(turn) for turn in range(30)]
    assert split.call_count == len(values)  # each value looked at once, not once a field
    assert all(given[turn] is given[turn % 3] for turn in range(30))
    assert all(any(value is seen for part in given[:3] for seen in part) for value in values)


#: Poll cursors (``<milliseconds>.<12 characters>``): Unicode digits, past the year 9999, from
#: the future, negative; sent in every query parameter of every page.
CURSORS = ("²²².abcdefghijkl", "٣٣٣.abcdefghijkl", "999999999999999.abcdefghijkl",
           "253402300800000.abcdefghijkl", "4102444800000.abcdefghijkl", "-1.abcdefghijkl",
           "1e400.abcdefghijkl")  # fmt: skip
#: Put in a JSON body in place of a field's value.
JSON_VALUES: tuple[Any, ...] = (
    None,
    True,
    "\x00",
    "a\x00b",
    -1,
    0,
    7,
    *UNICODE_DIGITS,
    10**12,
    10**16,
    2**63,
    -(2**63) - 1,
    10**30,
    1.5,
    "9" * 5000,
    "2026-02-30",
    "0001-01-01T00:00:00",
    [],
    {},
    [[[[[[1]]]]]],
)
#: What each field of a page's form, and each of an API body, gets.
CORE_SHARE, JSON_SHARE = Share(CORE, 2), Share(JSON_VALUES, 3)
#: Whole bodies that are not a usable JSON object.
DEEP = "[" * 1500 + "]" * 1500
BODIES = (
    DEEP,
    '{"a":' * 1500 + "1" + "}" * 1500,
    "[" * 65 + "]" * 65,
    "[1]",
    '"text"',
    "42",
    "null",
    "true",
    "{",
    '{"a": NaN}',
    '{"a": ' + "9" * 5000 + "}",
    "\x00",
    '{"\\u0000": "\\u0000"}',
)
#: Query parameters the views read, plus the filters' own fields (found in the pages).
PARAMS = (
    "since", "v", "id", "cite", "q", "amends", "table", "hand", "seq", "preset", "print",
    "date_from", "date_to", "limit", "offset", "status", "structure", "stakes", "director",
    "rule", "book", "section", "next", "action", "format", "tournament", "variant", "tables",
    "entrants", "part", "name", "player", "reason", "page", "kind",
)  # fmt: skip
#: Put in place of a JSON object's keys (a map keyed by ids, such as a start's ``buy_ins``).
KEYS = (*UNICODE_DIGITS, "\x00", "-1", "9" * 40, "x")
#: Stand-ins for a path parameter.
PATH_VALUES = ("%00", "TDA-45%00", "999999999999999999", "0", "9" * 40, "-1", "x" * 300,
               "%C2%B2", "%D9%A3", "%EF%BC%91")  # fmt: skip


def site_tables() -> list[str]:
    """The tables of the site's apps, quoted (from the models themselves: no input)."""
    quote = connection.ops.quote_name
    return [
        quote(model._meta.db_table)
        for model in apps.get_models()
        if model._meta.app_label in {"cardroom", "rules", "tournaments", "auth", "authtoken"}
        and model._meta.managed
        and not model._meta.proxy
    ]


def counts() -> tuple[int, ...]:
    """The number of rows of every table of the site's apps, in one query."""
    sql = "SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {t})" for t in site_tables())  # noqa: S608
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return tuple(cursor.fetchone())


def rows_tried() -> int | None:
    """How many rows this connection has tried to write so far: a try rolled back counts too,
    so the number only grows, and while it stays the same no table's row count can have
    changed. Reading it costs no table scan, where ``counts()`` scans every table (a third of
    the query-string sweep's time on PostgreSQL, nine tenths of it on SQLite).

    On PostgreSQL, the rows this transaction tried to insert into or delete from the site's
    tables, from its own statistics (``pg_stat_get_xact_tuples_inserted`` and ``_deleted``);
    None with ``track_counts`` off. On SQLite, the rows every INSERT, UPDATE and DELETE of
    this connection changed, triggers' included (``sqlite3_total_changes``: the Python
    connection's ``total_changes``), which a rollback does not take back."""
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        return int(connection.connection.total_changes)
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT CASE WHEN current_setting('track_counts')::boolean THEN"
            " COALESCE(SUM(pg_stat_get_xact_tuples_inserted(t::regclass)"
            " + pg_stat_get_xact_tuples_deleted(t::regclass)), 0) END"
            " FROM unnest(%s::text[]) AS t",
            [site_tables()],
        )
        tried = cursor.fetchone()[0]
    return None if tried is None else int(tried)


class Sweep:
    """Sends requests, records every 5xx, every refused request that wrote a row, and every
    answer that took more work than any page needs: more than ``QUERIES`` queries (a lookup
    per hostile value, a list read row by row) or more than ``CPU`` seconds of this thread's
    CPU time (a loop or a pattern blown up by the input). Both count work done, not the time
    waited: a loaded machine makes them no bigger, where a wall-clock limit failed there."""

    #: The most any request of the sweep makes today is 216 (starting a table from a list:
    #: each player seated through the seat map, logged and chained), under half of this.
    QUERIES = 500
    #: Seconds of CPU time: the most any request takes today is under 1 s (the public
    #: betting evaluator, on SQLite, where the database's work is this thread's too).
    CPU = 5.0

    def __init__(self) -> None:
        self.wrong: list[str] = []
        self.sent = 0
        self.before = counts()
        self.tried = rows_tried()

    def __call__(self, label: str, send: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        made = 0

        def count(execute: Callable[..., Any], *query: Any) -> Any:
            nonlocal made
            made += 1
            return execute(*query)

        started = time.thread_time()
        with connection.execute_wrapper(count):
            response = send(*args, **kwargs)
        cpu = time.thread_time() - started
        self.sent += 1
        status = response.status_code
        if status >= 500:
            self.wrong.append(f"{label}: {status} {bytes(response.content[:160])!r}")
        # The rows are counted again only after a request that tried a write.
        tried = rows_tried()
        after = self.before if tried is not None and tried == self.tried else counts()
        self.tried = tried
        if status >= 400 and after != self.before:
            self.wrong.append(f"{label}: refused with {status} but wrote rows")
        if made > self.QUERIES:
            self.wrong.append(f"{label}: {made} queries")
        if cpu > self.CPU:
            self.wrong.append(f"{label}: {cpu:.1f} s of CPU time")
        self.before = after
        return response

    def check(self) -> None:
        assert self.sent, "nothing was sent"
        assert not self.wrong, f"{len(self.wrong)} of {self.sent}:\n" + "\n".join(self.wrong)


def test_the_sweeps_see_every_row_tried_kept_or_rolled_back(db: None) -> None:
    """The sweeps count the rows again only after a request whose transaction tried to insert
    or delete one: an insert rolled back, an insert kept and a delete each move the number."""
    from django.contrib.auth.models import Group
    from django.db import transaction

    start = rows_tried()
    assert start is not None, "PostgreSQL without track_counts: every request counts the rows"
    with transaction.atomic():
        Group.objects.create(name="tried")
        transaction.set_rollback(True)
    assert rows_tried() == start + 1
    group = Group.objects.create(name="kept")
    assert rows_tried() == start + 2
    group.delete()
    assert rows_tried() == start + 3


@pytest.fixture(scope="module")
def module_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """The world, built once for this module's tests (each test's writes roll back): building
    it took longer than many of the tests that read it."""
    with built_once_for_the_module(django_db_blocker, build_world) as world:
        yield world


@pytest.fixture
def world(module_world: dict[str, Any], db: None) -> dict[str, Any]:
    return copy.deepcopy(module_world)  # its users are objects a test may change


@pytest.fixture
def clients(request: pytest.FixtureRequest) -> Callable[[str], Client]:
    made: dict[str, Client] = {}

    def get(persona: str) -> Client:
        if persona not in made:
            client = Client(raise_request_exception=False)
            if persona != "anonymous":
                client.force_login(request.getfixturevalue(persona))
            made[persona] = client
        return made[persona]

    return get


def trim(text: str) -> str:
    return text if len(text) < 40 else f"{text[:20]}…({len(text)})"


# --- page forms, read from the pages --------------------------------------------------------


class FormReader(HTMLParser):
    """Every form of a page: where it posts (``action`` or ``hx-post``) and its named fields
    with their current values."""

    def __init__(self, page_url: str) -> None:
        super().__init__()
        self.page_url = page_url
        self.forms: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            method = "post" if "hx-post" in a else a.get("method", "get").lower()
            target = a.get("hx-post") or a.get("hx-get") or a.get("action") or self.page_url
            self.current = {"method": method, "url": target.split("#")[0], "fields": {}}
            self.forms.append(self.current)
        elif tag in {"input", "select", "textarea"} and self.current is not None:
            name = a.get("name")
            if name and name != "csrfmiddlewaretoken":
                self.current["fields"].setdefault(name, a.get("value", ""))
        elif tag in {"button", "input"} and self.current is not None and a.get("name"):
            self.current["fields"].setdefault(a["name"], a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None


def page_forms(client: Client, world: dict[str, Any]) -> dict[tuple[str, str], dict[str, str]]:
    """(method, url) -> fields, for every form on every page a superuser can open."""
    found: dict[tuple[str, str], dict[str, str]] = {}
    # Every pattern once, and the desk at its showdown (the showdown's taps are its own form).
    urls = [url_of(name, world) for name in discover()]
    for url in [*urls, reverse("cardroom:desk", args=[world["showdown_table_number"]])]:
        if url.startswith(("/api/", "/logout")):
            continue
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        reader = FormReader(url)
        reader.feed(response.content.decode())
        for form in reader.forms:
            key = (form["method"], form["url"])
            found.setdefault(key, {}).update(form["fields"])
    return found


@pytest.mark.parametrize("part", range(PARTS))
def test_every_page_form_field_refuses_hostile_values_without_a_5xx_or_a_write(
    part: int, world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    """A superuser holds every role, so each form gets past its role check: every field of
    every form, one at a time, gets each hostile value, the others keeping the page's own."""
    client = clients("superuser")
    forms = page_forms(client, world)
    assert len(forms) >= 15, sorted(forms)
    sweep = Sweep()
    for (method, url), fields in sorted(forms.items())[part::PARTS]:
        for turn, field in enumerate(fields):
            for value in CORE_SHARE(turn):
                data = current_seq({**fields, field: value}, url, (field,))
                label = f"{method.upper()} {url} {field}={trim(value)!r}"
                if method == "get":
                    sweep(label, client.get, url, data)
                else:
                    sweep(label, client.post, url, data, headers={"HX-Request": "true"})
    sweep.check()


@pytest.mark.parametrize("persona", WRITERS)
def test_every_page_write_with_every_field_hostile_as_every_role(
    persona: str, world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    """Each page write, with every field the site's forms use set to one hostile value."""
    names = sorted({field for fields in page_forms(clients("superuser"), world).values()
                    for field in fields})  # fmt: skip
    client = clients(persona)
    sweep = Sweep()
    for name in [*WRITES, *OPEN_POSTS]:
        url = url_of(name, world)
        if url.startswith(("/api/", "/logout")):
            continue
        for value in CORE:
            data = dict.fromkeys(names, value)
            sweep(f"POST {url} all={trim(value)!r}", client.post, url, data)
    sweep.check()


# --- URLs and query strings -----------------------------------------------------------------


def hostile_paths(world: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Each pattern with each path parameter in turn replaced by each hostile stand-in."""
    marker = "7777777"
    for name, params in ROUTES.items():
        for param in params:
            kwargs = {p: world[key] for p, key in params.items()}
            kwargs[param] = marker
            from django.urls import NoReverseMatch

            try:
                url = reverse(name, kwargs=kwargs)
            except NoReverseMatch:  # a converter that takes no digits (none today)
                continue
            for value in PATH_VALUES:
                yield name, url.replace(marker, value)


@pytest.mark.parametrize("persona", READERS)
def test_hostile_path_parameters_and_query_strings_as_every_role(
    persona: str, world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    client = clients(persona)
    sweep = Sweep()
    for name, url in hostile_paths(world):
        sweep(f"GET {url}", client.get, url)
        if name in WRITES or name in OPEN_POSTS:
            body = {"content_type": "application/json", "data": "{}"} if "/api/" in url else {}
            sweep(f"POST {url}", client.post, url, **body)
    # The cursors are read the same whoever asks: the superuser (who reaches every view) tries
    # them, under ``make fuzz`` the lowest reader too, the other roles the core values (each
    # value is one more request to every page).
    values = (*CORE, *CURSORS) if persona in CURSOR_READERS else CORE
    for name in discover():
        if name == "logout":
            continue
        url = url_of(name, world)
        for value in values:
            query = dict.fromkeys(PARAMS, value)
            sweep(f"GET {url}?…={trim(value)!r}", client.get, url, query)
    sweep.check()


# --- the API, field by field from its schema ------------------------------------------------


def api_schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def deref(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    for combined in ("allOf", "oneOf", "anyOf"):
        if node.get(combined):
            return deref(schema, node[combined][0])
    return node


def sample(schema: dict[str, Any], node: dict[str, Any], depth: int = 0) -> Any:
    """A plausible value for a schema node, to carry the one hostile field."""
    node = deref(schema, node)
    if node.get("enum"):
        return node["enum"][0]
    kind = node.get("type")
    if kind == "object" or "properties" in node:
        props = node.get("properties", {})
        extra = node.get("additionalProperties")
        if not props and isinstance(extra, dict) and depth < 3:  # a map: one entry, keyed "1"
            return {"1": sample(schema, extra, depth + 1)}
        return {k: sample(schema, v, depth + 1) for k, v in props.items() if depth < 3}
    if kind == "array":
        return [sample(schema, node.get("items", {}), depth + 1)] if depth < 3 else []
    if kind == "integer":
        return node.get("minimum", 1) or 1
    if kind == "number":
        return 1
    if kind == "boolean":
        return True
    return "x"


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(value, dict) and value:
        for key, inner in value.items():
            yield (*path, key)
            yield from leaves(inner, (*path, key))
    elif isinstance(value, list) and value:
        yield from leaves(value[0], (*path, 0))


def objects(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every non-empty JSON object in ``value``, the body itself first."""
    if isinstance(value, dict) and value:
        yield path
        for key, inner in value.items():
            yield from objects(inner, (*path, key))
    elif isinstance(value, list) and value:
        yield from objects(value[0], (*path, 0))


def rekeyed(value: Any, path: tuple[Any, ...], key: str) -> Any:
    """``value`` with the object at ``path`` holding its first entry under ``key`` instead."""
    target = value
    for step in path:
        target = target[step]
    first = next(iter(target.values()))
    return replaced(value, path, {key: first}) if path else {key: first}


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


def api_bodies(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(route template, method, a sample body) for every operation with a JSON body."""
    for route, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                body = sample(schema, content["application/json"]["schema"])
                yield route, method, body if isinstance(body, dict) else {}


def api_url(route: str, world: dict[str, Any]) -> str:
    """The schema's route with the world's objects in it: the pattern it resolves to, filled
    as the permission matrix fills it."""
    match = resolve(re.sub(r"\{\w+\}", "1", route))
    return url_of(":".join([*match.namespaces, match.url_name]), world)


@pytest.mark.parametrize("part", range(PARTS))
def test_every_serializer_field_refuses_hostile_values_without_a_5xx_or_a_write(
    part: int, world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    """Every field of every request body in the API's schema, at any depth, one at a time."""
    schema = api_schema()
    client = clients("superuser")
    sweep = Sweep()
    operations = 0
    bodies = list(api_bodies(schema))
    assert len(bodies) >= 20
    for route, method, body in bodies[part::PARTS]:
        url = api_url(route, world)
        operations += 1
        for turn, path in enumerate([(), *leaves(body)]):
            for value in JSON_SHARE(turn):
                sent = current_seq(replaced(body, path, value) if path else value, url, path)
                label = f"{method.upper()} {url} {'.'.join(map(str, path))}={trim(repr(value))}"
                sweep(label, client.generic, method.upper(), url, json.dumps(sent),
                      "application/json")  # fmt: skip
        for path in objects(body):
            for key in KEYS:
                sent = current_seq(rekeyed(body, path, key), url, path)
                label = f"{method.upper()} {url} {'.'.join(map(str, path))} keyed {key!r}"
                sweep(label, client.generic, method.upper(), url, json.dumps(sent),
                      "application/json")  # fmt: skip
    assert operations >= 5
    sweep.check()


def current_seq(body: Any, url: str, path: tuple[Any, ...]) -> Any:
    """A hand write's ``expected_seq`` set to its hand's sequence now (unless it is the field
    under test): a stale one is a 409 before any other field is read, and the sweep's own
    writes move the hand on."""
    from cardroom.tables.models import Hand

    found = re.match(r"(?:/api/v1)?/hands/([0-9]+)/", url)
    if not found or not isinstance(body, dict) or "expected_seq" not in body:
        return body
    if path[:1] == ("expected_seq",):
        return body
    seq = Hand.objects.filter(pk=int(found.group(1))).values_list("seq", flat=True).first()
    return {**body, "expected_seq": seq}


@pytest.mark.parametrize("persona", personas(*PERSONAS))
def test_malformed_and_deeply_nested_bodies_on_every_api_write_as_every_role(
    persona: str, world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    client = clients(persona)
    sweep = Sweep()
    for name in discover():
        url = url_of(name, world)
        if not url.startswith("/api/"):
            continue
        methods = [*WRITES.get(name, {})] or (["POST"] if name in OPEN_POSTS else [])
        for method in methods:
            for body in BODIES:
                label = f"{method} {url} {trim(body)!r}"
                response = sweep(label, client.generic, method, url, body, "application/json")
                if response.status_code == 400:  # the API's one error shape
                    assert response.json()["error"]["code"], response.content
    sweep.check()


# --- odd bodies, addresses and numbers, one test each ---------------------------------------


def test_json_nested_1500_deep_is_a_400_in_the_error_shape(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    for url in ("/api/v1/betting/evaluate/", f"/api/v1/tournaments/{world['tournament']}/clock/"):
        response = clients("director").post(url, DEEP, content_type="application/json")
        assert response.status_code == 400, response.content
        error = response.json()["error"]
        assert error["code"] == "bad_request"
        assert "nested" in error["message"]


def test_tournament_writes_refuse_a_body_that_is_not_an_object(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    for tail in ("clock/", "hand-for-hand/", "tables/1/button/"):
        for body in ("[1]", '"on"', "7", "null"):
            url = f"/api/v1/tournaments/{world['tournament']}/{tail}"
            response = clients("director").post(url, body, content_type="application/json")
            assert response.status_code == 400, (url, body, response.content)
            assert "must be a JSON object" in response.json()["error"]["message"]


NUL_URLS = (
    "/rulebook/%00/",
    "/rulebook/TDA-45%00/",
    "/rulebook/TDA-45%00/edit/",
    "/api/v1/rules/TDA-45%00/",
    "/rulings/cite/add/?id=%00",
    "/rulings/cite/add/?id=TDA-45&cite=%00",
    "/rulings/new/?amends=%00",
)


def test_a_nul_byte_anywhere_in_the_address_is_a_400(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    for url in NUL_URLS:
        response = clients("director").get(url)
        assert response.status_code == 400, (url, response.content[:300])
        assert b"NUL byte" in response.content


def test_a_nul_byte_in_the_ruling_forms_citation_is_refused(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    director = clients("director")
    before = counts()
    data = {"table": world["table_number"], "situation": "s", "decision": "d",
            "cite": "TDA-45\x00", "note": "x"}  # fmt: skip
    response = director.post("/rulings/new/", data)
    assert response.status_code == 400, response.content[:300]
    assert counts() == before


def test_the_floor_poll_takes_any_cursor(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    """A cursor it cannot read sends the whole grid again (the page's first poll)."""
    for query in ("since=2026-02-30T10:00:00", "since=0001-01-01T00:00:00",
                  "v=0001-01-01T00:00:00", "v=99999999999999.abcdefabcdef",
                  "v=-1.abcdefabcdef", "v=" + "9" * 5000):  # fmt: skip
        response = clients("floor_manager").get(f"/floor/updates/?{query}")
        assert response.status_code == 200, query


def test_the_ruling_filters_take_an_impossible_date(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    for query in ("date_from=2026-02-30", "date_to=0000-01-01", "date_from=99999-01-01",
                  "date_to=0001-01-01", "date_from=9999-12-31"):  # fmt: skip
        for url in ("/rulings/", "/rulings/export.csv", "/api/v1/rulings/"):
            response = clients("floor_manager").get(f"{url}?{query}")
            assert response.status_code in (200, 400), (url, query, response.status_code)


def test_desk_stacks_are_bounded_by_the_action_column(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    from cardroom.tables.desk import MAX_STACK

    manager = clients("floor_manager")
    before = counts()
    data = {"button": "1", "stack_1": str(10**12), "stack_2": str(10**12)}
    response = manager.post(f"/tables/{world['table_number']}/desk/deal/", data)
    assert response.status_code == 422
    assert f"{MAX_STACK:,}".encode() in response.content
    api = f"/api/v1/tables/{world['table_pk']}/hands/"
    body = {"button": 1, "seats": [{"seat": 1, "stack": 10**12}, {"seat": 2, "stack": 5}]}
    response = manager.post(api, body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert counts() == before


def test_a_raise_as_large_as_the_largest_stack_is_stored(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    """The bound is the column's: a hand with two stacks at the bound plays to an all-in."""
    from cardroom.tables.desk import MAX_STACK
    from cardroom.tables.models import Hand
    from tests.factories import make_table

    client = clients("floor_manager")
    table = make_table(number=8, by=world["manager"])
    api = f"/api/v1/tables/{table.pk}/hands/"
    seats = [{"seat": 1, "stack": MAX_STACK}, {"seat": 2, "stack": MAX_STACK}]
    response = client.post(api, {"button": 1, "seats": seats}, content_type="application/json")
    assert response.status_code == 201, response.content
    hand = Hand.objects.get(pk=response.json()["id"])
    url = f"/api/v1/hands/{hand.pk}/actions/"
    body = {"expected_seq": hand.seq, "seat": 1, "action": "raise", "to": MAX_STACK}
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 201, response.content


def test_a_house_rule_number_is_bounded_by_its_column(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    manager = clients("floor_manager")
    before = counts()
    data = {"number": "9999999999", "title": "Phones", "text": "No phones at the table."}
    response = manager.post("/rulebook/house/new/", data)
    assert response.status_code == 422
    assert b"number" in response.content.lower()
    assert counts() == before


def test_the_chip_reader_refuses_a_5000_digit_chip(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    for field in ("chips", "prior", "add", "add_prior", "verbal_to"):
        for value in ("9" * 5000, "²", "9999999999"):
            response = clients("floor_manager").post(
                f"/hands/{world['hand']}/count/", {field: value, "verbal": "raise"}
            )
            assert response.status_code in (200, 422), (field, value, response.content[:300])


# --- requests that once answered 500 -------------------------------------------------------


def test_the_floor_poll_reads_a_cursor_of_unicode_digits_or_past_any_date_as_send_everything(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    """``int('²')`` after ``isdigit()``, and "year out of range" for a cursor 31,000 years on."""
    for cursor in ("%C2%B2%C2%B2%C2%B2.abcdefghijkl", "999999999999999.abcdefghijkl",
                   "253402300800000.abcdefghijkl", "253402300799999.abcdefghijkl",
                   "%D9%A3%D9%A3.abcdefghijkl", "%EF%BC%91%EF%BC%92.abcdefghijkl"):  # fmt: skip
        response = clients("staff").get(f"/floor/updates/?v={cursor}")
        assert response.status_code == 200, (cursor, response.content[:300])
        assert b'id="grid"' in response.content or b"table-card" in response.content, cursor


def test_a_house_rule_numbered_in_unicode_digits_is_a_400(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    manager = clients("floor_manager")
    before = counts()
    for number in ("²", "٣", "１２"):
        response = manager.post(
            "/api/v1/rules/", {"title": "Phones", "text": "No phones.", "number": number},
            content_type="application/json",
        )  # fmt: skip
        assert response.status_code == 400, (number, response.content[:300])
        assert "number" in response.json()["error"]["fields"], number
    assert counts() == before


def test_starting_a_game_with_a_buy_in_keyed_by_unicode_digits_is_a_400(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    manager = clients("floor_manager")
    before = counts()
    url = f"/api/v1/waitlists/{world['game_list']}/start-game/"
    for key in ("²", "٣", "１"):
        body = {"table": world["table_pk"], "buy_ins": {key: 100}}
        response = manager.post(url, body, content_type="application/json")
        assert response.status_code == 400, (key, response.content[:300])
        assert "buy_ins" in response.json()["error"]["fields"], key
    assert counts() == before


def test_chip_counts_in_unicode_digits_are_refused_and_nobody_is_put_out(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    """ "²" is no chip count: a correction typed with it is a form error (422) and the count
    stays; a player holding chips is not put out (409) whatever is posted with the Out."""
    from tournaments.models import Entrant

    entrant = Entrant.objects.get(tournament_id=world["tournament"], number=world["entrant"])
    base = f"/tournaments/{world['tournament']}/entrants/{entrant.number}"
    before = entrant.chips
    for chips in ("²", "٣", f"{entrant.chips}²", "１"):
        response = clients("director").post(f"{base}/count/", {"chips": chips, "reason": "Recount"})
        assert response.status_code == 422, (chips, response.content[:300])
        assert b"A whole number in digits" in response.content, chips
        out = clients("director").post(f"{base}/eliminate/", {"confirm_chips": chips})
        assert out.status_code == 409, chips
        entrant.refresh_from_db()
        assert entrant.status == "seated" and entrant.chips == before, chips


def test_a_showdown_tap_in_unicode_digits_is_refused_on_the_desk(
    floor_manager: Any, clients: Callable[[str], Client]
) -> None:
    from cardroom.tables.models import Hand
    from tests.cardroom.desk_client import check_it_down, deal, post, seat
    from tests.factories import make_table

    client = clients("floor_manager")
    table = make_table(number=4, by=floor_manager, seats=6, min_buy_in=40, max_buy_in=400)
    # Players the module's world has not seated (a player sits at one table at a time).
    for number, name in ((1, "Ida Park"), (2, "Bo Chen"), (3, "Hal Ortiz")):
        seat(client, table, number, name)
    hand = deal(client, table)
    check_it_down(client, table, hand)
    before = counts()
    for value in ("²", "٣", "１"):
        answer = post(client, f"/hands/{hand.pk}/award/", {"expected_seq": hand.seq,
                                                           "1-high-0": value})  # fmt: skip
        assert answer.status_code == 422, (value, answer.content[:300])
        assert "Tap the winner of the main pot" in answer.content.decode(), value
    assert counts() == before
    assert Hand.objects.get(pk=hand.pk).awarded_at is None


def test_an_out_of_turn_action_for_a_seat_not_dealt_in_is_refused_with_its_rule(
    world: dict[str, Any], clients: Callable[[str], Client]
) -> None:
    """``KeyError`` in the engine's ``_hold``: seat 7 is not at the hand (seats 1 to 3)."""
    from cardroom.tables.models import Hand

    hand = Hand.objects.get(pk=world["hand"])
    client = clients("floor_manager")
    before = counts()
    body = {"expected_seq": hand.seq, "seat": 7, "action": "fold", "out_of_turn": True}
    api = client.post(f"/api/v1/hands/{hand.pk}/actions/", body, content_type="application/json")
    assert api.status_code in (400, 422), api.content[:300]
    assert "Seat 7 is not dealt in" in api.json()["error"]["message"]
    desk = client.post(
        f"/hands/{hand.pk}/act/", {**body, "out_of_turn": "on"}, headers={"HX-Request": "true"}
    )
    assert desk.status_code in (400, 422), desk.content[:300]
    assert "Seat 7 is not dealt in" in desk.content.decode()
    assert "TDA-53" in desk.content.decode()
    assert counts() == before
