"""An insider with the database's owner rights rewrites the audit logs with raw SQL (triggers
switched off where needed): ``verify_audit`` names each rewrite, against the keyed chains
(``cardroom/core/audit.py``) and the checkpoints kept outside the database
(``cardroom/core/checkpoints.py``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from cardroom.core import audit, checkpoints
from cardroom.core.audit_keys import AuditKey
from cardroom.rulings.models import Ruling
from cardroom.seats.models import SeatEvent
from cardroom.tables.models import HandAction
from tests.test_audit_integrity import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(director: Any, floor_manager: Any) -> dict[str, Any]:
    """A row in every audit log, each written by its service."""
    return build_world(director, floor_manager)


def run_verify() -> tuple[str, list[str]]:
    """The command's report and its findings (BREAK lines; none when it succeeds)."""
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_audit", stdout=out, stderr=err)
    except CommandError:
        found = [line for line in err.getvalue().splitlines() if line.startswith("BREAK")]
        assert found, "verify_audit failed without naming a finding"
        return out.getvalue(), found
    return out.getvalue(), []


def findings() -> list[str]:
    return run_verify()[1]


@contextmanager
def as_the_owner(*tables: str) -> Iterator[Any]:
    """A cursor with the append-only triggers of these tables off, as the tables' owner (or a
    superuser) can on PostgreSQL; on SQLite, Django's own connection's maintenance door."""
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            yield cursor
            for table in tables:
                cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    else:
        with audit.maintenance(), connection.cursor() as cursor:
            yield cursor


def checkpoint() -> checkpoints.Line:
    line = checkpoints.write(force=True)
    assert line is not None
    return line


def assert_named(found: Sequence[str], *words: str) -> None:
    assert any(all(word in line for word in words) for line in found), found


# --- the seven rewrites ------------------------------------------------------------------------


def test_deleting_a_hands_last_action_is_named(world: dict[str, Any]) -> None:
    hand = world["hand"]
    checkpoint()
    last = HandAction.objects.filter(hand=hand).order_by("-pk").first()
    assert last is not None
    with as_the_owner("cardroom_handaction") as cursor:
        cursor.execute("DELETE FROM cardroom_handaction WHERE id = %s", [last.pk])
    assert_named(findings(), f"stream cardroom.HandAction/{hand.pk} lost rows")


def test_deleting_the_newest_ruling_at_a_table_is_named(
    world: dict[str, Any], director: Any
) -> None:
    from cardroom.rulings.services import log_ruling

    ruling = world["ruling"]
    log_ruling(
        table=ruling.table, director=director, situation="Chips hidden.", decision="Warned.",
        citations=[(world["house"].citation_id, "")],
    )  # fmt: skip
    checkpoint()
    newest = Ruling.objects.filter(table=ruling.table).order_by("-pk").first()
    assert newest is not None
    with as_the_owner("cardroom_ruling", "cardroom_rulingcitation") as cursor:
        cursor.execute("DELETE FROM cardroom_rulingcitation WHERE ruling_id = %s", [newest.pk])
        cursor.execute("DELETE FROM cardroom_ruling WHERE id = %s", [newest.pk])
    found = findings()
    assert_named(found, f"stream cardroom.Ruling/{ruling.table_id} lost rows")
    assert_named(found, f"stream cardroom.RulingCitation/{newest.pk} vanished")


def test_deleting_a_tables_whole_seat_event_stream_is_named(world: dict[str, Any]) -> None:
    table_id = SeatEvent.objects.order_by("pk").values_list("table_id", flat=True).first()
    held = checkpoint()
    assert f"cardroom.SeatEvent/{table_id}" in held.heads
    with as_the_owner("cardroom_seatevent") as cursor:
        cursor.execute("DELETE FROM cardroom_seatevent WHERE table_id = %s", [table_id])
    assert_named(findings(), f"stream cardroom.SeatEvent/{table_id} vanished")


