"""The cashier's and the director's reconciliation pages (``roles.MONEY_TAKERS``): a
tournament's, ``/tournaments/<id>/money/reconciliation/``, and a day's across every tournament
with lines that day, ``/tournaments/money/day/?date=yyyy-mm-dd`` (the room's date; none: today).
Each shows the sums and the differences (``tournaments.money.ledger``), the ledger's lines
newest first, 50 a page, and exports the lines as CSV (``?format=csv``), streamed a chunk at a
time. Printable. Read only."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import date
from typing import Any

from django import forms
from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import MONEY_TAKERS, role_required
from tournaments.models import Tournament
from tournaments.money import ledger
from tournaments.money.models import MoneyMove
from tournaments.views import tournament_or_404

Day = date

#: The days a ledger can have lines on (and the next day's midnight stays a date).
FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2999, 12, 31)


class DayForm(forms.Form):
    date = forms.DateField(
        input_formats=["%Y-%m-%d"],
        label="Day",
        error_messages={"invalid": "Enter a date as yyyy-mm-dd, like 2026-11-27."},
    )

    def clean_date(self) -> Day:
        day: Day = self.cleaned_data["date"]
        if not str(
            self.data.get("date", "")
        ).isascii():  # fullwidth digits parse as a date: refuse them
            raise forms.ValidationError("Enter the date with the digits 0 to 9.")
        if not FIRST_DAY <= day <= LAST_DAY:
            raise forms.ValidationError(
                f"Enter a day from {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}."
            )
        return day


class Echo:
    """A file-like object whose ``write`` hands back the line (Django's streaming CSV recipe)."""

    def write(self, value: str) -> str:
        return value


def streamed_csv(lines: QuerySet[MoneyMove], filename: str) -> StreamingHttpResponse:
    writer = csv.writer(Echo())
    rows: Iterator[str] = (writer.writerow(row) for row in ledger.csv_rows(lines))
    response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def page_of(request: AuthenticatedRequest, lines: QuerySet[MoneyMove]) -> Any:
    return Paginator(ledger.lines_newest_first(lines), ledger.PAGE_SIZE).get_page(
        request.GET.get("page")
    )


@require_GET
@role_required(*MONEY_TAKERS)
def reconciliation(request: AuthenticatedRequest, pk: int) -> HttpResponseBase:
    tournament: Tournament = tournament_or_404(pk)
    lines = MoneyMove.objects.filter(tournament=tournament)
    if request.GET.get("format") == "csv":
        return streamed_csv(lines, f"tournament-{tournament.pk}-money.csv")
    context = {
        "tournament": tournament,
        "result": ledger.reconcile(tournament),
        "page": page_of(request, lines),
        "room": settings.CARDROOM_NAME,
        "printed_at": timezone.now(),
    }
    return render(request, "tournaments/reconciliation.html", context)


@require_GET
@role_required(*MONEY_TAKERS)
def money_day(request: AuthenticatedRequest) -> HttpResponseBase:
    today = timezone.localdate()
    form = DayForm(request.GET if "date" in request.GET else {"date": today.isoformat()})
    context: dict[str, Any] = {
        "form": form,
        "room": settings.CARDROOM_NAME,
        "time_zone": settings.TIME_ZONE,
    }
    if not form.is_valid():
        return render(request, "tournaments/money_day.html", context, status=422)
    day: date = form.cleaned_data["date"]
    lines = ledger.day_lines(day)
    if request.GET.get("format") == "csv":
        return streamed_csv(lines, f"money-{day.isoformat()}.csv")
    result, tournaments = ledger.reconcile_day(day)
    context |= {
        "day": day,
        "result": result,
        "tournaments": tournaments,
        "page": page_of(request, lines),
        "printed_at": timezone.now(),
    }
    return render(request, "tournaments/money_day.html", context)
