"""The director's list of entrants by where they are (waiting, seated, out: a tab and a count
each, bounded pages) and the printable seat cards (one entry's; every card of the last draw),
for the staff only."""

from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.factories import make_tournament
from tournaments import draw_services, eliminations, setup
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


def seated_with_one_out_and_one_late(director: Any) -> Any:
    tournament = make_tournament(by=director, tables=1, entrants=3, seats_per_table=4)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    out = tournament.entrants.get(number=2)
    Entrant.objects.filter(pk=out.pk).update(chips=0)  # busted at the table
    eliminations.eliminate_player(entrant=out, by=director)
    setup.register_entrants(tournament=tournament, names=["Late Lou, 600 999 000"], by=director)
    return tournament


def test_the_tabs_count_and_show_who_is_waiting_seated_or_out(
    persona_client: Any, director: Any
) -> None:
    tournament = seated_with_one_out_and_one_late(director)
    client = persona_client("staff")
    url = reverse("tournaments:detail", args=[tournament.pk])
    page = client.get(url).content.decode()
    for tab, count in (("all", 4), ("waiting", 1), ("seated", 2), ("out", 1)):
        assert f'id="entrant-tab-{tab}"' in page
        assert (
            f'<span class="count">({count})</span>'
            in page.split(f'id="entrant-tab-{tab}"')[1][:400]
        )
    waiting = client.get(url, {"part": "entrant-list", "tab": "waiting"}, HTTP_HX_REQUEST="true")
    text = waiting.content.decode()
    assert text.lstrip().startswith('<section id="entrant-list"')
    assert "Late Lou" in text and "Player 1" not in text
    seated = client.get(url, {"tab": "seated"}).content.decode()
    assert "Player 1" in seated and " seat " in seated.split('id="entrant-1"')[1][:600]
    # An unknown tab shows everyone.
    assert "Late Lou" in client.get(url, {"tab": "<b>"}).content.decode()


def test_a_seat_card_says_the_table_and_seat_or_waiting_for_the_draw(
    persona_client: Any, director: Any
) -> None:
    tournament = seated_with_one_out_and_one_late(director)
    client = persona_client("staff")
    seated = client.get(reverse("tournaments:seat_card", args=[tournament.pk, 1]))
    text = seated.content.decode()
    assert seated.status_code == 200
    assert "Saturday Deepstack" in text and "Entry #1" in text and "Player 1" in text
    assert "· Seat " in text and "Registered " in text
    late = client.get(reverse("tournaments:seat_card", args=[tournament.pk, 4])).content.decode()
    assert "Late Lou" in late and "Waiting for the draw" in late and "600" not in late
    assert client.get(reverse("tournaments:seat_card", args=[tournament.pk, 99])).status_code == 404
    assert (
        persona_client("no_role_user")
        .get(reverse("tournaments:seat_card", args=[tournament.pk, 1]))
        .status_code
        == 403
    )


def test_the_last_draws_cards_one_a_page(persona_client: Any, director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, entrants=3)
    client = persona_client("director")
    url = reverse("tournaments:last_draw_cards", args=[tournament.pk])
    assert "No draw has been dealt yet" in client.get(url).content.decode()
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    text = client.get(url).content.decode()
    assert text.count('class="seat-card"') == 3 and "Seat cards of draw 1" in text
    assert "seat-cards.css" in text
