"""The seating as it stands, and what every tournament write shares: the locked tournament row,
the rule references stored with the records, the seating version. Seating changes are recorded as
``SeatMove`` rows, draws as ``Draw`` rows (committed before the deal, revealed after), both
append-only; every seating write locks the tournament row first, exclusive
(:func:`lock_tournament`), so two directors drawing, breaking, balancing or eliminating at once
are served one after the other; the database's unique live-seat constraints back that up. The
desk's deals and awards hold the row shared instead (:func:`share_tournament`,
``table_hands``): they read the seating and write only their own table's hand and players'
chips, so a deal at one table does not wait for a deal at another, while every seating write
waits for the hands being dealt or pushed, and they for it.

The poker of seating (who goes where, and why) is ``tournaments.draws``, pure Python; the
service modules (``setup``, ``draw_services``, ``eliminations``, ``director_seats``,
``balance_checks``, ``clock``) gather its inputs from the database and write its results back.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from django.db.models import Count, Q, QuerySet

from cardroom.core.locks import lock_row, queue_for, share_row
from cardroom.tables.models import Hand, HandStatus
from tournaments.draws.balancing import SeatedPlayer
from tournaments.draws.errors import ALTERNATES_AND_LATE_ENTRIES, FINAL_TABLE_SIZE, DrawError
from tournaments.draws.positions import seats_between_button_and_small_blind
from tournaments.draws.seats import SeatRef
from tournaments.models import (
    RULEBOOK_EDITION,
    ClockEvent,
    Entrant,
    EntrantStatus,
    MoveReason,
    SeatAssignment,
    SeatReservation,
    Tournament,
    TournamentStatus,
    TournamentTableStatus,
)
from tournaments.scheduling import queue_balance_check

#: A player moved by balancing or a break this recently is not moved again while another
#: candidate exists (TDA 11).
RECENT_MOVE = timedelta(minutes=30)

#: Rule references stored with the records they justify (TDA 2024 numbering).
WRONG_SEAT = "TDA-7"
HAND_FOR_HAND = "TDA-RP-8"
#: TDA 1: fairness first; a director corrects a mistaken record (an "Out" clicked by mistake).
CORRECTION = "TDA-1"
#: TDA 8: late registration and re-entry; finishing places wait for registration to close.
LATE_REGISTRATION = ALTERNATES_AND_LATE_ENTRIES
FINAL_TABLE = FINAL_TABLE_SIZE


def cite(*rules: str) -> list[dict[str, str]]:
    """Rule references as stored: every one carries the rulebook edition."""
    return [{"rule": rule, "edition": RULEBOOK_EDITION} for rule in rules]


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked exclusive until the transaction ends: every write that changes
    the seating, the chips, the money or the clock starts here. It waits its turn in the row's
    queue (``cardroom.core.locks.queue_for``) behind the deals and awards holding the row
    shared, and those asking after it wait for it."""
    queue_for(Tournament, tournament_id, shared=False)
    return lock_row(Tournament, tournament_id)


def share_tournament(tournament_id: int) -> Tournament:
    """The tournament row, held shared until the transaction ends (``locks.share_row``): the
    desk's deal or award at one table, which reads the seating, the level and hand-for-hand as
    they stand and changes none of them. Shared holders do not wait for each other; an
    exclusive one (``lock_tournament``) waits for them all. Never followed by
    ``lock_tournament`` in the same transaction (two awards both asking would deadlock)."""
    return share_row(Tournament, tournament_id)


def the(name: str) -> str:
    """A tournament's name in a sentence: "the Sunday Deepstack" ("The Big One" as it is)."""
    return name if name.lower().startswith("the ") else f"the {name}"


# --- the seating as it stands ------------------------------------------------------------------


class LiveSeat(NamedTuple):
    assignment_id: int
    entrant_id: int
    player: int  # the entrant's number: the id the pure draws see
    table: int
    seat: int


class TableInfo(NamedTuple):
    pk: int
    number: int
    seats: int
    button: int | None


