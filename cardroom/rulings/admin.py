"""Admin for the floor: the same validation (Table.clean) and history as the pages and API."""

from typing import TYPE_CHECKING

from django.contrib import admin

from cardroom.core.read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from cardroom.rulings.models import Ruling, RulingCitation
from cardroom.tables.models import Table

if TYPE_CHECKING:
    TableModelAdmin = admin.ModelAdmin[Table]
else:  # ModelAdmin takes no type argument at run time (django-stubs-ext is dev-only)
    TableModelAdmin = admin.ModelAdmin


class RulingCitationInline(ReadOnlyInline):
    model = RulingCitation
    readonly_fields = ("rule", "note", "order")


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin):
    """Rulings are logged on the floor pages and the API, never edited."""

    list_display = ("__str__", "kind", "director", "created_at")
    list_filter = ("kind", "table")
    inlines = [RulingCitationInline]
