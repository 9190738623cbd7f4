"""Adding a name to several waitlists, one way on every path (``waitlists.add_to_lists``): the
lists that can take the name are joined and each that cannot says why; and a name the public
board could only show as a blank (no word starting with a letter or digit, so no initials) is
refused on the kiosk's page, the kiosk's API, the floor's page and the floor's API alike."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from cardroom.seats import services as players
from cardroom.seats.models import Player
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import EntrySource, GameList, WaitlistEntry

pytestmark = pytest.mark.django_db

#: Names with no initials: the board would show them as nothing.
BLANK_ON_THE_BOARD = ["!!!", "(Jo)", "-- ..."]
KIOSK_API = "/api/v1/kiosk/entries/"


@pytest.fixture
def lists(floor_manager: Any) -> tuple[GameList, GameList]:
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    plo = waitlists.open_list(
        variant="omaha", structure="pot_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    return nlhe, plo


def full(game_list: GameList) -> None:
    """``game_list`` holds one name; with ``CARDROOM_WAITLIST_MAX_PER_LIST=1`` it is full."""
    waitlists.add_to_list(game_list=game_list, name="Ana Ruiz")


def test_the_service_joins_the_lists_that_take_the_name_and_says_why_the_others_did_not(
    lists: tuple[GameList, GameList], floor_manager: Any
) -> None:
    nlhe, plo = lists
    with override_settings(CARDROOM_WAITLIST_MAX_PER_LIST=1):
        full(plo)
        adds = waitlists.add_to_lists(
            game_lists=[nlhe, plo], name="Bo Chen", source=EntrySource.FLOOR, by=floor_manager
        )
    assert [entry.game_list for entry in adds.added] == [nlhe]
    ((refused, why),) = adds.refused
    assert refused == plo and "list is full" in str(why)
    assert WaitlistEntry.objects.filter(player__name="Bo Chen").count() == 1


@pytest.mark.parametrize("name", BLANK_ON_THE_BOARD)
def test_the_service_refuses_a_name_with_no_initials_before_any_list(
    lists: tuple[GameList, GameList], name: str
) -> None:
    with pytest.raises(waitlists.WaitlistRefused) as refused:
        waitlists.add_to_lists(game_lists=list(lists), name=name, source=EntrySource.KIOSK, by=None)
    assert "letters or numbers" in refused.value.message_dict["name"][0]
    assert not Player.objects.exists() and not WaitlistEntry.objects.exists()


def test_the_name_is_checked_once_before_the_lists_and_once_where_its_player_is_found(
    lists: tuple[GameList, GameList], floor_manager: Any
) -> None:
    with mock.patch.object(players, "name_refusal", wraps=players.name_refusal) as check:
        adds = waitlists.add_to_lists(game_lists=list(lists), name="Bo Chen", by=floor_manager)
    assert len(adds.added) == 2
    assert check.call_count == 1 + len(lists)  # add_to_lists, then find_or_create_player


@pytest.mark.parametrize("name", BLANK_ON_THE_BOARD)
def test_the_kiosk_page_refuses_a_name_the_board_would_show_blank(
    lists: tuple[GameList, GameList], name: str
) -> None:
    answer = Client().post("/kiosk/", {"name": name, "lists": [lists[0].pk]})
    assert answer.status_code == 422
    assert "letters or numbers" in answer.content.decode()
    assert not WaitlistEntry.objects.exists()


def test_the_kiosk_page_joins_what_it_can_and_names_the_list_that_refused(
    lists: tuple[GameList, GameList],
) -> None:
    nlhe, plo = lists
    with override_settings(CARDROOM_WAITLIST_MAX_PER_LIST=1):
        full(plo)
        answer = Client().post("/kiosk/", {"name": "Bo Chen", "lists": [nlhe.pk, plo.pk]})
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "on the list, B.C." in text and "PLO 1/2: The PLO 1/2 list is full" in text
    assert [e.game_list for e in WaitlistEntry.objects.filter(player__name="Bo Chen")] == [nlhe]


@pytest.mark.parametrize("name", BLANK_ON_THE_BOARD)
def test_the_kiosk_api_refuses_a_name_the_board_would_show_blank(
    lists: tuple[GameList, GameList], name: str
) -> None:
    answer = APIClient().post(
        KIOSK_API, {"name": name, "lists": [g.pk for g in lists]}, format="json"
    )
    assert answer.status_code == 422, answer.json()
    error = answer.json()["error"]
    assert error["code"] == "waitlist_refused" and "letters or numbers" in error["message"]
    assert list(error["fields"]) == ["name"]
    assert not WaitlistEntry.objects.exists()


def test_the_kiosk_api_still_adds_to_every_list_or_none(lists: tuple[GameList, GameList]) -> None:
    """The API's contract (README): on all of the lists or none, the first refusal said."""
    nlhe, plo = lists
    with override_settings(CARDROOM_WAITLIST_MAX_PER_LIST=1):
        full(plo)
        answer = APIClient().post(
            KIOSK_API, {"name": "Bo Chen", "lists": [nlhe.pk, plo.pk]}, format="json"
        )
    assert answer.status_code == 422
    assert "PLO 1/2 list is full" in answer.json()["error"]["message"]
    assert not WaitlistEntry.objects.filter(player__name="Bo Chen").exists()
    assert not Player.objects.filter(name="Bo Chen").exists()


@pytest.mark.parametrize("name", BLANK_ON_THE_BOARD)
def test_the_floor_page_refuses_a_name_the_board_would_show_blank(
    persona_client: Any, lists: tuple[GameList, GameList], name: str
) -> None:
    answer = persona_client("staff").post(
        reverse("cardroom:waitlist_add"),
        {"name": name, "lists": [g.pk for g in lists]},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 422
    assert "letters or numbers" in answer.content.decode()
    assert not WaitlistEntry.objects.exists()


def test_the_floor_page_joins_what_it_can_and_names_the_list_that_refused(
    persona_client: Any, lists: tuple[GameList, GameList]
) -> None:
    nlhe, plo = lists
    with override_settings(CARDROOM_WAITLIST_MAX_PER_LIST=1):
        full(plo)
        answer = persona_client("staff").post(
            reverse("cardroom:waitlist_add"),
            {"name": "Bo Chen", "lists": [nlhe.pk, plo.pk]},
            HTTP_HX_REQUEST="true",
        )
    assert answer.status_code == 422  # the form stays, with the refusal beside it
    text = answer.content.decode()
    assert "Bo Chen added to NLHE 1/2 (1st)" in text and "PLO 1/2: The PLO 1/2 list is full" in text


@pytest.mark.parametrize("name", BLANK_ON_THE_BOARD)
def test_the_floor_api_refuses_a_name_the_board_would_show_blank(
    api_client_for: Callable[[str], APIClient], lists: tuple[GameList, GameList], name: str
) -> None:
    answer = api_client_for("staff").post(
        f"/api/v1/waitlists/{lists[0].pk}/entries/", {"name": name}, format="json"
    )
    assert answer.status_code == 422, answer.json()
    error = answer.json()["error"]
    assert error["code"] == "waitlist_refused" and "letters or numbers" in error["message"]
    assert list(error["fields"]) == ["name"]
    assert not WaitlistEntry.objects.exists()