@dataclass
class Seating:
    """Active tables, players per table, and who sits where at the tables loaded: every table
    with an open seat (and any asked for), or all of them. A full table not loaded has no open
    seat, so draws into open seats never need it: a break at 10,000 players reads a few rows."""

    tournament: Tournament
    tables: dict[int, TableInfo]
    counts: dict[int, int]  # every active table
    live: dict[int, LiveSeat]  # by entrant number, at the tables loaded
    by_table: dict[int, dict[int, LiveSeat]]  # the tables loaded
    reserved: dict[SeatRef, int]  # seats held for players not yet seated (TDA 9)

    def seat_numbers(self, table: int) -> list[int]:
        return list(range(1, self.tables[table].seats + 1))

    def open_seats(self, table: int) -> list[int]:
        taken = self.by_table.get(table)
        if taken is None:  # not loaded: full
            return []
        return [seat for seat in self.seat_numbers(table) if seat not in taken]

    def between_button_and_small_blind(self, table: int) -> frozenset[SeatRef]:
        button = self.tables[table].button
        if button is None or not self.by_table.get(table):
            return frozenset()
        return seats_between_button_and_small_blind(
            table, self.seat_numbers(table), self.by_table[table], button
        )

    def waiting_seats(self) -> frozenset[SeatRef]:
        """Every open seat where a newcomer would not be dealt in yet (TDA 8-A, 10-A)."""
        seats: set[SeatRef] = set()
        for table in self.by_table:
            seats |= self.between_button_and_small_blind(table)
        return frozenset(seats)

    def seated_players(self, recently_moved: Collection[int] = ()) -> dict[int, list[SeatedPlayer]]:
        """The tables loaded, as the pure draws take them."""
        recent = set(recently_moved)
        return {
            table: [
                SeatedPlayer(live.player, live.seat, live.player in recent)
                for live in seats.values()
            ]
            for table, seats in self.by_table.items()
        }


def load_seating(
    tournament: Tournament, *, everyone: bool = False, at: Collection[int] = ()
) -> Seating:
    """The seating in four queries. ``everyone``: every table's players; otherwise only the
    tables with an open seat and those in ``at``."""
    tables = {
        row[1]: TableInfo._make(row)
        for row in tournament.tables.filter(status=TournamentTableStatus.ACTIVE).values_list(
            "pk", "number", "seats", "button"
        )
    }
    live_rows = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    counts = dict.fromkeys(tables, 0)
    counts.update(
        live_rows.order_by()
        .values_list("table__number")
        .annotate(n=Count("id"))
        .values_list("table__number", "n")
    )
    loaded = (
        set(tables)
        if everyone
        else {n for n in tables if counts[n] < tables[n].seats} | set(at) & set(tables)
    )
    if not everyone:
        live_rows = live_rows.filter(table__number__in=sorted(loaded))
    live: dict[int, LiveSeat] = {}
    by_table: dict[int, dict[int, LiveSeat]] = {number: {} for number in sorted(loaded)}
    for row in live_rows.values_list(
        "id", "entrant_id", "entrant__number", "table__number", "seat"
    ):
        seat = LiveSeat._make(row)
        live[seat.player] = seat
        by_table[seat.table][seat.seat] = seat
    reserved = {
        SeatRef(table, seat): player
        for table, seat, player in SeatReservation.objects.filter(
            tournament=tournament, entrant__status=EntrantStatus.REGISTERED
        ).values_list("table__number", "seat", "entrant__number")
    }
    return Seating(tournament, tables, counts, live, by_table, reserved)


def recently_moved(tournament: Tournament, now: datetime, *, numbers: bool = True) -> set[int]:
    """Players not to move again while another candidate exists (TDA 11): moved by balancing or
    a break within ``RECENT_MOVE``, or sitting in a seat reserved for them (TDA 9)."""
    rows = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True).filter(
        Q(reason=MoveReason.RESERVED)
        | Q(
            reason__in=[MoveReason.BALANCE, MoveReason.BREAK_TABLE],
            started_at__gt=now - RECENT_MOVE,
        )
    )
    return set(rows.values_list("entrant__number" if numbers else "entrant_id", flat=True))


