"""A player's record and a table's settings are ordinary rows, each with a chained log of its
changes (``PlayerChange``, ``TableChange``): ``verify_audit`` holds each against its log, so a
bar lifted, a name changed or a table's blinds or buy-in rewritten with one ``UPDATE`` is
named, with the row and what differs."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.seats import services as players
from cardroom.seats.models import Player
from cardroom.seats.player_checks import player_breaks
from cardroom.tables.models import Table
from cardroom.tables.services import set_table_status, update_table
from cardroom.tables.table_checks import table_breaks
from tests.factories import make_table
from tests.test_audit_hand_records import execute, verify_audit

pytestmark = pytest.mark.django_db

PLAYER, TABLE = "cardroom_player", "cardroom_table"


@pytest.fixture
def room(floor_manager: Any) -> dict[str, Any]:
    """An honest evening: players found, edited, barred and let back in; tables made, edited,
    closed and opened again."""
    by = floor_manager
    new = players.find_or_create_player(name="Ana Ruiz", by=by)
    edited = players.find_or_create_player(name="Bo Lin", alias="Bo", by=by)
    edited = players.edit_player(player=edited, name="Bo Lin", alias="Bobo",
                                 contact="600 123 456", notes="Likes seat 1.", by=by)  # fmt: skip
    barred = players.find_or_create_player(name="Cy Oto", by=by)
    barred = players.bar_player(player=barred, reason="Abuse of a dealer.", by=by)
    barred = players.edit_player(player=barred, name="Cy Oto", alias="", contact="",
                                 notes="Ask the manager.", by=by)  # fmt: skip
    lifted = players.find_or_create_player(name="Di Moss", by=by)
    lifted = players.bar_player(player=lifted, reason="Angle shooting.", by=by)
    lifted = players.bar_player(player=lifted, reason="Served the month.", by=by, barred=False)
    # An alias given on a later visit to a player whose log has none (no log row for it).
    later = players.find_or_create_player(name="Di Moss", alias="Dee", by=by)
    table = make_table(number=3, by=by)
    table = update_table(table=table, by=by, small_blind=2, big_blind=5, max_buy_in=500)
    table = set_table_status(table=table, by=by, status="closed")
    table = set_table_status(table=table, by=by, status="open")
    other = make_table(number=4, by=by, name="Feature table")
    return {
        "new": new, "edited": edited, "barred": barred, "lifted": later, "table": table,
        "other": other,
    }  # fmt: skip


def test_an_honest_evening_of_edits_bars_lifts_and_table_changes_verifies_clean(
    room: dict[str, Any],
) -> None:
    assert room["lifted"].alias == "Dee" and not room["lifted"].barred
    assert room["barred"].barred and room["barred"].notes == "Ask the manager."
    table = Table.objects.get(pk=room["table"].pk)
    assert (table.small_blind, table.big_blind, table.max_buy_in, table.status) == (
        2, 5, 500, "open",
    )  # fmt: skip
    assert player_breaks() == [] and table_breaks() == []
    assert verify_audit() == []


def test_a_bar_lifted_with_sql_is_named_with_the_player_and_what_differs(
    room: dict[str, Any],
) -> None:
    pk = room["barred"].pk
    execute(
        "UPDATE cardroom_player SET barred = %s, barred_reason = '', barred_by_id = NULL,"
        " barred_at = NULL WHERE id = %s",
        [False, pk],
    )
    assert verify_audit() == [
        f"BREAK {PLAYER} row {pk}: differs from its log's last change: barred False, its log"
        " True; bar reason '', its log 'Abuse of a dealer.'; barred by user None, its log user"
        f" {room['barred'].barred_by_id}"
    ]


def test_a_player_barred_with_sql_and_no_log_is_named(room: dict[str, Any]) -> None:
    execute("UPDATE cardroom_player SET barred = %s WHERE id = %s", [True, room["new"].pk])
    execute("UPDATE cardroom_player SET barred = %s WHERE id = %s", [True, room["lifted"].pk])
    assert verify_audit() == [
        f"BREAK {PLAYER} row {room['new'].pk}: barred True with no change in its log",
        f"BREAK {PLAYER} row {room['lifted'].pk}: differs from its log's last change: barred"
        f" True, its log False; barred at None with barred True",
    ]


def test_a_name_contact_notes_or_alias_rewritten_with_sql_is_named(room: dict[str, Any]) -> None:
    pk = room["edited"].pk
    execute(
        "UPDATE cardroom_player SET name = 'Bo Lim', contact = '', notes = '', alias = 'B'"
        " WHERE id = %s",
        [pk],
    )
    execute("UPDATE cardroom_player SET notes = 'VIP' WHERE id = %s", [room["new"].pk])
    assert verify_audit() == [
        f"BREAK {PLAYER} row {room['new'].pk}: notes 'VIP' with no change in its log",
        f"BREAK {PLAYER} row {pk}: differs from its log's last change: name 'Bo Lim', its log"
        " 'Bo Lin'; contact '', its log '600 123 456'; notes '', its log 'Likes seat 1.';"
        " alias 'B', its log 'Bobo'",
    ]


def test_a_tables_blinds_buy_in_or_status_rewritten_with_sql_are_named(
    room: dict[str, Any],
) -> None:
    pk, other = room["table"].pk, room["other"].pk
    execute("UPDATE cardroom_table SET big_blind = 10, max_buy_in = 5000 WHERE id = %s", [pk])
    execute("UPDATE cardroom_table SET status = 'closed', name = '' WHERE id = %s", [other])
    assert verify_audit() == [
        f"BREAK {TABLE} row {pk}: differs from its history's newest: big_blind 10, its history"
        " 5; max_buy_in 5000, its history 500",
        f"BREAK {TABLE} row {other}: differs from its history's newest: name '', its history"
        " 'Feature table'; status 'closed', its history 'open'",
    ]


def test_a_table_with_no_history_is_named(room: dict[str, Any]) -> None:
    made = Table.objects.create(number=77, status="open")
    assert verify_audit() == [f"BREAK {TABLE} row {made.pk}: a table with no history"]


def test_the_checks_read_in_a_fixed_number_of_queries_whatever_the_rows(
    room: dict[str, Any], floor_manager: Any
) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert player_breaks() == [] and table_breaks() == []
        return len(captured.captured_queries)

    before = queries()
    for n in range(5):
        player = players.find_or_create_player(name=f"More {n}", by=floor_manager)
        players.bar_player(player=player, reason="Cheating.", by=floor_manager)
        make_table(number=20 + n, by=floor_manager)
    assert Player.objects.count() == 9
    assert queries() == before == 4