def recompute_stream(model: Any, stream: Any, key: AuditKey | None) -> None:
    chain = audit.CHAINS[model._meta.label]
    table = model._meta.db_table
    ids = list(
        model._base_manager.filter(**{chain.stream: stream})
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    with as_the_owner(table) as cursor:
        # First out of the way of the one-chain constraint, then linked row by row.
        for pk in ids:
            cursor.execute(f"UPDATE {table} SET prev_hash = %s WHERE id = %s", [f"x{pk}", pk])  # noqa: S608
        head = ""
        for pk in ids:
            values = model._base_manager.filter(pk=pk).values(*chain.fields)[0]
            parts = (model._meta.label, head, audit.canonical(model, values, chain.fields))
            new = audit.legacy_digest(*parts) if key is None else audit.digest(*parts, key=key)
            cursor.execute(
                f"UPDATE {table} SET prev_hash = %s, row_hash = %s WHERE id = %s",  # noqa: S608
                [head, new, pk],
            )
            head = new


@pytest.mark.parametrize(
    "key",
    [None, AuditKey("dev-insecure", b"an attacker's guess at the key, long enough")],
    ids=["plain-sha256", "a-guessed-key"],
)
def test_rows_rewritten_with_every_hash_after_them_recomputed_are_named(
    world: dict[str, Any], key: AuditKey | None
) -> None:
    ruling = world["ruling"]
    with as_the_owner("cardroom_ruling") as cursor:
        cursor.execute(
            "UPDATE cardroom_ruling SET decision = %s WHERE id = %s",
            ["No penalty.", ruling.pk],
        )
    recompute_stream(Ruling, ruling.table_id, key)
    found = findings()
    rows = Ruling.objects.filter(table_id=ruling.table_id).count()
    recomputed = [line for line in found if line.startswith("BREAK cardroom_ruling row")]
    assert len(recomputed) == rows, found  # every row of the stream, not only the edited one
    if key is None:
        assert_named(found, f"cardroom_ruling row {ruling.pk}", "not signed with the audit key")
    else:
        assert_named(found, f"cardroom_ruling row {ruling.pk}", "contents changed")


def test_a_void_forged_with_its_seal_is_named(world: dict[str, Any], director: Any) -> None:
    hand = world["hand"]
    action = HandAction.objects.filter(hand=hand, voided_at=None).order_by("pk").first()
    assert action is not None
    values = {
        "voided_by_id": director.pk,
        "voided_at": "2026-11-28T10:00:00+00:00",
        "void_reason": "Dealer error.",
    }
    sealed = audit.canonical(HandAction, values, audit.CHAINS["cardroom.HandAction"].sealed)
    forged = audit.legacy_digest("cardroom.HandAction", "seal", action.row_hash, sealed)
    with as_the_owner("cardroom_handaction") as cursor:
        cursor.execute(
            "UPDATE cardroom_handaction SET voided_by_id = %s, voided_at = %s, void_reason = %s, "
            "seal_hash = %s WHERE id = %s",
            [director.pk, values["voided_at"], values["void_reason"], forged, action.pk],
        )
    assert_named(findings(), f"cardroom_handaction row {action.pk}", "seal_hash")


def test_a_ruling_inserted_with_its_hash_is_named(world: dict[str, Any], director: Any) -> None:
    ruling = world["ruling"]
    head = Ruling.objects.filter(table_id=ruling.table_id).order_by("-pk").first()
    assert head is not None
    values = {
        "table_id": ruling.table_id, "number": head.number + 1, "kind": "ruling",
        "amends_id": None, "hand_id": None, "action_id": None, "seats": [],
        "situation": "Chips hidden.", "decision": "Player warned.", "director_id": director.pk,
        "created_at": "2026-11-28T10:00:00+00:00", "request_key": None, "names": {},
    }  # fmt: skip
    chain = audit.CHAINS["cardroom.Ruling"]
    forged = audit.legacy_digest(
        "cardroom.Ruling", head.row_hash, audit.canonical(Ruling, values, chain.fields)
    )
    columns = [name for name in chain.fields if name != "names"]
    with connection.cursor() as cursor:  # an insert: no trigger stands in its way
        cursor.execute(
            f"INSERT INTO cardroom_ruling ({', '.join(columns)}, names, prev_hash, row_hash) "  # noqa: S608
            f"VALUES ({', '.join(['%s'] * len(columns))}, %s, %s, %s)",
            [
                *[json.dumps(values[c]) if c == "seats" else values[c] for c in columns],
                "{}",
                head.row_hash,
                forged,
            ],
        )
    newest = Ruling.objects.order_by("-pk").first()
    assert newest is not None and newest.decision == "Player warned."
    assert_named(findings(), f"cardroom_ruling row {newest.pk}", "not signed with the audit key")


# --- the checkpoints themselves ----------------------------------------------------------------


def test_a_forged_checkpoint_line_is_named(world: dict[str, Any]) -> None:
    """Someone with the file but not the key lowers a stream's count to hide a deletion."""
    hand = world["hand"]
    first = checkpoint()
    name = f"cardroom.HandAction/{hand.pk}"
    count = first.heads[name][0]
    last = HandAction.objects.filter(hand=hand).order_by("-pk").first()
    assert last is not None
    with as_the_owner("cardroom_handaction") as cursor:
        cursor.execute("DELETE FROM cardroom_handaction WHERE id = %s", [last.pk])
    before = HandAction.objects.filter(hand=hand).order_by("-pk").first()
    assert before is not None
    forged = checkpoints.Line(
        seq=first.seq + 1, at=first.at, key=first.key, prev=first.mac, upto=first.upto,
        heads={name: [count - 1, before.row_hash, 1]}, removed=[],
    )  # fmt: skip
    forged.mac = audit.sign(forged.signed_text(), AuditKey(first.key, b"not the room's key" * 3))
    path = checkpoints.checkpoint_path()
    with path.open("a") as handle:
        handle.write(forged.text() + "\n")
    found = findings()
    assert_named(found, "checkpoint file line 2 (seq 2)", "forged or edited")
    assert_named(found, f"stream {name} lost rows")  # the forged line is not believed


def test_a_checkpoint_line_removed_from_the_middle_is_named(world: dict[str, Any]) -> None:
    checkpoint()
    checkpoint()
    checkpoint()
    path = checkpoints.checkpoint_path()
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[2]]) + "\n")
    assert_named(findings(), "checkpoint file line 2 (seq 3)", "does not follow")


