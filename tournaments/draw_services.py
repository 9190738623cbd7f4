"""Tournament draws: commit (a sealed seed and its published commitment), then deal and reveal;
verification replays a revealed draw. The draw itself is ``tournaments.draws``, pure Python."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Max
from django.utils import timezone

from cardroom.core import audit
from cardroom.core.transitions import move
from rules.engine.seat_order import clockwise_from
from tournaments.draws.breaks import (
    seat_cards_for_break,
    tables_needed,
)
from tournaments.draws.errors import (
    ALGORITHM,
    ALTERNATES_AND_LATE_ENTRIES,
    BREAKING_TABLES,
    DOUBLE_BLIND,
    FINAL_TABLE_SIZE,
    MOVED_PLAYER_SEAT,
    RANDOM_SEATING,
    SPECIAL_NEEDS,
    DrawError,
)
from tournaments.draws.replay import Verification, replay, verify_revealed
from tournaments.draws.seat_draws import refuse_too_few_seats
from tournaments.draws.seats import SeatRef
from tournaments.draws.seeds import commitment_for, new_seed
from tournaments.eliminations import recompute_places
from tournaments.models import (
    Draw,
    DrawKind,
    DrawStatus,
    Entrant,
    EntrantStatus,
    MoveReason,
    SeatAssignment,
    SeatMove,
    Tournament,
    TournamentStatus,
    TournamentTable,
    TournamentTableStatus,
)
from tournaments.seating import (
    FINAL_TABLE,
    Seating,
    cite,
    load_seating,
    lock_tournament,
    mark_seating_changed,
    refuse_if_in_hand,
    refuse_if_withdrawn,
    seat_dicts,
)

#: The pure draw each kind of tournament draw runs (``replay`` knows them by these names).
PURE_KIND: dict[str, str] = {
    DrawKind.INITIAL: "initial_seating",
    DrawKind.LATE_ENTRY: "open_seats",
    DrawKind.BREAK_TABLE: "break_table",
    DrawKind.FINAL_TABLE: "initial_seating",
}


MOVE_REASON: dict[str, str] = {
    DrawKind.INITIAL: MoveReason.INITIAL_DRAW,
    DrawKind.LATE_ENTRY: MoveReason.LATE_ENTRY,
    DrawKind.BREAK_TABLE: MoveReason.BREAK_TABLE,
    DrawKind.FINAL_TABLE: MoveReason.FINAL_TABLE,
}


DRAW_CITATIONS: dict[str, tuple[str, ...]] = {
    DrawKind.INITIAL: (RANDOM_SEATING, SPECIAL_NEEDS),
    DrawKind.LATE_ENTRY: (ALTERNATES_AND_LATE_ENTRIES, SPECIAL_NEEDS),
    DrawKind.BREAK_TABLE: (BREAKING_TABLES, MOVED_PLAYER_SEAT, DOUBLE_BLIND),
    DrawKind.FINAL_TABLE: (RANDOM_SEATING, FINAL_TABLE_SIZE),
}


# --- draws: commit, then deal and reveal ------------------------------------------------------


def _dealing_order(seating: Seating, table: int) -> list[int]:
    """The players at a table in the order the dealer deals them a card: left of the button
    first (rising seat numbers, clockwise), the button last."""
    occupied = seating.by_table[table]
    button = seating.tables[table].button or 0
    return [occupied[s].player for s in clockwise_from(button, occupied)]


def _draw_inputs(
    seating: Seating, kind: str, *, table: int | None = None, entrants: Sequence[int] = ()
) -> dict[str, Any]:
    """Everything the draw depends on, as committed before the deal. The same call at the deal
    must give the same inputs, or the field changed in between and the draw is abandoned."""
    reserved = frozenset(seating.reserved)
    context: dict[str, Any] = {
        "reserved": seat_dicts(reserved),
        "reserved_for": [seating.reserved[seat] for seat in sorted(reserved)],
        "seating_version": seating.tournament.seating_version,
    }
    if kind == DrawKind.INITIAL:
        pure = _initial_inputs(seating, reserved)
    elif kind == DrawKind.LATE_ENTRY:
        pure = _late_entry_inputs(seating, reserved, entrants, context)
    elif kind == DrawKind.BREAK_TABLE:
        pure = _break_inputs(seating, reserved, table, context)
    elif kind == DrawKind.FINAL_TABLE:
        pure = _final_table_inputs(seating)
    else:
        raise DrawError("unknown_kind", f"No draw of kind {kind!r}.")
    return {
        "kind": PURE_KIND[kind],
        "algorithm": ALGORITHM,
        "input": pure,
        "context": context,
    }


def _initial_inputs(seating: Seating, reserved: frozenset[SeatRef]) -> dict[str, Any]:
    """TDA 7: every registered player not holding a reserved seat, every seat not reserved."""
    tournament = seating.tournament
    if tournament.status != TournamentStatus.REGISTERING or any(seating.counts.values()):
        raise DrawError("already_drawn", "The initial draw has been made.", RANDOM_SEATING)
    held = set(seating.reserved.values())
    players = sorted(
        number
        # An entry refunded before the draw is not drawn (``money.payments.refund_entry``).
        # Registered only: a withdrawn entry (refunded before the draw) is never drawn.
        for number in tournament.entrants.filter(status=EntrantStatus.REGISTERED).values_list(
            "number", flat=True
        )
        if number not in held
    )
    if not players and not held:
        raise DrawError("no_entrants", "Register players before the draw.", RANDOM_SEATING)
    return {
        "entrants": players,
        "tables": [
            {
                "table": number,
                "seats": [
                    s for s in seating.seat_numbers(number) if SeatRef(number, s) not in reserved
                ],
            }
            for number in sorted(seating.tables)
        ],
    }


def _late_entry_inputs(
    seating: Seating,
    reserved: frozenset[SeatRef],
    entrants: Sequence[int],
    context: dict[str, Any],
) -> dict[str, Any]:
    """TDA 8-A: the waiting players and the open seats, those where a newcomer would wait for
    the button left out while there are enough others (noted in ``context``)."""
    tournament = seating.tournament
    if tournament.status == TournamentStatus.REGISTERING:
        raise DrawError("not_started", "Make the initial draw first.", RANDOM_SEATING)
    players = sorted(entrants)
    if not players:
        raise DrawError("no_entrants", "No late entries are waiting.", ALTERNATES_AND_LATE_ENTRIES)
    open_seats = [
        SeatRef(number, seat) for number in sorted(seating.tables)
        for seat in seating.open_seats(number)
    ]  # fmt: skip
    waiting = seating.waiting_seats()
    forbidden = reserved | waiting
    if len([s for s in open_seats if s not in forbidden]) < len(players):
        # Not enough seats where they are dealt in at once: they may take those too, and
        # sit out until the button passes (TDA 8-A).
        forbidden = reserved
    refuse_too_few_seats(len(players), len([s for s in open_seats if s not in forbidden]))
    context["waits_for_button"] = seat_dicts(set(open_seats) & (waiting - forbidden))
    return {
        "entrants": players,
        "open_seats": seat_dicts(open_seats),
        "forbidden": seat_dicts(forbidden & set(open_seats)),
        "seated": [
            {"table": number, "players": count} for number, count in sorted(seating.counts.items())
        ],
    }


def _break_inputs(
    seating: Seating, reserved: frozenset[SeatRef], table: int | None, context: dict[str, Any]
) -> dict[str, Any]:
    """TDA 10 and 10-A: the breaking table's players in dealing order and the seat cards of the
    receiving tables (those where a mover would wait for the button noted in ``context``)."""
    tournament = seating.tournament
    if table not in seating.tables:
        raise DrawError("unknown_table", f"Table {table} is not in play.", BREAKING_TABLES)
    if len(seating.tables) < 2:
        raise DrawError("last_table", "The last table cannot break.", BREAKING_TABLES)
    players = _dealing_order(seating, table)
    if not players:
        raise DrawError("empty_table", f"Table {table} has no players.", BREAKING_TABLES)
    # Only tables with an open seat can receive; full ones change nothing in the choice.
    layout = seating.seated_players()
    seat_map = {number: seating.seat_numbers(number) for number in layout}
    waiting = seating.waiting_seats()
    room = [
        SeatRef(n, s) for n in layout if n != table for s in seating.open_seats(n)
    ]  # fmt: skip
    forbidden = reserved | waiting
    if len([seat for seat in room if seat not in forbidden]) < len(players):
        # Too few seats where movers are dealt in at once: use those too (TDA 10-A).
        forbidden = reserved
    receiving = seat_cards_for_break(
        layout, seats=seat_map, breaking_table=table, forbidden=forbidden,
        balancing_order=tournament.balancing_order,
    )  # fmt: skip
    context["waits_for_button"] = seat_dicts(set(receiving) & waiting)
    return {
        "breaking_table": table,
        "players": players,
        "receiving_seats": seat_dicts(receiving),
        "forbidden": [],
    }


def _final_table_inputs(seating: Seating) -> dict[str, Any]:
    """TDA RP-9: every live player, redrawn for the seats of the final table."""
    tournament = seating.tournament
    players = sorted(seating.live)
    size = tournament.final_table_size or tournament.seats_per_table
    if len(seating.tables) < 2:
        raise DrawError("one_table", "Play is already on one table.", FINAL_TABLE)
    if tables_needed(len(players), tournament.seats_per_table, size) != 1:
        raise DrawError(
            "too_many_players",
            f"{len(players)} players left: the final table seats {size} (TDA RP-9).",
            FINAL_TABLE,
        )
    final = [n for n in tournament.break_order if n in seating.tables][-1]
    return {
        "entrants": players,
        "tables": [{"table": final, "seats": list(range(1, size + 1))}],
    }


def commit_draw(
    *,
    tournament: Tournament,
    kind: str,
    by: User,
    table: int | None = None,
    entrants: Sequence[Entrant] | None = None,
) -> Draw:
    """Seal a fresh secret seed and publish its commitment with the draw's inputs: nothing is
    dealt yet. ``deal_draw`` then makes the draw and reveals the seed."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        seating = load_seating(
            locked, everyone=kind == DrawKind.FINAL_TABLE, at=[table] if table else []
        )
        numbers: list[int] = []
        if kind == DrawKind.LATE_ENTRY:
            # Registered only: a withdrawn entry (refunded before the draw) is never drawn.
            waiting = locked.entrants.filter(status=EntrantStatus.REGISTERED).exclude(
                number__in=list(seating.reserved.values())
            )
            if entrants is not None:
                for named in Entrant.objects.filter(pk__in=[e.pk for e in entrants]):
                    refuse_if_withdrawn(named, doing="draw them a seat")
                waiting = waiting.filter(pk__in=[e.pk for e in entrants])
                if waiting.count() != len(entrants):
                    raise DrawError(
                        "not_waiting", "Only registered players not yet seated can be drawn.",
                        ALTERNATES_AND_LATE_ENTRIES,
                    )  # fmt: skip
            numbers = list(waiting.values_list("number", flat=True))
        inputs = _draw_inputs(seating, kind, table=table, entrants=numbers)
        seed = new_seed()
        number = (locked.draws.aggregate(n=Max("number"))["n"] or 0) + 1
        return Draw.objects.create(
            tournament=locked, number=number, kind=kind,
            commitment=commitment_for(seed, inputs), seed=seed, inputs=inputs,
            citations=cite(*_rules_applied(kind, inputs)), committed_by=by,
        )  # fmt: skip


