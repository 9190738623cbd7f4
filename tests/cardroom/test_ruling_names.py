"""A ruling names the players involved as they sat when it was made ("Seat 3 · Alice"), on
its page, in the list, the CSV and the API, after they have left; its table is one of the
room's, chosen from a list; the names are in the ruling's audit chain."""

from __future__ import annotations

import csv
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from cardroom.core import audit
from cardroom.rulings.models import Ruling
from cardroom.rulings.services import log_ruling
from cardroom.seats import services as players
from cardroom.tables import services
from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def rulebook(db: None) -> None:
    call_command("load_rulebook", verbosity=0)


def seat(table: Any, name: str, number: int, by: Any) -> Any:
    player = players.find_or_create_player(name=name, by=by)
    return players.seat_player(table=table, player=player, seat=number, buy_in=100, by=by)


FORM = {
    "table": 4,
    "situation": "Seat 3 acted out of turn.",
    "decision": "The action is binding.",
    "cite": ["TDA-53"],
    "note": [""],
}


def test_a_ruling_keeps_the_names_of_the_seats_it_involves_after_they_leave(
    floor_manager: Any,
) -> None:
    table = make_table(number=4)
    alice = seat(table, "Alice Ray", 3, floor_manager)
    seat(table, "Bo Chen", 7, floor_manager)
    ruling = log_ruling(
        table=table, director=floor_manager, situation="s", decision="d",
        citations=[("TDA-53", "")], seats=[3, 7, 5],
    )  # fmt: skip
    players.leave_seat(seat=alice, by=floor_manager)
    seat(table, "Cy Dorn", 3, floor_manager)
    ruling.refresh_from_db()
    assert ruling.names == {"3": "Alice Ray", "7": "Bo Chen"}  # seat 5 was empty
    assert ruling.seat_labels == ["Seat 3 · Alice Ray", "Seat 5", "Seat 7 · Bo Chen"]


def test_a_ruling_about_a_hand_names_who_was_dealt_in_not_who_sits_there_now(
    floor_manager: Any,
) -> None:
    table = make_table(number=4)
    seat(table, "Cy Dorn", 1, floor_manager)  # sat down after the hand was dealt
    hand = services.start_hand(
        table=table, by=floor_manager, button=1,
        seats=[{"seat": 1, "stack": 100}, {"seat": 2, "stack": 100}],
        names={"1": "Ana Ruiz", "2": "Bo Chen"},
    )  # fmt: skip
    ruling = log_ruling(
        table=table, director=floor_manager, situation="s", decision="d",
        citations=[("TDA-53", "")], hand=hand, seats=[1],
    )  # fmt: skip
    assert ruling.names == {"1": "Ana Ruiz"}


def test_the_form_picks_the_table_from_the_rooms_tables_and_the_seats_by_name(
    persona_client: Any, floor_manager: Any
) -> None:
    table = make_table(number=4, name="Feature")
    make_table(number=12)
    seat(table, "Alice Ray", 3, floor_manager)
    page = persona_client("floor_manager").get("/rulings/new/?table=4").content.decode()
    assert 'type="number"' not in page  # no free number box for the table
    assert '<select name="table"' in page
    assert "Table 4 · Feature · 1/2 NL Hold&#x27;em" in page
    assert '<option value="4" selected>' in page and '<option value="12">' in page
    assert "Seat 3 · Alice Ray" in page and 'name="seats" value="3"' in page
    assert 'Seat 2 · <span class="muted">empty</span>' in page

    response = persona_client("floor_manager").post("/rulings/new/", {**FORM, "seats": ["3"]})
    assert response.status_code == 302, response.content.decode()
    ruling = Ruling.objects.get()
    assert (ruling.seats, ruling.names) == ([3], {"3": "Alice Ray"})


def test_a_table_not_in_the_room_is_refused_on_the_form(persona_client: Any) -> None:
    make_table(number=4)
    response = persona_client("director").post("/rulings/new/", {**FORM, "table": 99})
    assert response.status_code == 422
    assert "There is no table 99." in response.content.decode()
    assert not Ruling.objects.exists()


