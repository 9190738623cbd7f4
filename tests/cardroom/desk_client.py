"""The desk driven as a dealer's browser drives it, shared by the desk's tests (test_desk_seats,
test_desk_session, test_desk_findings): a post as htmx makes it, a player seated from the
desk's seat form, a hand dealt from the proposal, the latest hand, the seat to act, and a
hand played down (folded to the big blind, or checked and called to the showdown)."""

from __future__ import annotations

import re
from typing import Any

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
