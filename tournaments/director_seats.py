"""Seats by the director: reservations (TDA 9), wrong seats (TDA 7), the button."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cardroom.core.reasons import clean_reason
from tournaments.draws.errors import (
    SPECIAL_NEEDS,
    DrawError,
)
from tournaments.draws.seats import SeatRef
from tournaments.models import (
    Entrant,
    EntrantStatus,
    MoveReason,
    SeatAssignment,
    SeatMove,
    SeatReservation,
    Tournament,
    TournamentStatus,
    TournamentTable,
    TournamentTableStatus,
)
from tournaments.seating import (
    WRONG_SEAT,
    cite,
    load_seating,
    lock_tournament,
    mark_seating_changed,
    refuse_if_in_hand,
    refuse_if_withdrawn,
)


def reserve_seat(
    *, entrant: Entrant, table: TournamentTable, seat: int, reason: str, by: User
) -> SeatReservation:
    """TDA 9: reserve a seat for a player with special needs. Before the draw the seat is kept
    out of it; once play has begun the player is seated there now."""
    reason = clean_reason(reason, "Say what the special need is.")
    with transaction.atomic():
        locked = lock_tournament(entrant.tournament_id)
        entrant = Entrant.objects.get(pk=entrant.pk)
        table = TournamentTable.objects.get(pk=table.pk)
        if table.tournament_id != locked.pk or table.status != TournamentTableStatus.ACTIVE:
            raise DrawError("unknown_table", f"{table} is not in play.", SPECIAL_NEEDS)
        if not 1 <= seat <= table.seats:
            raise DrawError("bad_seat", f"{table} has seats 1 to {table.seats}.", SPECIAL_NEEDS)
        if entrant.status == EntrantStatus.ELIMINATED:
            raise DrawError("eliminated", f"{entrant} is out of the tournament.", SPECIAL_NEEDS)
        refuse_if_withdrawn(entrant, doing="hold a seat for them")
        seating = load_seating(locked, at=[table.number])
        occupant = seating.by_table[table.number].get(seat)
        if occupant is not None and occupant.entrant_id != entrant.pk:
            raise DrawError("seat_taken", f"{table} seat {seat} is taken.", SPECIAL_NEEDS)
        holder = seating.reserved.get(SeatRef(table.number, seat))
        if holder is not None and holder != entrant.number:
            raise DrawError("seat_reserved", f"{table} seat {seat} is reserved.", SPECIAL_NEEDS)
        reservation = SeatReservation.objects.create(
            tournament=locked, entrant=entrant, table=table, seat=seat, reason=reason,
            by=by,
        )  # fmt: skip
        if locked.status != TournamentStatus.REGISTERING and occupant is None:
            move_entrant(
                locked, entrant, SeatRef(table.number, seat), table.pk, by,
                reason=MoveReason.RESERVED, note=reason, citations=cite(SPECIAL_NEEDS),
            )  # fmt: skip
            mark_seating_changed(locked)
    return reservation


def live_assignment(entrant_id: int) -> tuple[int, int, int] | None:
    """The entrant's live assignment: (id, table number, seat), or None."""
    return (
        SeatAssignment.objects.filter(entrant_id=entrant_id, ended_at__isnull=True)
        .values_list("pk", "table__number", "seat")
        .first()
    )


def move_entrant(
    tournament: Tournament,
    entrant: Entrant,
    to: SeatRef,
    table_pk: int,
    by: User,
    *,
    reason: str,
    note: str,
    citations: list[dict[str, str]],
) -> SeatMove:
    now = timezone.now()
    live = live_assignment(entrant.pk)
    if live is not None:
        refuse_if_in_hand(tournament, [entrant.pk], doing="move them")
        SeatAssignment.objects.filter(pk=live[0]).update(ended_at=now)
    SeatAssignment.objects.create(
        tournament=tournament, entrant=entrant, table_id=table_pk, seat=to.seat, reason=reason,
        started_at=now,
    )  # fmt: skip
    if entrant.status != EntrantStatus.SEATED:
        entrant.status = EntrantStatus.SEATED
        entrant.save(update_fields=["status"])
    return SeatMove.objects.create(
        tournament=tournament, entrant=entrant,
        from_table=live[1] if live else None, from_seat=live[2] if live else None,
        to_table=to.table, to_seat=to.seat, reason=reason, note=note, citations=citations,
        by=by, at=now,
    )  # fmt: skip


def correct_wrong_seat(
    *, entrant: Entrant, found_table: int, found_seat: int, by: User, note: str = ""
) -> SeatMove:
    """TDA 7: a player found in the wrong seat moves to the assigned seat with the current
    stack. The assignment stands; the move is recorded."""
    with transaction.atomic():
        locked = lock_tournament(entrant.tournament_id)
        live = live_assignment(entrant.pk)
        if live is None:
            raise DrawError("not_seated", f"{entrant} has no seat to go to.", WRONG_SEAT)
        _, table, seat = live
        if (table, seat) == (found_table, found_seat):
            raise DrawError("right_seat", f"{entrant} is in the assigned seat.", WRONG_SEAT)
        return SeatMove.objects.create(
            tournament=locked, entrant_id=entrant.pk, from_table=found_table,
            from_seat=found_seat, to_table=table, to_seat=seat,
            reason=MoveReason.WRONG_SEAT,
            note=" ".join(("Moves to the assigned seat with the current stack.", note.strip())).strip(),
            citations=cite(WRONG_SEAT), by=by,
        )  # fmt: skip


def set_button(*, table: TournamentTable, seat: int, by: User) -> TournamentTable:
    """Record where the dealer button is (balancing and new players' seats depend on it)."""
    with transaction.atomic():
        locked = lock_tournament(table.tournament_id)
        table = TournamentTable.objects.get(pk=table.pk)
        if not 1 <= seat <= table.seats:
            raise ValidationError({"seat": f"{table} has seats 1 to {table.seats}."})
        table.button = seat
        table.save(update_fields=["button"])
        # Who is due the big blind, and which seats wait for the button, depend on it.
        locked.seating_version += 1
        locked.save(update_fields=["seating_version", "updated_at"])
    return table
