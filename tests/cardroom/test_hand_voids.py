"""Voids at the desk and on the API: "void the last action" takes back the LAST live action of
several, and a voided hand takes nothing more (refused with a message, nothing written)."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cardroom.tables.models import Hand, HandAction
from cardroom.tables.services import engine_state, record_action, void_hand, void_last_action
from tests.factories import make_hand

pytestmark = pytest.mark.django_db

# Button 1, blinds 1/2: seat 2 posts the small blind, seat 3 the big blind, seat 1 acts first.
THREE_ACTIONS = [(1, "raise", 6), (2, "call", None), (3, "raise", 20)]


def act(hand: Hand, user: Any, seat: int, action: str, to: int | None = None) -> HandAction:
    hand.refresh_from_db()
    return record_action(hand=hand, by=user, expected_seq=hand.seq, seat=seat, action=action, to=to)


def dealt_with_three_actions(user: Any) -> Hand:
    hand = make_hand(by=user)
    for seat, action, to in THREE_ACTIONS:
        act(hand, user, seat, action, to)
    hand.refresh_from_db()
    return hand


def live(hand: Hand) -> list[tuple[int, str, int | None]]:
    return [(a.seat, a.action, a.to) for a in hand.actions.filter(voided_at__isnull=True)]


def voided_hand(user: Any) -> Hand:
    """Voided with seat 1 to act: a call by seat 1 would be legal if the hand were live."""
    hand = dealt_with_three_actions(user)
    void_hand(hand=hand, by=user, expected_seq=hand.seq, reason="Fouled deck")
    hand.refresh_from_db()
    return hand


def snapshot_of(hand: Hand) -> tuple[Any, ...]:
    hand.refresh_from_db()
    actions = [(a.seq, a.seat, a.action, a.to, a.voided_at) for a in hand.actions.all()]
    return (hand.state, hand.seq, hand.voided_at, hand.void_reason, actions)


# --- void the last action, with several actions ---------------------------------------------


def test_void_last_takes_back_the_last_of_several_actions_then_the_one_before(
    floor_manager: Any,
) -> None:
    hand = dealt_with_three_actions(floor_manager)
    taken = void_last_action(hand=hand, by=floor_manager, expected_seq=hand.seq, reason="Misheard")
    assert (taken.seq, taken.seat, taken.action, taken.to) == (3, 3, "raise", 20)
    hand.refresh_from_db()
    assert live(hand) == THREE_ACTIONS[:2]
    state = engine_state(hand)
    assert (state.to_act, state.current_bet) == (3, 6)  # seat 3 acts again, facing 6

    again = void_last_action(hand=hand, by=floor_manager, expected_seq=hand.seq, reason="Wrong")
    assert (again.seq, again.seat) == (2, 2)  # the last LIVE action, not the voided one
    hand.refresh_from_db()
    assert live(hand) == THREE_ACTIONS[:1]
    assert engine_state(hand).to_act == 2
    assert hand.actions.count() == 3  # all three stay on record


def test_the_api_voids_the_last_of_several_actions(floor_manager: Any, api_client_for: Any) -> None:
    hand = dealt_with_three_actions(floor_manager)
    response = api_client_for("floor_manager").post(
        f"/api/v1/hands/{hand.pk}/void-last/",
        {"expected_seq": hand.seq, "reason": "Wrong seat"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert [a["void_reason"] for a in body["actions"]] == ["", "", "Wrong seat"]
    assert body["betting"]["to_act"] == 3 and body["betting"]["current_bet"] == 6


def test_the_desk_voids_the_last_of_several_actions(
    floor_manager: Any, persona_client: Any
) -> None:
    hand = dealt_with_three_actions(floor_manager)
    response = persona_client("floor_manager").post(
        f"/hands/{hand.pk}/void/last/",
        {"expected_seq": hand.seq, "reason": "Misheard"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    hand.refresh_from_db()
    assert live(hand) == THREE_ACTIONS[:2]
    assert "Seat <strong>3</strong> to act" in response.content.decode()


# --- a voided hand takes nothing more -------------------------------------------------------


def test_an_action_on_a_voided_hand_is_refused_and_changes_nothing(floor_manager: Any) -> None:
    hand = voided_hand(floor_manager)
    before = snapshot_of(hand)
    with pytest.raises(ValidationError, match="voided"):
        record_action(hand=hand, by=floor_manager, expected_seq=hand.seq, seat=1, action="call")
    with pytest.raises(ValidationError, match="voided"):
        void_last_action(hand=hand, by=floor_manager, expected_seq=hand.seq, reason="Undo")
    with pytest.raises(ValidationError, match="voided"):
        void_hand(hand=hand, by=floor_manager, expected_seq=hand.seq, reason="Twice")
    assert snapshot_of(hand) == before
    assert hand.state == "voided"


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("actions/", {"seat": 1, "action": "call"}),
        ("void-last/", {"reason": "Undo the raise"}),
        ("void/", {"reason": "Void it twice"}),
    ],
)
def test_the_api_refuses_a_voided_hand_with_422_and_a_message(
    floor_manager: Any, api_client_for: Any, path: str, data: dict[str, Any]
) -> None:
    hand = voided_hand(floor_manager)
    before = snapshot_of(hand)
    body = {"expected_seq": hand.seq, "confirm_hand": hand.number, **data}
    response = api_client_for("floor_manager").post(
        f"/api/v1/hands/{hand.pk}/{path}", body, format="json"
    )
    assert response.status_code == 422, response.json()
    error = response.json()["error"]
    assert error["code"] == "hand_voided"
    assert "voided" in error["message"]
    assert snapshot_of(hand) == before


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("act/", {"seat": 1, "action": "call"}),
        ("void/last/", {"reason": "Undo the raise"}),
        ("void/hand/", {"reason": "Void it twice"}),
    ],
)
def test_the_desk_refuses_a_voided_hand_with_422_and_a_message(
    floor_manager: Any, persona_client: Any, path: str, data: dict[str, Any]
) -> None:
    hand = voided_hand(floor_manager)
    before = snapshot_of(hand)
    body = {"expected_seq": hand.seq, "confirm_hand": hand.number, **data}
    response = persona_client("floor_manager").post(
        f"/hands/{hand.pk}/{path}", body, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 422
    assert "takes no more actions" in response.content.decode()
    assert snapshot_of(hand) == before


# --- a mistyped void voids nothing; voiding the hand names it ------------


@pytest.mark.parametrize("what", ["hnad", "lats", "last-action", "all", "HAND", "x" * 40])
def test_a_void_of_an_unknown_target_is_a_404_and_voids_nothing(
    floor_manager: Any, persona_client: Any, what: str
) -> None:
    """``/void/<anything>/`` but ``last`` voided the whole hand."""
    hand = dealt_with_three_actions(floor_manager)
    before = snapshot_of(hand)
    data = {"expected_seq": hand.seq, "reason": "Typo", "confirm_hand": hand.number}
    response = persona_client("floor_manager").post(
        f"/hands/{hand.pk}/void/{what}/", data, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 404
    assert snapshot_of(hand) == before


def test_the_desk_voids_the_hand_only_when_the_post_names_it(
    floor_manager: Any, persona_client: Any
) -> None:
    hand = dealt_with_three_actions(floor_manager)
    client = persona_client("floor_manager")
    url = f"/hands/{hand.pk}/void/hand/"
    before = snapshot_of(hand)
    for confirm in ({}, {"confirm_hand": hand.number + 1}, {"confirm_hand": "²"}):
        data = {"expected_seq": hand.seq, "reason": "Fouled deck", **confirm}
        asked = client.post(url, data, HTTP_HX_REQUEST="true")
        assert asked.status_code == 422, confirm
        assert f"confirm hand #{hand.number}" in asked.content.decode(), confirm
        assert snapshot_of(hand) == before
    data = {"expected_seq": hand.seq, "reason": "Fouled deck", "confirm_hand": hand.number}
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    hand.refresh_from_db()
    assert hand.state == "voided" and hand.void_reason == "Fouled deck"


def test_the_desk_asks_before_voiding_the_hand_and_names_it(
    floor_manager: Any, persona_client: Any
) -> None:
    """The void-the-hand form is a step of its own, saying what happens to which hand."""
    hand = dealt_with_three_actions(floor_manager)
    html = persona_client("floor_manager").get(f"/tables/{hand.table.number}/desk/").content
    page = html.decode()
    assert f"Void hand #{hand.number}…" in page
    assert f'name="confirm_hand" value="{hand.number}"' in page
    assert "every stack stays as it was at the deal" in page


def test_the_api_voids_the_hand_only_when_the_body_names_it(
    floor_manager: Any, api_client_for: Any
) -> None:
    hand = dealt_with_three_actions(floor_manager)
    client = api_client_for("floor_manager")
    url = f"/api/v1/hands/{hand.pk}/void/"
    before = snapshot_of(hand)
    for confirm in ({}, {"confirm_hand": hand.number + 1}):
        body = {"expected_seq": hand.seq, "reason": "Fouled deck", **confirm}
        asked = client.post(url, body, format="json")
        assert asked.status_code == 400, (confirm, asked.json())
        message = asked.json()["error"]["fields"]["confirm_hand"][0]
        assert f"confirm hand #{hand.number}" in message
        assert snapshot_of(hand) == before
    body = {"expected_seq": hand.seq, "reason": "Fouled deck", "confirm_hand": hand.number}
    dead = client.post(url, body, format="json")
    assert dead.status_code == 200, dead.json()
    assert dead.json()["state"] == "voided"
