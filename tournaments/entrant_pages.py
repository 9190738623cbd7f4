"""The director's view of who is in a tournament: the entrants told apart by where they are
(waiting for a draw, seated, out) with a count and a tab for each, and the printable seat
cards: one entry's card, and every card of the last draw dealt (one card a page)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, Q, QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import READERS, role_required
from tournaments.models import (
    DrawStatus,
    Entrant,
    EntrantStatus,
    SeatAssignment,
    Tournament,
)
from tournaments.money.currency import currency_of, format_money
from tournaments.money.payments import with_refunds
from tournaments.money.payouts import prices_of

#: Entrants a page of the director's list.
ENTRANTS_PER_PAGE = 100
#: A page number past the last: ``Paginator.get_page`` gives the last page.
LAST_PAGE = 10**9
#: At most this many cards on the page of the last draw's cards (a draw seats at most a
#: room's tables; more is not one draw's worth of paper).
CARDS_SHOWN = 300

#: The tabs of the entrants' list: what each shows. "Waiting": registered and not seated yet
#: (everyone before the initial draw; late entries and alternates waiting for a draw after it).
TABS: dict[str, tuple[str, Q]] = {
    "all": ("All", Q()),
    "waiting": ("Waiting for a seat", Q(status=EntrantStatus.REGISTERED)),
    "seated": ("Seated", Q(status=EntrantStatus.SEATED)),
    "out": ("Out", Q(status=EntrantStatus.ELIMINATED)),
    "withdrawn": ("Refunded", Q(status=EntrantStatus.WITHDRAWN)),
}


def entrant_tabs(tournament: Tournament, chosen: str) -> list[dict[str, Any]]:
    """Each tab with its count (one query) and whether it is the one shown."""
    counts = tournament.entrants.aggregate(
        **{key: Count("id", filter=rows) for key, (_label, rows) in TABS.items()}
    )
    return [
        {"key": key, "label": label, "count": counts[key], "chosen": key == chosen}
        for key, (label, _rows) in TABS.items()
    ]


def entrant_page(tournament: Tournament, tab: str, page: Any) -> Page[Entrant]:
    """One page of the tab's entrants (``tab`` unknown: all), each with ``where``: "Table 101
    seat 3" when seated (one query for the page's seats), and ``status_label``: the status, or
    for a withdrawn entry what it was paid back ("Withdrawn — refunded $120.00", read in the
    page's own query; the price list's currency read once when the page shows one)."""
    _label, rows = TABS.get(tab, TABS["all"])
    found: QuerySet[Entrant] = with_refunds(tournament.entrants.filter(rows)).order_by("number")
    shown = Paginator(found, ENTRANTS_PER_PAGE).get_page(page)
    live = SeatAssignment.objects.filter(
        entrant__in=list(shown), ended_at__isnull=True
    ).select_related("table__table")
    seats = {a.entrant_id: a for a in live}
    currency = None
    for entrant in shown:
        seat = seats.get(entrant.pk)
        entrant.where = f"{seat.table} seat {seat.seat}" if seat else ""  # type: ignore[attr-defined]
        label = entrant.get_status_display()
        if entrant.status == EntrantStatus.WITHDRAWN:
            currency = currency or currency_of(prices_of(tournament))
            refunded = format_money(entrant.refunded, currency)  # type: ignore[attr-defined]
            label = f"Withdrawn — refunded {refunded}"
        entrant.status_label = label  # type: ignore[attr-defined]
    return shown


def entrant_list_context(tournament: Tournament, tab: str, page: Any) -> dict[str, Any]:
    tab = tab if tab in TABS else "all"
    return {
        "entrants": entrant_page(tournament, tab, page),
        "entrant_tabs": entrant_tabs(tournament, tab),
        "entrant_tab": tab,
    }


def card_of(entrant: Entrant) -> dict[str, Any]:
    """What a seat card says: the tournament, the entry number, the name entered, the table
    and seat (or "waiting for the draw"), the time of registration."""
    seat = entrant.assignments.filter(ended_at__isnull=True).select_related("table__table").first()
    return {"entrant": entrant, "seat": seat, "tournament": entrant.tournament}


@require_GET
@role_required(*READERS)
def seat_card(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    entrant = get_object_or_404(
        Entrant.objects.select_related("tournament"), tournament_id=pk, number=number
    )
    context = {"tournament": entrant.tournament, "cards": [card_of(entrant)]}
    return render(request, "tournaments/seat_cards.html", context)


@require_GET
@role_required(*READERS)
def last_draw_cards(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """A card for each player the last dealt draw seated, by table and seat (at most
    ``CARDS_SHOWN``)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    draw = tournament.draws.filter(status=DrawStatus.REVEALED).order_by("-number").first()
    rows = (
        SeatAssignment.objects.filter(draw=draw)
        .select_related("entrant", "table__table")
        .order_by("table__number", "seat")
        if draw is not None
        else SeatAssignment.objects.none()
    )
    cards = [
        {"entrant": a.entrant, "seat": a, "tournament": tournament} for a in rows[: CARDS_SHOWN + 1]
    ]
    context = {
        "tournament": tournament, "draw": draw, "cards": cards[:CARDS_SHOWN],
        "more": len(cards) > CARDS_SHOWN, "shown": CARDS_SHOWN,
    }  # fmt: skip
    return render(request, "tournaments/seat_cards.html", context)
