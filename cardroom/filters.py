"""The filters of the tables and the rulings log: one FilterSet each, for the pages (their
``form``) and the API (``DjangoFilterBackend``, whose OpenAPI parameters drf-spectacular derives
from these). A value that is not one of the filter's is a form error on a page and a 400 naming
the field in the API, never a 500 and never silently ignored. (The floor dashboard's filter adds
tournaments to the tables' one: ``cardroom/floor.py``.)"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet

from cardroom.models import Ruling, Table
from cardroom.parsers import whole_number
from cardroom.table_choices import Structure, TableKind, TableStatus

STAKES_ERROR = "Write stakes as small/big blind, e.g. 2/5."
#: The largest number a filter takes (a table number, a blind): the columns' own limit.
LARGEST = 2**31 - 1


class StakesField(forms.CharField):
    """``2/5`` (or ``2-5``): the small and the big blind."""

    def to_python(self, value: Any) -> tuple[int, int] | None:  # type: ignore[override]
        raw = str(super().to_python(value)).strip()
        if not raw:
            return None
        parts = [whole_number(part) for part in raw.replace("-", "/").split("/")]
        if len(parts) != 2 or parts[0] is None or parts[1] is None:
            raise forms.ValidationError(STAKES_ERROR, code="invalid")
        return parts[0], parts[1]


class StakesFilter(django_filters.CharFilter):
    field_class = StakesField

    def filter(self, qs: QuerySet[Any], value: tuple[int, int] | None) -> QuerySet[Any]:
        if not value:
            return qs
        return qs.filter(small_blind=value[0], big_blind=value[1])


class IntegerFilter(django_filters.NumberFilter):
    """A whole number (``NumberFilter`` takes decimals: table 1.5 is no table)."""

    field_class = forms.IntegerField


class TableFilter(django_filters.FilterSet):
    """Tables by status, structure, kind (cash or tournament) and stakes."""

    status = django_filters.ChoiceFilter(choices=TableStatus.choices, empty_label="Any status")
    structure = django_filters.ChoiceFilter(choices=Structure.choices, empty_label="Any structure")
    kind = django_filters.ChoiceFilter(choices=TableKind.choices, empty_label="Cash and tournament")
    stakes = StakesFilter(max_length=20, help_text="Small/big blind, e.g. 2/5.")

    class Meta:
        model = Table
        fields = ["status", "structure", "kind", "stakes"]


class RulingFilterForm(forms.Form):
    """The rulings filter's form: a date range must run forwards."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            self.add_error("date_to", "The end date is before the start date.")
        return data


def words_in_ruling(qs: QuerySet[Ruling], name: str, value: str) -> QuerySet[Ruling]:
    return qs.filter(Q(situation__icontains=value) | Q(decision__icontains=value))


class RulingFilter(django_filters.FilterSet):
    """Rulings by words, table number, director, rule cited and date (both ends included)."""

    q = django_filters.CharFilter(
        method=words_in_ruling, max_length=100, label="Text",
        help_text="Words in the situation or the decision.",
    )  # fmt: skip
    table = IntegerFilter(
        field_name="table__number", min_value=1, max_value=LARGEST, help_text="Table number."
    )
    director = django_filters.CharFilter(field_name="director__username", max_length=150)
    rule = django_filters.CharFilter(
        field_name="citations__rule__citation_id", distinct=True, max_length=40,
        label="Rule cited", help_text="Citation id cited, e.g. TDA-45.",
    )  # fmt: skip
    date_from = django_filters.DateFilter(
        field_name="created_at", lookup_expr="date__gte", help_text="Logged on or after.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )  # fmt: skip
    date_to = django_filters.DateFilter(
        field_name="created_at", lookup_expr="date__lte", help_text="Logged on or before.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )  # fmt: skip

    class Meta:
        model = Ruling
        fields = ["q", "table", "director", "rule", "date_from", "date_to"]
        form = RulingFilterForm


def filtered(filterset: django_filters.FilterSet) -> QuerySet[Any]:
    """A page's list: everything before any filter is chosen, then filtered, or nothing while
    the filter is wrong (its form says why)."""
    if filterset.is_bound and not filterset.is_valid():
        nothing: QuerySet[Any] = filterset.queryset.none()
        return nothing
    shown: QuerySet[Any] = filterset.qs
    return shown
