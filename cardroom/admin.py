"""Admin for the floor: the same validation (Table.clean) and history as the pages and API."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from cardroom.models import Ruling, RulingCitation, Table, TableChange
from cardroom.services import EDITABLE_FIELDS, create_table, update_table


class TableChangeInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TableChange
    extra = 0
    can_delete = False
    readonly_fields = ("changed_at", "changed_by", "action", "changes")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("number", "name", "game_label", "status", "kind", "seats")
    list_filter = ("status", "structure", "kind")
    fields = EDITABLE_FIELDS
    inlines = [TableChangeInline]

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        values = {
            name: form.cleaned_data[name] for name in EDITABLE_FIELDS if name in form.cleaned_data
        }
        if change:
            update_table(table=obj, by=request.user, **values)
        else:
            saved = create_table(by=request.user, **values)
            obj.pk = saved.pk


class RulingCitationInline(admin.TabularInline):  # type: ignore[type-arg]
    model = RulingCitation
    extra = 0
    can_delete = False
    readonly_fields = ("rule", "note", "order")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: rulings are logged on the floor pages and the API, never edited."""

    list_display = ("__str__", "kind", "director", "created_at")
    list_filter = ("kind", "table")
    inlines = [RulingCitationInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
