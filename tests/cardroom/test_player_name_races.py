"""One name typed on several devices at once (PostgreSQL, real threads): one player, one live
seat, one entry on a list. Each device looks the name up, finds nobody and creates the player;
a barrier holds every creation until all of them have looked (the window where two devices
made two players of one name, then seated both), and the name's unique key decides."""

import contextlib
import threading
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from rest_framework.test import APIClient

from cardroom.seats.models import Player, SeatEvent, TableSeat
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import RoomSettings, WaitlistEntry, WaitlistEvent
from tests.factories import make_table
from tests.races import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(posts: dict[str, Callable[[], Any]]) -> tuple[int, dict[str, Any]]:
    """Run the ``posts`` together, each creation of a player held until every post has
    looked the name up (or 3 s have passed). Returns how many met there (every post that
    found no player of that name) and each post's response."""
    barrier, met, answers = threading.Barrier(len(posts)), [], {}
    create = Player.objects.create

    def held_create(**fields: Any) -> Player:
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=3)
            met.append(1)
        return create(**fields)

    def answering(name: str, post: Callable[[], Any]) -> Callable[[], None]:
        def call() -> None:
            answers[name] = post()

        return call

    with mock.patch.object(Player.objects, "create", held_create):
        outcomes = run_at_once({name: answering(name, post) for name, post in posts.items()})
    assert set(outcomes.values()) == {"won"}  # every post answered (no exception)
    return len(met), answers


def test_one_new_name_seated_at_six_tables_at_once(floor_manager: Any) -> None:
    tables = [make_table(number=n, by=floor_manager) for n in range(1, 7)]

    def seat_at(table_id: int) -> Callable[[], Any]:
        def post() -> Any:
            client = APIClient()
            client.force_authenticate(floor_manager)
            body = {"name": " ana  RUIZ ", "seat": 1, "buy_in": 100}
            return client.post(f"/api/v1/tables/{table_id}/seats/", body, format="json")

        return post

    met, answers = at_once({f"table {t.number}": seat_at(t.pk) for t in tables})
    assert met == 6  # all six found no "Ana Ruiz" and went to create her
    codes = sorted(
        (r.status_code, r.json().get("error", {}).get("code", "")) for r in answers.values()
    )
    assert codes == [(201, "")] + [(409, "player_seated")] * 5
    refusals = [r.json()["error"]["message"] for r in answers.values() if r.status_code == 409]
    assert all(m.startswith("ana RUIZ is already in seat 1 at Table ") for m in refusals)
    assert list(Player.objects.values_list("name", "name_key")) == [("ana RUIZ", "ana ruiz")]
    assert TableSeat.objects.filter(left_at=None).count() == 1
    assert SeatEvent.objects.count() == 1


def test_four_kiosk_posts_of_one_name_put_it_down_once(floor_manager: Any) -> None:
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    RoomSettings.current()  # the room's row exists (its first read creates it)

    def post() -> Any:
        body = {"name": "Ana Ruiz", "alias": "", "lists": [game.pk]}
        return APIClient().post("/api/v1/kiosk/entries/", body, format="json")

    met, answers = at_once({f"tablet {n}": post for n in range(1, 5)})
    assert met == 4
    # The same answer for each post, whichever put the name down: nobody learns it was there.
    bodies = [(r.status_code, r.json()) for r in answers.values()]
    assert bodies == [(201, {"public_name": "A.R.", "lists": [{"list": "NLHE 1/2"}]})] * 4
    assert Player.objects.count() == 1
    assert WaitlistEntry.objects.filter(game_list=game).count() == 1
    assert WaitlistEvent.objects.filter(kind="added").count() == 1