def test_a_rotated_key_signs_new_rows_and_the_old_key_still_verifies_its_own(
    world: dict[str, Any], director: Any
) -> None:
    from cardroom.rulings.services import log_ruling

    old = audit.signing_key()
    checkpoint()
    new = AuditKey("room-2027", b"the room's next key, kept in its key file" * 2)
    settings.CARDROOM_AUDIT_KEYS = (new, old)
    try:
        ruling = log_ruling(
            table=world["ruling"].table, director=director, situation="Phone out.",
            decision="Warned.", citations=[(world["house"].citation_id, "")],
        )  # fmt: skip
        assert ruling.row_hash.startswith("room-2027:")
        assert checkpoint().key == "room-2027"
        report, found = run_verify()
        assert found == [], found
        assert "signed with audit key 'room-2027'" in report
        # The old key dropped from the list: what it signed can no longer be checked.
        settings.CARDROOM_AUDIT_KEYS = (new,)
        found = findings()
        assert_named(found, "signed with audit key 'dev-insecure', which this server does not hold")
        assert_named(found, "checkpoint file line 1 (seq 1)", "does not hold")
    finally:
        settings.CARDROOM_AUDIT_KEYS = (old,)


# --- an honest day, and the writer stopped mid-line -------------------------------------------


def test_an_honest_day_verifies_clean_against_its_checkpoints(
    world: dict[str, Any], director: Any
) -> None:
    from cardroom.rulings.services import log_ruling
    from cardroom.tables.services import record_action

    first = checkpoint()
    assert checkpoints.write() is None  # nothing changed: no line
    hand = world["hand"]
    hand.refresh_from_db()
    record_action(hand=hand, by=director, expected_seq=hand.seq, seat=2, action="call")
    log_ruling(
        table=hand.table, director=director, situation="Slow roll.", decision="Warned.",
        citations=[(world["house"].citation_id, "")],
    )  # fmt: skip
    second = checkpoints.write()
    assert second is not None and second.seq == first.seq + 1 and second.prev == first.mac
    assert f"cardroom.HandAction/{hand.pk}" in second.heads
    report, found = run_verify()
    assert found == []
    assert "Held against" in report and "the latest seq 2" in report
    assert "rows in" in report and "streams" in report


