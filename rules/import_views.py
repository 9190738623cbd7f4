"""The import of a room's rulebook (floor managers): upload the file, see what was found,
save it as the book's next edition; and each edition's page, saying what it changed."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import Role, role_required
from rules.forms import RulebookImportForm
from rules.imports import SHOWN_CHANGES, confirm_import, pending_import, preview, stage_import
from rules.models import BookKind, ChangeKind, RulebookEdition
from rules.views import public_rulebook

#: The editions listed on the import page, and the changes listed on an edition's page.
RECENT_EDITIONS, EDITION_CHANGES = 20, 400


@require_http_methods(["GET", "POST"])
@role_required(Role.FLOOR_MANAGER)
def import_upload(request: AuthenticatedRequest) -> HttpResponse:
    form = RulebookImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            draft = stage_import(
                by=request.user, name=upload.name or "", data=upload.read(),
                code=form.cleaned_data["code"], label=form.cleaned_data["edition"],
                title=form.cleaned_data["title"],
            )  # fmt: skip
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect("rules:import_preview", token=draft.token)
    editions = RulebookEdition.objects.select_related("rulebook", "imported_by")
    context = {
        "form": form,
        "editions": editions.order_by("-imported_at", "-pk")[:RECENT_EDITIONS],
    }
    status = 422 if request.method == "POST" else 200
    return render(request, "rules/import.html", context, status=status)


@require_http_methods(["GET", "POST"])
@role_required(Role.FLOOR_MANAGER)
def import_preview(request: AuthenticatedRequest, token: str) -> HttpResponse:
    draft = pending_import(token)
    if draft is None:
        messages.error(request, "That preview has expired: upload the file again.")
        return redirect("rules:import")
    if request.method == "POST":
        try:
            edition = confirm_import(draft=draft, by=request.user)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            return redirect("rules:import")
        messages.success(
            request,
            f"{edition.rulebook.code} edition {edition.label} saved: {edition.added} added, "
            f"{edition.changed} changed, {edition.removed} removed.",
        )
        return redirect(edition)
    context = {"draft": draft, "preview": preview(draft), "shown": SHOWN_CHANGES}
    return render(request, "rules/import_preview.html", context)


@require_GET
@public_rulebook
def edition_detail(request: HttpRequest, code: str, number: int) -> HttpResponse:
    edition = get_object_or_404(
        RulebookEdition.objects.select_related("rulebook", "imported_by"),
        rulebook__code=code, number=number,
    )  # fmt: skip
    if edition.rulebook.kind != BookKind.IMPORTED:
        raise Http404("Only a room's imported book has editions.")
    versions = edition.versions.select_related("rule", "rule__section").order_by("rule__order")
    changed = versions.exclude(change=ChangeKind.UNCHANGED)
    others = edition.rulebook.editions.order_by("number")
    context = {
        "edition": edition,
        "changed": changed[:EDITION_CHANGES],
        "more": max(0, changed.count() - EDITION_CHANGES),
        "others": others,
    }
    return render(request, "rules/edition.html", context)
