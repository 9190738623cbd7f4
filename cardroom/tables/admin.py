"""Admin for the floor: the same validation (Table.clean) and history as the pages and API."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

from cardroom.core.read_only_admin import ReadOnlyInline
from cardroom.core.request_types import staff_user
from cardroom.tables.forms import TableModelForm
from cardroom.tables.models import Table, TableChange
from cardroom.tables.removal import delete_table
from cardroom.tables.services import (
    EDITABLE_FIELDS,
    SeatedAtClose,
    check_table_change,
    create_table,
    update_table,
)

if TYPE_CHECKING:
    TableModelAdmin = admin.ModelAdmin[Table]
else:  # ModelAdmin takes no type argument at run time (django-stubs-ext is dev-only)
    TableModelAdmin = admin.ModelAdmin


class TableChangeInline(ReadOnlyInline):
    model = TableChange
    readonly_fields = ("changed_at", "changed_by", "action", "changes")


class TableAdminForm(TableModelForm):
    """The table's own checks (``Table.clean``) and, for a table in use, the service's check
    against who sits there, as form errors (the save checks again with the table locked)."""

    class Meta:
        model = Table
        fields = list(EDITABLE_FIELDS)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.instance.pk is None:
            return data
        changes = {
            name: value
            for name, value in data.items()
            if name in EDITABLE_FIELDS and getattr(self.instance, name) != value
        }
        try:
            check_table_change(self.instance, changes)
        except SeatedAtClose as exc:  # the admin does not ask: the table's pages do
            raise ValidationError(
                {
                    "status": f"{self.instance} still has players seated ({', '.join(exc.names)}):"
                    " close it from its settings page or the floor, which ask first."
                }
            ) from exc
        return data


@admin.register(Table)
class TableAdmin(TableModelAdmin):
    list_display = ("number", "name", "game_label", "status", "kind", "seats")
    list_filter = ("status", "structure", "kind")
    fields = EDITABLE_FIELDS
    form = TableAdminForm
    inlines = [TableChangeInline]

    def delete_model(self, request: HttpRequest, obj: Table) -> None:
        # Django's page lists the protected records first; the service takes the table's
        # configuration history with it (an audit stream the database refuses to delete).
        delete_table(table=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            delete_table(table=table)

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        values = {
            name: form.cleaned_data[name] for name in EDITABLE_FIELDS if name in form.cleaned_data
        }
        if change:
            update_table(table=obj, by=staff_user(request), **values)
        else:
            saved = create_table(by=staff_user(request), **values)
            obj.pk = saved.pk
