"""The payout pages: ``/tournaments/<id>/money/payouts/`` (the pool, the places paid, the table
with who finished where and who was paid, the director's editor and the versions) and the
printable payout slip of one finisher. Thin views: role check, form, one service call
(``tournaments.money.payouts``).

Everyone who reads the floor sees the payouts; the director alone works them out, types them,
locks them and records the room's overlay; the cashier (or the director) pays. A refusal keeps
the page: 422 with the form's errors, 409 when the table is locked or the prize already paid.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from cardroom.core.api_errors import Conflict
from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import MONEY_TAKERS, READERS, Role, has_role, role_required
from tournaments.models import Entrant, Tournament
from tournaments.money import payouts
from tournaments.money.currency import Currency, currency_of
from tournaments.money.models import Deal
from tournaments.money.payout_forms import LockForm, PayForm, PrizesForm, WorkOutForm
from tournaments.money.payouts import Owed, PayoutRefused
from tournaments.prizes.deals import METHOD_NAMES
from tournaments.views import tournament_or_404

#: Places shown a page.
PLACES_A_PAGE = 100


def page_context(request: AuthenticatedRequest, tournament: Tournament) -> dict[str, Any]:
    summary = payouts.prize_pool(tournament)
    table = payouts.current_table(tournament)
    owed: dict[int, list[Owed]] = {}
    for prize in payouts.prizes_owed(tournament):
        owed.setdefault(prize.place, []).append(prize)
    places = Paginator(list(enumerate(table.prizes if table else [], start=1)), PLACES_A_PAGE)
    page = places.get_page(request.GET.get("places"))
    deal = Deal.objects.filter(tournament_id=tournament.pk).first()
    # The deal's players finish in places 1 to N: those places pay the deal's shares, never the
    # table's amounts (``payouts.prizes_owed``), so the page shows no table amount to pay there.
    by_deal = len(deal.players) if deal is not None else 0
    try:
        proposal: payouts.Proposal | None = payouts.propose_table(tournament)
        why_not = ""
    except PayoutRefused as refused:
        proposal, why_not = None, " ".join(refused.messages)
    return {
        "tournament": tournament,
        "summary": summary,
        "currency": summary.currency,
        "places_paid": payouts.places_paid(tournament),
        "table": table,
        "stale": table is not None and not table.locked and table.pool != summary.to_share,
        # The note as a sentence of the lock's line, which ends it.
        "lock_note": table.note.rstrip(".") if table is not None else "",
        "rows": [
            (place, payouts.ordinal(place), amount, owed.get(place, []), place <= by_deal)
            for place, amount in page
        ],
        "place_page": page,
        "deal": deal,
        "deal_method": METHOD_NAMES.get(deal.method, deal.method) if deal is not None else "",
        "deal_places": payouts.ordinal(by_deal) if by_deal else "",
        "proposal": proposal,
        "why_not": why_not,
        "versions": tournament.payout_tables.select_related("by").order_by("-version")[
            : payouts.VERSIONS_SHOWN
        ],
        # TDA 8: the places are set when registration closes; till then the players out wait.
        "out_unplaced": tournament.eliminations.standing().count()
        if tournament.registration_open
        else 0,
        "is_director": has_role(request.user, Role.DIRECTOR),
        "can_pay": has_role(request.user, *MONEY_TAKERS),
        "work_out_form": WorkOutForm(),
        "prizes_form": PrizesForm(
            initial={"prizes": "\n".join(_typed(a, summary.currency) for a in table.prizes)}
            if table
            else None,
            currency=summary.currency,
        ),
        "lock_form": LockForm(),
        "pay_form": PayForm(),
    }


def _typed(amount: int, currency: Currency) -> str:
    whole, minor = divmod(amount, 10**currency.minor_units)
    if not currency.minor_units:
        return str(whole)
    return f"{whole}.{str(minor).rjust(currency.minor_units, '0')}"


def _page(
    request: AuthenticatedRequest, tournament: Tournament, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {**page_context(request, tournament), **extra}
    return render(request, "tournaments/money/payouts.html", context, status=status)


@require_GET
@role_required(*READERS)
def payouts_page(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _page(request, tournament_or_404(pk))


@require_POST
@role_required(Role.DIRECTOR)
def payouts_edit(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The director's editor: ``action`` is ``work_out`` (from the template or the curve),
    ``typed`` (the amounts typed), ``lock`` (with a reason) or ``overlay`` (the room covers
    the guarantee)."""
    tournament = tournament_or_404(pk)
    action = request.POST.get("action", "")
    forms: dict[str, Any] = {
        "work_out": WorkOutForm(request.POST),
        "typed": PrizesForm(request.POST, currency=payouts.prize_pool(tournament).currency),
        "lock": LockForm(request.POST),
        "overlay": None,
    }
    if action not in forms:
        return _page(request, tournament, 422, refusal="Choose what to do with the payouts.")
    form = forms[action]
    key = {"work_out": "work_out_form", "typed": "prizes_form", "lock": "lock_form"}.get(action)
    if form is not None and not form.is_valid():
        return _page(request, tournament, 422, **{key: form} if key else {})
    data = form.cleaned_data if form is not None else {}
    try:
        if action == "work_out":
            payouts.save_table(tournament=tournament, by=request.user, note=data["note"])
            done = "The payouts are worked out again: a new version."
        elif action == "typed":
            payouts.save_table(
                tournament=tournament, by=request.user, prizes=data["prizes"], note=data["note"]
            )
            done = "The typed payouts are saved: a new version."
        elif action == "lock":
            payouts.lock_table(tournament=tournament, by=request.user, reason=data["reason"])
            done = "The payouts are locked."
        else:
            payouts.record_overlay(tournament=tournament, by=request.user)
            done = "The room's overlay is recorded: the pool reaches the guarantee."
    except Conflict as conflict:
        return _page(request, tournament, 409, refusal=conflict.message)
    except PayoutRefused as refused:
        if form is None or key is None:
            return _page(request, tournament, 422, refusal=" ".join(refused.messages))
        for field, errors in refused.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
        return _page(request, tournament, 422, **{key: form})
    messages.success(request, done)
    return redirect(reverse("tournaments:payouts", args=[pk]))


