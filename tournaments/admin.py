"""Admin for tournaments: read-only. Seating and draws change only through the services (the
pages and the API), which lock, record and commit; the admin is for looking."""

from django.contrib import admin

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


@admin.register(SeatMove)
class SeatMoveAdmin(ReadOnlyAdmin):
    list_display = ("entrant", "from_label", "to_label", "reason", "by", "at")
    list_filter = ("reason",)


@admin.register(Elimination)
class EliminationAdmin(ReadOnlyAdmin):
    list_display = ("entrant", "place", "hand_for_hand_hand", "table_number", "seat", "at")


@admin.register(Reinstatement)
class ReinstatementAdmin(ReadOnlyAdmin):
    list_display = ("entrant", "table_number", "seat", "reason", "by", "at")


@admin.register(BalanceCheck)
class BalanceCheckAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "at", "final_table", "seating_version")
