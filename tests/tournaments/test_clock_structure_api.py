"""The structure API: every floor role reads the steps and the recent changes, the director
changes them (403 for the others), a malformed body is 400 and a change the rules refuse 422
with the field and the rule."""

from typing import Any

import pytest

from tests.tournaments.factories import make_tournament
from tournaments.clock import services as clock
from tournaments.models import Level, StructureChange, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(director: Any) -> Tournament:
    tournament = make_tournament(by=director, tables=1, entrants=2)
    clock.start_clock(tournament=tournament, by=director)
    return tournament


def base(tournament: Tournament) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/structure/"


def step_id(tournament: Tournament, number: int) -> int:
    return Level.objects.get(tournament=tournament, number=number).pk


@pytest.mark.parametrize("persona", ["staff", "floor_manager", "director"])
def test_every_floor_role_reads_the_structure(
    api_client_for: Any, running: Tournament, persona: str
) -> None:
    body = api_client_for(persona).get(base(running)).json()
    assert [lv["name"] for lv in body["levels"]] == ["Level 1", "Level 2", "Level 3"]
    assert body["levels"][1]["id"] == step_id(running, 2) and body["changes"] == []


@pytest.mark.parametrize("persona", ["staff", "floor_manager"])
def test_only_the_director_changes_it(
    api_client_for: Any, running: Tournament, persona: str
) -> None:
    client = api_client_for(persona)
    posts = [
        ("time/", {"minutes": 1, "reason": "x"}),
        ("add/", {"count": 1, "reason": "x"}),
        (f"{step_id(running, 3)}/", {"minutes": 10, "big_blind": 800, "reason": "x"}),
        (f"{step_id(running, 3)}/delete/", {"reason": "x"}),
        ("", {"after": step_id(running, 2), "minutes": 10, "is_break": True, "reason": "x"}),
    ]
    for tail, data in posts:
        assert client.post(base(running) + tail, data, format="json").status_code == 403
    assert not StructureChange.objects.exists()


def test_the_director_changes_each_part_and_reads_it_back(
    api_client_for: Any, running: Tournament
) -> None:
    client = api_client_for("director")
    url = base(running)
    assert (
        client.post(url + "time/", {"minutes": "-2", "reason": "Slow"}, format="json").status_code
        == 200
    )
    third = step_id(running, 3)
    edit = {"small_blind": 400, "big_blind": "800", "ante": 800, "minutes": 25, "reason": "Deeper"}
    assert client.post(f"{url}{third}/", edit, format="json").status_code == 200
    insert = {"after": step_id(running, 2), "is_break": True, "minutes": 10, "reason": "Dinner"}
    assert client.post(url, insert, format="json").status_code == 200
    body = client.post(url + "add/", {"count": 1, "reason": "More"}, format="json").json()
    assert [(lv["number"], lv["is_break"], lv["big_blind"]) for lv in body["levels"]] == [
        (1, False, 200), (2, False, 400), (3, True, 0), (4, False, 800), (5, False, 1600)
    ]  # fmt: skip
    assert body["levels"][0]["seconds"] == 18 * 60
    assert [c["action"] for c in body["changes"]] == ["append", "insert", "edit", "time"]
    assert body["changes"][2]["by"] == "td" and body["changes"][2]["reason"] == "Deeper"
    deleted = client.post(f"{url}{third}/delete/", {"reason": "Too long"}, format="json").json()
    assert len(deleted["levels"]) == 4 and deleted["changes"][0]["action"] == "delete"


@pytest.mark.parametrize(
    ("tail", "data"),
    [
        ("time/", {"minutes": "٣", "reason": "x"}),
        ("time/", {"minutes": 0, "reason": "x"}),
        ("time/", {"minutes": 5}),
        ("add/", {"count": 21, "reason": "x"}),
        ("STEP/", {"big_blind": "1e3", "minutes": 20, "reason": "x"}),
        ("STEP/", {"big_blind": True, "minutes": 20, "reason": "x"}),
    ],
)
def test_a_malformed_body_is_400(
    api_client_for: Any, running: Tournament, tail: str, data: dict[str, Any]
) -> None:
    tail = tail.replace("STEP", str(step_id(running, 3)))
    answer = api_client_for("director").post(base(running) + tail, data, format="json")
    assert answer.status_code == 400
    assert not StructureChange.objects.exists()


def test_a_change_the_rules_refuse_is_422_with_the_field_and_the_rule(
    api_client_for: Any, running: Tournament
) -> None:
    client = api_client_for("director")
    first = step_id(running, 1)
    answer = client.post(
        f"{base(running)}{first}/",
        {"small_blind": 150, "big_blind": 300, "minutes": 20, "reason": "Faster"},
        format="json",
    )
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "structure_refused" and error["citations"] == ["CR-TP.2"]
    assert "big_blind" in error["fields"]
    small = {"small_blind": 900, "big_blind": 800, "minutes": 20, "reason": "x"}
    assert (
        client.post(f"{base(running)}{step_id(running, 3)}/", small, format="json").status_code
        == 422
    )
    played = client.post(f"{base(running)}{first}/delete/", {"reason": "x"}, format="json")
    assert played.status_code == 422 and played.json()["error"]["code"] == "level_played"
    too_much = client.post(base(running) + "time/", {"minutes": -25, "reason": "x"}, format="json")
    assert too_much.status_code == 422
    assert not StructureChange.objects.exists()
