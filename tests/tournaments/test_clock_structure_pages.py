"""The clock page's structure editor: directors only, CSRF on every post, a refused change
answered with the typed values and the reason next to the field (422), and a change shown by
the room display's state at its next poll (a new clock version)."""

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse

from cardroom.screens import board
from tests.tournaments.factories import make_tournament
from tournaments.clock import services as clock
from tournaments.models import Level, StructureChange, Tournament

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def running(director: Any) -> Tournament:
    tournament = make_tournament(by=director, tables=1, entrants=2)
    clock.start_clock(tournament=tournament, by=director)
    tournament.refresh_from_db()
    return tournament


def urls(tournament: Tournament) -> dict[str, tuple[str, dict[str, str]]]:
    third = Level.objects.get(tournament=tournament, number=3)
    step = {"small_blind": "400", "big_blind": "800", "ante": "800", "minutes": "20"}
    return {
        "time": (
            reverse("tournaments:structure_time", args=[tournament.pk]),
            {"minutes": "1", "reason": "Late start"},
        ),
        "step": (
            reverse("tournaments:structure_step", args=[tournament.pk, third.pk]),
            {**step, "reason": "Slower", "do": "save"},
        ),
        "insert": (
            reverse("tournaments:structure_insert", args=[tournament.pk]),
            {**step, "after": str(third.pk), "kind": "level", "reason": "One more"},
        ),
        "add": (
            reverse("tournaments:structure_add", args=[tournament.pk]),
            {"count": "2", "reason": "More"},
        ),
    }


@pytest.mark.parametrize("persona", ["staff", "floor_manager", "no_role_user"])
@pytest.mark.parametrize("name", ["time", "step", "insert", "add"])
def test_only_directors_change_the_structure(
    persona_client: Any, running: Tournament, persona: str, name: str
) -> None:
    url, data = urls(running)[name]
    assert persona_client(persona).post(url, data, headers=HTMX).status_code == 403
    assert not StructureChange.objects.exists()


def test_every_post_needs_the_csrf_token(director: Any, running: Tournament) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    for url, data in urls(running).values():
        assert client.post(url, data, headers=HTMX).status_code == 403
    assert not StructureChange.objects.exists()


@pytest.mark.parametrize("name", ["time", "step", "insert", "add"])
def test_each_change_answers_the_editor_and_moves_the_display_on(
    persona_client: Any, running: Tournament, name: str, django_capture_on_commit_callbacks: Any
) -> None:
    client = persona_client("director")
    state_url = reverse("tournaments:clock_state", args=[running.pk])
    before = client.get(state_url).json()["version"]
    url, data = urls(running)[name]
    # The display's shared reading moves on with the change's commit.
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, data, headers=HTMX)
    assert answer.status_code == 200
    assert 'id="clock-structure"' in answer.content.decode()
    assert "<html" not in answer.content.decode()
    assert StructureChange.objects.filter(tournament=running).exists()
    assert client.get(state_url).json()["version"] > before  # shown at the display's next poll
    page = client.get(reverse("tournaments:clock", args=[running.pk])).content.decode()
    assert data["reason"] in page and 'id="structure-changes"' in page


def test_the_next_level_edited_shows_on_the_display_state(
    persona_client: Any, running: Tournament
) -> None:
    client = persona_client("director")
    second = Level.objects.get(tournament=running, number=2)
    url = reverse("tournaments:structure_step", args=[running.pk, second.pk])
    data = {"small_blind": "250", "big_blind": "500", "ante": "50", "minutes": "15"}
    client.post(url, {**data, "reason": "Faster", "do": "save"}, headers=HTMX)
    state = client.get(reverse("tournaments:clock_state", args=[running.pk])).json()
    assert state["next_level"]["small_blind"] == 250 and state["next_level"]["seconds"] == 900


@pytest.mark.parametrize(
    ("name", "change", "message"),
    [
        ("time", {"reason": ""}, "Say why"),
        ("time", {"minutes": "٥"}, "Write whole minutes"),
        ("step", {"big_blind": "1e3"}, "digits only"),
        ("step", {"small_blind": "900"}, "at most the big blind"),
        ("step", {"minutes": "0"}, "more than none"),
        ("insert", {"kind": "nap"}, "Select a valid choice"),
        ("add", {"count": "50"}, "from 1 to 20"),
    ],
)
def test_bad_input_is_refused_next_to_the_field_keeping_what_was_typed(
    persona_client: Any, running: Tournament, name: str, change: dict[str, str], message: str
) -> None:
    client = persona_client("director")
    url, data = urls(running)[name]
    answer = client.post(url, {**data, **change}, headers=HTMX)
    assert answer.status_code == 422
    html = answer.content.decode()
    assert message in html and 'id="clock-structure"' in html
    if data.get("reason") and change.get("reason") is None:
        assert f'value="{data["reason"]}"' in html  # the typed reason is kept
    assert not StructureChange.objects.exists()


