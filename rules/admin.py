"""Admin for the rulebook: bundled books are read-only (they are imported from their files);
house rules are edited through the same service as the pages, so history is kept."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest

from cardroom.core.read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from cardroom.core.request_types import staff_user
from rules.models import Rule, RuleAlias, Rulebook, RuleExample, RuleRevision, Section
from rules.services import update_house_rule


class RuleExampleInline(ReadOnlyInline):
    model = RuleExample
    fields = ("order", "title", "text")


class RuleAliasInline(ReadOnlyInline):
    model = RuleAlias
    fields = ("citation_id", "edition", "number")


class RuleRevisionInline(ReadOnlyInline):
    model = RuleRevision
    fields = ("changed_at", "changed_by", "title", "text")
    readonly_fields = ("changed_at",)


@admin.register(Rulebook)
class RulebookAdmin(ReadOnlyAdmin):
    list_display = ("code", "title", "edition", "kind", "format_version", "imported_at")


@admin.register(Section)
class SectionAdmin(ReadOnlyAdmin):
    list_display = ("rulebook", "code", "title", "order")
    list_filter = ("rulebook",)


if TYPE_CHECKING:
    RuleModelAdmin = admin.ModelAdmin[Rule]
else:  # ModelAdmin takes no type argument at run time (django-stubs-ext is dev-only)
    RuleModelAdmin = admin.ModelAdmin


@admin.register(Rule)
class RuleAdmin(RuleModelAdmin):
    list_display = ("citation_id", "title", "rulebook", "section", "withdrawn", "house")
    list_filter = ("rulebook", "withdrawn", "house")
    search_fields = ("citation_id", "title")
    fields = ("citation_id", "rulebook", "section", "number", "title", "text", "withdrawn",
              "withdrawn_at", "house")  # fmt: skip
    inlines = [RuleExampleInline, RuleAliasInline, RuleRevisionInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        editable = {"title", "text"} if obj is not None and obj.house else set()
        return [name for name in self.fields if name not in editable]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # house rules are added on the rulebook pages (numbering, history)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # rulings cite rules; a bundled rule gone from its file is withdrawn

    def save_model(self, request: HttpRequest, obj: Rule, form: Any, change: bool) -> None:
        update_house_rule(
            rule=obj, by=staff_user(request), title=form.cleaned_data["title"],
            text=form.cleaned_data["text"],
        )  # fmt: skip
