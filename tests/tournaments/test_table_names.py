"""One name for a tournament table everywhere: the room's ("Table 101"). A tournament on room
tables 101-103 is walked through every page, printout and API answer a person reads, after a
draw, eliminations, a balancing move, a reinstatement and a table broken: the room's numbers are
there, the tournament's own numbering (1..3, which the draws' records keep) never is."""

import re
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tests.tournaments.factories import make_tournament
from tournaments import balance_checks, draw_services, eliminations
from tournaments.models import Draw, Entrant, SeatAssignment, Tournament
from tournaments.table_names import said_by_room, said_numbers, where

pytestmark = pytest.mark.django_db

#: The tournament's own numbers said as a table's name: "Table 2", "table 3 seat", "tables 1
#: and 2", "T1 ", "T2 (room" (a number not followed by another digit: "Table 101" is fine).
INTERNAL = re.compile(
    r"\b(?:[Tt]ables? [1-3](?![0-9])(?:(?:, | and )[1-3](?![0-9]))*|T[1-3](?![0-9]))"
)


def test_said_by_room_puts_the_rooms_numbers_in_a_draws_words() -> None:
    rooms = {1: 101, 2: 102, 3: 103}
    assert said_by_room("TDA 11-A: due the big blind next at table 2", rooms) == (
        "TDA 11-A: due the big blind next at table 102"
    )
    assert said_by_room("Tables 1, 2 and 3 are full; Table 3 breaks", rooms) == (
        "Tables 101, 102 and 103 are full; Table 103 breaks"
    )
    assert said_by_room("table 7 and Level 2", rooms) == "table 7 and Level 2"  # not theirs
    assert said_numbers(rooms, [3, 1]) == "103 and 101"
    assert where(rooms, 2, 5) == "Table 102 seat 5"


@given(
    rooms=st.lists(st.integers(1, 9_999), min_size=1, max_size=40, unique=True),
    data=st.data(),
)
def test_a_draws_words_name_every_table_by_its_room_number_and_only_those(
    rooms: list[int], data: st.DataObject
) -> None:
    """Whatever the room's numbers, the tournament's tables 1..n (in room-number order) said in
    a draw's words come out as the room's, in the same order, and nothing else changes."""
    mapping = {n: room for n, room in enumerate(sorted(rooms), start=1)}
    order = data.draw(st.permutations(list(mapping)))
    said = ", ".join(str(n) for n in order[:-1]) + (" and " if len(order) > 1 else "")
    text = f"Tables {said}{order[-1]} break; Level 2 and seat 3 stay."
    expected = ", ".join(str(mapping[n]) for n in order[:-1])
    expected += (" and " if len(order) > 1 else "") + str(mapping[order[-1]])
    assert said_by_room(text, mapping) == f"Tables {expected} break; Level 2 and seat 3 stay."
    assert said_numbers(mapping, order) == expected


@pytest.fixture
def played(director: Any) -> Tournament:
    """Three tables at room tables 101-103: seated, three busts at the third table, the
    balancing move made, one bust undone, then the third table broken."""
    tournament = make_tournament(by=director, tables=3, entrants=20, first_table=101)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    at_three = SeatAssignment.objects.filter(
        tournament=tournament, table__number=3, ended_at__isnull=True
    ).select_related("entrant")
    out = [a.entrant for a in list(at_three)[:3]]
    for entrant in out:
        Entrant.objects.filter(pk=entrant.pk).update(chips=0)  # busted: their chips are gone
        eliminations.eliminate_player(entrant=entrant, by=director)
    eliminations.reinstate_player(entrant=out[-1], by=director, reason="Chips found")
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    if check.moves:
        balance_checks.apply_balance(check=check, by=director)
    draw = draw_services.commit_draw(
        tournament=tournament, kind="break_table", by=director, table=3
    )
    draw_services.deal_draw(draw=draw, by=director)
    balance_checks.check_balance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def pages(tournament: Tournament) -> list[str]:
    pk = tournament.pk
    urls = [
        reverse("tournaments:detail", args=[pk]),
        reverse("tournaments:break_screen", args=[pk, 102]),
        reverse("tournaments:draws", args=[pk]),
        reverse("tournaments:balance", args=[pk]),
        reverse("tournaments:clock", args=[pk]),
        reverse("tournaments:clock_display", args=[pk]),
        reverse("tournaments:results", args=[pk]),
        reverse("tournaments:results_csv", args=[pk]),
        reverse("cardroom:floor"),
        reverse("cardroom:desk", args=[101]),
        reverse("cardroom:board"),
        f"/api/v1/tournaments/{pk}/",
        f"/api/v1/tournaments/{pk}/seating/",
    ]
    urls += [
        reverse("tournaments:draw_detail", args=[pk, d.number]) for d in tournament.draws.all()
    ]
    return urls