def test_blinds_in_play_are_refused_with_the_rule(persona_client: Any, running: Tournament) -> None:
    client = persona_client("director")
    first = Level.objects.get(tournament=running, number=1)
    url = reverse("tournaments:structure_step", args=[running.pk, first.pk])
    data = {"small_blind": "150", "big_blind": "300", "ante": "", "minutes": "20"}
    answer = client.post(url, {**data, "reason": "Too slow", "do": "save"}, headers=HTMX)
    assert answer.status_code == 422
    assert "CR-TP.2" in answer.content.decode() and 'value="Too slow"' in answer.content.decode()
    # Without JavaScript: the whole page, 422, the same refusal.
    page = client.post(url, {**data, "reason": "Too slow", "do": "save"})
    assert page.status_code == 422 and "<html" in page.content.decode()
    assert "CR-TP.2" in page.content.decode()


def test_without_javascript_a_change_goes_back_to_the_clock_page(
    persona_client: Any, running: Tournament
) -> None:
    url, data = urls(running)["add"]
    answer = persona_client("director").post(url, data)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("tournaments:clock", args=[running.pk])


def test_deleting_a_step_from_its_row(persona_client: Any, running: Tournament) -> None:
    third = Level.objects.get(tournament=running, number=3)
    url = reverse("tournaments:structure_step", args=[running.pk, third.pk])
    answer = persona_client("director").post(
        url, {"do": "delete", "reason": "Shorter"}, headers=HTMX
    )
    assert answer.status_code == 200
    assert running.levels.count() == 2
    other = make_tournament(by=running.created_by, tables=1, name="Other", first_table=301)
    elsewhere = reverse("tournaments:structure_step", args=[other.pk, third.pk])
    assert persona_client("director").post(elsewhere, {"do": "delete"}).status_code == 404


def test_the_clock_page_offers_the_controls_to_directors_only(
    persona_client: Any, running: Tournament
) -> None:
    url = reverse("tournaments:clock", args=[running.pk])
    director = persona_client("director").get(url).content.decode()
    assert 'id="structure-time"' in director and "+5 min" in director
    assert 'id="structure-add"' in director and 'id="structure-insert"' in director
    staff = persona_client("staff").get(url).content.decode()
    assert 'id="structure-time"' not in staff and 'id="clock-structure"' in staff


def test_a_structure_that_ran_out_says_so_and_offers_levels(
    persona_client: Any, running: Tournament
) -> None:
    Tournament.objects.filter(pk=running.pk).update(
        level_started_at=F("level_started_at") - timedelta(minutes=65)
    )
    client = persona_client("director")
    page = client.get(reverse("tournaments:clock", args=[running.pk])).content.decode()
    assert "Structure ended: add levels" in page and "Finished" not in page
    state = client.get(reverse("tournaments:clock_state", args=[running.pk])).json()
    assert state["state_label"] == "Last level: no more levels scheduled"
    assert state["level"]["big_blind"] == 600


def test_the_public_board_follows_an_edit_at_its_next_build(
    persona_client: Any, running: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    """The board's version moves on with an edit's commit, so the next poll builds the board
    again, with the new next level (and the ran-out words, later)."""
    Tournament.objects.filter(pk=running.pk).update(status="running")
    version = board.board_version()
    second = Level.objects.get(tournament=running, number=2)
    url = reverse("tournaments:structure_step", args=[running.pk, second.pk])
    data = {"small_blind": "250", "big_blind": "500", "ante": "", "minutes": "20"}
    with django_capture_on_commit_callbacks(execute=True):
        persona_client("director").post(
            url, {**data, "reason": "Faster", "do": "save"}, headers=HTMX
        )
    assert board.board_version() != version
    (shown,) = [t for t in board.snapshot()["tournaments"] if t["id"] == running.pk]
    assert shown["next"] == "Level 2 · 250 / 500"
    Tournament.objects.filter(pk=running.pk).update(
        level_started_at=F("level_started_at") - timedelta(minutes=65)
    )
    (shown,) = [t for t in board.snapshot()["tournaments"] if t["id"] == running.pk]
    assert shown["clock_label"] == "Last level: no more levels scheduled"
    assert shown["level"] == "Level 3" and shown["blinds"] == "300 / 600 · ante 600"
