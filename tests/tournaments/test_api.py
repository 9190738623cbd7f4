"""The tournaments API: the pages' services over JSON, with the error shape and role checks."""

from typing import Any

import pytest

from tests.tournaments.factories import bust, make_room_tables, make_tournament
from tournaments import draw_services
from tournaments.models import SeatAssignment, Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"


def writes(tournament: Tournament) -> list[tuple[str, dict[str, Any]]]:
    base = f"{API}{tournament.pk}/"
    return [
        (API, {"name": "X", "tables": [1], "levels": [{"minutes": 1}]}),
        (f"{base}entrants/", {"name": "Walk-in"}),
        (f"{base}entrants/1/eliminate/", {}),
        (f"{base}draws/", {"kind": "late_entry"}),
        (f"{base}draws/1/deal/", {}),
        (f"{base}balance/", {}),
        (f"{base}clock/", {"action": "start"}),
        (f"{base}hand-for-hand/", {"action": "on"}),
        (f"{base}reservations/", {"entrant": 1, "table": 1, "seat": 1, "reason": "x"}),
        (f"{base}wrong-seat/", {"entrant": 1, "found_table": 1, "found_seat": 1}),
        (f"{base}tables/1/button/", {"seat": 2}),
    ]


def reads(tournament: Tournament) -> list[str]:
    base = f"{API}{tournament.pk}/"
    return [
        API, base, f"{base}entrants/", f"{base}eliminations/", f"{base}seating/",
        f"{base}moves/", f"{base}draws/", f"{base}draws/1/", f"{base}draws/1/verify/",
        f"{base}clock/",
    ]  # fmt: skip


@pytest.mark.parametrize("persona", ["staff", "floor_manager", "director"])
def test_every_floor_role_reads_the_api(
    persona: str, api_client_for: Any, seated: Tournament
) -> None:
    client = api_client_for(persona)
    for url in reads(seated):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("persona", ["staff", "floor_manager", "no_role_user"])
def test_only_directors_write(persona: str, api_client_for: Any, seated: Tournament) -> None:
    client = api_client_for(persona)
    for url, body in writes(seated):
        response = client.post(url, body, format="json")
        assert response.status_code == 403, url
        assert response.json()["error"]["code"] == "permission_denied"
    assert seated.draws.count() == 1


