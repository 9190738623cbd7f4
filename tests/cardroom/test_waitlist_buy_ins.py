"""Buy-ins asked for on the waitlist page: starting a table from a list asks
each player's buy-in (prefilled with the table's minimum), and Seat now its player's; each is
checked against the table's limits, a refusal names the player and the limit beside the
field, and what was typed comes back as typed."""

import re
from typing import Any

import pytest
from django.urls import reverse

from cardroom.seats import services as players
from cardroom.seats.models import TableSeat
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tables as waitlist_tables
from cardroom.waitlists.models import GameList, WaitlistEntry
from tests.factories import make_table

pytestmark = pytest.mark.django_db

PAGE = "/floor/waitlists/"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def start(floor_manager: Any) -> dict[str, Any]:
    """A closed PLO table (buy-in 300 to 1,000) and three players on its list (threshold 3)."""
    table = make_table(
        number=6, by=floor_manager, status="closed", variant="omaha", structure="pot_limit",
        seats=6, min_buy_in=300, max_buy_in=1000,
    )  # fmt: skip
    plo = waitlists.open_list(
        variant="omaha", structure="pot_limit", small_blind=1, big_blind=2, by=floor_manager,
        start_threshold=3,
    )  # fmt: skip
    entries = [
        waitlists.add_to_list(game_list=plo, name=name, by=floor_manager)
        for name in ("Ana Ruiz", "Bo Chen", "Cy Dunn")
    ]
    return {"table": table, "list": plo, "entries": entries}


def field(html: str, name: str) -> str:
    found = re.search(rf'<input type="number"[^>]*name="{name}"[^>]*>', html)
    assert found is not None, name
    return found.group(0)


def start_url(game_list: GameList) -> str:
    return reverse("cardroom:waitlist_start", args=[game_list.pk])


def stacks(table: Table) -> dict[str, int]:
    live = TableSeat.objects.filter(table=table, left_at=None).select_related("player")
    return {seat.player.name: seat.stack for seat in live}


def test_start_table_asks_each_players_buy_in_from_the_tables_minimum(
    persona_client: Any, start: dict[str, Any]
) -> None:
    page = persona_client("staff").get(PAGE).content.decode()
    assert "each with the buy-in below (Table 6: 300 to 1,000)" in page
    for entry in start["entries"]:
        box = field(page, f"buy_in_{entry.pk}")
        assert 'value="300"' in box
        assert f'<label for="start-{entry.pk}">{entry.player.name}</label>' in page


def test_start_table_seats_each_player_with_the_buy_in_typed(
    persona_client: Any, start: dict[str, Any]
) -> None:
    ana, bo, _cy = start["entries"]
    typed = {"table": 6, f"buy_in_{ana.pk}": "1000", f"buy_in_{bo.pk}": " 450 "}
    answer = persona_client("staff").post(start_url(start["list"]), typed, **HTMX)
    assert answer.status_code == 200, answer.content.decode()
    assert "Table 6 is open: players seated." in answer.content.decode()
    # Cy's box was left out of the post (an API-like client): the table's minimum.
    assert stacks(start["table"]) == {"Ana Ruiz": 1000, "Bo Chen": 450, "Cy Dunn": 300}


def test_buy_ins_outside_the_limits_refuse_the_start_naming_each_player_and_limit(
    persona_client: Any, start: dict[str, Any]
) -> None:
    ana, bo, cy = start["entries"]
    typed = {
        "table": 6, f"buy_in_{ana.pk}": "200", f"buy_in_{bo.pk}": "1500", f"buy_in_{cy.pk}": "400",
    }  # fmt: skip
    answer = persona_client("staff").post(start_url(start["list"]), typed, **HTMX)
    assert answer.status_code == 422
    html = answer.content.decode()
    assert "Table 6 is not started: correct the buy-ins marked below." in html
    assert (
        f'<span class="form-error field-error" id="start-{ana.pk}-error" role="alert">'
        "Ana Ruiz: buy-in 200 is below this table&#x27;s minimum of 300 (the house&#x27;s"
        " minimum buy-in for the game).</span>"
    ) in html
    assert (
        f'id="start-{bo.pk}-error" role="alert">Bo Chen: buy-in 1,500 is above this'
        " table&#x27;s maximum of 1,000 (RRoP-14.16).</span>"
    ) in html
    assert f'id="start-{cy.pk}-error"' not in html
    # Every box comes back as typed, those refused marked for the focus and the reader.
    for entry, value in ((ana, "200"), (bo, "1500"), (cy, "400")):
        box = field(html, f"buy_in_{entry.pk}")
        assert f'value="{value}"' in box
        assert ('aria-invalid="true"' in box) == (entry != cy)
    # Nothing happened: the table is still closed, nobody seated, everyone still waiting.
    assert Table.objects.get(pk=start["table"].pk).status == "closed"
    assert not TableSeat.objects.exists()
    assert set(WaitlistEntry.objects.values_list("status", flat=True)) == {"waiting"}