def _rules_applied(kind: str, inputs: Mapping[str, Any]) -> list[str]:
    """The draw's rules; TDA 9 only when a reserved seat was kept out of it."""
    rules = list(DRAW_CITATIONS[kind])
    if not inputs["context"]["reserved"] and SPECIAL_NEEDS in rules:
        rules.remove(SPECIAL_NEEDS)
    return rules


def deal_draw(*, draw: Draw, by: User) -> Draw:
    """Make a committed draw: the same inputs as committed, the sealed seed, then reveal.

    If the seating changed since the commitment (a bust, another draw), the draw is abandoned
    (kept on record) and ``DrawError("stale_draw")`` asks for a new commitment."""
    stale = False
    with transaction.atomic():
        locked = lock_tournament(draw.tournament_id)
        draw = Draw.objects.get(pk=draw.pk)
        if draw.status != DrawStatus.COMMITTED:
            raise DrawError("not_committed", f"{draw} was already {draw.get_status_display()}.")
        current: dict[str, Any] | None = draw.inputs
        if draw.kind == DrawKind.INITIAL:
            # Registrations do not move anyone: read the field again.
            try:
                current = _draw_inputs(load_seating(locked), draw.kind)
            except DrawError:
                current = None
        elif draw.inputs["context"]["seating_version"] != locked.seating_version:
            current = None  # someone sat down, moved or busted since the commitment
        if current != draw.inputs:
            draw.status = DrawStatus.ABANDONED
            draw.save(update_fields=["status"])
            stale = True
        else:
            record = _run(draw)
            try:
                with transaction.atomic():
                    _apply_draw(locked, draw, record, by)
            except IntegrityError as exc:
                # Only reachable without the tournament lock: the live-seat constraint holds.
                raise DrawError(
                    "seat_taken", "Another change took one of these seats at the same moment; "
                    "commit the draw again.",
                ) from exc  # fmt: skip
            draw.result = record
            draw.status = DrawStatus.REVEALED
            draw.revealed_at = timezone.now()
            draw.save(update_fields=["result", "status", "revealed_at"])
    if stale:
        raise DrawError(
            "stale_draw",
            f"The seating changed since draw {draw.number} was committed; it is abandoned. "
            "Commit a new draw.",
            *DRAW_CITATIONS[draw.kind],
        )
    return draw