def test_anonymous_calls_get_401(api_client_for: Any, seated: Tournament) -> None:
    response = api_client_for("anonymous").get(f"{API}{seated.pk}/seating/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_a_director_runs_a_tournament_through_the_api(api_client_for: Any) -> None:
    rooms = make_room_tables(count=2, first=701)
    client = api_client_for("director")
    created = client.post(
        API,
        {
            "name": "API Turbo", "tables": [t.number for t in rooms],
            "levels": [{"small_blind": 25, "big_blind": 50, "minutes": 10}, {"is_break": True, "minutes": 5}],
            "seats_per_table": 6, "break_order": [1, 2],
        },
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.json()
    body = created.json()
    pk = body["id"]
    assert body["break_order"] == [1, 2] and body["levels"][1]["is_break"]
    assert [t["room_table"] for t in body["tables"]] == [701, 702]
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"):
        assert client.post(f"{API}{pk}/entrants/", {"name": name}, format="json").status_code == 201

    committed = client.post(f"{API}{pk}/draws/", {"kind": "initial"}, format="json").json()
    assert committed["status"] == "committed" and committed["seed"] is None
    assert committed["result"] is None and len(committed["commitment"]) == 64
    dealt = client.post(f"{API}{pk}/draws/{committed['number']}/deal/").json()
    assert dealt["status"] == "revealed" and dealt["seed"] and dealt["result"]["result"]
    assert client.get(f"{API}{pk}/draws/1/verify/").json()["ok"] is True

    seating = client.get(f"{API}{pk}/seating/").json()["tables"]
    assert sorted(len(t["seats"]) for t in seating) == [3, 4]
    first = seating[0]["seats"][0]["entrant"]
    # A player holding chips is not put out: they go somewhere first (409, nothing changed).
    held = client.post(f"{API}{pk}/entrants/{first}/eliminate/")
    assert held.status_code == 409 and held.json()["error"]["code"] == "chips_left"
    assert held.json()["error"]["citations"] == ["RRoP-TR.18"]
    moved = client.post(
        f"{API}{pk}/entrants/{first}/chips/move/",
        {"to": None, "chips": 20_000, "reason": "Busted in a hand dealt away from the desk"},
        format="json",
    )
    assert moved.status_code == 201 and moved.json()[0]["kind"] == "out_of_play"
    out = client.post(f"{API}{pk}/entrants/{first}/eliminate/")
    # Registration is still open (TDA 8): no finishing place until it closes.
    assert out.status_code == 201 and out.json()["place"] is None
    closed = client.post(f"{API}{pk}/registration/close/")
    assert closed.status_code == 200 and closed.json()["registration_closed_at"]
    assert client.post(f"{API}{pk}/registration/close/").status_code == 422
    out = client.get(f"{API}{pk}/eliminations/").json()
    assert [(row["entrant"], row["shared_place"]) for row in out] == [(first, 7)]
    check = client.post(f"{API}{pk}/balance/").json()
    assert check["final_table"] is True  # six left fit one six-handed table
    final = client.post(f"{API}{pk}/draws/", {"kind": "final_table", "deal": True}, format="json")
    assert final.status_code == 201 and final.json()["status"] == "revealed"
    clock = client.post(f"{API}{pk}/clock/", {"action": "start"}, format="json").json()
    assert clock["state"] == "running" and clock["level"]["big_blind"] == 50
    assert clock["remaining_seconds"] <= 600


def test_seating_refusals_are_422_with_the_rules_and_conflicts_409(
    api_client_for: Any, seated: Tournament, director: Any
) -> None:
    client = api_client_for("director")
    response = client.post(
        f"{API}{seated.pk}/draws/", {"kind": "break_table", "table": 3}, format="json"
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "not_enough_seats" and "TDA-10" in error["citations"]
    assert error["edition"] == "TDA 2024"
    out = SeatAssignment.objects.filter(table__number=1, ended_at__isnull=True)
    for assignment in list(out.select_related("entrant"))[:5]:
        bust(entrant=assignment.entrant, by=director)
    draw = client.post(
        f"{API}{seated.pk}/draws/", {"kind": "break_table", "table": 3}, format="json"
    ).json()
    victim = SeatAssignment.objects.filter(table__number=3, ended_at__isnull=True).first()
    assert victim is not None
    bust(entrant=victim.entrant, by=director)
    stale = client.post(f"{API}{seated.pk}/draws/{draw['number']}/deal/")
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_draw"


def test_bad_input_is_400_in_the_common_error_shape(
    api_client_for: Any, seated: Tournament
) -> None:
    client = api_client_for("director")
    response = client.post(f"{API}{seated.pk}/draws/", {"kind": "lottery"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"]["kind"]
    clock = client.post(f"{API}{seated.pk}/clock/", {"action": "rewind"}, format="json")
    assert clock.status_code == 400 and "action" in clock.json()["error"]["fields"]


def test_balance_apply_moves_a_player_and_a_second_apply_is_stale(
    api_client_for: Any, director: Any
) -> None:
    tournament = make_tournament(by=director, tables=2, entrants=18, first_table=801)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    at_two = SeatAssignment.objects.filter(table__tournament=tournament, table__number=2)
    for assignment in list(at_two.filter(ended_at__isnull=True).select_related("entrant"))[:3]:
        bust(entrant=assignment.entrant, by=director)
    client = api_client_for("director")
    check = client.post(f"{API}{tournament.pk}/balance/").json()
    assert len(check["moves"]) == 1 and not check["stale"]
    applied = client.post(f"{API}{tournament.pk}/balance/{check['id']}/apply/")
    assert applied.status_code == 200 and applied.json()[0]["reason"] == "balance"
    again = client.post(f"{API}{tournament.pk}/balance/{check['id']}/apply/")
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale_check"
    assert client.get(f"{API}{tournament.pk}/balance/").json()["stale"] is True


def test_the_schema_documents_the_tournament_endpoints(api_client_for: Any) -> None:
    schema = api_client_for("staff").get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    assert "/api/v1/tournaments/{id}/draws/{number}/verify/" in paths
    assert "/api/v1/tournaments/{id}/balance/{check_id}/apply/" in paths
    assert paths["/api/v1/tournaments/{id}/draws/"]["post"]["summary"].startswith("Commit a draw")
