"""The pages of a tournament's money: the director's price list, and the cashier's page (the
prices, a player found by name or entry number with their Rebuy and Add-on buttons, the
ledger's latest lines). Thin views: role check, form, one service call (``prices``,
``payments``), and the region again (htmx) or the page.

A refusal keeps the page as it was with the reason: 422 for what was typed, 409 for what the
state refuses (a limit reached, a window closed, a player in a hand, prices already paid at).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardroom.core.api_errors import Conflict
from cardroom.core.numbers import grouped
from cardroom.core.parsers import whole_number
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import MONEY_TAKERS, Role, role_required
from tournaments.draws.errors import DrawError
from tournaments.models import Entrant, EntrantStatus, Tournament
from tournaments.money import payments
from tournaments.money.currency import currency_of, format_money
from tournaments.money.forms import PaymentForm, PricesForm, SearchForm
from tournaments.money.models import BountyKind
from tournaments.money.payouts import prices_of
from tournaments.money.prices import (
    PricesLocked,
    locked_prices,
    payouts_locked,
    prices_for,
    set_prices,
)

#: Players listed at once on the cashier's page (search to find others).
PLAYERS_SHOWN = 50
#: Ledger lines a page.
LINES_PER_PAGE = 50


def _put_errors(form: PricesForm, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


@require_http_methods(["GET", "POST"])
@role_required(Role.DIRECTOR)
def money_prices(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The price list: every box from the list, Enter saves them all. After the first payment
    the boxes are read-only, with the reason; a save then is refused (409)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    prices = prices_for(tournament)
    locked, closed = locked_prices(tournament), payouts_locked(tournament)
    form = PricesForm(request.POST or None, prices=prices, locked=locked, payouts_locked=closed)
    status, flash, refusal = 200, "", ""
    if request.method == "POST" and locked and closed:
        # Read-only boxes are not read back: the list stays what every payment was taken at.
        form = PricesForm(prices=prices, locked=locked, payouts_locked=closed)
        status, refusal = 409, PricesLocked().message
    elif request.method == "POST":
        status = 422
        if form.is_valid():
            try:
                prices = set_prices(tournament=tournament, by=request.user, **form.prices())
            except Conflict as exc:
                form.add_error(None, exc.message)
                status = 409
            except ValidationError as exc:
                _put_errors(form, exc)
            else:
                status, flash = 200, "Payout settings saved." if locked else "Prices saved."
                form = PricesForm(prices=prices, locked=locked, payouts_locked=closed)
    context = {
        "tournament": tournament, "prices": prices, "form": form, "locked": locked,
        "payouts_locked": closed,
        "flash": flash, "refusal": refusal,
    }  # fmt: skip
    part = "#prices-form" if request.htmx else ""
    return render(request, f"tournaments/money_prices.html{part}", context, status=status)


def _players(tournament: Tournament, query: str) -> list[Entrant]:
    """The players the search finds (by entry number, or a part of the name), at most
    ``PLAYERS_SHOWN``; no search: the players still in, by entry number."""
    rows = tournament.entrants.order_by("number")
    query = query.strip()
    if query:
        number = whole_number(query.lstrip("#"), 9)
        rows = rows.filter(Q(name__icontains=query) | Q(number=number or -1))
    else:
        rows = rows.exclude(status=EntrantStatus.ELIMINATED)
    return list(rows.select_related("tournament")[:PLAYERS_SHOWN])


def _cashier(request: HtmxRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    prices = prices_for(tournament)
    search = SearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    found = _players(tournament, query)
    offered = payments.offers(tournament, found, prices)
    players = [
        {"entrant": entrant, "rebuy": offered[entrant.pk][0], "addon": offered[entrant.pk][1]}
        for entrant in found
    ]
    lines = Paginator(
        tournament.money.select_related("entrant", "by").order_by("-id"), LINES_PER_PAGE
    ).get_page(request.GET.get("page"))
    return {
        "tournament": tournament, "prices": prices, "search": search, "query": query,
        "players": players, "lines": lines, "pay_form": PaymentForm(),
        "bounties": prices.bounty_kind != BountyKind.NONE,
        "rebuy_note": said_to_all(players, "rebuy"), "addon_note": said_to_all(players, "addon"),
        **extra,
    }  # fmt: skip


def said_to_all(players: list[dict[str, Any]], kind: str) -> str:
    """The refusal every player listed shares (a freezeout, a window not open yet), said once
    above the list instead of on each row; "" when the rows differ."""
    refusals = {row[kind].refusal for row in players}
    return refusals.pop() if len(refusals) == 1 and len(players) > 1 else ""


@require_GET
@role_required(*MONEY_TAKERS)
def money(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """The cashier's page; with htmx, the players found (a search) or the ledger (a page)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    context = _cashier(request, tournament)
    part = ""
    if request.htmx:
        part = "#ledger" if "page" in request.GET else "#players"
    return render(request, f"tournaments/money.html{part}", context)


@require_POST
@role_required(*MONEY_TAKERS)
def money_pay(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """A rebuy or an add-on for one player, paid with the method chosen."""
    entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
    form = PaymentForm(request.POST)
    status, flash, refusal = 422, "", ""
    if form.is_valid():
        take = payments.take_rebuy if form.cleaned_data["kind"] == "rebuy" else payments.take_addon
        try:
            line = take(entrant=entrant, method=form.cleaned_data["method"], by=request.user)
        except (Conflict, DrawError) as exc:
            status, refusal = 409, _said(exc)
        except ValidationError as exc:
            refusal = " ".join(exc.messages)
        else:
            status = 200
            flash = (
                f"{line.get_kind_display()} for {entrant.name} #{entrant.number} taken: "
                f"{format_money(line.player_in, currency_of(prices_of(entrant.tournament)))} "
                f"{line.get_method_display().lower()}, {grouped(line.chips)} chips."
            )
    else:
        refusal = "Choose a rebuy or an add-on, and what it was paid with."
    context = _cashier(request, entrant.tournament, flash=flash, refusal=refusal)
    part = "#cashier" if request.htmx else ""
    return render(request, f"tournaments/money.html{part}", context, status=status)


def _said(exc: Conflict | DrawError) -> str:
    citations = exc.citations if isinstance(exc, DrawError) else exc.extra.get("citations", [])
    cited = f" ({', '.join(citations)})" if citations else ""
    return str(exc.message) + cited
