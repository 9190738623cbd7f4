"""CSRF on every htmx post: the base template hands htmx the token as a header on every
request it sends, and a post without it is refused (403) with nothing changed."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from cardroom.tables.choices import TableStatus
from cardroom.tables.models import Table
from tests.factories import make_table

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def checking_client(user: Any) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def token_from_page(client: Client) -> str:
    """The token exactly as the page gives it to htmx: ``<body hx-headers='{...}'>``."""
    page = client.get("/tables/").text
    match = re.search(r"<body hx-headers='([^']+)'>", page)
    assert match, "the base template's hx-headers are missing"
    return str(json.loads(match.group(1))["x-csrftoken"])


def test_an_htmx_post_without_the_token_is_refused_and_changes_nothing(
    floor_manager: Any,
) -> None:
    make_table(number=3, status=TableStatus.OPEN)
    client = checking_client(floor_manager)
    response = client.post(
        "/tables/3/status/", {"status": "closed"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 403
    assert Table.objects.get(number=3).status == TableStatus.OPEN


def test_an_htmx_post_with_the_pages_token_goes_through(floor_manager: Any) -> None:
    make_table(number=3, status=TableStatus.OPEN)
    client = checking_client(floor_manager)
    token = token_from_page(client)
    response = client.post(
        "/tables/3/status/",
        {"status": "closed"},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert response.status_code == 200
    assert Table.objects.get(number=3).status == TableStatus.CLOSED


def test_every_template_that_posts_with_htmx_gets_the_token_header() -> None:
    """hx-post in a template that neither extends the base (whose body carries the header) nor
    is a fragment rendered inside a page that does would send posts without a token."""
    base = (TEMPLATES / "base.html").read_text()
    assert """<body hx-headers='{"x-csrftoken": "{{ csrf_token }}"}'>""" in base
    pages = [p for p in TEMPLATES.rglob("*.html") if '{% extends "base.html" %}' in p.read_text()]
    posting = [p for p in TEMPLATES.rglob("*.html") if "hx-post" in p.read_text()]
    assert posting
    for path in posting:
        if '{% extends "base.html" %}' in path.read_text():
            continue
        # A fragment of its own file (the desk's seat map): only ever included by a page that
        # extends the base, so its posts carry the base's header too.
        name = str(path.relative_to(TEMPLATES))
        including = [page for page in pages if f'"{name}' in page.read_text()]
        assert including, f"{name} posts with htmx but no page extending the base includes it"
