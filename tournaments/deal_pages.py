"""The director's deal page, ``/tournaments/<id>/deal/``: the quotes of a deal from the
recorded stacks (``tournaments.deal_forms``), side by side, and the form that records the deal
the players agreed (``tournaments.money.deals``); the recorded deal's printable sheet,
``/tournaments/<id>/deal/sheet/``, with a line for each player's signature and the director's.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from cardroom.core.api_errors import Conflict
from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import MONEY_TAKERS, Role, has_role, role_required
from tournaments.chip_pages import put_errors, say
from tournaments.deal_forms import DealQuoteForm, DealRecordForm, quotes
from tournaments.draws.errors import DrawError
from tournaments.models import Entrant, Tournament
from tournaments.money import deals
from tournaments.money.currency import currency_of, format_money
from tournaments.money.models import Deal, Prices
from tournaments.money.payouts import prices_of
from tournaments.prizes.deals import MAX_PLAYERS, METHOD_NAMES
from tournaments.views import tournament_or_404


def _initial(prices: Prices | None, table: list[int] | None) -> dict[str, str]:
    """The boxes filled in: the payout table's places 1 to N (N: the players left) and its
    rounding, written as the table writes them, so the director quotes the table's prizes."""
    currency = currency_of(prices)
    unit = prices.rounding if prices is not None else 1
    initial = {"unit": format_money(unit, currency), "play_for": format_money(0, currency)}
    if table:
        initial["prizes"] = "\n".join(format_money(prize, currency) for prize in table)
    return initial


def _context(
    request: AuthenticatedRequest, tournament: Tournament, players: list[Entrant]
) -> dict[str, Any]:
    table = deals.table_prizes(tournament, len(players)) if players else None
    prices = prices_of(tournament)
    return {
        "tournament": tournament,
        "prices": prices,
        "currency": currency_of(prices),
        "initial": _initial(prices, table),
        "players": players[:MAX_PLAYERS],
        "too_many": len(players) > MAX_PLAYERS,
        "chips": sum(entrant.chips for entrant in players),
        "room": settings.CARDROOM_NAME,
        "printed_at": timezone.now(),
        "recorded": Deal.objects.filter(tournament_id=tournament.pk).first(),
        "table_prizes": table,
        "min_play_for": f"{least / 100:g}" if (least := deals.least_play_for(tournament)) else "",
    }


@require_GET
@role_required(Role.DIRECTOR)
def deal(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    players = deals.players_left(tournament)
    asked = "prizes" in request.GET
    context = _context(request, tournament, players)
    currency, initial = context["currency"], context["initial"]
    form = DealQuoteForm(request.GET if asked else None, initial=initial, currency=currency)
    context["form"] = form
    context["record_form"] = DealRecordForm(
        players=players[:MAX_PLAYERS], initial=initial, currency=currency
    )
    status = 200
    if asked and form.is_valid() and players and not context["too_many"]:
        data = form.cleaned_data
        context["columns"], context["rows"] = quotes(
            players, data["prizes"], data["unit"], data["play_for"], currency
        )
        context["total"] = sum(data["prizes"]) - data["play_for"]
        # A refusal every method gives (the input's, not a method's) is said once.
        refusals = {column.refusal for column in context["columns"]}
        context["refused_by_all"] = refusals.pop() if len(refusals) == 1 else ""
    elif asked and not form.is_valid():
        status = 422
    return render(request, "tournaments/deal.html", context, status=status)


@require_POST
@role_required(Role.DIRECTOR)
def deal_record(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Record the deal the players agreed: refused with the reason (422: the policy or the
    input; 409: a deal already recorded, or a player still in a hand at the desk)."""
    tournament = tournament_or_404(pk)
    players = deals.players_left(tournament)
    currency = currency_of(prices_of(tournament))
    form = DealRecordForm(request.POST, players=players[:MAX_PLAYERS], currency=currency)
    status = 422
    if form.is_valid():
        data = form.cleaned_data
        try:
            deals.record_deal(
                tournament=tournament, method=data["method"], prizes=data["prizes"],
                play_for=data["play_for"], unit=data["unit"], agreed=data["agreed"],
                by=request.user,
            )  # fmt: skip
        except Conflict as exc:
            form.add_error(None, exc.message)
            status = 409
        except DrawError as exc:
            form.add_error(None, say(exc))
            status = 409
        except ValidationError as exc:
            put_errors(form, exc)
        else:
            return redirect(reverse("tournaments:deal_sheet", args=[tournament.pk]))
    context = _context(request, tournament, players)
    context.update(
        form=DealQuoteForm(initial=context["initial"], currency=currency), record_form=form
    )
    return render(request, "tournaments/deal.html", context, status=status)


@require_GET
@role_required(*MONEY_TAKERS)
def deal_sheet(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The recorded deal, to print and sign: the event, the time, the method, each player's
    count and share, the amount left to play for, a signature line a player and the
    director's. The cashier reads it too: the shares are paid from it."""
    tournament = tournament_or_404(pk)
    recorded = Deal.objects.filter(tournament_id=tournament.pk).select_related("by").first()
    if recorded is None:
        raise Http404("No deal is on record for this tournament.")
    context = {
        "tournament": tournament,
        "deal": recorded,
        "players": recorded.players[:MAX_PLAYERS],
        "method": METHOD_NAMES.get(recorded.method, recorded.method),
        "shared": sum(p["share"] for p in recorded.players),
        "room": settings.CARDROOM_NAME,
        "currency": currency_of(prices_of(tournament)),
        "is_director": has_role(request.user, Role.DIRECTOR),
    }
    return render(request, "tournaments/deal_sheet.html", context)
