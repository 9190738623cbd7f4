"""The rulings export neutralises every formula prefix a spreadsheet acts on (OWASP CSV
injection: ``= + - @``, tab and carriage return): such a cell opens as the text written."""

import csv
import io
from typing import Any

import pytest
from django.core.management import call_command

from cardroom.rulings.reading import FORMULA_STARTS, spreadsheet_safe
from tests.factories import make_table

PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def test_the_formula_prefixes_are_exactly_owasps_six() -> None:
    assert set(FORMULA_STARTS) == set(PREFIXES)


@pytest.mark.parametrize("prefix", PREFIXES, ids=repr)
def test_each_prefix_gets_an_apostrophe(prefix: str) -> None:
    cell = f"{prefix}SUM(A1:A9)"
    assert spreadsheet_safe(cell) == f"'{cell}"


@pytest.mark.parametrize("cell", ["SUM(A1)", "Seat 3 calls", "", "'=already text", " =1"])
def test_other_text_is_left_as_written(cell: str) -> None:
    assert spreadsheet_safe(cell) == cell


@pytest.mark.parametrize("cell", [-5, 12, None])
def test_numbers_and_empties_pass_unchanged(cell: object) -> None:
    assert spreadsheet_safe(cell) == cell


@pytest.fixture
def rulebook(db: None) -> None:
    call_command("load_rulebook", verbosity=0)


@pytest.mark.parametrize("prefix", ["=", "+", "-", "@"])
def test_the_export_neutralises_each_prefix_in_every_text_column(
    rulebook: None, api_client_for: Any, persona_client: Any, prefix: str
) -> None:
    """End to end, through the API that records rulings and the page that exports them. (Tab
    and carriage return cannot start a stored text: the API trims them; the cell function
    above covers them for any column that may one day hold them.)"""
    make_table(number=7)
    body = {
        "table": 7,
        "situation": f'{prefix}HYPERLINK("http://evil.example/","click")',
        "decision": f"{prefix}2 chips back",
        "citations": [{"rule": "TDA-45", "note": ""}],
    }
    created = api_client_for("director").post("/api/v1/rulings/", body, format="json")
    assert created.status_code == 201, created.json()
    response = persona_client("staff").get("/rulings/export.csv?table=7")
    (row,) = csv.DictReader(io.StringIO(response.content.decode()))
    assert row["situation"] == "'" + body["situation"]
    assert row["decision"] == "'" + body["decision"]
    assert row["table"] == "7" and row["citations"] == "TDA-45"
