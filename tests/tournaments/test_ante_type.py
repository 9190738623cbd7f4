"""Who pays a level's ante: a tournament setting, per player ("each") or a big-blind ante
("big_blind", CR-DM.2), chosen on the form and the API (big-blind by default for new
tournaments), switched by the director, and said on every screen that shows an ante."""

from typing import Any

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import make_room_tables, make_tournament
from tournaments import setup
from tournaments.clock import services as clock
from tournaments.clock.display import level_line, room_labels, room_state
from tournaments.forms import TournamentForm
from tournaments.models import ClockEvent, Tournament

pytestmark = pytest.mark.django_db

API = "/api/v1/tournaments/"
FORM = {
    "name": "Sunday Major", "variant": "holdem", "structure": "no_limit",
    "seats_per_table": 9, "starting_stack": 30000, "balancing_policy": "tda",
    "levels": "100/200 20\n300/600/600 20", "break_order": "", "balancing_order": "",
}  # fmt: skip


def at_level_3(director: Any, **settings: Any) -> Tournament:
    tournament = make_tournament(by=director, tables=1, **settings)
    clock.advance_level(tournament=tournament, by=director)
    clock.advance_level(tournament=tournament, by=director)  # 300/600, ante 600
    tournament.refresh_from_db()
    return tournament


def test_the_model_refuses_an_unknown_ante_type(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1)
    assert tournament.ante_type == "each" and not tournament.big_blind_ante
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(ante_type="half")


def test_the_create_form_offers_and_defaults_to_the_big_blind_ante() -> None:
    form = TournamentForm()
    assert form.fields["ante_type"].initial == "big_blind"
    field = form.fields["ante_type"]
    assert isinstance(field, forms.ChoiceField)
    assert {option.data["value"] for option in form["ante_type"]} == {"each", "big_blind"}
    tables = make_room_tables(count=1, first=801)
    bound = TournamentForm({**FORM, "tables": [tables[0].pk]})  # not sent: as shown
    assert bound.is_valid(), bound.errors
    assert bound.cleaned_data["ante_type"] == "big_blind"
    each = TournamentForm({**FORM, "tables": [tables[0].pk], "ante_type": "each"})
    assert each.is_valid() and each.cleaned_data["ante_type"] == "each"
    forged = TournamentForm({**FORM, "tables": [tables[0].pk], "ante_type": "half"})
    assert not forged.is_valid() and "ante_type" in forged.errors


def test_a_director_creates_a_big_blind_ante_tournament_on_the_page(persona_client: Any) -> None:
    tables = make_room_tables(count=1, first=811)
    client = persona_client("director")
    page = client.get(reverse("tournaments:create")).content.decode()
    assert 'name="ante_type" value="big_blind"' in page and "Big-blind ante" in page
    response = client.post(reverse("tournaments:create"), {**FORM, "tables": [tables[0].pk]})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Sunday Major").ante_type == "big_blind"


def test_a_fixed_limit_tournament_cannot_play_a_big_blind_ante(persona_client: Any) -> None:
    tables = make_room_tables(count=1, first=821)
    client = persona_client("director")
    data = {**FORM, "tables": [tables[0].pk], "structure": "fixed_limit", "ante_type": "big_blind"}
    response = client.post(reverse("tournaments:create"), data)
    assert response.status_code == 422
    assert "A big-blind ante is for no-limit and pot-limit games" in response.content.decode()
    assert not Tournament.objects.filter(name="Sunday Major").exists()
    data["ante_type"] = "each"
    assert client.post(reverse("tournaments:create"), data).status_code == 302
    assert Tournament.objects.get(name="Sunday Major").ante_type == "each"


def test_a_fixed_limit_tournament_without_antes_keeps_the_forms_default(
    persona_client: Any,
) -> None:
    """No level has an ante: the big-blind default has nothing to refuse (stored per player)."""
    tables = make_room_tables(count=1, first=825)
    client = persona_client("director")
    data = {**FORM, "tables": [tables[0].pk], "structure": "fixed_limit", "levels": "100/200 20"}
    assert client.post(reverse("tournaments:create"), data).status_code == 302
    assert Tournament.objects.get(name="Sunday Major").ante_type == "each"


