"""The pages of colour-ups, for directors: the chip set editor (htmx; a refusal comes back as
the form with its errors, 422), a table's chip race (the odd chips entered, the race previewed
with the cards it deals, then confirmed and recorded) and the printable result of a race.

Thin views: role check, form, one service call (``tournaments.colour_ups``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cardroom.core.api_errors import Conflict
from cardroom.core.request_types import AuthenticatedRequest, HtmxRequest
from cardroom.core.roles import Role, role_required
from tournaments import colour_ups
from tournaments.clock.reading import read_clock
from tournaments.colour_up_forms import ChipDeleteForm, ChipForm, RaceForm
from tournaments.colour_ups import ChipSetRefused, RaceRefused
from tournaments.draws.errors import DrawError
from tournaments.models import ChipRace, Tournament, TournamentTable


def chip_set_context(
    tournament: Tournament, form: ChipForm | None = None, error: str = ""
) -> dict[str, Any]:
    """The chip set, the form to add or change a chip, what the room display announces, and at
    a colour-up break each table in play with its race (run or to run)."""
    levels = list(tournament.levels.all())
    reading = read_clock(tournament, levels)
    tables: list[tuple[TournamentTable, ChipRace | None]] = []
    level = reading.level
    if level is not None and level.is_break and level.colour_ups.exists():
        races = colour_ups.races_at(tournament, level)
        tables = [
            (t, races.get(t.pk))
            for t in tournament.tables.in_play().select_related("table").order_by("number")
        ]
    return {
        "tournament": tournament,
        "chips": colour_ups.chip_set(tournament),
        "form": form or ChipForm(levels=levels),
        "announcement": colour_ups.announcement(tournament, reading),
        "race_tables": tables,
        "level_name": reading.level_name,
        "error": error,
    }


def _chip_set(request: HtmxRequest, tournament: Tournament, form: ChipForm | None = None,
              status: int = 200, error: str = "") -> HttpResponse:  # fmt: skip
    context = chip_set_context(tournament, form, error)
    template = "tournaments/chip_set.html" + ("#chip-set" if request.htmx else "")
    return render(request, template, context, status=status)


@require_GET
@role_required(Role.DIRECTOR)
def chip_set_page(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    return _chip_set(request, get_object_or_404(Tournament, pk=pk))


@require_POST
@role_required(Role.DIRECTOR)
def chip_save(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Add a chip to the set, or change its colour or the break it leaves at (CR-CU.1)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    form = ChipForm(request.POST, levels=list(tournament.levels.all()))
    if not form.is_valid():
        return _chip_set(request, tournament, form, 422)
    try:
        colour_ups.save_chip(
            tournament=tournament, value=form.cleaned_data["value"],
            colour=form.cleaned_data["colour"], removed_at=form.removal_step(), by=request.user,
        )  # fmt: skip
    except ChipSetRefused as exc:
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
        return _chip_set(request, tournament, form, 422)
    return _chip_set(request, tournament)


@require_POST
@role_required(Role.DIRECTOR)
def chip_delete(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """Take a chip out of the set (one that has not left play)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    form = ChipDeleteForm(request.POST)
    if not form.is_valid():
        return _chip_set(request, tournament, None, 422, "Choose a chip of the set to take out.")
    try:
        colour_ups.delete_chip(tournament=tournament, value=form.cleaned_data["value"],
                               by=request.user)  # fmt: skip
    except ChipSetRefused as exc:
        return _chip_set(request, tournament, None, 422, " ".join(exc.messages))
    return _chip_set(request, tournament)


# --- a table's race ------------------------------------------------------------------------------


def _race_page(request: HtmxRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    return render(request, "tournaments/chip_race.html", context, status=status)


@require_http_methods(["GET", "POST"])
@role_required(Role.DIRECTOR)
def chip_race(request: AuthenticatedRequest, pk: int, number: int) -> HttpResponse:
    """A table's race at its colour-up break: the odd chips (entered per player, or read from
    the counts), ``action=preview`` shows the race and its cards, ``action=confirm`` records
    exactly that race (the same seed deals the same cards) and shows the printable result."""
    table = get_object_or_404(
        TournamentTable.objects.select_related("table", "tournament"), tournament_id=pk,
        number=number,
    )  # fmt: skip
    context: dict[str, Any] = {"tournament": table.tournament, "table": table}
    try:
        setup = colour_ups.race_setup(table)
    except RaceRefused as exc:
        context["refusal"] = " ".join(exc.messages)
        return _race_page(request, context, 200 if request.method == "GET" else 422)
    done = ChipRace.objects.filter(table=table, level=setup.level).first()
    if done is not None:
        return redirect(reverse("tournaments:chip_race_result", args=[pk, done.pk]))
    form = RaceForm(request.POST or None, setup=setup)
    context.update(setup=setup, form=form)
    if request.method == "GET":
        return _race_page(request, context)
    if not form.is_valid():
        return _race_page(request, context, 422)
    try:
        if request.POST.get("action") != "confirm":
            result = colour_ups.compute_race(setup, form.odd_chips())
            context["preview"] = colour_ups.result_record(setup, result)
            return _race_page(request, context)
        record = colour_ups.run_chip_race(table=table, by=request.user,
                                          odd_chips=form.odd_chips())  # fmt: skip
    except RaceRefused as exc:
        for field, errors in exc.error_dict.items():
            form.add_error(None if field not in form.fields else field, errors)
        return _race_page(request, context, 422)
    except (Conflict, DrawError) as exc:
        context["refusal"] = exc.message
        return _race_page(request, context, 409)
    return redirect(reverse("tournaments:chip_race_result", args=[pk, record.pk]))


@require_GET
@role_required(Role.DIRECTOR)
def chip_race_result(request: AuthenticatedRequest, pk: int, race_id: int) -> HttpResponse:
    """The race as recorded, printable: each seat's chips before and after, the cards dealt,
    who won a chip, who was given one, what left play, and the seed it replays from."""
    record = get_object_or_404(
        ChipRace.objects.select_related("tournament", "table__table", "by"), pk=race_id,
        tournament_id=pk,
    )  # fmt: skip
    colours = dict(
        record.tournament.chip_set.values_list("value", "colour")[: colour_ups.MOST_CHIPS]
    )
    leaving = [(value, colours.get(value, "")) for value in record.leaving]
    return render(
        request, "tournaments/chip_race_result.html",
        {"record": record, "tournament": record.tournament, "table": record.table,
         "leaving": leaving,
         "seats": record.result["seats"], "printed_at": timezone.now()},
    )  # fmt: skip