def run_draw(
    *,
    tournament: Tournament,
    kind: str,
    by: User,
    table: int | None = None,
    entrants: Sequence[Entrant] | None = None,
) -> Draw:
    """Commit and deal in one go (the API's one-step form, and the bench)."""
    draw = commit_draw(tournament=tournament, kind=kind, by=by, table=table, entrants=entrants)
    return deal_draw(draw=draw, by=by)


def draw_initial_seating(*, tournament: Tournament, by: User) -> Draw:
    return run_draw(tournament=tournament, kind=DrawKind.INITIAL, by=by)


def draw_late_entries(
    *, tournament: Tournament, by: User, entrants: Sequence[Entrant] | None = None
) -> Draw:
    return run_draw(tournament=tournament, kind=DrawKind.LATE_ENTRY, by=by, entrants=entrants)


def break_table(*, table: TournamentTable, by: User) -> Draw:
    return run_draw(
        tournament=table.tournament, kind=DrawKind.BREAK_TABLE, by=by, table=table.number
    )


def redraw_final_table(*, tournament: Tournament, by: User) -> Draw:
    return run_draw(tournament=tournament, kind=DrawKind.FINAL_TABLE, by=by)


def _run(draw: Draw) -> dict[str, Any]:
    """The pure draw from the sealed seed and the committed inputs; its audit record."""
    return replay({**draw.inputs, "seed": draw.seed}).to_dict()


