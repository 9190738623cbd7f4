"""An action's answer (``POST /api/v1/hands/{id}/actions/``) is built from what the write
read and played, without reading the hand again: it must be the hand exactly as a fresh read
answers it (``GET /api/v1/hands/{id}/``), byte for byte, at every step of a hand with an
action held out of turn, a voided action and a street change; and the actions' audit chain,
linked to the head the write read with the actions, verifies."""

from typing import Any

import pytest

from cardroom.core import audit
from cardroom.tables.models import Hand, HandAction
from cardroom.tables.services import engine_state
from tests.cardroom.desk_client import scripted
from tests.factories import make_table

pytestmark = pytest.mark.django_db

SIX = [{"seat": n, "stack": 300 + 10 * n} for n in range(1, 7)]


def test_every_actions_answer_is_the_hand_as_read_afresh(api_client_for: Any) -> None:
    table = make_table(number=7, seats=6, max_buy_in=1000)
    client = api_client_for("floor_manager")
    dealt = client.post(
        f"/api/v1/tables/{table.pk}/hands/", {"button": 2, "seats": SIX}, format="json"
    )
    assert dealt.status_code == 201, dealt.json()
    hand_id = dealt.json()["id"]
    url, detail = f"/api/v1/hands/{hand_id}/actions/", f"/api/v1/hands/{hand_id}/"

    def enter(body: dict[str, Any]) -> None:
        answer = client.post(url, body, format="json")
        assert answer.status_code == 201, answer.json()
        assert answer.content == client.get(detail).content

    hand = Hand.objects.get(pk=hand_id)
    # The last seat calls out of turn: held, then binding when the turn reaches it (TDA-53).
    first = engine_state(hand).to_act
    enter({"expected_seq": 0, "seat": [s for s in (1, 2, 3, 4, 5, 6) if s != first][-1],
           "action": "call", "out_of_turn": True})  # fmt: skip
    for step in range(14):
        hand = Hand.objects.get(pk=hand_id)
        if engine_state(hand).to_act is None:
            break
        enter({"expected_seq": hand.seq, **scripted(hand)})
        if step == 4:
            voided = client.post(
                f"/api/v1/hands/{hand_id}/void-last/",
                {"expected_seq": hand.seq + 1, "reason": "Misclick"},
                format="json",
            )
            assert voided.status_code == 200, voided.json()
    hand = Hand.objects.get(pk=hand_id)
    assert hand.actions.filter(voided_at__isnull=False).count() == 1
    assert engine_state(hand).street != "preflop"
    assert audit.verify_stream(HandAction, hand_id) == []


def test_an_action_at_a_hand_that_does_not_exist_is_404_whatever_the_body(
    api_client_for: Any,
) -> None:
    client = api_client_for("floor_manager")
    url = "/api/v1/hands/999999/actions/"
    for body in ({"expected_seq": 0, "seat": 1, "action": "fold"}, {"expected_seq": "x"}):
        answer = client.post(url, body, format="json")
        assert answer.status_code == 404, answer.content
        assert answer.json() == client.get("/api/v1/hands/999999/").json()