@pytest.mark.parametrize("typed", ["abc", "²", "3.5", "-300", ""])
def test_a_buy_in_that_is_not_whole_chips_is_refused_on_its_field(
    persona_client: Any, start: dict[str, Any], typed: str
) -> None:
    ana = start["entries"][0]
    post = {"table": 6, f"buy_in_{ana.pk}": typed}
    answer = persona_client("staff").post(start_url(start["list"]), post, **HTMX)
    assert answer.status_code == 422
    html = answer.content.decode()
    assert "Ana Ruiz: type the buy-in as a whole number of chips." in html
    assert 'aria-invalid="true"' in field(html, f"buy_in_{ana.pk}")
    assert not TableSeat.objects.exists()


def test_the_service_refuses_every_buy_in_outside_the_limits_before_anything_changes(
    floor_manager: Any, start: dict[str, Any]
) -> None:
    ana, bo, _ = start["entries"]
    with pytest.raises(players.SeatRefused) as refused:
        waitlist_tables.start_game(
            game_list=start["list"], table=start["table"], by=floor_manager,
            buy_ins={ana.pk: 299, bo.pk: 1001},
        )  # fmt: skip
    assert set(refused.value.message_dict) == {f"buy_ins.{ana.pk}", f"buy_ins.{bo.pk}"}
    assert refused.value.citations == ("RRoP-14.16",)
    assert not TableSeat.objects.exists()


def test_the_api_says_each_refused_buy_in_by_its_entry(
    api_client_for: Any, start: dict[str, Any]
) -> None:
    ana = start["entries"][0]
    url = f"/api/v1/waitlists/{start['list'].pk}/start-game/"
    body = {"table": start["table"].pk, "buy_ins": {str(ana.pk): 100}}
    answer = api_client_for("staff").post(url, body, format="json")
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "seat_refused"
    assert error["fields"] == {
        f"buy_ins.{ana.pk}": [
            "Ana Ruiz: buy-in 100 is below this table's minimum of 300 (the house's minimum"
            " buy-in for the game)."
        ]
    }


def seat_now_room(floor_manager: Any) -> tuple[Table, WaitlistEntry]:
    """Table 3 (buy-in 40 to 200) with seat 5 open, Ana Ruiz next on its list."""
    table = make_table(number=3, by=floor_manager, seats=5)
    for seat in range(1, 5):
        player = players.find_or_create_player(name=f"Regular {seat}", by=floor_manager)
        players.seat_player(table=table, player=player, seat=seat, buy_in=100, by=floor_manager)
    nlhe = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    return table, waitlists.add_to_list(game_list=nlhe, name="Ana Ruiz", by=floor_manager)


def test_seat_now_asks_the_buy_in_and_keeps_a_refused_one_as_typed(
    persona_client: Any, floor_manager: Any
) -> None:
    table, ana = seat_now_room(floor_manager)
    client = persona_client("staff")
    page = client.get(PAGE).content.decode()
    box = field(page, "buy_in")
    assert 'value="40"' in box and 'aria-describedby="seat-3-5-range"' in box
    assert '<span class="muted buy-in-range" id="seat-3-5-range">40 to 200</span>' in page
    url = reverse("cardroom:waitlist_seat", args=[ana.pk])
    answer = client.post(url, {"table": 3, "seat": 5, "buy_in": "250"}, **HTMX)
    assert answer.status_code == 422
    html = answer.content.decode()
    box = field(html, "buy_in")
    assert 'value="250"' in box and 'aria-invalid="true"' in box
    assert (
        '<span class="form-error field-error" id="seat-3-5-error" role="alert">Ana Ruiz: buy-in'
        " 250 is above this table&#x27;s maximum of 200 (RRoP-14.16).</span>"
    ) in html
    assert 'class="form-error list-error"' not in html  # said once, beside the field
    wrong = client.post(url, {"table": 3, "seat": 5, "buy_in": "٥٠"}, **HTMX)
    assert wrong.status_code == 422
    assert "Ana Ruiz: type the buy-in as a whole number of chips." in wrong.content.decode()
    assert 'value="٥٠"' in field(wrong.content.decode(), "buy_in")
    assert not TableSeat.objects.filter(table=table, seat=5).exists()
    seated = client.post(url, {"table": 3, "seat": 5, "buy_in": "180"}, **HTMX)
    assert seated.status_code == 200
    assert TableSeat.objects.get(table=table, seat=5, left_at=None).stack == 180
