"""Floor pages. Thin views: role check, form, one service call, render."""

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from cardroom.core import changes
from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import READERS, role_required
from cardroom.screens.floor import (
    FloorFilter,
    cards,
    filter_query,
    in_section,
    page_cursor,
    poll,
    recent_rulings,
    section_of,
    sections,
    tables_for_floor,
)

# --- the floor dashboard --------------------------------------------------------------------


@require_GET
@role_required(*READERS)
def floor(request: AuthenticatedRequest) -> HttpResponse:
    filters = FloorFilter(request.GET or None)
    section = section_of(request.GET)
    now = timezone.now()
    mark = changes.mark_now(now)  # before the read: the first poll asks for what changed since
    shown = cards(in_section(tables_for_floor(filters), section), now)
    context = {
        "form": filters.form,
        "cards": shown,
        "sections": sections(filters),
        "section": section,
        "filter_query": filter_query(filters),
        "feed": recent_rulings(),
        "cursor": page_cursor(shown, now, mark),
        "query": filter_query(filters, section),
    }
    # A new filter swaps the grid and the poller with it (the poller carries the filter).
    template = "cardroom/floor.html#filtered" if request.htmx else "cardroom/floor.html"
    return render(request, template, context)


@require_GET
@never_cache
@role_required(*READERS)
def floor_updates(request: AuthenticatedRequest) -> HttpResponse:
    """Polled by every open dashboard with its filter and a fixed-size cursor (``v``) that the
    answer replaces: re-renders the cards that changed, or the grid if its tables changed."""
    filters = FloorFilter(request.GET)
    section = section_of(request.GET)
    update = poll(filters, request.GET.get("v", ""), section=section)
    context = {
        "update": update,
        "cursor": update.cursor,
        "feed": update.feed,
        "query": filter_query(filters, section),
    }
    if update.grid is not None:  # the grid comes with its sections
        context |= {
            "sections": sections(filters),
            "section": section,
            "filter_query": filter_query(filters),
        }
    return render(request, "cardroom/floor.html#floor-updates", context)
