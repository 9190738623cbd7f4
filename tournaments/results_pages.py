"""A tournament's results pages: every place with the player, the time out and the hand that
busted them, to read and to print (the page is its own print view, with a print stylesheet
like the ruling record's) and as CSV (``results.csv`` or ``?format=csv``). Thin
views, as in ``tournaments.views``; the reading is ``tournaments.results``."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import READERS, role_required
from tournaments.results import (
    recorded_deal,
    results_currency,
    standings,
    winner,
    write_results_csv,
)
from tournaments.views import tournament_or_404


@require_GET
@role_required(*READERS)
def results(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    if request.GET.get("format") == "csv":
        return results_csv(request, pk)
    tournament = tournament_or_404(pk)
    deal = recorded_deal(tournament)
    rows = standings(tournament, deal)
    context = {
        "tournament": tournament,
        "rows": rows,
        "deal": deal,
        "currency": results_currency(tournament),
        "paying": any(row.prize is not None or row.deal_share is not None for row in rows),
        "winner": winner(tournament),
        "room": settings.CARDROOM_NAME,
        "printed_at": timezone.now(),
    }
    return render(request, "tournaments/results.html", context)


@require_GET
@role_required(*READERS)
def results_csv(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{pk}-results.csv"'
    write_results_csv(response, standings(tournament), results_currency(tournament))
    return response
