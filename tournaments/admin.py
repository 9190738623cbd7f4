"""Admin for tournaments: read-only. Seating and draws change only through the services (the
pages and the API), which lock, record and commit; the admin is for looking."""

from django.contrib import admin
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest

from cardroom.core.read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from tournaments.models import (
    BalanceCheck,
    Draw,
    Elimination,
    Entrant,
    Reinstatement,
    SeatAssignment,
    SeatMove,
    Tournament,
    TournamentTable,
)


def room_of(table_field: str) -> Subquery:
    """The room's number for a table a row names in its tournament's own numbering: the one
    name a table has (``tournaments/table_names.py``), read in the list's one query."""
    tables = TournamentTable.objects.filter(
        tournament=OuterRef("tournament"), number=OuterRef(table_field)
    )
    return Subquery(tables.values("table__number")[:1])


def where(room: int | None, seat: int | None) -> str:
    """ "Table 101 seat 3", or "—" for no table (a bust, a player not yet seated)."""
    return f"Table {room} seat {seat}" if room is not None else "—"


class TournamentTableInline(ReadOnlyInline):
    model = TournamentTable
    fields = ("number", "table", "seats", "status", "break_position", "button")
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "variant", "status", "seats_per_table", "ante_type", "balancing_policy")
    list_filter = ("status", "variant")
    inlines = [TournamentTableInline]


@admin.register(Entrant)
class EntrantAdmin(ReadOnlyAdmin):
    list_display = ("number", "name", "tournament", "status", "place", "late", "alternate")
    list_filter = ("status", "tournament")
    search_fields = ("name",)


@admin.register(Draw)
class DrawAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "kind", "status", "commitment", "revealed_at")
    list_filter = ("kind", "status")
    exclude = ("seed",)  # sealed until revealed; the draw page shows it once it is


@admin.register(SeatAssignment)
class SeatAssignmentAdmin(ReadOnlyAdmin):
    list_display = ("entrant", "table", "seat", "reason", "started_at", "ended_at")
    list_filter = ("reason",)
    list_select_related = ("entrant", "table__table")  # the table is named by the room's


@admin.register(SeatMove)
class SeatMoveAdmin(ReadOnlyAdmin):
    list_display = ("entrant", "moved_from", "moved_to", "reason", "by", "at")
    list_filter = ("reason",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[SeatMove]:
        rooms = {"from_room": room_of("from_table"), "to_room": room_of("to_table")}
        moves: QuerySet[SeatMove] = super().get_queryset(request)
        return moves.annotate(**rooms)

    @admin.display(description="From")
    def moved_from(self, move: SeatMove) -> str:
        return where(getattr(move, "from_room", None), move.from_seat)

    @admin.display(description="To")
    def moved_to(self, move: SeatMove) -> str:
        return where(getattr(move, "to_room", None), move.to_seat)


@admin.register(Elimination)
class EliminationAdmin(ReadOnlyAdmin):
    list_display = ("entrant", "place", "hand_for_hand_hand", "left", "at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Elimination]:
        rows: QuerySet[Elimination] = super().get_queryset(request)
        return rows.annotate(room=room_of("table_number"))

    @admin.display(description="Left")
    def left(self, row: Elimination) -> str:
        return where(getattr(row, "room", None), row.seat)


@admin.register(Reinstatement)
class ReinstatementAdmin(ReadOnlyAdmin):
    list_display = ("entrant", "back_to", "reason", "by", "at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Reinstatement]:
        rows: QuerySet[Reinstatement] = super().get_queryset(request)
        return rows.annotate(room=room_of("table_number"))

    @admin.display(description="Back to")
    def back_to(self, row: Reinstatement) -> str:
        return where(getattr(row, "room", None), row.seat)


@admin.register(BalanceCheck)
class BalanceCheckAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "at", "final_table", "seating_version")
