"""What decides a hand's chips is in a chain (``HandRecord``: the deal, the award, a void), and
``verify_audit`` holds every hand against its records, every cash seat against its log and
every waitlist entry against its list's log: a result, a button, a state, a stack or a call
rewritten with plain SQL is named, and so is a record or a cash-out removed with the
append-only triggers turned off (the owner of the tables can)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from io import StringIO
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from cardroom.seats import hands as cash_hands
from cardroom.seats import services as players
from cardroom.seats.models import SeatEvent, TableSeat
from cardroom.tables.choices import SeatEventKind
from cardroom.tables.hand_records import RECORDED
from cardroom.tables.models import Hand, HandRecord, HandRecordKind, HandStatus, Table
from cardroom.tables.services import award_hand, void_hand
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import WaitlistEntry
from tests.cardroom.desk_client import fold_out
from tests.factories import make_hand, make_table

pytestmark = pytest.mark.django_db

#: The tables the SQL below rewrites, as the break lines name them.
HAND, RECORD, SEAT, EVENT = (
    "cardroom_hand", "cardroom_handrecord", "cardroom_tableseat", "cardroom_seatevent",
)  # fmt: skip


def verify_audit() -> list[str]:
    """The command's BREAK lines (none when it succeeds)."""
    err = StringIO()
    try:
        call_command("verify_audit", stdout=StringIO(), stderr=err)
    except CommandError as exc:
        assert "finding(s) in the audit logs" in str(exc)
        lines = [line for line in err.getvalue().splitlines() if line.startswith("BREAK")]
        assert lines, "verify_audit failed without naming a break"
        return lines
    return []