def test_every_page_names_the_tables_by_the_rooms_numbers(
    persona_client: Any, played: Tournament
) -> None:
    client = persona_client("director")
    seen: set[str] = set()
    for url in pages(played):
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        # The draw's record is shown as recorded (it replays with the tournament's numbering).
        text = text.split("Recorded inputs (JSON)")[0]
        found = INTERNAL.findall(text)
        assert not found, (url, found)
        seen.update(re.findall(r"Table 10[1-3]", text))
    assert seen == {"Table 101", "Table 102", "Table 103"}


def test_the_tournament_page_and_the_board_name_the_tables_in_play(
    persona_client: Any, played: Tournament
) -> None:
    detail = persona_client("staff").get(reverse("tournaments:detail", args=[played.pk]))
    text = detail.content.decode()
    assert "<h3>Table 101 " in text and "<h3>Table 102 " in text
    assert (
        "Break table 101"
        in persona_client("director")
        .get(reverse("tournaments:detail", args=[played.pk]))
        .content.decode()
    )
    board = persona_client("anonymous").get(reverse("cardroom:board")).content.decode()
    assert '<span class="board-table">Table 101</span>' in board
    assert '<span class="board-table">Table 103</span>' not in board  # broken


def test_the_api_keeps_number_and_adds_the_rooms_name(
    api_client_for: Any, played: Tournament
) -> None:
    client = api_client_for("staff")
    body = client.get(f"/api/v1/tournaments/{played.pk}/").json()
    assert [(t["number"], t["room_table"], t["name"]) for t in body["tables"]] == [
        (1, 101, "Table 101"), (2, 102, "Table 102"), (3, 103, "Table 103")
    ]  # fmt: skip
    seating = client.get(f"/api/v1/tournaments/{played.pk}/seating/").json()
    assert [(t["number"], t["name"]) for t in seating["tables"]] == [
        (1, "Table 101"), (2, "Table 102")
    ]  # fmt: skip
    rooms = {1: 101, 2: 102, 3: 103}
    base = f"/api/v1/tournaments/{played.pk}"
    moves = client.get(f"{base}/moves/").json()
    assert moves and all(
        m[f"{end}_room_table"] == rooms.get(m[f"{end}_table"])  # None: no table (a bust)
        for m in moves
        for end in ("from", "to")
    )
    assert {m["to_room_table"] for m in moves} >= {101, 102}
    outs = client.get(f"{base}/eliminations/").json()
    assert outs and all(row["room_table"] == rooms[row["table_number"]] for row in outs)
    [back] = client.get(f"{base}/reinstatements/").json()
    assert back["room_table"] == rooms[back["table_number"]] == 103
    check = client.get(f"{base}/balance/").json()
    assert check["room_tables"] == {"1": 101, "2": 102, "3": 103}


def test_recorded_draws_still_verify(played: Tournament) -> None:
    for draw in Draw.objects.filter(tournament=played):
        assert draw_services.verify_draw(draw).ok, draw


def test_the_admin_lists_name_the_tables_by_the_rooms_numbers(
    persona_client: Any, played: Tournament, django_assert_max_num_queries: Any
) -> None:
    client = persona_client("superuser")
    for model in ("seatmove", "elimination", "reinstatement", "seatassignment"):
        url = reverse(f"admin:tournaments_{model}_changelist")
        with django_assert_max_num_queries(12):  # one list query, however many rows
            text = client.get(url).content.decode()
        assert not INTERNAL.findall(text), (model, INTERNAL.findall(text))
        assert re.search(r"Table 10[1-3]( seat [0-9])?", text), model
