"""The chip counts API, under /api/v1/tournaments/{id}/: a table's counts, one player's count
corrected, chips moved to another player or out of play, and whether the chips add up. The same
services as the pages (``chip_counts``); its bodies are here.

Counts and corrections are written by a tournament director or a floor manager
(``roles.CHIP_COUNTERS``), moves by the director alone; every floor role reads. A malformed body
is 400, a count the rules refuse 422 ``chips_refused``, a player in a hand not yet pushed (or
put out while holding chips) 409 (``cardroom/core/api_errors.py`` answers them all).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.text import format_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.numbers import grouped_lazy
from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.core.request_types import AuthenticatedApiRequest
from cardroom.core.roles import CHIP_COUNTERS, READERS, Role, role_permission
from tournaments import chip_counts
from tournaments.models import ChipCount, Entrant, Tournament
from tournaments.serializers import ERRORS

CountPermission = role_permission(read=READERS, write=CHIP_COUNTERS)
MovePermission = role_permission(read=READERS, write=[Role.DIRECTOR])


@extend_schema_field(OpenApiTypes.INT)
class ChipsField(serializers.Field[int, Any, int, Any]):
    """A count: a JSON whole number, or a string of ASCII digits, from 0 to ``MAX_CHIPS``
    (never "²", "٣", a sign or a fraction, which DRF's own ``IntegerField`` reads or rounds)."""

    default_error_messages = {
        "invalid": "A count is a whole number of chips, in digits.",
        "max": format_lazy("A count is at most {} chips.", grouped_lazy(chip_counts.MAX_CHIPS)),
    }

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool):
            self.fail("invalid")
        number = data if isinstance(data, int) else whole_number(data, 40)
        if number is None or number < 0:
            self.fail("invalid")
        if number > chip_counts.MAX_CHIPS:
            self.fail("max")
        return number

    def to_representation(self, value: int) -> int:
        return value


class ChipCountInSerializer(serializers.Serializer[Any]):
    chips = ChipsField(help_text="The player's count as it is now.")
    reason = serializers.CharField(
        max_length=REASON_MAX, help_text="Why the count is corrected (kept in the audit log)."
    )


class TableCountsInSerializer(serializers.Serializer[Any]):
    counts = serializers.DictField(
        child=ChipsField(),
        allow_empty=False,
        help_text="Every player seated at the table: entry number → count.",
    )
    reason = serializers.CharField(
        max_length=REASON_MAX, help_text="Why the table is counted (a break, a colour-up…)."
    )

    def validate_counts(self, value: dict[str, int]) -> dict[int, int]:
        counts = {}
        for key, chips in value.items():
            number = whole_number(key, 9)
            if number is None:
                raise serializers.ValidationError(f"{key!r} is not an entry number.")
            counts[number] = chips
        return counts


class ChipsMoveInSerializer(serializers.Serializer[Any]):
    to = serializers.IntegerField(
        min_value=1, max_value=2_147_483_647, allow_null=True,
        help_text="The entry number of the player receiving the chips; null: out of play.",
    )  # fmt: skip
    chips = ChipsField(help_text="How many chips move (at least 1, at most the player's count).")
    reason = serializers.CharField(
        max_length=REASON_MAX, help_text="Why the chips move (RRoP-TR.18; kept in the audit log)."
    )


class ChipCountSerializer(serializers.ModelSerializer[ChipCount]):
    entrant = serializers.IntegerField(source="entrant.number")
    other = serializers.IntegerField(source="other.number", allow_null=True, default=None)
    by = serializers.CharField(source="by.username")

    class Meta:
        model = ChipCount
        fields = [
            "id", "entrant", "kind", "chips_before", "chips_after", "other", "transfer",
            "table_number", "reason", "citations", "by", "at",
        ]  # fmt: skip


def reconciliation_body(check: chip_counts.Reconciliation) -> dict[str, Any]:
    return {
        "expected": check.expected,
        "bought": [{"what": label, "chips": chips} for label, chips in check.bought],
        "in_play": check.in_play,
        "out_of_play": check.out_of_play,
        "corrected": check.corrected,
        "difference": check.difference,
        "recent": ChipCountSerializer(check.recent, many=True).data,
    }


class ChipsView(APIView):
    permission_classes = [CountPermission]

    @extend_schema(
        summary="Do the chips add up: bought (entries × starting stack) against counted",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        return Response(reconciliation_body(chip_counts.reconcile(tournament)))


class CountView(APIView):
    permission_classes = [CountPermission]

    @extend_schema(
        summary="Correct one player's count after a dispute (TDA-1), with the reason",
        request=ChipCountInSerializer,
        responses={201: ChipCountSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, number: int) -> Response:
        entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
        entry = ChipCountInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        row = chip_counts.correct_count(entrant=entrant, by=request.user, **entry.validated_data)
        return Response(ChipCountSerializer(row).data, status=201)


class TableCountsView(APIView):
    permission_classes = [CountPermission]

    @extend_schema(
        summary="A table's counts (at a break): every player seated there, all or none",
        request=TableCountsInSerializer,
        responses={201: ChipCountSerializer(many=True), **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, number: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        entry = TableCountsInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        rows = chip_counts.record_table_counts(
            tournament=tournament, table_number=number, by=request.user, **entry.validated_data
        )
        return Response(ChipCountSerializer(rows, many=True).data, status=201)


class MoveView(APIView):
    permission_classes = [MovePermission]

    @extend_schema(
        summary="Move a player's chips to another player or out of play (RRoP-TR.18)",
        request=ChipsMoveInSerializer,
        responses={201: ChipCountSerializer(many=True), **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, number: int) -> Response:
        giver = get_object_or_404(Entrant, tournament_id=pk, number=number)
        entry = ChipsMoveInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = dict(entry.validated_data)
        to = data.pop("to")
        receiver = get_object_or_404(Entrant, tournament_id=pk, number=to) if to else None
        rows = chip_counts.move_chips(
            from_entrant=giver, to_entrant=receiver, by=request.user, **data
        )
        return Response(ChipCountSerializer(rows, many=True).data, status=201)


api_urls = [
    path("tournaments/<id:pk>/chips/", ChipsView.as_view(), name="tournament-chips"),
    path(
        "tournaments/<id:pk>/entrants/<id:number>/count/",
        CountView.as_view(),
        name="tournament-count",
    ),
    path(
        "tournaments/<id:pk>/entrants/<id:number>/chips/move/",
        MoveView.as_view(),
        name="tournament-chips-move",
    ),
    path(
        "tournaments/<id:pk>/tables/<id:number>/counts/",
        TableCountsView.as_view(),
        name="tournament-table-counts",
    ),
]