def test_the_director_switches_the_antes_on_the_detail_page(
    persona_client: Any, director: Any
) -> None:
    tournament = at_level_3(director)
    client = persona_client("director")
    detail = reverse("tournaments:detail", args=[tournament.pk])
    page = client.get(detail).content.decode()
    assert "antes per player" in page and "starting stack 20,000" in page  # thousands separators
    assert "Level 3: 300/600 ante 600</strong>" in page
    response = client.post(
        reverse("tournaments:ante_type", args=[tournament.pk]), {"ante_type": "big_blind"}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.ante_type == "big_blind"
    event = ClockEvent.objects.filter(tournament=tournament).first()
    assert event is not None and (event.action, event.by) == ("ante_big_blind", director)
    page = client.get(detail).content.decode()
    assert "big-blind ante (CR-DM.2)" in page
    assert "Level 3: 300/600 ante 600 (big blind)</strong>" in page
    bad = client.post(reverse("tournaments:ante_type", args=[tournament.pk]), {"ante_type": "x"})
    assert bad.status_code == 302
    tournament.refresh_from_db()
    assert tournament.ante_type == "big_blind"
    staff = persona_client("staff")
    forbidden = staff.post(
        reverse("tournaments:ante_type", args=[tournament.pk]), {"ante_type": "each"}
    )
    assert forbidden.status_code == 403


def test_the_service_refuses_a_big_blind_ante_in_fixed_limit(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, structure="fixed_limit")
    with pytest.raises(ValidationError) as refused:
        setup.set_ante_type(tournament=tournament, ante_type="big_blind", by=director)
    assert "CR-DM.2" in str(refused.value)
    tournament.refresh_from_db()
    assert tournament.ante_type == "each"


def test_the_clock_pages_say_which_ante(persona_client: Any, director: Any) -> None:
    tournament = at_level_3(director, ante_type="big_blind")
    client = persona_client("staff")
    page = client.get(reverse("tournaments:clock", args=[tournament.pk])).content.decode()
    assert '<span id="clock-ante">ante 600 (big blind)</span>' in page
    assert "<strong>big-blind ante</strong>" in page and "<td>600 (big blind)</td>" in page
    display = client.get(reverse("tournaments:clock_display", args=[tournament.pk]))
    html = display.content.decode()
    assert 'id="room-ante-kind">Big-blind ante</dt>' in html and 'id="room-ante">600<' in html

    each = at_level_3(director, ante_type="each", name="Per player", first_table=301)
    page = client.get(reverse("tournaments:clock", args=[each.pk])).content.decode()
    assert '<span id="clock-ante">ante 600</span>' in page and "<td>600 each</td>" in page
    html = client.get(reverse("tournaments:clock_display", args=[each.pk])).content.decode()
    assert 'id="room-ante-kind">Ante each</dt>' in html


def test_the_room_display_state_carries_the_ante_type(director: Any) -> None:
    tournament = make_tournament(by=director, tables=1, ante_type="big_blind")
    clock.advance_level(tournament=tournament, by=director)  # next: 300/600 ante 600
    tournament.refresh_from_db()
    state = room_state(tournament, list(tournament.levels.all()), timezone.now())
    assert state["ante_type"] == "big_blind"
    assert state["next_level"]["ante_type"] == "big_blind"
    assert level_line(state["next_level"]) == "Level 3 · 300 / 600 ante 600 (big blind)"
    assert room_labels(state)["ante_kind"] == "Big-blind ante"


def test_the_api_creates_reads_and_switches_the_ante_type(
    api_client_for: Any, director: Any
) -> None:
    rooms = make_room_tables(count=2, first=831)
    client = api_client_for("director")
    levels = [{"small_blind": 300, "big_blind": 600, "ante": 600, "minutes": 20}]
    created = client.post(
        API, {"name": "API BBA", "tables": [rooms[0].number], "levels": levels}, format="json"
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["ante_type"] == "big_blind"  # the API's default for a new tournament
    assert body["clock"]["level"]["ante_type"] == "big_blind"
    each = client.post(
        API,
        {"name": "API each", "tables": [rooms[1].number], "levels": levels, "ante_type": "each"},
        format="json",
    )
    assert each.status_code == 201 and each.json()["ante_type"] == "each"
    pk = body["id"]
    bad = client.post(f"{API}{pk}/ante/", {"ante_type": "half"}, format="json")
    assert bad.status_code == 400 and "ante_type" in bad.json()["error"]["fields"]
    switched = client.post(f"{API}{pk}/ante/", {"ante_type": "each"}, format="json")
    assert switched.status_code == 200 and switched.json()["ante_type"] == "each"
    assert client.get(f"{API}{pk}/").json()["ante_type"] == "each"
    assert client.get(f"{API}{pk}/clock/").json()["level"]["ante_type"] == "each"


def test_the_api_refuses_a_big_blind_ante_in_fixed_limit(
    api_client_for: Any, director: Any
) -> None:
    rooms = make_room_tables(count=1, first=841)
    client = api_client_for("director")
    levels = [{"small_blind": 300, "big_blind": 600, "ante": 100, "minutes": 20}]
    refused = client.post(
        API,
        {"name": "FL", "tables": [rooms[0].number], "levels": levels, "structure": "fixed_limit"},
        format="json",
    )
    assert refused.status_code in (400, 422), refused.json()
    assert "ante_type" in refused.json()["error"]["fields"]
    fixed = make_tournament(by=director, tables=1, structure="fixed_limit", first_table=351)
    switched = client.post(f"{API}{fixed.pk}/ante/", {"ante_type": "big_blind"}, format="json")
    assert switched.status_code in (400, 422) and "ante_type" in switched.json()["error"]["fields"]
    assert (
        api_client_for("staff")
        .post(f"{API}{fixed.pk}/ante/", {"ante_type": "each"}, format="json")
        .status_code
        == 403
    )