def _apply_draw(tournament: Tournament, draw: Draw, record: Mapping[str, Any], by: User) -> None:
    """Seat the draw's result: end the movers' old seats, write the new ones and the moves."""
    now = timezone.now()
    waits = {SeatRef.from_dict(s) for s in draw.inputs["context"].get("waits_for_button", [])}
    reason = MOVE_REASON[draw.kind]
    placed = [
        (entry["player"], SeatRef(entry["table"], entry["seat"]), entry.get("card"), reason)
        for entry in record["result"]
    ]
    if draw.kind == DrawKind.INITIAL:
        # TDA 9: players with a reserved seat sit there; the draw never offered those seats.
        placed += [
            (player, SeatRef.from_dict(seat), None, MoveReason.RESERVED)
            for seat, player in zip(
                draw.inputs["context"]["reserved"],
                draw.inputs["context"]["reserved_for"],
                strict=True,
            )
        ]
    players = {player for player, *_ in placed}
    ids = dict(tournament.entrants.filter(number__in=players).values_list("number", "id"))
    live = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    if draw.kind != DrawKind.FINAL_TABLE:  # the final table redraw reseats everyone
        live = live.filter(entrant_id__in=list(ids.values()))
    ending = {
        number: (pk, table, seat)
        for pk, number, table, seat in live.values_list(
            "pk", "entrant__number", "table__number", "seat"
        )
    }
    if ending:
        # A break or the final-table redraw moves players with their chips: never out of a
        # hand still being played at the desk.
        refuse_if_in_hand(tournament, list(ids.values()), doing="move them")
        SeatAssignment.objects.filter(pk__in=[pk for pk, _, _ in ending.values()]).update(
            ended_at=now
        )
    tables = dict(
        tournament.tables.filter(number__in={seat.table for _, seat, _, _ in placed}).values_list(
            "number", "pk"
        )
    )
    citations = {reason: draw.citations, MoveReason.RESERVED: cite(SPECIAL_NEEDS)}
    _insert(
        SeatAssignment,
        [
            {
                "tournament_id": tournament.pk,
                "entrant_id": ids[player],
                "table_id": tables[seat.table],
                "seat": seat.seat,
                "draw_id": draw.pk,
                "reason": why,
                "waits_for_button": seat in waits,
                "started_at": now,
            }
            for player, seat, _, why in placed
        ],
    )
    _insert(
        SeatMove,
        [
            {
                "tournament_id": tournament.pk,
                "entrant_id": ids[player],
                "from_table": ending[player][1] if player in ending else None,
                "from_seat": ending[player][2] if player in ending else None,
                "to_table": seat.table,
                "to_seat": seat.seat,
                "reason": why,
                "note": _move_note(card, seat in waits, why),
                "citations": citations[why],
                "draw_id": draw.pk,
                "by_id": by.pk,
                "at": now,
            }
            for player, seat, card, why in placed
        ],
    )
    Entrant.objects.filter(pk__in=list(ids.values()), status=EntrantStatus.REGISTERED).update(
        status=EntrantStatus.SEATED
    )
    if draw.kind == DrawKind.BREAK_TABLE:
        tournament.tables.filter(number=draw.inputs["input"]["breaking_table"]).update(
            status=TournamentTableStatus.BROKEN, broken_at=now
        )
    if draw.kind == DrawKind.FINAL_TABLE:
        final = draw.inputs["input"]["tables"][0]["table"]
        TournamentTable.objects.filter(tournament=tournament).exclude(number=final).filter(
            status=TournamentTableStatus.ACTIVE
        ).update(status=TournamentTableStatus.BROKEN, broken_at=now)
        move(tournament, TournamentStatus.FINAL_TABLE)
        if tournament.registration_closed_at is None:
            # Nobody enters at the final table: registration closes and places are fixed.
            tournament.registration_closed_at = now
            tournament.save(update_fields=["registration_closed_at"])
            recompute_places(tournament)
    if draw.kind == DrawKind.INITIAL:
        move(tournament, TournamentStatus.RUNNING)
    mark_seating_changed(tournament)


