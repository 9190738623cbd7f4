"""No invalid choice is ever stored, every audit log is append-only in
the database, and every audit row is chained so that ``verify_audit`` finds a rewrite."""

from __future__ import annotations

import itertools
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, IntegrityError, connection, models, transaction

from cardroom.core import audit
from cardroom.rulings.models import Ruling, RulingKind
from cardroom.tables.models import HandAction
from tests.factories import make_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(director: Any, floor_manager: Any) -> dict[str, Any]:
    """A row in every audit log, each written by its service."""
    return build_world(director, floor_manager)


def build_world(director: Any, floor_manager: Any) -> dict[str, Any]:
    """``world``, for the other audit tests' fixtures."""
    from cardroom.rulings.services import log_ruling
    from cardroom.tables.services import record_action, void_last_action
    from rules import imports
    from rules.services import create_house_rule
    from tests.tournaments.factories import make_tournament
    from tournaments import (
        balance_checks,
        chip_counts,
        director_seats,
        draw_services,
        eliminations,
    )
    from tournaments.clock import services as clock
    from tournaments.models import EntrantStatus

    house = create_house_rule(by=floor_manager, title="Phones", text="No phones at the table.")
    # The room's own rulebook imported from its file: an edition and its rules' versions.
    imports.confirm_import(
        draft=imports.stage_import(
            by=floor_manager, name="room.txt", data=b"Rule 1: Phones\nNo calls.\n",
            code="ROOM", label="2025",
        ),
        by=floor_manager,
    )  # fmt: skip
    hand = make_hand()
    record_action(hand=hand, by=director, expected_seq=hand.seq, seat=1, action="call")
    hand.refresh_from_db()
    record_action(hand=hand, by=director, expected_seq=hand.seq, seat=2, action="call")
    hand.refresh_from_db()
    void_last_action(hand=hand, by=director, expected_seq=hand.seq, reason="Misclick.")
    ruling = log_ruling(
        table=hand.table, director=director, situation="Phone at the table.",
        decision="A warning.", citations=[(house.citation_id, "")],
    )  # fmt: skip
    tournament = make_tournament(by=director, tables=2, entrants=12)
    director_seats.reserve_seat(
        entrant=tournament.entrants.get(number=1), table=tournament.tables.get(number=1),
        seat=1, reason="Wheelchair", by=director,
    )  # fmt: skip
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    out, taker = tournament.entrants.filter(status=EntrantStatus.SEATED).order_by("number")[3:5]
    # A player holding chips is put out once they are put somewhere: the chip counts' log.
    chip_counts.move_chips(
        from_entrant=out, to_entrant=taker, chips=out.chips, reason="Lost the pot", by=director
    )
    eliminations.eliminate_player(entrant=out, by=director)
    eliminations.reinstate_player(entrant=out, by=director, reason="Misclicked Out.")
    balance_checks.check_balance(tournament_id=tournament.pk)
    clock.start_clock(tournament=tournament, by=director)
    # The structure changed while the clock runs, with who and why: its log.
    from tournaments.clock import structure

    structure.adjust_time(tournament=tournament, seconds=60, reason="Late start", by=director)
    log_ruling(  # at a table where the tournament plays: the tournament records it
        table=tournament.tables.get(number=1).table, director=director,
        situation="A card exposed on the deal.", decision="Misdeal.",
        citations=[(house.citation_id, "")],
    )  # fmt: skip
    # A colour-up: the chip race at the break, recorded with the table's counts.
    from tournaments import colour_ups

    raced = make_tournament(
        by=director, tables=1, entrants=2, first_table=301, name="Colour-up",
        levels=[{"small_blind": 25, "big_blind": 50, "minutes": 20},
                {"is_break": True, "minutes": 10},
                {"small_blind": 100, "big_blind": 200, "minutes": 20}],
    )  # fmt: skip
    draw_services.draw_initial_seating(tournament=raced, by=director)
    colour_ups.save_chip(tournament=raced, value=25, colour="green", removed_at=2, by=director)
    colour_ups.save_chip(tournament=raced, value=100, colour="black", removed_at=None, by=director)
    clock.advance_level(tournament=raced, by=director)
    colour_ups.run_chip_race(table=raced.tables.get(), by=director)
    # The payouts: a version of the table, worked out from the prices (the guarantee is the
    # pool while no entry is paid).
    from tournaments.money import payouts
    from tournaments.money.models import Prices

    Prices.objects.get_or_create(tournament=tournament, defaults={"guarantee": 100_000})
    payouts.save_table(tournament=tournament, by=director, note="First table")
    # The money ledger: an entry paid as the player registers, at the director's prices.
    from tournaments.money.prices import set_prices
    from tournaments.setup import register_entrant

    paid = make_tournament(by=director, tables=1, first_table=401, name="Paid entry")
    set_prices(tournament=paid, by=director, entry_prize=10_000, entry_fee=1_000)
    register_entrant(tournament=paid, name="Cy Paid", by=director, method="card")
    # The two left agree a deal: the deals' log, and its line in the money ledger.
    from tournaments.money.deals import record_deal

    record_deal(
        tournament=raced, method="chip_chop", prizes=[300, 200], play_for=0,
        agreed=list(raced.entrants.values_list("pk", flat=True)), by=director,
    )  # fmt: skip
    # The cash game: a player seated with a buy-in, one waiting on a list.
    from cardroom.seats import services as players
    from cardroom.waitlists import services as waitlists
    from tests.factories import make_table

    table = make_table(number=11)
    seated = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    players.seat_player(table=table, player=seated, seat=1, buy_in=100, by=floor_manager)
    players.edit_player(  # the player's log: a change to the record
        player=seated, name="Ana Ruiz", alias="Ace", contact="600 123 456", notes="",
        by=floor_manager,
    )  # fmt: skip
    game_list = waitlists.open_list(
        variant="holdem", structure="no_limit", small_blind=1, big_blind=2, by=floor_manager
    )
    waitlists.add_to_list(game_list=game_list, name="Bo Li", by=floor_manager)
    for label in audit.CHAINS:
        assert apps.get_model(label).objects.exists(), f"no {label} row in the world"
    return {"hand": hand, "ruling": ruling, "tournament": tournament, "house": house}