def seat_dicts(seats: Iterable[SeatRef]) -> list[dict[str, int]]:
    """Seats as a record stores them, in table and seat order."""
    return [seat.to_dict() for seat in sorted(seats)]


def mark_seating_changed(tournament: Tournament) -> None:
    """Bump the seating version and queue a balancing check once the change is committed.
    Hand-for-hand ends by itself once play is on one table (the final table) or over: it
    keeps the tables in step with each other (TDA RP-8), and one table has nothing to wait for."""
    tournament.seating_version += 1
    fields = ["seating_version", "status", "updated_at"]
    if tournament.hand_for_hand and not multi_table(tournament):
        tournament.hand_for_hand = False
        fields.append("hand_for_hand")
        ClockEvent.objects.create(
            tournament=tournament, action="hand_for_hand_off",
            level_number=tournament.level_number, by=None,
        )  # fmt: skip
    tournament.save(update_fields=fields)
    queue_balance_check(tournament.pk)


def multi_table(tournament: Tournament) -> bool:
    """Play is on two tables or more: what hand-for-hand is for (TDA RP-8)."""
    return (
        tournament.status != TournamentStatus.COMPLETE
        and tournament.tables.filter(status=TournamentTableStatus.ACTIVE).count() > 1
    )


def desk_hands(tournament: Tournament) -> QuerySet[Hand]:
    """The tournament's hands dealt at the desk from its seating (``tournaments.table_hands``:
    they name the entrants), at any of the room tables; a hand dealt there with typed stacks
    names nobody and holds no tournament chips."""
    return Hand.objects.filter(started_at__gte=tournament.created_at).exclude(names={})


#: The refusal of a write to an entry refunded before the initial draw: 422 ``withdrawn``.
WITHDRAWN = "withdrawn"


def refuse_if_withdrawn(entrant: Entrant, *, doing: str) -> None:
    """An entry refunded before the initial draw (``EntrantStatus.WITHDRAWN``, the one record
    of a refund on the entrant, ``money.payments.refund_entry``) never plays: no seat, no
    chips, no place. ``DrawError("withdrawn")`` says so, with what was asked (``doing``)."""
    if entrant.status == EntrantStatus.WITHDRAWN:
        raise DrawError(WITHDRAWN, f"{entrant} withdrew (the entry was refunded): cannot {doing}.")


def refuse_if_in_hand(tournament: Tournament, entrant_ids: Collection[int], *, doing: str) -> None:
    """A player dealt into a hand at the desk that is not settled yet keeps the seat: the chips
    are still in that hand (``tournaments.table_hands`` settles it). Moving or putting out such
    a player waits for the pots to be pushed: ``DrawError("in_hand")``, a 409 (someone else's
    change comes first). Two queries, whatever the number of players."""
    # The table named by its room number, its one name (``tournaments/table_names.py``).
    seats = {
        (room, seat): (name, number)
        for room, seat, name, number in SeatAssignment.objects.filter(
            tournament=tournament, ended_at__isnull=True, entrant_id__in=list(entrant_ids)
        ).values_list("table__table_id", "seat", "entrant__name", "table__table__number")
    }
    if not seats:
        return
    unsettled = (
        desk_hands(tournament)
        .filter(table_id__in={room for room, _ in seats}, awarded_at__isnull=True)
        .exclude(state=HandStatus.VOIDED)
    )
    for hand in unsettled.only("table_id", "number", "seats"):
        for entry in hand.seats:
            if (hand.table_id, entry["seat"]) in seats:
                name, number = seats[(hand.table_id, entry["seat"])]
                raise DrawError(
                    "in_hand",
                    f"{name} is in hand #{hand.number} at table {number}, not settled yet: "
                    f"{doing} once its pots are pushed.",
                )


# --- reading ------------------------------------------------------------------------------------


def table_counts(tournament: Tournament) -> dict[int, int]:
    """Players seated at each active table, in one query."""
    rows = (
        SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
        .values("table__number")
        .annotate(n=Count("id"))
    )
    return {row["table__number"]: row["n"] for row in rows}
