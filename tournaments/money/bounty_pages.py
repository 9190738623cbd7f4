"""The cashier's bounties page, ``/tournaments/<id>/money/bounties/``: each player's head (a
PKO's grows with each knockout), the bounties they won, what they are owed and what was paid,
50 a page, with a Pay button for what is owed (``tournaments.money.bounties``). Money takers
only (the director, or the cashier)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import MONEY_TAKERS, role_required
from tournaments.models import Entrant
from tournaments.money import bounties as service
from tournaments.money.currency import currency_of as of_prices
from tournaments.money.currency import format_money
from tournaments.money.models import BountyKind, Method, Prices
from tournaments.views import tournament_or_404

#: Players a page.
PER_PAGE = 50


class PayBountyForm(forms.Form):
    method = forms.ChoiceField(
        label="Paid by", choices=[(m.value, m.label) for m in service.PAY_METHODS]
    )


@dataclass(frozen=True)
class BountyRow:
    entrant: Entrant
    head: int
    won: int
    owed: int
    paid: int


def _page(request: AuthenticatedRequest, pk: int, form: PayBountyForm, status: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    prices = Prices.objects.filter(tournament_id=tournament.pk).first()
    found, rows = service.bounty_rows(tournament)
    shown = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    table = [
        BountyRow(e, found.head.get(e.pk, 0), found.won.get(e.pk, 0), found.owed.get(e.pk, 0),
                  found.paid.get(e.pk, 0))
        for e in shown
    ]  # fmt: skip
    context = {
        "tournament": tournament,
        "prices": prices,
        "kind": prices.get_bounty_kind_display() if prices else BountyKind.NONE.label,
        "progressive": prices is not None and prices.bounty_kind == BountyKind.PROGRESSIVE,
        "rows": table,
        "page": shown,
        "form": form,
    }
    return render(request, "tournaments/money/bounties.html", context, status=status)


@require_GET
@role_required(*MONEY_TAKERS)
def bounties(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _page(request, pk, PayBountyForm(initial={"method": Method.CASH}), 200)


@require_POST
@role_required(*MONEY_TAKERS)
def bounty_pay(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """Pay a player every bounty they are owed; refused (422) when nothing is owed."""
    entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
    form = PayBountyForm(request.POST)
    if form.is_valid():
        try:
            line = service.pay_bounty(
                entrant=entrant, method=form.cleaned_data["method"], by=request.user
            )
        except ValidationError as exc:
            form.add_error(None, " ".join(exc.messages))
        else:
            prices = Prices.objects.get(tournament_id=pk)
            amount = format_money(line.player_out, of_prices(prices))
            messages.success(
                request, f"Paid {entrant.name} #{entrant.number} {amount} in bounties."
            )
            return redirect(reverse("tournaments:bounties", args=[pk]))
    return _page(request, pk, form, 422)
