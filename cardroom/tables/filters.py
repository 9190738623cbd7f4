"""The filters of the tables and the rulings log: one FilterSet each, for the pages (their
``form``) and the API (``DjangoFilterBackend``, whose OpenAPI parameters drf-spectacular derives
from these). A value that is not one of the filter's is a form error on a page and a 400 naming
the field in the API, never a 500 and never silently ignored. (The floor dashboard's filter adds
tournaments to the tables' one: ``cardroom/screens/floor.py``.)"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import QuerySet

from cardroom.core.parsers import whole_number
from cardroom.tables.choices import Structure, TableKind, TableStatus
from cardroom.tables.models import Table

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


def filtered(filterset: django_filters.FilterSet) -> QuerySet[Any]:
    """A page's list: everything before any filter is chosen, then filtered, or nothing while
    the filter is wrong (its form says why)."""
    if filterset.is_bound and not filterset.is_valid():
        nothing: QuerySet[Any] = filterset.queryset.none()
        return nothing
    shown: QuerySet[Any] = filterset.qs
    return shown
