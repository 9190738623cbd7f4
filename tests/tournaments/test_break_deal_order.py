"""Breaking a table deals its players their playing cards in the dealer's order: the player
left of the button first, clockwise (rising seat numbers, round past the top seat), the button
last (TDA 2024 Illustrated Addendum, Rule 10: "the dealer then deals one playing card face up
to each player"). The draw commits that order with its seed, so the order is part of what the
players can verify.

Driven through the director's pages (initial draw, button, break), as a director does it."""

from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.factories import make_tournament
from tournaments.models import Draw, SeatAssignment

pytestmark = pytest.mark.django_db


def seated_at(tournament: Any, table: int) -> dict[int, int]:
    """Seat number -> entrant number at a tournament table."""
    return dict(
        SeatAssignment.objects.filter(
            tournament=tournament, table__number=table, ended_at__isnull=True
        ).values_list("seat", "entrant__number")
    )


def deal_initial_seating(client: Any, tournament: Any) -> None:
    client.post(reverse("tournaments:draw_commit", args=[tournament.pk]), {"kind": "initial"})
    draw = Draw.objects.get(tournament=tournament, kind="initial")
    client.post(reverse("tournaments:draw_deal", args=[tournament.pk, draw.number]))


@pytest.mark.parametrize("button_index", [0, 2, -1])
def test_the_breaking_tables_players_get_their_cards_left_of_the_button_first(
    director: Any, persona_client: Any, button_index: int
) -> None:
    tournament = make_tournament(by=director, tables=3, entrants=15)  # 5, 5, 5
    client = persona_client("director")
    deal_initial_seating(client, tournament)
    seats = seated_at(tournament, 3)
    assert len(seats) == 5
    occupied = sorted(seats)
    # The button on the lowest, a middle, or the highest occupied seat: the order wraps round.
    button = occupied[button_index]
    response = client.post(
        reverse("tournaments:table_button", args=[tournament.pk, 3]), {"seat": button}
    )
    assert response.status_code in (200, 302)
    assert tournament.tables.get(number=3).button == button

    client.post(
        reverse("tournaments:draw_commit", args=[tournament.pk]),
        {"kind": "break_table", "table": "3"},
    )
    draw = Draw.objects.get(tournament=tournament, kind="break_table")
    clockwise = [s for s in occupied if s > button] + [s for s in occupied if s <= button]
    assert draw.inputs["input"]["players"] == [seats[s] for s in clockwise]
    assert clockwise[-1] == button  # the button is dealt last

    # Dealt: the cards go to the players in that order, one each.
    client.post(reverse("tournaments:draw_deal", args=[tournament.pk, draw.number]))
    draw.refresh_from_db()
    dealt = [card["player"] for card in draw.result["steps"]["cards"]]
    assert dealt == [seats[s] for s in clockwise]
