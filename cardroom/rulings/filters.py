"""The filters of the tables and the rulings log: one FilterSet each, for the pages (their
``form``) and the API (``DjangoFilterBackend``, whose OpenAPI parameters drf-spectacular derives
from these). A value that is not one of the filter's is a form error on a page and a 400 naming
the field in the API, never a 500 and never silently ignored. (The floor dashboard's filter adds
tournaments to the tables' one: ``cardroom/screens/floor.py``.)"""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet

from cardroom.rulings.models import Ruling
from cardroom.tables.filters import LARGEST, IntegerFilter


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
