"""Admin for tournaments: read-only. Seating and draws change only through the services (the
pages and the API), which lock, record and commit; the admin is for looking."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

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


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TournamentTableInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentTable
    extra = 0
    can_delete = False
    fields = ("number", "table", "seats", "status", "break_position", "button")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "variant", "status", "seats_per_table", "balancing_policy")
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
