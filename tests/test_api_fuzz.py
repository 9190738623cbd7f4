"""Hostile input: Schemathesis generates requests from the OpenAPI schema for every operation
and checks the answers (no 5xx, bodies and content types matching the schema), as nobody and
as each role."""

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from cardroom.wsgi import application
from tests.budget import FULL, personas
from tests.module_rows import built_once_for_the_module


def load_schema() -> Any:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


schema = schemathesis.openapi.from_dict(load_schema())
schema.app = application  # in-process WSGI calls, on the test database


@pytest.fixture(autouse=True)
def keep_the_test_connection() -> Any:
    """The WSGI handler closes the database connection after each request; inside a test that
    would close the test's own transaction. Django's test client disconnects it the same way."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def headers_for(db: None, request: pytest.FixtureRequest) -> Any:
    from rest_framework.authtoken.models import Token

    def make(persona: str) -> dict[str, str]:
        if persona == "anonymous":
            return {}
        user = request.getfixturevalue(persona)
        return {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}

    return make


def rulebook_and_a_hand() -> None:
    from django.core.management import call_command

    from tests.factories import make_hand

    call_command("load_rulebook", verbosity=0)
    make_hand()


@pytest.fixture(scope="module")
def module_hand(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Built once for the module's hundreds of tests (each test's writes roll back): loading
    the rulebook took longer than most of the tests."""
    with built_once_for_the_module(django_db_blocker, rulebook_and_a_hand):
        yield


@pytest.fixture
def a_hand(module_hand: None, db: None) -> None:
    """Something for generated ids to find: a table with a hand on it, and the rulebook."""


#: ``make test`` generates 10 requests per operation as nobody and as each role that may write
#: (a director, a floor manager): staff only reads, and the permission matrix
#: (tests/test_permission_matrix.py) proves every refusal of a write to staff and to nobody.
#: ``make fuzz`` (``CARDROOM_FULL_SWEEPS=1``) adds staff and generates 50 per operation. Under
#: CI's Hypothesis profile the requests are the same on every run (derandomized).
#: On CI's second database, the superuser alone (``tests/budget.py``): it reaches every
#: operation, the public ones included.
PERSONAS = personas("anonymous", "director", "floor_manager", *(("staff",) if FULL else ()))


@pytest.mark.django_db
@pytest.mark.parametrize("persona", PERSONAS)
@schema.parametrize()
@settings(max_examples=50 if FULL else 10, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_never_errors_and_matches_its_schema(
    case: Any, persona: str, headers_for: Any, a_hand: Any
) -> None:
    case.call_and_validate(
        headers=headers_for(persona),
        checks=[not_a_server_error, response_schema_conformance, content_type_conformance],
    )