def _entrant(pk: int, number: int) -> Entrant:
    return get_object_or_404(
        Entrant.objects.select_related("tournament"), tournament_id=pk, number=number
    )


@require_POST
@role_required(*MONEY_TAKERS)
def payout_pay(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """A cashier pays a finisher's prize; the slip to sign comes next."""
    entrant = _entrant(pk, number)
    form = PayForm(request.POST)
    if not form.is_valid():
        return _page(
            request, entrant.tournament, 422, pay_form=form, refusal="Choose how it is paid."
        )
    try:
        payouts.pay_prize(entrant=entrant, method=form.cleaned_data["method"], by=request.user)
    except Conflict as conflict:
        return _page(request, entrant.tournament, 409, refusal=conflict.message)
    except PayoutRefused as refused:
        return _page(request, entrant.tournament, 422, refusal=" ".join(refused.messages))
    messages.success(request, f"{entrant.name}'s prize is paid: print the slip to sign.")
    return redirect(reverse("tournaments:payout_slip", args=[pk, number]))


@require_GET
@role_required(*READERS)
def payout_slip(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """The printable slip: event, player, entry, place, the amount in figures and in words,
    who paid and when (or "not paid yet"), and lines for the player's and cashier's signatures."""
    entrant = _entrant(pk, number)
    owed = payouts.prize_of(entrant)
    currency = currency_of(payouts.prices_of(entrant.tournament))
    out = entrant.tournament.eliminations.standing().filter(entrant_id=entrant.pk).first()
    context = {
        "tournament": entrant.tournament,
        "entrant": entrant,
        "owed": owed,
        "out_at": out.at if out else None,
        "place": payouts.ordinal(entrant.place) if entrant.place else "",
        "currency": currency,
        "words": payouts.amount_in_words(owed.amount, currency) if owed else "",
        "room": settings.CARDROOM_NAME,
        "printed_at": timezone.now(),
    }
    return render(request, "tournaments/money/payout_slip.html", context)
