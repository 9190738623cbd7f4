"""Two devices registering the same person (same name and contact) into one tournament at
once, on PostgreSQL: one player, one entry, the other device told why. Without the
tournament's row lock both pass the service's check (the race happens) and the database's
keys still keep one person and one live entry (409); with it, the second waits and is refused
naming the entry (422)."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from rest_framework.test import APIClient

from cardroom.seats import services as players
from cardroom.seats.models import Player
from tests.races import meeting_wait, run_at_once, then_meet, unlocked
from tests.tournaments.factories import make_tournament
from tournaments import seating, setup
from tournaments.models import Entrant, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TYPED = {"name": " ana  RUIZ, +34 600 123 456"}


def two_devices(
    director: Any, lock: Callable[[int], Tournament], *, known: bool
) -> tuple[int, list[Any]]:
    """Both devices post the same person (``known``: the room has their record already);
    returns how many passed the service's check together (met after it) and the
    two answers, the lower status first."""
    tournament = make_tournament(by=director, tables=1)
    if known:
        players.find_or_create_player(name=TYPED["name"], by=director)
    met: list[int] = []
    answers: list[Any] = []
    checked_together = then_meet(setup.refuse_duplicate_people, met=met, timeout=meeting_wait(lock))

    def post() -> None:
        client = APIClient()
        client.force_authenticate(director)
        answers.append(
            client.post(f"/api/v1/tournaments/{tournament.pk}/entrants/", TYPED, format="json")
        )

    with (
        mock.patch.object(setup, "lock_tournament", lock),
        mock.patch.object(setup, "refuse_duplicate_people", checked_together),
    ):
        outcomes = run_at_once({"tablet": post, "desk": post})
    assert set(outcomes.values()) == {"won"}  # each answered, no exception
    return len(met), sorted(answers, key=lambda r: r.status_code)


def test_without_the_lock_both_pass_the_check_and_the_keys_keep_one_person_one_entry(
    director: Any,
) -> None:
    met, (first, second) = two_devices(director, unlocked, known=True)
    assert met == 2  # the race happens: both read "not entered yet"
    assert first.status_code == 201 and second.status_code == 409
    assert second.json()["error"]["code"] == "already_entered"
    assert Player.objects.count() == 1 and Entrant.objects.count() == 1
    assert Entrant.objects.get().player.contact_key == "34600123456"


@pytest.mark.parametrize("known", [True, False], ids=["known person", "new person"])
def test_with_the_lock_the_second_device_waits_and_is_told_the_entry(
    director: Any, known: bool
) -> None:
    met, (first, second) = two_devices(director, seating.lock_tournament, known=known)
    assert met == 0  # the second waited for the first to commit
    assert first.status_code == 201 and second.status_code == 422
    error = second.json()["error"]
    assert error["code"] == "entry_refused"
    assert error["message"].startswith("ana RUIZ is already entered (#1).")
    assert Player.objects.count() == 1 and Entrant.objects.count() == 1