def verify_audit() -> list[str]:
    """The command's BREAK lines (none when it succeeds)."""
    err = StringIO()
    try:
        call_command("verify_audit", stdout=StringIO(), stderr=err)
    except CommandError:
        lines = [line for line in err.getvalue().splitlines() if line.startswith("BREAK")]
        assert lines, "verify_audit failed without naming a break"
        return lines
    return []


def tables() -> list[str]:
    return [apps.get_model(label)._meta.db_table for label in audit.CHAINS]


# --- choices -----------------------------------------------------------------------------------


def test_the_ruling_form_refuses_a_forged_kind(persona_client: Any, world: dict[str, Any]) -> None:
    original = world["ruling"]
    client = persona_client("director")
    response = client.post(
        f"/rulings/new/?amends={original.pk}",
        {
            "amends": original.pk, "kind": "forged", "table": original.table.number,
            "situation": "Second look.", "decision": "Stands.", "cite": world["house"].citation_id,
        },
    )  # fmt: skip
    assert response.status_code == 422
    assert "Choose an amendment or an appeal outcome." in response.content.decode()
    assert not Ruling.objects.filter(amends=original).exists()
    response = client.post(
        f"/rulings/new/?amends={original.pk}",
        {
            "amends": original.pk, "kind": "appeal", "table": original.table.number,
            "situation": "Appealed.", "decision": "Upheld.", "cite": world["house"].citation_id,
        },
    )  # fmt: skip
    assert response.status_code in (200, 302, 303)
    assert Ruling.objects.filter(amends=original, kind=RulingKind.APPEAL).count() == 1


