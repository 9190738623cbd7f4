"""The room display's state from the shared cache: an unchanged poll reads no database, the time
left still counts down to the server's now, a change to the clock shows at the next poll, a
level that ends is read again."""

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import make_tournament
from tournaments.clock import services as clock
from tournaments.clock.display import display_state, room_state, tv_link_token
from tournaments.models import ClockState, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("shared_memory_cache")]


@pytest.fixture
def running(director: Any, django_capture_on_commit_callbacks: Any) -> Tournament:
    """Three 20-minute levels, the clock started (committed: its on-commit work has run)."""
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        tournament = make_tournament(by=director, tables=1, entrants=2)
        return clock.start_clock(tournament=tournament, by=director)


def state_url(tournament: Tournament) -> str:
    url = reverse("tournaments:clock_state", args=[tournament.pk])
    return f"{url}?tv={tv_link_token(tournament)}"


def test_an_unchanged_display_poll_reads_no_database(
    running: Tournament, client: Any, django_assert_num_queries: Any
) -> None:
    first = client.get(state_url(running)).json()
    with django_assert_num_queries(0):
        again = client.get(state_url(running))
    assert again.status_code == 200
    shown = again.json()
    assert shown["state"] == ClockState.RUNNING and shown["level"] == first["level"]
    assert shown["ends_at"] == first["ends_at"]
    assert shown["remaining_ms"] == shown["ends_at"] - shown["server_now"]


def test_the_time_left_counts_down_to_each_polls_now_as_a_fresh_reading_does(
    running: Tournament, django_assert_num_queries: Any
) -> None:
    now = timezone.now()
    display_state(running.pk, now)
    later = now + timedelta(minutes=7, milliseconds=321)
    with django_assert_num_queries(0):
        kept = display_state(running.pk, later)
    tournament = Tournament.objects.get(pk=running.pk)
    fresh = room_state(tournament, list(tournament.levels.all()), later)
    assert kept is not None
    for key in ("server_now", "state", "level", "next_level", "players_left", "entries"):
        assert kept[key] == fresh[key], key
    for key in ("remaining_ms", "ends_at", "next_break_ms", "next_break_at"):
        assert (kept[key] is None and fresh[key] is None) or abs(kept[key] - fresh[key]) <= 1, key


def test_a_level_that_ends_is_read_again(running: Tournament) -> None:
    now = timezone.now()
    first = display_state(running.pk, now)
    assert first is not None and first["level"]["number"] == 1
    after = display_state(running.pk, now + timedelta(minutes=20, seconds=1))
    assert after is not None and after["level"]["number"] == 2
    assert 0 < after["remaining_ms"] <= 20 * 60 * 1000


def test_a_pause_and_a_resume_show_at_the_next_poll(
    running: Tournament, director: Any, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    assert client.get(state_url(running)).json()["state"] == ClockState.RUNNING
    with django_capture_on_commit_callbacks(execute=True):
        clock.pause_clock(tournament=running, by=director)
    paused = client.get(state_url(running)).json()
    assert paused["state"] == ClockState.PAUSED and paused["ends_at"] is None
    with django_capture_on_commit_callbacks(execute=True):
        clock.resume_clock(tournament=running, by=director)
    resumed = client.get(state_url(running)).json()
    assert resumed["state"] == ClockState.RUNNING
    assert resumed["ends_at"] == resumed["server_now"] + resumed["remaining_ms"]


def test_no_such_tournament_is_a_404(running: Tournament, staff: Any, client: Any) -> None:
    client.force_login(staff)
    url = reverse("tournaments:clock_state", args=[running.pk + 1000])
    assert client.get(url).status_code == 404
