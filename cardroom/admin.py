"""Admin for the floor: the same validation (Table.clean) and history as the pages and API."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest

from cardroom.models import Ruling, RulingCitation, Table, TableChange
from cardroom.read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from cardroom.request_types import staff_user
from cardroom.services import EDITABLE_FIELDS, create_table, update_table


class TableChangeInline(ReadOnlyInline):
    model = TableChange
    readonly_fields = ("changed_at", "changed_by", "action", "changes")


if TYPE_CHECKING:
    TableModelAdmin = admin.ModelAdmin[Table]
else:  # ModelAdmin takes no type argument at run time (django-stubs-ext is dev-only)
    TableModelAdmin = admin.ModelAdmin


@admin.register(Table)
class TableAdmin(TableModelAdmin):
    list_display = ("number", "name", "game_label", "status", "kind", "seats")
    list_filter = ("status", "structure", "kind")
    fields = EDITABLE_FIELDS
    inlines = [TableChangeInline]

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        values = {
            name: form.cleaned_data[name] for name in EDITABLE_FIELDS if name in form.cleaned_data
        }
        if change:
            update_table(table=obj, by=staff_user(request), **values)
        else:
            saved = create_table(by=staff_user(request), **values)
            obj.pk = saved.pk


class RulingCitationInline(ReadOnlyInline):
    model = RulingCitation
    readonly_fields = ("rule", "note", "order")


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    """Rulings are logged on the floor pages and the API, never edited."""

    list_display = ("__str__", "kind", "director", "created_at")
    list_filter = ("kind", "table")
    inlines = [RulingCitationInline]
