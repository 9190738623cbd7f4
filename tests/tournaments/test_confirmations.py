"""The director's one-click actions that change the room ask first or refuse: eliminating a
player still holding chips is refused until the chips are put somewhere (server-side, so it
holds without JavaScript), a level jump while the clock runs asks; "Previous level" at the
first level says why nothing happened."""

from typing import Any

from django.urls import reverse

from tournaments.models import EntrantStatus, Tournament


def test_eliminating_a_player_with_chips_is_refused_with_the_two_ways_out(
    persona_client: Any, seated: Tournament
) -> None:
    client = persona_client("director")
    lou = seated.entrants.get(number=4)
    url = reverse("tournaments:entrant_eliminate", args=[seated.pk, 4])
    refused = client.post(url, headers={"HX-Request": "true"})
    assert refused.status_code == 409
    html = refused.content.decode()
    assert f"{lou.name} still has 20,000 chips: give them to a player or take them out of" in html
    move = reverse("tournaments:chips_move", args=[seated.pk, 4])
    assert f'action="{move}"' in html and 'id="table-map"' in html
    assert '<option value="out" selected>Out of play</option>' in html
    lou.refresh_from_db()
    assert lou.status == EntrantStatus.SEATED and lou.chips == 20000
    # Without JavaScript: the whole page, the same refusal; a confirmation is no way round it.
    page = client.post(url, {"confirm_chips": "20000"})
    assert page.status_code == 409 and b"<html" in page.content
    # The chips go to the player in seat 1 of the same table, then the player is out.
    other = seated.entrants.get(
        number=int(
            html.split('<optgroup label="At the same table"><option value="')[1].split('"')[0]
        )
    )
    moved = client.post(
        move, {"to": str(other.number), "chips": "20000", "reason": "Lost the pot, counted"},
        headers={"HX-Request": "true"},
    )  # fmt: skip
    assert moved.status_code == 200, moved.content.decode()[:500]
    assert f"20,000 chips of {lou.name} to {other.name} #{other.number}." in moved.content.decode()
    assert client.post(url, headers={"HX-Request": "true"}).status_code == 200
    lou.refresh_from_db()
    other.refresh_from_db()
    assert lou.status == EntrantStatus.ELIMINATED and other.chips == 40000


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