@contextmanager
def triggers_off(table: str) -> Iterator[CursorWrapper]:
    """An attacker with the table owner's rights turns an audit table's triggers off, inside
    this test's transaction (rolled back with it): PostgreSQL disables them; SQLite, which
    cannot, drops them (its DDL is transactional too)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # pending FK checks first
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            yield cursor
            cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        else:
            cursor.execute(f"DROP TRIGGER {table}_no_update")
            cursor.execute(f"DROP TRIGGER {table}_no_delete")
            yield cursor


def execute(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def seated_table(by: Any, number: int = 7) -> Table:
    """An open cash table with three players seated from the seat map."""
    table = make_table(number=number, by=by, seats=6, max_buy_in=1000)
    for seat in (1, 2, 3):
        player = players.find_or_create_player(name=f"Player {number}-{seat}", by=by)
        players.seat_player(table=table, player=player, seat=seat, buy_in=500, by=by)
    return table


@pytest.fixture
def day(floor_manager: Any) -> dict[str, Any]:
    """A short honest day: a cash table's hand dealt from the seat map and awarded (the seat
    map follows), its next hand voided and dealt again, a player cashing out; a hand dealt
    with typed stacks and awarded; one still being played."""
    table = seated_table(floor_manager)
    awarded = cash_hands.deal_next_hand(table=table, by=floor_manager)
    fold_out(awarded, floor_manager)
    awarded = cash_hands.settle_cash_hand(
        hand=awarded, by=floor_manager, expected_seq=awarded.seq, showdown=None
    )
    voided = cash_hands.deal_next_hand(table=table, by=floor_manager)
    voided = void_hand(hand=voided, by=floor_manager, expected_seq=voided.seq, reason="Misdeal.")
    redealt = cash_hands.deal_next_hand(table=table, by=floor_manager)
    fold_out(redealt, floor_manager)
    redealt = cash_hands.settle_cash_hand(
        hand=redealt, by=floor_manager, expected_seq=redealt.seq, showdown=None
    )
    leaving = TableSeat.objects.get(table=table, seat=3, left_at=None)
    players.leave_seat(seat=leaving, by=floor_manager)
    typed = fold_out(make_hand(by=floor_manager), floor_manager)
    typed = award_hand(hand=typed, by=floor_manager, expected_seq=typed.seq, showdown=None)
    playing = make_hand(table=make_table(number=8, by=floor_manager), by=floor_manager)
    return {
        "table": table, "awarded": awarded, "voided": voided, "redealt": redealt,
        "left": leaving, "typed": typed, "playing": playing,
    }  # fmt: skip


def kinds(hand: Hand) -> list[str]:
    return list(hand.records.order_by("pk").values_list("kind", flat=True))


def test_an_honest_day_verifies_clean_with_a_record_of_every_deal_award_and_void(
    day: dict[str, Any],
) -> None:
    tables = (Hand, HandRecord, TableSeat, SeatEvent)
    assert tuple(model._meta.db_table for model in tables) == (HAND, RECORD, SEAT, EVENT)
    assert verify_audit() == []
    assert kinds(day["awarded"]) == ["dealt", "awarded"]
    assert kinds(day["voided"]) == ["dealt", "voided"]
    assert kinds(day["typed"]) == ["dealt", "awarded"]
    assert kinds(day["playing"]) == ["dealt"]
    award = day["awarded"].records.get(kind=HandRecordKind.AWARDED)
    assert award.record == {"result": day["awarded"].result}
    assert (award.by_id, award.at) == (day["awarded"].awarded_by_id, day["awarded"].awarded_at)
    deal = day["redealt"].records.get(kind=HandRecordKind.DEALT)
    assert deal.record == {name: getattr(day["redealt"], name) for name in RECORDED["dealt"]}
    void = day["voided"].records.get(kind=HandRecordKind.VOIDED)
    assert void.record == {"void_reason": "Misdeal."}
    # One chain per table, in the order things happened there.
    stream = HandRecord.objects.filter(table=day["table"]).order_by("pk")
    assert [(r.number, r.kind) for r in stream] == [
        (1, "dealt"), (1, "awarded"), (2, "dealt"), (2, "voided"), (3, "dealt"), (3, "awarded"),
    ]  # fmt: skip


def test_a_hand_record_refuses_to_change_or_go(day: dict[str, Any]) -> None:
    from django.core.exceptions import ValidationError

    award = day["awarded"].records.get(kind=HandRecordKind.AWARDED)
    award.record = {"result": {}}
    with pytest.raises(ValidationError):
        award.save()
    with pytest.raises(ValidationError):
        award.delete()
    for sql in (
        "UPDATE cardroom_handrecord SET number = number + 1 WHERE id = %s",
        "DELETE FROM cardroom_handrecord WHERE id = %s",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            execute(sql, [award.pk])


def test_an_awarded_hands_result_rewritten_with_sql_is_named(day: dict[str, Any]) -> None:
    hand = day["awarded"]
    forged = dict(hand.result)
    forged["stacks"] = [{**entry, "stack": entry["stack"] + 100} for entry in forged["stacks"]]
    execute("UPDATE cardroom_hand SET result = %s WHERE id = %s", [json.dumps(forged), hand.pk])
    assert verify_audit() == [
        f"BREAK {HAND} row {hand.pk}: result differ from the record of its award"
    ]


@pytest.mark.parametrize(
    ("change", "what"),
    [
        ("button = button + 1", "button differ from the record of its deal"),
        ("seats = '[]'", "seats differ from the record of its deal"),
        ("awarded_by_id = NULL", "awarded_by_id differ from the record of its award"),
        ("state = 'in_progress'", "state 'in_progress' differs from its records ('complete')"),
    ],
)
def test_any_column_of_an_awarded_hand_rewritten_is_named(
    day: dict[str, Any], change: str, what: str
) -> None:
    hand = day["typed"]
    execute(f"UPDATE cardroom_hand SET {change} WHERE id = %s", [hand.pk])  # noqa: S608 (listed above)
    assert verify_audit() == [f"BREAK {HAND} row {hand.pk}: {what}"]


def test_a_void_undone_with_sql_is_named(day: dict[str, Any]) -> None:
    """The misdeal turned back into a hand that was awarded (its void's columns emptied)."""
    hand = day["voided"]
    execute(
        "UPDATE cardroom_hand SET state = 'complete', voided_at = NULL, voided_by_id = NULL, "
        "void_reason = '' WHERE id = %s",
        [hand.pk],
    )
    assert verify_audit() == [
        f"BREAK {HAND} row {hand.pk}: void_reason, voided_at, voided_by_id differ from the "
        "record of its void",
        f"BREAK {HAND} row {hand.pk}: state 'complete' differs from its records ('voided')",
    ]


def test_a_void_forged_on_a_hand_in_play_is_named(day: dict[str, Any], director: Any) -> None:
    hand = day["playing"]
    execute(
        "UPDATE cardroom_hand SET state = 'voided', voided_by_id = %s, voided_at = started_at, "
        "void_reason = 'Forged.' WHERE id = %s",
        [director.pk, hand.pk],
    )
    assert verify_audit() == [
        f"BREAK {HAND} row {hand.pk}: void_reason, voided_at, voided_by_id set with no record "
        "of its void",
        f"BREAK {HAND} row {hand.pk}: state 'voided' differs from its records "
        "('complete' or 'in_progress')",
    ]


def test_the_last_award_record_removed_with_the_triggers_off_is_named(
    day: dict[str, Any],
) -> None:
    """The tail of a table's chain gone: the chain still links, but the hand says it was
    awarded and the seat map holds its chips."""
    hand = day["redealt"]
    last = HandRecord.objects.filter(table=hand.table).order_by("-pk").first()
    assert last is not None and (last.hand_id, last.kind) == (hand.pk, HandRecordKind.AWARDED)
    with triggers_off(RECORD) as cursor:
        cursor.execute("DELETE FROM cardroom_handrecord WHERE id = %s", [last.pk])
    results = SeatEvent.objects.filter(kind=SeatEventKind.HAND, hand=hand).order_by("pk")
    assert verify_audit() == [
        f"BREAK {HAND} row {hand.pk}: awarded_at, awarded_by_id, result set with no record of "
        "its award",
        # The seat map's chips from the hand no longer have an award on record either.
        *(
            f"BREAK {EVENT} row {event.pk}: seat {event.seat}'s result in hand {hand.pk} is "
            "not its recorded award"
            for event in results
        ),
    ]
    assert results.count() == 3


def test_a_deal_record_removed_from_the_middle_of_a_table_is_named_twice(
    day: dict[str, Any],
) -> None:
    hand = day["voided"]
    deal = hand.records.get(kind=HandRecordKind.DEALT)
    after = HandRecord.objects.filter(table=hand.table, pk__gt=deal.pk).order_by("pk").first()
    assert after is not None
    with triggers_off(RECORD) as cursor:
        cursor.execute("DELETE FROM cardroom_handrecord WHERE id = %s", [deal.pk])
    found = verify_audit()
    assert f"BREAK {HAND} row {hand.pk}: no record of its deal" in found
    assert any(line.startswith(f"BREAK {RECORD} row {after.pk}: prev_hash") for line in found)


def test_a_cash_seats_stack_rewritten_with_sql_is_named(day: dict[str, Any]) -> None:
    live = TableSeat.objects.get(table=day["table"], seat=1, left_at=None)
    execute("UPDATE cardroom_tableseat SET stack = stack + 500 WHERE id = %s", [live.pk])
    assert verify_audit() == [
        f"BREAK {SEAT} row {live.pk}: stack {live.stack + 500} differs from the {live.stack} "
        "its log adds up to"
    ]


def test_a_cash_out_removed_from_the_log_is_named(day: dict[str, Any]) -> None:
    """The player's cash-out gone (the tail of the table's seat log): the seat map says they
    left, their log that they are still seated with their chips."""
    left = SeatEvent.objects.get(table=day["table"], kind=SeatEventKind.LEFT)
    run = SeatEvent.objects.filter(table=day["table"], seat=left.seat, player=left.player)
    before = run.filter(pk__lt=left.pk).order_by("-pk")[0]
    assert not SeatEvent.objects.filter(table=day["table"], pk__gt=left.pk).exists()
    with triggers_off(EVENT) as cursor:
        cursor.execute("DELETE FROM cardroom_seatevent WHERE id = %s", [left.pk])
    found = verify_audit()
    assert found == [
        f"BREAK {EVENT} row {before.pk}: the log has the player seated, the seat map not"
    ]


def test_a_hand_result_in_the_seat_log_that_is_not_the_award_is_named(
    day: dict[str, Any],
) -> None:
    """A seat's chips from a hand rewritten in its log (its hash as well, as a key holder
    could): the award on record says otherwise."""
    event = SeatEvent.objects.filter(kind=SeatEventKind.HAND, hand=day["redealt"]).first()
    assert event is not None
    with triggers_off(EVENT) as cursor:
        cursor.execute("UPDATE cardroom_seatevent SET stack = stack + 1 WHERE id = %s", [event.pk])
    found = verify_audit()
    assert (
        f"BREAK {EVENT} row {event.pk}: seat {event.seat}'s result in hand {day['redealt'].pk} "
        "is not its recorded award"
    ) in found


def test_the_migration_writes_the_records_of_the_hands_already_on_file(
    day: dict[str, Any],
) -> None:
    """Hands dealt, awarded and voided before the records existed get theirs, in each table's
    order, and verify."""
    before = list(HandRecord.objects.order_by("pk").values_list("hand_id", "kind", "record"))
    with triggers_off(RECORD) as cursor:
        cursor.execute("DELETE FROM cardroom_handrecord")
    assert any("no record of its deal" in line for line in verify_audit())
    migration = importlib.import_module("cardroom.migrations.0030_hand_records")
    migration.record_hands(apps, SimpleNamespace(connection=connection))
    assert list(HandRecord.objects.order_by("pk").values_list("hand_id", "kind", "record")) == [
        row for row in sorted(before, key=lambda r: _table_order(r[0]))
    ]
    assert verify_audit() == []
    assert Hand.objects.get(pk=day["voided"].pk).state == HandStatus.VOIDED


def _table_order(hand_id: int) -> tuple[int, int]:
    hand = Hand.objects.get(pk=hand_id)
    return hand.table_id, hand.number


# --- waitlist calls ---------------------------------------------------------------------------

ENTRY = "cardroom_waitlistentry"


@pytest.fixture
def lists(floor_manager: Any) -> dict[str, Any]:
    """A list's honest evening: an offer missed twice (off the list), a player seated from the
    list, one removed, one called to a seat at another table."""
    table = make_table(number=1, by=floor_manager, seats=9)
    for seat in range(1, 9):
        player = players.find_or_create_player(name=f"Seated {seat}", by=floor_manager)
        players.seat_player(table=table, player=player, seat=seat, buy_in=100, by=floor_manager)
    game = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    ana = waitlists.add_to_list(game_list=game, name="Ana Ruiz", by=floor_manager)
    bo = waitlists.add_to_list(game_list=game, name="Bo Li", by=floor_manager)
    waitlists.call_player(entry=ana, table=table, seat=9, by=floor_manager)
    waitlists.lapse_due(timezone.now() + timedelta(minutes=4))  # Ana misses, Bo is called
    waitlists.lapse_due(timezone.now() + timedelta(minutes=8))  # Bo misses
    waitlists.call_player(entry=ana, table=table, seat=9, by=floor_manager)
    waitlists.lapse_due(timezone.now() + timedelta(minutes=12))  # Ana's second miss
    bo.refresh_from_db()
    waitlists.seat_from_list(entry=bo, table=table, seat=9, buy_in=100, by=floor_manager)
    cy = waitlists.add_to_list(game_list=game, name="Cy Park", by=floor_manager)
    waitlists.remove_entry(entry=cy, reason="Went home.", by=floor_manager)
    di = waitlists.add_to_list(game_list=game, name="Di Vo", by=floor_manager)
    other = make_table(number=2, by=floor_manager, seats=6)
    waitlists.call_player(entry=di, table=other, seat=1, by=floor_manager)
    for entry in (ana, bo, cy, di):
        entry.refresh_from_db()
    assert [e.status for e in (ana, bo, cy, di)] == ["lapsed", "seated", "removed", "called"]
    return {"ana": ana, "bo": bo, "cy": cy, "di": di}


def test_an_honest_list_verifies_clean(lists: dict[str, Any]) -> None:
    assert WaitlistEntry._meta.db_table == ENTRY
    assert verify_audit() == []


def test_a_call_given_to_another_seat_with_sql_is_named(lists: dict[str, Any]) -> None:
    di = lists["di"]
    execute("UPDATE cardroom_waitlistentry SET called_seat = 2 WHERE id = %s", [di.pk])
    assert verify_audit() == [
        f"BREAK {ENTRY} row {di.pk}: called to a seat its log's last call does not name"
    ]


def test_a_player_put_back_on_the_list_with_sql_is_named(lists: dict[str, Any]) -> None:
    ana = lists["ana"]
    execute(
        "UPDATE cardroom_waitlistentry SET status = 'waiting', ended_at = NULL WHERE id = %s",
        [ana.pk],
    )
    assert verify_audit() == [
        f"BREAK {ENTRY} row {ana.pk}: status 'waiting' differs from the 'lapsed' its log leaves it"
    ]
