"""The director's deal page, ``/tournaments/<id>/deal/``: the quotes of a deal from the
recorded stacks (``tournaments.deal_forms``), side by side, printable with a line for each
player's signature. A GET form: it writes nothing."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import Role, role_required
from tournaments.deal_forms import DealQuoteForm, players_left, quotes
from tournaments.prizes.deals import MAX_PLAYERS
from tournaments.views import tournament_or_404


@require_GET
@role_required(Role.DIRECTOR)
def deal(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    players = players_left(tournament)
    asked = "prizes" in request.GET
    form = DealQuoteForm(request.GET if asked else None)
    context = {
        "tournament": tournament,
        "players": players[:MAX_PLAYERS],
        "too_many": len(players) > MAX_PLAYERS,
        "chips": sum(entrant.chips for entrant in players),
        "form": form,
        "room": settings.CARDROOM_NAME,
        "printed_at": timezone.now(),
    }
    status = 200
    if asked and form.is_valid() and players and not context["too_many"]:
        data = form.cleaned_data
        context["columns"], context["rows"] = quotes(
            players, data["prizes"], data["unit"], data["play_for"]
        )
        context["total"] = sum(data["prizes"]) - data["play_for"]
    elif asked and not form.is_valid():
        status = 422
    return render(request, "tournaments/deal.html", context, status=status)
