"""The pages of chip counts: a table's counts entered at once, one player's count corrected,
chips moved to another player or out of play. Thin views: role check, form, one service call
(``chip_counts``), and the director's table map again.

A refusal keeps what was typed: the form comes back with its errors (422), or with the reason
a hand or another change came first (409: the player is in a hand not yet pushed).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from cardroom.core.api_errors import SEATING_CONFLICTS
from cardroom.core.numbers import grouped
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import CHIP_COUNTERS, Role, role_required
from tournaments import chip_counts
from tournaments.chip_forms import CountForm, MoveChipsForm, TableCountsForm, chips_out
from tournaments.draws.errors import DrawError
from tournaments.models import Entrant, SeatAssignment, Tournament, TournamentTable
from tournaments.views import detail_context


def status_of(exc: DrawError | ValidationError) -> int:
    """409 when another change or a hand at the desk came first, 422 otherwise."""
    return 409 if isinstance(exc, DrawError) and exc.code in SEATING_CONFLICTS else 422


def say(exc: DrawError | ValidationError) -> str:
    if isinstance(exc, DrawError):
        cited = f" ({', '.join(exc.citations)})" if exc.citations else ""
        return exc.message + cited
    return " ".join(exc.messages)


def put_errors(form: Form, exc: DrawError | ValidationError) -> None:
    """A service's refusal on the form: on its field when it names one the form has."""
    if isinstance(exc, ValidationError) and hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, say(exc))


def table_map(
    request: HtmxRequest, pk: int, extra: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The director's table map (``tournaments/detail.html#table-map``), with ``extra``; the
    whole page without htmx."""
    tournament = get_object_or_404(Tournament, pk=pk)
    context = {**detail_context(request, tournament), **extra}
    if not request.htmx:
        return render(request, "tournaments/detail.html", context, status=status)
    response = render(request, "tournaments/detail.html#table-map", context, status=status)
    return reswap(retarget(response, "#table-map"), "outerHTML")


def done(request: HtmxRequest, pk: int, text: str, broke: list[Entrant]) -> HttpResponse:
    """A change made: said at the top of the table map, with the players it left with no
    chips (they are put out by the director, never by a count)."""
    if broke:
        names = ", ".join(f"{e.name} #{e.number}" for e in broke)
        text += f" No chips left: {names}. Put the player{pluralize(len(broke))} out."
    if not request.htmx:
        messages.success(request, text)
        return redirect(reverse("tournaments:detail", args=[pk]))
    return table_map(request, pk, {"flash": text})


# --- a table's counts ----------------------------------------------------------------------------


def seated_at(table: TournamentTable) -> list[tuple[int, Entrant]]:
    rows = SeatAssignment.objects.filter(table=table, ended_at__isnull=True)
    return [(a.seat, a.entrant) for a in rows.select_related("entrant").order_by("seat")]


@require_http_methods(["GET", "POST"])
@role_required(*CHIP_COUNTERS)
def table_counts(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """Every player of a table with the current count in a box, one reason: Enter records
    them all, or none with the errors beside the boxes and what was typed kept."""
    table = get_object_or_404(
        TournamentTable.objects.select_related("tournament", "table"), tournament_id=pk,
        number=number,
    )  # fmt: skip
    form = TableCountsForm(
        request.POST or None, players=seated_at(table), auto_id=f"counts-{number}-%s"
    )
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            try:
                rows = chip_counts.record_table_counts(
                    tournament=table.tournament, table_number=number, counts=form.counts(),
                    reason=form.cleaned_data["reason"], by=request.user,
                )  # fmt: skip
            except (DrawError, ValidationError) as exc:
                put_errors(form, exc)
                status = status_of(exc)
            else:
                counted = f"{len(rows)} count{pluralize(len(rows))}"
                text = f"{table.name} counted: {counted} recorded."
                return done(request, pk, text, chip_counts.broke(rows))
    context = {"tournament": table.tournament, "ttable": table, "form": form}
    part = "#counts-form" if request.htmx else ""
    return render(request, f"tournaments/table_counts.html{part}", context, status=status)


# --- one player's count, and chips moved ------------------------------------------------------


@require_POST
@role_required(*CHIP_COUNTERS)
def count_correct(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """One player's count corrected after a dispute, with the reason (TDA-1)."""
    entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
    form = CountForm(request.POST)
    if form.is_valid():
        try:
            row = chip_counts.correct_count(
                entrant=entrant, chips=form.cleaned_data["chips"],
                reason=form.cleaned_data["reason"], by=request.user,
            )  # fmt: skip
        except (DrawError, ValidationError) as exc:
            put_errors(form, exc)
            return table_map(request, pk, {"fix": {"number": number, "form": form}},
                             status_of(exc))  # fmt: skip
        text = (
            f"{entrant.name}'s count corrected: {grouped(row.chips_after)}"
            f" (was {grouped(row.chips_before)})."
        )
        return done(request, pk, text, chip_counts.broke([row]))
    return table_map(request, pk, {"fix": {"number": number, "form": form}}, 422)


@require_POST
@role_required(Role.DIRECTOR)
def chips_move(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """A player's chips given to another player or taken out of play, with the reason
    (RRoP-TR.18): what a player still holding chips needs before being put out."""
    entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
    form = MoveChipsForm(request.POST)
    if form.is_valid():
        to = form.cleaned_data["to"]
        receiver = None
        if to is not None:
            receiver = Entrant.objects.filter(tournament_id=pk, number=to).first()
            if receiver is None:
                form.add_error("to", f"Nobody has entry number {to} in this tournament.")
        if form.is_valid():
            try:
                rows = chip_counts.move_chips(
                    from_entrant=entrant, to_entrant=receiver, chips=form.cleaned_data["chips"],
                    reason=form.cleaned_data["reason"], by=request.user,
                )  # fmt: skip
            except (DrawError, ValidationError) as exc:
                put_errors(form, exc)
                return table_map(request, pk, {"move": chips_out(entrant, form)}, status_of(exc))
            where = f"to {receiver.name} #{receiver.number}" if receiver else "out of play"
            moved = grouped(rows[0].chips_before - rows[0].chips_after)
            text = f"{moved} chips of {entrant.name} {where}."
            return done(request, pk, text, [])
    return table_map(request, pk, {"move": chips_out(entrant, form)}, 422)