def test_the_ruling_page_its_list_the_csv_and_the_api_name_the_players(
    persona_client: Any, api_client_for: Any, floor_manager: Any
) -> None:
    table = make_table(number=4)
    alice = seat(table, "Alice Ray", 3, floor_manager)
    ruling = log_ruling(
        table=table, director=floor_manager, situation="s", decision="d",
        citations=[("TDA-53", "")], seats=[3],
    )  # fmt: skip
    players.leave_seat(seat=alice, by=floor_manager)
    staff = persona_client("staff")
    assert "Seat 3 · Alice Ray" in staff.get(f"/rulings/{ruling.pk}/").content.decode()
    assert "Seat 3 · Alice Ray" in staff.get("/rulings/").content.decode()
    rows = list(csv.DictReader(StringIO(staff.get("/rulings/export.csv").content.decode())))
    assert (rows[0]["seats"], rows[0]["players"]) == ("3", "Seat 3 · Alice Ray")
    body = api_client_for("staff").get(f"/api/v1/rulings/{ruling.pk}/").json()
    assert (body["seats"], body["names"]) == ([3], {"3": "Alice Ray"})


def test_the_api_stores_the_names_it_did_not_send(api_client_for: Any, floor_manager: Any) -> None:
    table = make_table(number=4)
    seat(table, "Alice Ray", 3, floor_manager)
    body = {
        "table": 4, "seats": [3], "situation": "s", "decision": "d",
        "citations": [{"rule": "TDA-53"}], "names": {"3": "Someone Else"},
    }  # fmt: skip
    response = api_client_for("floor_manager").post("/api/v1/rulings/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["names"] == {"3": "Alice Ray"}


def verify() -> list[str]:
    err = StringIO()
    try:
        call_command("verify_audit", stdout=StringIO(), stderr=err)
    except CommandError:
        return [line for line in err.getvalue().splitlines() if line.startswith("BREAK")]
    return []


def test_the_names_are_chained_and_rulings_from_before_them_keep_their_hashes(
    floor_manager: Any,
) -> None:
    table = make_table(number=4)
    seat(table, "Alice Ray", 3, floor_manager)
    plain = log_ruling(
        table=table, director=floor_manager, situation="s", decision="d",
        citations=[("TDA-53", "")],
    )  # fmt: skip
    named = log_ruling(
        table=table, director=floor_manager, situation="s", decision="d",
        citations=[("TDA-53", "")], seats=[3],
    )  # fmt: skip
    model = apps.get_model("cardroom.Ruling")
    before = tuple(f for f in audit.CHAINS["cardroom.Ruling"].fields if f != "names")
    values = model._base_manager.filter(pk=plain.pk).values(*before, "prev_hash", "row_hash")[0]
    # A ruling without names hashes exactly as one written before the column existed.
    old = audit.digest(
        "cardroom.Ruling", values["prev_hash"], audit.canonical(model, values, before)
    )
    assert values["row_hash"] == old
    assert verify() == []
    with audit.maintenance():
        model._base_manager.filter(pk=named.pk).update(names={"3": "Someone Else"})
    assert verify() == [
        f"BREAK cardroom_ruling row {named.pk}: contents changed: row_hash does not match its "
        "fields"
    ]


def test_a_ruling_at_a_tournament_table_names_the_entrants_seated_there(director: Any) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments.draw_services import draw_initial_seating
    from tournaments.models import SeatAssignment

    tournament = make_tournament(by=director, tables=1, entrants=4, seats_per_table=6)
    draw_initial_seating(tournament=tournament, by=director)
    sitting = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    first = sitting.select_related("entrant", "table__table").order_by("seat").first()
    assert first is not None
    ruling = log_ruling(
        table=first.table.table, director=director, situation="s", decision="d",
        citations=[("TDA-53", "")], seats=[first.seat],
    )  # fmt: skip
    assert ruling.names == {str(first.seat): first.entrant.name}


def test_the_form_names_a_tournament_table_by_the_tournament_playing_there(
    director: Any, persona_client: Any
) -> None:
    """Not by the cash game settings it was set up with: they are not what is played there."""
    from tests.tournaments.factories import make_tournament
    from tournaments.draw_services import draw_initial_seating

    tournament = make_tournament(by=director, tables=1, entrants=4, seats_per_table=6)
    draw_initial_seating(tournament=tournament, by=director)
    room = tournament.tables.get(number=1).table
    page = persona_client("director").get(f"/rulings/new/?table={room.number}").content.decode()
    assert f"Table {room.number} · {tournament.name}<" in page
    assert f"Table {room.number} · {room.game_label}" not in page.replace("&#x27;", "'")