def test_the_ruling_service_refuses_a_forged_kind(director: Any, world: dict[str, Any]) -> None:
    from cardroom.rulings.services import log_ruling

    with pytest.raises(ValidationError) as caught:
        log_ruling(
            table=world["hand"].table, director=director, situation="x", decision="y",
            citations=[(world["house"].citation_id, "")], amends=world["ruling"], kind="forged",
        )  # fmt: skip
    assert "kind" in caught.value.message_dict
    assert not Ruling.objects.filter(amends=world["ruling"]).exists()


def test_the_database_refuses_a_value_outside_every_choice_field(world: dict[str, Any]) -> None:
    """Every choice field of the three apps, written with a raw ``.update()`` (the append-only
    triggers out of the way): the CHECK constraint refuses it."""
    checked = []
    for label in ("cardroom", "tournaments", "rules"):
        for model in apps.get_app_config(label).get_models():
            for field in model._meta.concrete_fields:
                if not field.choices:
                    continue
                row = model._base_manager.order_by("pk").first()
                assert row is not None, f"no {model.__name__} row to try"
                with (
                    pytest.raises(IntegrityError),
                    transaction.atomic(),
                    audit.maintenance(),
                ):
                    models.QuerySet(model=model).filter(pk=row.pk).update(
                        **{field.attname: "forged"}
                    )
                checked.append(f"{model.__name__}.{field.name}")
    assert "Ruling.kind" in checked and "Draw.status" in checked and "SeatMove.reason" in checked
    assert "StructureChange.action" in checked
    assert "ChipRace.mode" in checked
    assert {"MoneyMove.kind", "MoneyMove.method", "Prices.bounty_kind"} <= set(checked)
    assert "RuleVersion.change" in checked
    assert len(checked) == 40  # every choice field of the three apps


# --- append-only in the database -----------------------------------------------------------------


@pytest.mark.parametrize("label", list(audit.CHAINS))
def test_every_audit_table_refuses_update_and_delete(label: str, world: dict[str, Any]) -> None:
    model = apps.get_model(label)
    table = model._meta.db_table
    row = model._base_manager.order_by("pk").first()
    statements = [
        f"UPDATE {table} SET row_hash = 'forged' WHERE id = %s",  # noqa: S608
        f"DELETE FROM {table} WHERE id = %s",  # noqa: S608
    ]
    for sql in statements:
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [row.pk])
    assert model._base_manager.filter(pk=row.pk, row_hash=row.row_hash).exists()


@pytest.mark.postgres
@pytest.mark.parametrize("label", list(audit.CHAINS))
def test_every_audit_table_refuses_truncate_on_postgres(label: str, world: dict[str, Any]) -> None:
    table = apps.get_model(label)._meta.db_table
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        # The rows were written in this test's transaction: their deferred foreign-key
        # checks run first (PostgreSQL refuses TRUNCATE with them pending, for another reason).
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(f"TRUNCATE {table} CASCADE")
    assert apps.get_model(label).objects.exists()


def test_a_void_is_the_one_change_an_action_allows_once(world: dict[str, Any]) -> None:
    voided = HandAction.objects.get(hand=world["hand"], voided_at__isnull=False)
    live = HandAction.objects.get(hand=world["hand"], voided_at__isnull=True)
    assert voided.seal_hash and not live.seal_hash
    refused = [
        ("UPDATE cardroom_handaction SET void_reason = 'rewritten' WHERE id = %s", voided.pk),
        (
            "UPDATE cardroom_handaction SET voided_at = entered_at, void_reason = 'x', "
            "seat = 5 WHERE id = %s",
            live.pk,
        ),
    ]
    for sql, pk in refused:
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [pk])
    live.void_reason = "edited"
    with pytest.raises(ValidationError):
        live.save()  # not a void: other fields than the void's
    assert verify_audit() == []