def _move_note(card: str | None, waits: bool, reason: str) -> str:
    notes = []
    if card:
        notes.append(f"Dealt the {card}.")
    if waits:
        notes.append("Sits out until the button passes (TDA 8-A, 10-A).")
    if reason == MoveReason.RESERVED:
        notes.append("Seat reserved for special needs.")
    return " ".join(notes)


def _insert(model: type[models.Model], rows: list[dict[str, Any]]) -> None:
    """Insert rows with one ``executemany``. ``bulk_create`` builds a model instance per row
    (about 100 µs each) and an opening draw of 10,000 players writes 20,000 rows; values that
    are not plain numbers or text are prepared by their field, as the ORM would."""
    if not rows:
        return
    if model._meta.label in audit.CHAINS:  # an audit log: each row chained (cardroom/core/audit.py)
        audit.link_rows(model, rows)
    meta = model._meta
    fields = [cast("models.Field[Any, Any]", meta.get_field(name)) for name in rows[0]]  # concrete
    prepared: dict[tuple[str, int], Any] = {}

    def value(field: Any, raw: Any) -> Any:
        if raw is None or isinstance(raw, int | str):
            return raw
        key = (field.attname, id(raw))
        if key not in prepared:  # repeated objects (the time, the citations) once each
            prepared[key] = field.get_db_prep_save(raw, connection)
        return prepared[key]

    quote = connection.ops.quote_name
    columns = ", ".join(quote(cast(str, field.column)) for field in fields)  # concrete: a column
    # Only the model's own table and column names go into the text; values are parameters.
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"  # noqa: S608
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, [[value(f, row[f.attname]) for f in fields] for row in rows])


# --- verification -----------------------------------------------------------------------------


def verify_draw(draw: Draw) -> Verification:
    """Replay a revealed draw from its seed and committed inputs (nothing is written)."""
    return verify_revealed(
        seed=draw.public_seed, commitment=draw.commitment, inputs=draw.inputs, result=draw.result
    )
