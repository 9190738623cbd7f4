"""The floor dashboard: every table as a card, a constant number of queries, live updates."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.models import Table
from cardroom.services import record_action
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db


def queries_for(client: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def floor_with(n: int, floor_manager: Any) -> None:
    existing = Table.objects.count()
    for number in range(existing + 1, n + 1):
        table = make_table(number=number, by=floor_manager)
        if number % 3 == 0:
            make_hand(table=table, by=floor_manager)


def test_query_count_does_not_grow_with_the_number_of_tables(
    persona_client: Any, floor_manager: Any
) -> None:
    client = persona_client("staff")
    floor_with(10, floor_manager)
    ten = queries_for(client, "/floor/")
    floor_with(100, floor_manager)
    hundred = queries_for(client, "/floor/")
    assert ten == hundred
    html = client.get("/floor/").content.decode()
    assert html.count('class="card table-card') == 100


def test_cards_show_the_hand_in_progress(persona_client: Any, floor_manager: Any) -> None:
    hand = make_hand(by=floor_manager)
    record_action(hand=hand, by=floor_manager, expected_seq=0, seat=1, action="raise", to=6)
    html = persona_client("staff").get("/floor/").content.decode()
    assert "Hand #1: <strong>preflop</strong>, pot <strong>9</strong>" in html


def test_filters(persona_client: Any, floor_manager: Any) -> None:
    make_table(number=1, by=floor_manager)
    make_table(number=2, by=floor_manager, kind="tournament")
    html = (
        persona_client("staff")
        .get("/floor/?tournament=yes", HTTP_HX_REQUEST="true")
        .content.decode()
    )
    assert 'id="card-2"' in html and 'id="card-1"' not in html


def test_updates_send_only_what_changed(persona_client: Any, floor_manager: Any) -> None:
    make_table(number=1, by=floor_manager)
    two = make_table(number=2, by=floor_manager)
    client = persona_client("staff")
    since = timezone.now()
    Table.objects.filter(pk=two.pk).update(updated_at=timezone.now())  # a change after "since"
    Table.objects.exclude(pk=two.pk).update(updated_at=since - timezone.timedelta(minutes=5))
    html = client.get("/floor/updates/", {"since": since.isoformat()}).content.decode()
    assert 'id="card-2"' in html and 'hx-swap-oob="true"' in html
    assert 'id="card-1"' not in html
    assert 'id="poller"' in html


@pytest.mark.parametrize("persona", ["staff", "director"])
def test_only_floor_managers_open_and_close_from_a_card(
    persona_client: Any, persona: str, floor_manager: Any
) -> None:
    make_table(number=1, by=floor_manager, status="open")
    assert (
        persona_client(persona)
        .post("/tables/1/status/", {"status": "closed", "from": "floor"})
        .status_code
        == 403
    )
    response = persona_client("floor_manager").post(
        "/tables/1/status/", {"status": "closed", "from": "floor"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and 'id="card-1"' in response.content.decode()
    assert Table.objects.get(number=1).status == "closed"


def test_anonymous_go_to_log_in_and_no_role_is_403(persona_client: Any) -> None:
    assert persona_client("anonymous").get("/floor/").status_code == 302
    assert persona_client("no_role_user").get("/floor/").status_code == 403


def test_tournament_cards_show_the_tournament_and_its_seated_players(
    persona_client: Any, director: Any, floor_manager: Any
) -> None:
    from tests.tournaments.factories import make_tournament
    from tournaments.services import draw_initial_seating, eliminate_player

    tournament = make_tournament(by=director, tables=2, entrants=11, first_table=41,
                                 name="Sunday Turbo")  # fmt: skip
    draw_initial_seating(tournament=tournament, by=director)
    make_tournament(by=director, tables=1, first_table=51, name="Other Event")
    cash = make_table(number=3, by=floor_manager)
    hand = make_hand(table=cash, by=floor_manager)  # three players dealt in
    record_action(hand=hand, by=floor_manager, expected_seq=0, seat=1, action="fold")
    record_action(hand=hand, by=floor_manager, expected_seq=1, seat=2, action="fold")
    client = persona_client("staff")
    html = client.get("/floor/").content.decode()
    card_41 = html.split('id="card-41"')[1].split("</article>")[0]
    assert "Sunday Turbo" in card_41
    seated = {n: tournament.assignments.filter(table__number=n, ended_at__isnull=True).count()
              for n in (1, 2)}  # fmt: skip
    assert f"Seats: {seated[1]}/9" in card_41
    card_3 = html.split('id="card-3"')[1].split("</article>")[0]
    assert "No hand in progress" in card_3
    assert f"Seats: 3/{cash.seats}" in card_3  # between hands: the players of the last one
    # One tournament's tables only.
    only = client.get(f"/floor/?tournament={tournament.pk}", HTTP_HX_REQUEST="true").text
    assert 'id="card-41"' in only and 'id="card-42"' in only
    assert 'id="card-51"' not in only and 'id="card-3"' not in only
    assert "Other Event" in client.get("/floor/").text  # offered in the filter
    # An elimination changes the card: the live update re-renders it.
    since = timezone.now()
    out = tournament.assignments.filter(table__number=1, ended_at__isnull=True).first()
    assert out is not None
    eliminate_player(entrant=out.entrant, by=director)
    from cardroom.floor import changed_table_ids

    assert tournament.tables.get(number=1).table_id in changed_table_ids(since)
    after = client.get("/floor/").content.decode().split('id="card-41"')[1]
    assert f"Seats: {seated[1] - 1}/9" in after.split("</article>")[0]