def test_a_sealed_row_refuses_any_further_change_with_its_models_own_error(
    world: dict[str, Any],
) -> None:
    """The once-only change (a void, a reveal) happens once: after it, saving any field, the
    sealed ones too, is the model's refusal, not the database trigger's error."""
    from tournaments.models import Draw, DrawStatus

    voided = HandAction.objects.get(hand=world["hand"], voided_at__isnull=False)
    dealt = Draw.objects.filter(tournament=world["tournament"], status=DrawStatus.REVEALED).get()
    live = HandAction.objects.get(hand=world["hand"], voided_at__isnull=True)
    sealed = "This record's one change (a void, a reveal) is made: it is never changed again."
    changes: list[tuple[Any, dict[str, Any], str]] = [
        (voided, {"void_reason": "Rewritten."}, sealed),
        (voided, {"voided_at": voided.entered_at}, sealed),
        (dealt, {"result": {"seats": []}}, "A revealed or abandoned draw is never changed."),
        (dealt, {"status": DrawStatus.ABANDONED}, "A revealed or abandoned draw is never changed."),
        # The once-only change must seal the row: a reason without a void leaves it open.
        (live, {"void_reason": "A reason and no void."}, HandAction.append_only_message),
        (live, {"seat": 5}, HandAction.append_only_message),
    ]
    for row, fields, message in changes:
        for name, value in fields.items():
            setattr(row, name, value)
        with pytest.raises(ValidationError) as refused, transaction.atomic():
            row.save(update_fields=list(fields))
        assert refused.value.messages == [message]
        row.refresh_from_db()
    assert verify_audit() == []


# --- chains and verify_audit -----------------------------------------------------------------------


#: Columns of an audit log deliberately outside its chain's hashed fields, and why. Every other
#: column is hashed (``Chain.fields``) or sealed (``Chain.sealed``): a column missing from both
#: could be rewritten through the maintenance door without ``verify_audit`` noticing.
OUTSIDE_THE_CHAIN = {
    # The row's place in its stream: ``verify_audit`` walks streams by id, and a removed or
    # inserted row shows as a ``prev_hash`` that does not match the row before it.
    "id": "the stream's order",
    # The chain itself: a hash cannot cover its own value.
    "prev_hash": "the hash of the row before",
    "row_hash": "this row's hash",
    "seal_hash": "the hash over the once-only change (sealed logs only)",
}


@pytest.mark.parametrize("label", list(audit.CHAINS))
def test_every_column_of_an_audit_log_is_in_its_chain_or_deliberately_outside(label: str) -> None:
    model = apps.get_model(label)
    chain = audit.CHAINS[label]
    columns = [f.attname for f in model._meta.concrete_fields]
    covered = {*chain.fields, *chain.sealed}
    unhashed = [c for c in columns if c not in covered and c not in OUTSIDE_THE_CHAIN]
    assert unhashed == [], f"{label}: columns neither hashed nor listed outside the chain"
    assert covered <= set(columns), f"{label}: the chain names columns the model lacks"
    assert chain.stream in chain.fields
    assert not covered & set(OUTSIDE_THE_CHAIN), f"{label}: a hash field is hashed"


def test_every_append_only_model_declares_a_chain() -> None:
    from cardroom.core.append_only import AppendOnly

    logs = {m._meta.label for m in apps.get_models() if issubclass(m, AppendOnly)}
    assert logs == set(audit.CHAINS)


def test_every_stream_is_chained_and_verifies(world: dict[str, Any]) -> None:
    from tournaments.models import SeatMove

    moves = list(SeatMove.objects.filter(tournament=world["tournament"]).order_by("pk"))
    assert len(moves) > 12 and moves[0].prev_hash == ""
    assert all(b.prev_hash == a.row_hash for a, b in itertools.pairwise(moves))
    assert len({move.row_hash for move in moves}) == len(moves)
    out = StringIO()
    call_command("verify_audit", stdout=out)
    assert "Audit logs intact" in out.getvalue()


