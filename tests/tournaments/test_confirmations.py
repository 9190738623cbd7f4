"""The director's one-click actions that change the room ask first: eliminating a player
still holding chips (server-side, so it holds without JavaScript), and a level jump while the
clock runs; "Previous level" at the first level says why nothing happened."""

from typing import Any

from django.urls import reverse

from tournaments.models import EntrantStatus, Tournament


def test_eliminating_a_player_with_chips_asks_with_the_count(
    persona_client: Any, seated: Tournament
) -> None:
    client = persona_client("director")
    lou = seated.entrants.get(number=4)
    lou.chips = 20000
    lou.save(update_fields=["chips"])
    url = reverse("tournaments:entrant_eliminate", args=[seated.pk, 4])
    asked = client.post(url, headers={"HX-Request": "true"})
    assert asked.status_code == 200
    html = asked.content.decode()
    assert f"{lou.name} still has 20,000 chips: eliminate them anyway?" in html
    assert 'name="confirm_chips" value="20000"' in html and 'id="table-map"' in html
    lou.refresh_from_db()
    assert lou.status == EntrantStatus.SEATED
    # Without JavaScript: the whole page, the same question; a stale count is asked again.
    page = client.post(url, {"confirm_chips": "19000"})
    assert page.status_code == 200 and b"<html" in page.content
    assert client.post(url, {"confirm_chips": "20000"}).status_code == 302
    lou.refresh_from_db()
    assert lou.status == EntrantStatus.ELIMINATED


def test_a_player_with_no_chips_goes_out_at_once(persona_client: Any, seated: Tournament) -> None:
    seated.entrants.filter(number=5).update(chips=0)
    client = persona_client("director")
    url = reverse("tournaments:entrant_eliminate", args=[seated.pk, 5])
    assert client.post(url, headers={"HX-Request": "true"}).status_code == 200
    assert seated.entrants.get(number=5).status == EntrantStatus.ELIMINATED


def test_level_jumps_while_running_ask_and_level_one_says_why(
    persona_client: Any, seated: Tournament
) -> None:
    client = persona_client("director")
    action = reverse("tournaments:clock_action", args=[seated.pk])
    # Stopped at level 1: Previous says why nothing happened.
    back = client.post(action, {"action": "back"}, follow=True)
    assert b"no level before this one (this is the first level): nothing changed" in back.content
    client.post(action, {"action": "start"})
    asked = client.post(action, {"action": "advance"})
    assert asked.status_code == 200
    assert b"Go to the next level now, at every table?" in asked.content
    assert b'name="confirm" value="1"' in asked.content
    seated.refresh_from_db()
    assert seated.level_number == 1
    assert client.post(action, {"action": "advance", "confirm": "1"}).status_code == 302
    seated.refresh_from_db()
    assert seated.level_number == 2
    assert client.post(action, {"action": "back"}).status_code == 200  # asked again, not done
    seated.refresh_from_db()
    assert seated.level_number == 2