def test_a_checkpoint_cut_short_by_a_killed_writer_leaves_no_gap(
    world: dict[str, Any], director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker dies mid-line: the line is torn. The next checkpoint starts a line of its
    own, chained to the last whole one, and covers every change since."""
    from cardroom.rulings.services import log_ruling

    checkpoint()
    real_append = checkpoints.append_line

    def killed(handle: Any, line: checkpoints.Line, ends_mid_line: bool) -> None:
        handle.write(line.text().encode()[:40])
        handle.flush()
        raise SystemExit("killed")

    ruling = log_ruling(
        table=world["ruling"].table, director=director, situation="Angle shot.",
        decision="Warned.", citations=[(world["house"].citation_id, "")],
    )  # fmt: skip
    monkeypatch.setattr(checkpoints, "append_line", killed)
    with pytest.raises(SystemExit):
        checkpoints.write()
    monkeypatch.setattr(checkpoints, "append_line", real_append)
    line = checkpoint()
    assert line.seq == 2 and f"cardroom.Ruling/{ruling.table_id}" in line.heads
    report, found = run_verify()
    assert found == [] and "cut short" in report
    with as_the_owner("cardroom_ruling", "cardroom_rulingcitation") as cursor:
        cursor.execute("DELETE FROM cardroom_rulingcitation WHERE ruling_id = %s", [ruling.pk])
        cursor.execute("DELETE FROM cardroom_ruling WHERE id = %s", [ruling.pk])
    assert_named(findings(), f"stream cardroom.Ruling/{ruling.table_id} lost rows")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_row_committed_after_a_later_id_is_still_checkpointed(
    world: dict[str, Any], director: Any
) -> None:
    """A transaction takes its row's id, a later row commits, a checkpoint runs (the first
    row is not visible yet), then the first commits. Each row is read by two checkpoints, so
    the next one holds the first row's stream: deleting it is named."""
    from cardroom.rulings.services import log_ruling
    from tests.factories import make_table

    house = world["house"].citation_id
    slow_table, other_table = world["ruling"].table, make_table(number=78)
    checkpoint()
    took_id, may_commit = threading.Event(), threading.Event()
    made: list[Ruling] = []

    def slow() -> None:
        try:
            with transaction.atomic():
                ruling = log_ruling(
                    table=slow_table, director=director, situation="Slow.",
                    decision="Noted.", citations=[(house, "")],
                )  # fmt: skip
                made.append(ruling)
                took_id.set()
                assert may_commit.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=slow)
    thread.start()
    assert took_id.wait(30)
    later = log_ruling(
        table=other_table, director=director, situation="Quick.", decision="Noted.",
        citations=[(house, "")],
    )  # fmt: skip
    assert later.pk > made[0].pk
    while_open = checkpoint()  # the slow ruling is not committed: not seen
    assert while_open.upto["cardroom.Ruling"] >= later.pk
    may_commit.set()
    thread.join(30)
    after = checkpoint()
    slow_stream = f"cardroom.Ruling/{slow_table.pk}"
    assert after.heads[slow_stream][0] == Ruling.objects.filter(table=slow_table).count()
    with as_the_owner("cardroom_ruling", "cardroom_rulingcitation") as cursor:
        cursor.execute("DELETE FROM cardroom_rulingcitation WHERE ruling_id = %s", [made[0].pk])
        cursor.execute("DELETE FROM cardroom_ruling WHERE id = %s", [made[0].pk])
    assert_named(findings(), f"stream {slow_stream} lost rows")


def test_a_table_deleted_on_purpose_is_not_a_vanished_stream(
    floor_manager: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from cardroom.tables.removal import delete_table
    from tests.factories import make_table

    table = make_table(number=77)
    checkpoint()
    with django_capture_on_commit_callbacks(execute=True):
        delete_table(table=table)
    lines = checkpoints.checkpoint_path().read_text().splitlines()
    assert json.loads(lines[-1])["removed"] == [f"cardroom.TableChange/{table.pk}"]
    assert findings() == []


# --- no switch for a session -------------------------------------------------------------------


@pytest.mark.postgres
def test_no_session_setting_turns_the_triggers_off(world: dict[str, Any]) -> None:
    target = Ruling.objects.order_by("pk").first()
    assert target is not None
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL cardroom.audit_maintenance = 'on'")
        cursor.execute("DELETE FROM cardroom_ruling WHERE id = %s", [target.pk])


def test_the_checkpoint_file_path_is_the_tests_own(tmp_path: Path) -> None:
    """The suite never writes the checkout's var/ (tests/conftest.py)."""
    assert "cardroom-checkpoints-" in str(checkpoints.checkpoint_path())


def test_a_void_undone_is_named(world: dict[str, Any]) -> None:
    """The reverse of a forged void: a voided action made live again, seal and all."""
    hand = world["hand"]
    voided = HandAction.objects.filter(hand=hand).exclude(voided_at=None).get()
    held = checkpoint()
    assert held.heads[f"cardroom.HandAction/{hand.pk}"][2] == 1
    with as_the_owner("cardroom_handaction") as cursor:
        cursor.execute(
            "UPDATE cardroom_handaction SET voided_by_id = NULL, voided_at = NULL, "
            "void_reason = '', seal_hash = '' WHERE id = %s",
            [voided.pk],
        )
    assert_named(findings(), f"stream cardroom.HandAction/{hand.pk} lost a sealed change")


def test_a_void_with_no_new_row_reaches_the_next_checkpoint(
    world: dict[str, Any], director: Any
) -> None:
    from cardroom.tables.services import record_action, void_last_action

    hand = world["hand"]
    hand.refresh_from_db()
    record_action(hand=hand, by=director, expected_seq=hand.seq, seat=2, action="call")
    checkpoint()
    checkpoint()
    hand.refresh_from_db()
    void_last_action(hand=hand, by=director, expected_seq=hand.seq, reason="Misclick.")
    line = checkpoints.write()
    assert line is not None
    assert line.heads[f"cardroom.HandAction/{hand.pk}"][2] == 2
    assert findings() == []