def test_two_rows_can_never_fork_a_stream(world: dict[str, Any]) -> None:
    from tournaments.models import ClockEvent

    last = ClockEvent.objects.order_by("-pk").first()
    twin = ClockEvent(tournament_id=last.tournament_id, action="paused", level_number=1)
    twin.prev_hash, twin.row_hash = last.prev_hash, "0" * 64
    with pytest.raises(IntegrityError), transaction.atomic():
        models.QuerySet(model=ClockEvent).bulk_create([twin])


def test_an_edit_through_the_maintenance_door_is_caught(world: dict[str, Any]) -> None:
    ruling = world["ruling"]
    with audit.maintenance():
        models.QuerySet(model=Ruling).filter(pk=ruling.pk).update(decision="A penalty.")
    assert verify_audit() == [
        f"BREAK cardroom_ruling row {ruling.pk}: contents changed: row_hash does not match "
        "its fields"
    ]


def test_a_removed_row_breaks_the_chain_after_it(world: dict[str, Any]) -> None:
    from tournaments.models import SeatMove

    first, second = SeatMove.objects.order_by("pk")[:2]
    with audit.maintenance():
        models.QuerySet(model=SeatMove).filter(pk=first.pk).delete()
    (found,) = verify_audit()
    assert found.startswith(f"BREAK tournaments_seatmove row {second.pk}: prev_hash")


def test_a_rewritten_draw_result_is_caught(world: dict[str, Any]) -> None:
    from tournaments.models import Draw

    draw = Draw.objects.get(tournament=world["tournament"])
    result = {**draw.result, "forged": True}
    with audit.maintenance():
        models.QuerySet(model=Draw).filter(pk=draw.pk).update(result=result)
    found = verify_audit()
    assert found and all(
        line.startswith(f"BREAK tournaments_draw row {draw.pk}:") for line in found
    )


@pytest.mark.postgres
def test_postgres_raw_sql_edit_with_the_triggers_disabled_is_caught(
    world: dict[str, Any],
) -> None:
    """An attacker with the table owner's rights: triggers off, one row edited,
    triggers on. ``verify_audit`` names exactly that row."""
    from tournaments.models import SeatMove

    assert verify_audit() == []
    target = SeatMove.objects.filter(tournament=world["tournament"]).order_by("pk")[5]
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the world's pending FK checks first
        cursor.execute("ALTER TABLE tournaments_seatmove DISABLE TRIGGER USER")
        cursor.execute(
            "UPDATE tournaments_seatmove SET to_seat = to_seat + 1 WHERE id = %s", [target.pk]
        )
        cursor.execute("ALTER TABLE tournaments_seatmove ENABLE TRIGGER USER")
    assert verify_audit() == [
        f"BREAK tournaments_seatmove row {target.pk}: contents changed: row_hash does not match "
        "its fields"
    ]
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE tournaments_seatmove SET note = 'x' WHERE id = %s", [target.pk])


def test_the_data_migration_chains_rows_written_before_the_chains(world: dict[str, Any]) -> None:
    """Rows with no chain yet (as before the migration) are linked as if written since."""
    from types import SimpleNamespace

    from django.db.models import CharField, Value
    from django.db.models.functions import Cast, Concat

    from tournaments.models import SeatMove

    before = list(SeatMove.objects.order_by("pk").values_list("prev_hash", "row_hash"))
    with audit.maintenance():  # unlinked (each prev_hash unique, as the constraint wants)
        models.QuerySet(model=SeatMove).update(
            prev_hash=Concat(Value("x"), Cast("id", CharField())), row_hash=""
        )
    assert verify_audit()
    with audit.maintenance():
        audit.chain_existing("tournaments", ["SeatMove"]).code(
            apps, SimpleNamespace(connection=connection)
        )
    assert list(SeatMove.objects.order_by("pk").values_list("prev_hash", "row_hash")) == before
    assert verify_audit() == []
