"""Balancing (TDA 11): what the seating needs now (a ``BalanceCheck``), and the moves that
apply it. The moves themselves are ``tournaments.draws.balancing``, pure Python."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.director_seats import live_assignment, move_entrant
from tournaments.draws.balancing import BalancePolicy, Game, SeatedPlayer, balance, tables_to_halt
from tournaments.draws.breaks import (
    tables_to_break,
)
from tournaments.draws.errors import (
    BALANCING,
    BALANCING_HALT,
    BALANCING_PROCEDURE,
    BREAKING_TABLES,
    DrawError,
)
from tournaments.draws.seats import SeatRef
from tournaments.models import (
    BalanceCheck,
    BalancingPolicy,
    MoveReason,
    SeatAssignment,
    SeatMove,
    Tournament,
    TournamentStatus,
    TournamentTableStatus,
)
from tournaments.seating import (
    FINAL_TABLE,
    Seating,
    cite,
    load_seating,
    lock_tournament,
    mark_seating_changed,
    recently_moved,
)


def _game(tournament: Tournament) -> Game:
    if tournament.mixed_game:
        return Game.MIXED
    return Game.STUD if tournament.is_stud else Game.FLOP


def _policy(tournament: Tournament) -> BalancePolicy:
    if tournament.balancing_policy == BalancingPolicy.FEWEST_MOVES:
        return BalancePolicy.KEEP_POSITION
    return BalancePolicy.TDA


def check_balance(*, tournament_id: int) -> BalanceCheck:
    """What balancing needs now: tables to break (in the published order), the final-table
    redraw, or the moves of TDA 11; and tables that must halt (11-D). Recorded, not applied."""
    with transaction.atomic():
        locked = lock_tournament(tournament_id)
        seating = load_seating(locked)  # players per table; who sits where only if needed
        counts = seating.counts
        players = sum(counts.values())
        in_play = sorted(seating.tables)
        size = locked.final_table_size or locked.seats_per_table
        moves: list[dict[str, Any]] = []
        to_break: list[int] = []
        halt: list[int] = []
        final = False
        citations = [BALANCING, BALANCING_PROCEDURE]
        if locked.status == TournamentStatus.RUNNING and players:
            to_break = tables_to_break(
                players, in_play, locked.seats_per_table, locked.break_order, size
            )
            if to_break and len(in_play) - len(to_break) == 1:
                final, to_break = True, []
                citations.append(FINAL_TABLE)
            elif to_break:
                citations.append(BREAKING_TABLES)
            elif max(counts.values()) - min(counts.values()) > 1:
                moves, layout = _balancing_moves(locked, seating)
                halt = tables_to_halt(layout)
                if halt:
                    citations.append(BALANCING_HALT)
        return BalanceCheck.objects.create(
            tournament=locked, moves=moves, tables_to_break=to_break, tables_to_halt=halt,
            final_table=final, citations=cite(*citations), counts={str(n): c for n, c in counts.items()},
            seating_version=locked.seating_version,
        )  # fmt: skip


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Hold the cyclic garbage collector while a whole field is turned into objects.

    Ten thousand short-lived seats with no reference cycles are freed by reference counting
    anyway; a full collection triggered halfway would scan the whole process heap and double
    the time of a balancing check."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _balancing_moves(
    tournament: Tournament, seating: Seating
) -> tuple[list[dict[str, Any]], dict[int, list[SeatedPlayer]]]:
    """TDA 11 moves over every table. Players are entrant ids here (one light query for 10,000
    seats), entry numbers in the moves recorded."""
    with _no_gc_pauses():
        return _balancing_moves_of(tournament, seating)


def _balancing_moves_of(
    tournament: Tournament, seating: Seating
) -> tuple[list[dict[str, Any]], dict[int, list[SeatedPlayer]]]:
    recent = set(recently_moved(tournament, timezone.now(), numbers=False))
    number_of = {info.pk: number for number, info in seating.tables.items()}
    layout: dict[int, list[SeatedPlayer]] = {number: [] for number in seating.tables}
    for entrant_id, table_id, seat in SeatAssignment.objects.filter(
        tournament=tournament, ended_at__isnull=True
    ).values_list("entrant_id", "table_id", "seat"):
        layout[number_of[table_id]].append(SeatedPlayer(entrant_id, seat, entrant_id in recent))
    moves = balance(
        layout,
        seats={n: seating.seat_numbers(n) for n in seating.tables},
        buttons={n: t.button or 1 for n, t in seating.tables.items()},
        game=_game(tournament),
        policy=_policy(tournament),
        balancing_order=tournament.balancing_order,
        last_opened=_last_opened(tournament) if tournament.is_stud else None,
        forbidden=frozenset(seating.reserved),
    )
    numbers: dict[int | str, int] = dict(
        tournament.entrants.filter(pk__in=[m.player for m in moves]).values_list("pk", "number")
    )
    return [{**move.to_dict(), "player": numbers[move.player]} for move in moves], layout


def _last_opened(tournament: Tournament) -> dict[int, list[int]]:
    """Each active table's seats in the order they were vacated (stud fills the last, 11-B)."""
    opened: dict[int, list[int]] = {}
    for table, seat in (
        SeatAssignment.objects.filter(
            tournament=tournament,
            ended_at__isnull=False,
            table__status=TournamentTableStatus.ACTIVE,
        )
        .order_by("ended_at", "id")
        .values_list("table__number", "seat")
    ):
        seats = opened.setdefault(table, [])
        if seat in seats:
            seats.remove(seat)
        seats.append(seat)
    return opened


def apply_balance(*, check: BalanceCheck, by: User) -> list[SeatMove]:
    """Make the moves of a balancing check (one click). A check made before the seating last
    changed is stale: check again and look before moving anyone."""
    with transaction.atomic():
        locked = lock_tournament(check.tournament_id)
        if check.seating_version != locked.seating_version:
            raise DrawError(
                "stale_check", "The seating changed since this check; check again.",
                BALANCING_PROCEDURE,
            )  # fmt: skip
        if not check.moves:
            raise DrawError("nothing_to_move", "The tables are balanced.", BALANCING)
        entrants = {
            e.number: e
            for e in locked.entrants.filter(number__in=[m["player"] for m in check.moves])
        }
        tables = dict(locked.tables.values_list("number", "pk"))
        made = []
        try:
            with transaction.atomic():
                for move in check.moves:
                    mover, to = entrants[move["player"]], SeatRef.from_dict(move["to"])
                    live = live_assignment(mover.pk)
                    taken = SeatAssignment.objects.filter(
                        table_id=tables[to.table], seat=to.seat, ended_at__isnull=True
                    ).exists()
                    if (
                        live is None
                        or SeatRef(*live[1:]) != SeatRef.from_dict(move["from"])
                        or taken
                    ):
                        raise DrawError("stale_check", "The seating changed; check again.")
                    made.append(
                        move_entrant(
                            locked,
                            mover,
                            to,
                            tables[to.table],
                            by,
                            reason=MoveReason.BALANCE,
                            note=move["reason"],
                            citations=move["citations"],
                        )
                    )
        except IntegrityError as exc:
            raise DrawError(
                "seat_taken", "A seat was taken at the same moment; check again."
            ) from exc
        mark_seating_changed(locked)
    return made
