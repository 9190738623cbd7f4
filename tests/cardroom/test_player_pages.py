"""The room's players as the staff see them: the search as you type (signed-in staff only, at
most 20, alias, contact's last characters, a bar's badge; bad input a 400), and a player's
page for floor managers and directors (a correction, a bar with its reason: 422 for bad
input, 403 for other roles), the record's changes on its log."""

from typing import Any

import pytest
from django.urls import reverse

from cardroom.seats import services as players
from cardroom.seats.models import Player, PlayerChange, name_key
from tests.tournaments.factories import make_tournament

pytestmark = pytest.mark.django_db

SEARCH = "/players/search/"


def test_the_search_needs_a_signed_in_staff_member(persona_client: Any) -> None:
    answer = persona_client("anonymous").get(SEARCH, {"q": "ana"})
    assert answer.status_code == 302 and answer["Location"].startswith("/login/")
    assert persona_client("no_role_user").get(SEARCH, {"q": "ana"}).status_code == 403


def test_the_search_lists_players_told_apart_and_a_bar(persona_client: Any, director: Any) -> None:
    one = players.find_or_create_player(name="Ana Ruiz", contact="600 111 222", by=director)
    players.find_or_create_player(name="ana ruiz", contact="ana@ruiz.es", by=director)
    players.find_or_create_player(name="Bo Li", alias="Anaconda", by=director)
    players.find_or_create_player(name="Juana Ana", by=director)  # "ana" inside: not a prefix
    players.bar_player(player=one, reason="Abused a dealer", by=director)
    page = persona_client("staff").get(SEARCH, {"q": " ANA ", "for": "entrant-names"})
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count('class="button subtle player-choice"') == 3
    assert "contact …1222" in text and "contact …z.es" in text and "“Anaconda”" in text
    assert 'data-fill="Ana Ruiz, 600 111 222"' in text
    assert 'data-fill-target="entrant-names"' in text
    assert text.count("Barred</span>") == 1 and "Juana" not in text


def test_the_search_is_bounded_and_refuses_bad_input(persona_client: Any, director: Any) -> None:
    Player.objects.bulk_create(
        Player(name=f"Ann {n:02}", name_key=name_key(f"Ann {n:02}")) for n in range(30)
    )
    staff = persona_client("staff")
    text = staff.get(SEARCH, {"q": "ann"}).content.decode()
    assert text.count("player-choice") == 20 and "The first 20 shown" in text
    assert staff.get(SEARCH, {"q": "a" * 121}).status_code == 400
    assert staff.get(SEARCH, {"q": "ann", "for": '"><script>'}).status_code == 400
    # A name box's own text, contact included, searches by the name.
    assert "Ann 07" in staff.get(SEARCH, {"name": "Ann 07, 600 123 456"}).content.decode()


def test_the_players_page_is_for_floor_managers_and_directors(
    persona_client: Any, floor_manager: Any
) -> None:
    ana = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    url = reverse("cardroom:player_detail", args=[ana.pk])
    assert persona_client("staff").get(url).status_code == 403
    assert persona_client("staff").post(url, {"name": "X"}).status_code == 403
    bar = reverse("cardroom:player_bar", args=[ana.pk])
    assert persona_client("staff").post(bar, {"reason": "x", "barred": "1"}).status_code == 403
    assert persona_client("director").get(url).status_code == 200


def test_a_correction_and_a_bar_from_the_players_page(
    persona_client: Any, floor_manager: Any
) -> None:
    ana = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    tournament = make_tournament(by=floor_manager, tables=1)
    from tournaments.setup import register_entrants

    register_entrants(tournament=tournament, names=["Ana Ruiz"], by=floor_manager)
    fm = persona_client("floor_manager")
    url = reverse("cardroom:player_detail", args=[ana.pk])
    bad = fm.post(url, {"name": "Ana Ruiz", "contact": "call Bob"})
    assert bad.status_code == 422 and "phone number" in bad.content.decode()
    done = fm.post(url, {"name": "Ana  Ruiz", "alias": "Ace", "contact": "600 1234", "notes": ""})
    assert done.status_code == 302
    ana.refresh_from_db()
    assert (ana.alias, ana.contact_key) == ("Ace", "6001234")
    bar = reverse("cardroom:player_bar", args=[ana.pk])
    assert fm.post(bar, {"reason": " ", "barred": "1"}).status_code == 422
    assert fm.post(bar, {"reason": "x", "barred": "²"}).status_code == 422
    assert fm.post(bar, {"reason": "Abused a dealer", "barred": "1"}).status_code == 302
    again = fm.post(bar, {"reason": "twice", "barred": "1"})
    assert again.status_code == 409 and "already barred" in again.content.decode()
    page = fm.get(url).content.decode()
    assert "Abused a dealer" in page and "Saturday Deepstack" in page and "#1" in page
    kinds = list(PlayerChange.objects.filter(player=ana).values_list("kind", flat=True))
    assert kinds == ["edited", "barred"]
