"""The desk driven as a dealer's browser drives it, shared by the desk's tests (test_desk_seats,
test_desk_session, test_desk_findings): a post as htmx makes it, a player seated from the
desk's seat form, a hand dealt from the proposal, the latest hand, the seat to act, and a
hand played down (folded to the big blind, or checked and called to the showdown); a scripted
hand played through the services, and the desk's writes with the queries each makes."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.tables.models import Hand, Table


def post(client: Any, url: str, data: dict[str, Any]) -> Any:
    return client.post(url, data, HTTP_HX_REQUEST="true")


def seat(client: Any, table: Table, number: int, name: str, buy_in: int = 200) -> Any:
    """The desk's answer to the seat form, whatever its status."""
    data = {"seat": number, "name": name, "buy_in": buy_in}
    return post(client, f"/tables/{table.number}/desk/seats/", data)


def heads_up(client: Any, table: Table) -> None:
    """Ana Ruiz in seat 1 and Bo Chen in seat 2."""
    seat(client, table, 1, "Ana Ruiz")
    seat(client, table, 2, "Bo Chen")


def latest(table: Table) -> Hand:
    hand = Hand.objects.filter(table=table).order_by("-number").first()
    assert hand is not None
    return hand


def deal(client: Any, table: Table) -> Hand:
    """The proposal dealt with the desk's Deal button."""
    assert post(client, f"/tables/{table.number}/desk/next/", {}).status_code == 200
    return latest(table)


def to_act(client: Any, table: Table) -> int | None:
    html = client.get(f"/tables/{table.number}/desk/").content.decode()
    found = re.search(r"Seat <strong>(\d+)</strong> to act", html)
    return int(found.group(1)) if found else None


def fold_to_the_big_blind(client: Any, table: Table, hand: Hand) -> None:
    while (seat_number := to_act(client, table)) is not None:
        hand.refresh_from_db()
        data = {"expected_seq": hand.seq, "seat": seat_number, "action": "fold"}
        assert post(client, f"/hands/{hand.pk}/act/", data).status_code == 200
    hand.refresh_from_db()


def check_it_down(client: Any, table: Table, hand: Hand) -> None:
    """Every seat to act checks, or calls, until nobody is to act (at most 20 actions)."""
    for _ in range(20):
        hand.refresh_from_db()
        html = client.get(f"/tables/{table.number}/desk/").content.decode()
        found = re.search(r"Seat <strong>(\d+)</strong> to act", html)
        if found is None:
            break
        action = "check" if 'name="action" value="check"' in html else "call"
        post(
            client,
            f"/hands/{hand.pk}/act/",
            {"expected_seq": hand.seq, "seat": found.group(1), "action": action},
        )
    hand.refresh_from_db()


def scripted(hand: Hand) -> dict[str, Any]:
    """The next action of a scripted hand, as the services take it: the first to act on a
    street bets (raises preflop) twice the big blind, everyone after calls; six players play
    six actions a street."""
    from cardroom.tables.services import engine_state

    state = engine_state(hand)
    seat, big = state.to_act, hand.game["big_blind"]
    assert seat is not None, f"{hand}: nobody is to act ({state.street})"
    if state.street == "preflop" and state.current_bet == big:
        return {"seat": seat, "action": "raise", "to": 3 * big}
    if state.current_bet == 0:
        return {"seat": seat, "action": "bet", "to": 2 * big}
    return {"seat": seat, "action": "call"}


def play_to(hand: Hand, by: Any, length: int) -> Hand:
    """The scripted hand entered through the services until it has ``length`` actions."""
    from cardroom.tables.services import record_action

    while hand.actions.count() < length:
        record_action(hand=hand, by=by, expected_seq=hand.seq, **scripted(hand))
        hand.refresh_from_db()
    return hand


def fold_out(hand: Hand, by: Any) -> Hand:
    """Every seat to act folds until one player is left: the pots go to the last one in."""
    from cardroom.tables.services import engine_state, record_action

    while (seat := engine_state(hand).to_act) is not None:
        record_action(hand=hand, by=by, expected_seq=hand.seq, seat=seat, action="fold")
        hand.refresh_from_db()
    return hand


def counted(request: Callable[[], Any], status: int, piece: str) -> int:
    """The queries ``request`` makes; its answer must be ``status`` with ``piece`` in it."""
    with CaptureQueriesContext(connection) as queries:
        answer = request()
    assert answer.status_code == status, answer.content[:600]
    assert piece in answer.content.decode()
    return len(queries)


class Desk:
    """A table's desk through one door, for counting its requests' queries: the htmx desk as
    ``persona``'s browser, or the API with the same log-in."""

    def __init__(self, door: str, persona_client: Any, api_client_for: Any, persona: str) -> None:
        self.door = door
        self.client = persona_client(persona) if door == "htmx" else api_client_for(persona)
        warm_up(self.client)

    def act(self, hand: Hand) -> int:
        entry = {"expected_seq": hand.seq, **scripted(hand)}
        if self.door == "htmx":
            url = f"/hands/{hand.pk}/act/"
            return counted(lambda: post(self.client, url, entry), 200, 'id="desk"')
        url = f"/api/v1/hands/{hand.pk}/actions/"
        return counted(lambda: self.client.post(url, entry, format="json"), 201, '"betting"')

    def deal(self, table: Table) -> int:
        if self.door == "htmx":
            url = f"/tables/{table.number}/desk/next/"
            return counted(lambda: post(self.client, url, {}), 200, 'id="desk"')
        url = f"/api/v1/tables/{table.pk}/next-hand/"
        return counted(lambda: self.client.post(url, {}, format="json"), 201, '"betting"')

    def award(self, hand: Hand) -> int:
        data = {"expected_seq": hand.seq}
        if self.door == "htmx":
            url = f"/hands/{hand.pk}/award/"
            return counted(lambda: post(self.client, url, data), 200, 'id="awarded"')
        url = f"/api/v1/hands/{hand.pk}/award/"
        return counted(lambda: self.client.post(url, data, format="json"), 200, '"awarded_at"')


def warm_up(client: Any) -> Any:
    """A first request: the API's log-in keeps its roles once read; every request counted
    after it is one of many."""
    assert client.get("/api/v1/tables/").status_code == 200
    return client


def last_hand(table: Table) -> Hand:
    hand = table.hands.order_by("-number").first()
    assert hand is not None
    return hand


def won(hand: Hand, by: Any, length: int) -> Hand:
    """The hand played to ``length`` actions by the script, then folded to one player."""
    return fold_out(play_to(hand, by, length), by)
