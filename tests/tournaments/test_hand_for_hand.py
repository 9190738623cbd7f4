"""Hand-for-hand (TDA RP-8): the director's "Next hand" waits for every table in play
to push its hand of the round (or asks, and is forced), hand-for-hand ends by itself once play
is on one table, and a desk that has played its hand shows Deal held with the reason."""

import re
from typing import Any
from urllib.parse import unquote

import pytest
from django.urls import reverse

from tests.tournaments.factories import bust, make_tournament
from tests.tournaments.test_table_hands import play, room, settle
from tournaments import draw_services, eliminations, table_hands
from tournaments.draws.errors import DrawError
from tournaments.models import ClockEvent, SeatAssignment, Tournament

pytestmark = pytest.mark.django_db


def two_tables(director: Any) -> Tournament:
    """Eight players on two tables, hand-for-hand announced."""
    tournament = make_tournament(by=director, tables=2, entrants=8, seats_per_table=9)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    return eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)


def push_a_hand(tournament: Tournament, number: int, director: Any) -> None:
    hand = table_hands.deal_tournament_hand(table=room(tournament, number), by=director)
    settle(play(hand, director, {}), director)


def hand_number(tournament: Tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).hand_for_hand_hand


def test_next_hand_is_refused_while_a_table_has_not_pushed_its_hand_and_asks_when_forced(
    director: Any, persona_client: Any
) -> None:
    tournament = two_tables(director)
    first = hand_number(tournament)
    client = persona_client("director")
    url = reverse("tournaments:hand_for_hand", args=[tournament.pk])

    # No table has played: the button is refused, the reason on the page.
    response = client.post(url, {"hand_for_hand": "next"}, follow=True)
    assert hand_number(tournament) == first
    page = response.content.decode()
    assert (
        f"Hand-for-hand hand {first}: 0 of 2 tables have played (Table 101, Table 102 not yet)"
        in page
    )

    push_a_hand(tournament, 1, director)
    state = table_hands.hand_for_hand_round(Tournament.objects.get(pk=tournament.pk))
    assert state is not None
    assert [t.number for t in state.played] == [1] and [t.number for t in state.waiting] == [2]
    with pytest.raises(DrawError) as refused:
        table_hands.next_hand_for_hand(tournament=tournament, by=director)
    assert refused.value.code == "hand_not_finished"
    assert "1 of 2 tables have played (Table 102 not yet)" in refused.value.message
    assert refused.value.citations == ("TDA-RP-8",)

    # The page says which tables have played and asks before forcing it.
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert f"Hand {first}: 1 of 2 tables have played; still playing it: Table 102." in page
    assert "1 of 2 tables have played: release the next hand anyway?" in page
    assert 'name="force" value="on"' in page
    response = client.post(url, {"hand_for_hand": "next", "force": "on"})
    assert response.status_code == 302
    assert hand_number(tournament) == first + 1
    event = ClockEvent.objects.filter(tournament=tournament).first()
    assert event is not None and event.action == "hand_for_hand_next"


def test_the_api_refuses_next_with_a_table_still_playing_unless_forced(
    director: Any, api_client_for: Any
) -> None:
    tournament = two_tables(director)
    first = hand_number(tournament)
    push_a_hand(tournament, 2, director)
    api = api_client_for("director")
    url = f"/api/v1/tournaments/{tournament.pk}/hand-for-hand/"
    response = api.post(url, {"action": "next"}, format="json")
    assert response.status_code == 422, response.json()
    assert response.json()["error"]["code"] == "hand_not_finished"
    assert "Table 101 not yet" in response.json()["error"]["message"]
    assert hand_number(tournament) == first
    response = api.post(url, {"action": "next", "force": True}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["hand_for_hand_hand"] == first + 1


def test_once_every_table_has_pushed_the_round_is_released_and_the_desk_deals_again(
    director: Any, persona_client: Any
) -> None:
    tournament = two_tables(director)
    first = hand_number(tournament)
    client = persona_client("director")
    desk = reverse("cardroom:desk", args=[room(tournament, 1).number])

    before = client.get(desk).content.decode()
    assert re.search(r'id="deal-next"[^>]*>', before) and "deal-hold" not in before

    push_a_hand(tournament, 1, director)
    held = client.get(desk).content.decode()
    button = re.search(r'<button[^>]*id="deal-next"[^>]*>', held)
    assert button is not None and " disabled" in button.group(0)
    assert 'aria-describedby="deal-hold"' in button.group(0)
    assert "Waiting for the other tables: hand-for-hand, 1 of 2 have played." in held
    version = re.search(r"\?seq=([^\"&]+)\"", held)
    assert version is not None

    push_a_hand(tournament, 2, director)
    assert hand_number(tournament) == first + 1  # the last push released the next hand
    # The desk's poll sees the other table's push (its version changed) and Deal is back.
    polled = client.get(desk, {"seq": unquote(version.group(1))})
    assert polled.status_code == 200
    released = polled.content.decode()
    button = re.search(r'<button[^>]*id="deal-next"[^>]*>', released)
    assert button is not None and " disabled" not in button.group(0)
    assert "Waiting for the other tables" not in released


def test_hand_for_hand_ends_by_itself_at_the_final_table(
    director: Any, persona_client: Any
) -> None:
    tournament = make_tournament(
        by=director, tables=2, entrants=10, seats_per_table=10, final_table_size=9
    )
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)
    out = SeatAssignment.objects.filter(
        tournament=tournament, table__number=1, ended_at__isnull=True
    ).first()
    assert out is not None
    bust(entrant=out.entrant, by=director)
    assert Tournament.objects.get(pk=tournament.pk).hand_for_hand  # still two tables

    draw_services.redraw_final_table(tournament=tournament, by=director)
    tournament.refresh_from_db()
    assert not tournament.hand_for_hand
    ended = ClockEvent.objects.filter(tournament=tournament).first()
    assert ended is not None and (ended.action, ended.by) == ("hand_for_hand_off", None)

    # The director's panel offers it no more, and announcing it is refused with the reason.
    page = persona_client("director").get(reverse("tournaments:detail", args=[tournament.pk]))
    text = page.content.decode()
    assert 'value="on"' not in text and "Announce hand-for-hand" not in text
    assert "Next hand (hand-for-hand)" not in text
    with pytest.raises(DrawError) as refused:
        eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)
    assert refused.value.code == "one_table" and "one table" in refused.value.message
    assert not Tournament.objects.get(pk=tournament.pk).hand_for_hand


def test_a_table_left_with_one_player_is_not_waited_for_in_the_round(director: Any) -> None:
    """A table down to one player deals no hand (it waits to be balanced), so the round is
    finished, and the next hand released, once the tables with two players or more have
    pushed theirs."""
    tournament = make_tournament(by=director, tables=3, entrants=12, seats_per_table=9)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    eliminations.set_hand_for_hand(tournament=tournament, on=True, by=director)
    first = hand_number(tournament)
    at_three = SeatAssignment.objects.filter(
        tournament=tournament, table__number=3, ended_at__isnull=True
    )
    for assignment in list(at_three.order_by("seat"))[1:]:
        bust(entrant=assignment.entrant, by=director)
    assert at_three.count() == 1  # balancing is recorded, not applied: the lone player waits

    push_a_hand(tournament, 1, director)
    state = table_hands.hand_for_hand_round(Tournament.objects.get(pk=tournament.pk))
    assert state is not None
    assert [t.number for t in state.played] == [1] and [t.number for t in state.waiting] == [2]
    push_a_hand(tournament, 2, director)
    assert hand_number(tournament) == first + 1  # table 3's lone player held nothing up
