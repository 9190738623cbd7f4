"""Closing a cash table with players seated asks first, naming them; an active must-move
of the table ends when it closes (recorded); the closed table's desk says so instead of
offering a Deal."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cardroom.seats import services as players
from cardroom.tables.models import Table
from cardroom.tables.services import SeatedAtClose, set_table_status
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tables as waitlist_tables
from cardroom.waitlists.models import MustMove
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def table_with_two(fm: Any) -> Table:
    table = make_table(number=2, by=fm)
    for seat, name in ((1, "Ann Lee"), (4, "Bo Chan")):
        player = players.find_or_create_player(name=name, by=fm)
        players.seat_player(table=table, player=player, seat=seat, buy_in=100, by=fm)
    return table


def test_closing_with_players_seated_needs_a_confirmation_naming_them(floor_manager: Any) -> None:
    table = table_with_two(floor_manager)
    with pytest.raises(SeatedAtClose) as asked:
        set_table_status(table=table, by=floor_manager, status="closed")
    assert asked.value.messages == [
        "Table 2 still has 2 players seated: Ann Lee, Bo Chan. Close it anyway? Their seats and"
        " chips stay on record until they are moved or cashed out."
    ]
    table.refresh_from_db()
    assert table.status == "open"
    closed = set_table_status(table=table, by=floor_manager, status="closed", confirm_seated=True)
    assert closed.status == "closed"
    # An empty table closes in one step.
    empty = make_table(number=5, by=floor_manager)
    assert set_table_status(table=empty, by=floor_manager, status="closed").status == "closed"
    with pytest.raises(ValidationError, match="Unknown status"):
        set_table_status(table=empty, by=floor_manager, status="gone")


def test_closing_a_must_move_table_ends_the_must_move_recorded(floor_manager: Any) -> None:
    table = table_with_two(floor_manager)
    make_table(number=1, by=floor_manager)
    main = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    moving = waitlist_tables.create_must_move(table=table, main=main, by=floor_manager)
    set_table_status(table=table, by=floor_manager, status="closed", confirm_seated=True)
    moving.refresh_from_db()
    assert moving.ended_at is not None
    assert not MustMove.objects.filter(table=table, ended_at=None).exists()
    event = main.events.filter(kind="moved").last()
    assert event is not None
    assert (event.note, event.table_number, event.by) == (
        "Must-move ended: the table was closed", 2, floor_manager,
    )  # fmt: skip


def test_the_floor_card_asks_then_closes_and_the_desk_says_closed(
    client: Any, floor_manager: Any
) -> None:
    table_with_two(floor_manager)
    client.force_login(floor_manager)
    url = "/tables/2/status/"
    asked = client.post(url, {"status": "closed", "from": "floor"}, HTTP_HX_REQUEST="true")
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Ann Lee, Bo Chan" in html and "Close anyway" in html
    assert 'name="confirm_seated" value="1"' in html
    done = client.post(
        url, {"status": "closed", "from": "floor", "confirm_seated": "1"}, HTTP_HX_REQUEST="true"
    )
    assert done.status_code == 200 and "Close anyway" not in done.content.decode()
    desk = client.get("/tables/2/desk/").content.decode()
    assert "Table closed: Table 2 deals no hands until the floor opens it." in desk
    assert "proposal-seats" not in desk


def test_the_kind_filter_offers_cash_and_tournament_once(
    persona_client: Any, floor_manager: Any
) -> None:
    """The Kind select's empty choice appears once, then the real ones."""
    import re

    make_table(number=1, by=floor_manager)
    html = persona_client("staff").get("/floor/").content.decode()
    select = re.search(r'<select name="tournament"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None
    options = re.findall(r"<option[^>]*>([^<]*)</option>", select.group(1))
    assert options[:3] == ["Cash and tournament", "Tournament tables", "Cash tables"]
    assert options.count("Cash and tournament") == 1


def test_the_settings_ask_before_closing_a_table_with_players_seated(
    floor_manager: Any,
) -> None:
    """The table's settings (form, API) ask as the Close buttons do, naming who is seated:
    without the confirmation the table stays open; once it is empty it closes in one step
    (ending a must-move)."""
    from cardroom.seats.models import TableSeat
    from cardroom.tables.services import update_table

    table = table_with_two(floor_manager)
    with pytest.raises(SeatedAtClose, match=r"2 players seated: Ann Lee, Bo Chan\. Close it"):
        update_table(table=table, by=floor_manager, status="closed")
    main = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    make_table(number=1, by=floor_manager)
    moving = waitlist_tables.create_must_move(table=table, main=main, by=floor_manager)
    for seat in TableSeat.objects.filter(table=table, left_at=None):
        players.leave_seat(seat=seat, by=floor_manager)
    assert update_table(table=table, by=floor_manager, status="closed").status == "closed"
    moving.refresh_from_db()
    assert moving.ended_at is not None
