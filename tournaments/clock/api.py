"""The structure API, under /api/v1/tournaments/{id}/structure/: the steps with their names and
the recent changes; time added to or taken from the level in play, a step changed, inserted or
deleted, levels added. The same services as the clock page (``tournaments.clock.structure``).

Every floor role reads; the tournament director writes. A malformed body is 400, a change the
rules or the clock refuse 422 (``structure_refused`` with the field, or the clock's own code,
e.g. ``level_played``), answered by ``cardroom/core/api_errors.py``. A step is named by its
row's ``id``, which insertions and deletions never change (its ``number`` they do).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.core.request_types import AuthenticatedApiRequest
from cardroom.core.roles import READERS, Role, role_permission
from tournaments.clock import structure
from tournaments.clock.reading import level_dict, level_names
from tournaments.clock.structure import LevelValues
from tournaments.clock.structure_views import RECENT_CHANGES
from tournaments.models import Level, Tournament
from tournaments.serializers import ERRORS

StructurePermission = role_permission(read=READERS, write=[Role.DIRECTOR])


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": structure.MAX_CHIPS})
class WholeNumber(serializers.Field[int, Any, int, Any]):
    """A JSON whole number or a string of ASCII digits (never "²", "٣", a sign or a fraction)."""

    default_error_messages = {"invalid": "A whole number, in digits."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool):
            self.fail("invalid")
        number = data if isinstance(data, int) else whole_number(data, 9)
        if number is None or not 0 <= number <= structure.MAX_CHIPS:
            self.fail("invalid")
        return number

    def to_representation(self, value: int) -> int:
        return value


def _reason() -> serializers.CharField:
    return serializers.CharField(max_length=REASON_MAX, help_text="Why (kept in the log).")


@extend_schema_field({"type": "integer", "minimum": -240, "maximum": 240})
class Minutes(serializers.Field[int, Any, int, Any]):
    """Whole minutes, signed: a JSON integer or a string of ASCII digits with an optional "-"."""

    default_error_messages = {"invalid": "Whole minutes from -240 to 240, not none, in digits."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, int):
            number: int | None = data
        else:
            text = str(data).strip()
            digits = whole_number(text.removeprefix("-"), 3)
            number = None if digits is None else (-digits if text.startswith("-") else digits)
        if not number or not -240 <= number <= 240:
            self.fail("invalid")
        return number

    def to_representation(self, value: int) -> int:
        return value


class TimeInSerializer(serializers.Serializer[Any]):
    minutes = Minutes(help_text="Minutes added (negative: taken off).")
    reason = _reason()


class StepInSerializer(serializers.Serializer[Any]):
    small_blind = WholeNumber(required=False, default=0)
    big_blind = WholeNumber(required=False, default=0)
    ante = WholeNumber(required=False, default=0)
    minutes = WholeNumber(help_text="The step's length in whole minutes.")
    reason = _reason()

    def values(self, is_break: bool) -> LevelValues:
        data = self.validated_data
        return LevelValues(
            data["small_blind"],
            data["big_blind"],
            data["ante"],
            timedelta(minutes=data["minutes"]),
            is_break,
        )


class InsertInSerializer(StepInSerializer):
    after = WholeNumber(help_text="The id of the step it goes after; 0: first (not started).")
    is_break = serializers.BooleanField(default=False)


class ReasonInSerializer(serializers.Serializer[Any]):
    reason = _reason()


class StructureAddInSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField(min_value=1, max_value=structure.MAX_ADDED)
    reason = _reason()


def structure_body(tournament: Tournament) -> dict[str, Any]:
    """The steps (each with its ``id``) and the recent changes, newest first."""
    tournament.refresh_from_db()
    levels = list(tournament.levels.all())
    names = level_names(levels)
    changes = tournament.structure_changes.select_related("by")[:RECENT_CHANGES]
    return {
        "version": tournament.clock_version,
        "clock_state": tournament.clock_state,
        "level_number": tournament.level_number,
        "levels": [
            {"id": lv.pk, **level_dict(lv, names[lv.number], tournament.ante_type)} for lv in levels
        ],
        "changes": [
            {
                "action": change.action,
                "level_number": change.level_number,
                "before": change.before,
                "after": change.after,
                "reason": change.reason,
                "by": change.by.username,
                "at": change.at,
            }
            for change in changes
        ],
    }


class StructureAPIView(APIView):
    permission_classes = [StructurePermission]

    def tournament(self) -> Tournament:
        return get_object_or_404(Tournament, pk=self.kwargs["pk"])

    def level(self) -> Level:
        return get_object_or_404(Level, pk=self.kwargs["level_id"], tournament_id=self.kwargs["pk"])


class StructureView(StructureAPIView):
    @extend_schema(
        summary="The structure's steps and its recent changes",
        request=None,
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(structure_body(self.tournament()))

    @extend_schema(
        summary="Insert a level or break after a step (from the one in play on)",
        operation_id="v1_tournaments_structure_insert",
        request=InsertInSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = self.tournament()
        body = InsertInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        after_id = body.validated_data["after"]
        after = get_object_or_404(Level, pk=after_id, tournament=tournament) if after_id else None
        structure.insert_level(
            tournament=tournament, after=after, values=body.values(body.validated_data["is_break"]),
            reason=body.validated_data["reason"], by=request.user,
        )  # fmt: skip
        return Response(structure_body(tournament))


class TimeView(StructureAPIView):
    @extend_schema(
        summary="Add time to the level in play, or take some off",
        request=TimeInSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = self.tournament()
        body = TimeInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        structure.adjust_time(
            tournament=tournament, seconds=60 * body.validated_data["minutes"],
            reason=body.validated_data["reason"], by=request.user,
        )  # fmt: skip
        return Response(structure_body(tournament))


class StepView(StructureAPIView):
    @extend_schema(
        summary="Change a step ahead (the level in play: its time only, CR-TP.2)",
        operation_id="v1_tournaments_structure_step_change",
        request=StepInSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, level_id: int) -> Response:
        tournament, level = self.tournament(), self.level()
        body = StepInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        structure.edit_level(
            tournament=tournament, level=level, values=body.values(level.is_break),
            reason=body.validated_data["reason"], by=request.user,
        )  # fmt: skip
        return Response(structure_body(tournament))


class StepDeleteView(StructureAPIView):
    @extend_schema(
        summary="Delete a step ahead",
        request=ReasonInSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, level_id: int) -> Response:
        tournament, level = self.tournament(), self.level()
        body = ReasonInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        structure.delete_level(
            tournament=tournament, level=level, reason=body.validated_data["reason"],
            by=request.user,
        )  # fmt: skip
        return Response(structure_body(tournament))


class AddView(StructureAPIView):
    @extend_schema(
        summary="Add levels at the end, each doubling the last level's blinds and ante",
        request=StructureAddInSerializer,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = self.tournament()
        body = StructureAddInSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        structure.add_levels(
            tournament=tournament, count=body.validated_data["count"],
            reason=body.validated_data["reason"], by=request.user,
        )  # fmt: skip
        return Response(structure_body(tournament))


api_urls = [
    path("tournaments/<id:pk>/structure/", StructureView.as_view(), name="tournament-structure"),
    path(
        "tournaments/<id:pk>/structure/time/",
        TimeView.as_view(),
        name="tournament-structure-time",
    ),
    path("tournaments/<id:pk>/structure/add/", AddView.as_view(), name="tournament-structure-add"),
    path(
        "tournaments/<id:pk>/structure/<id:level_id>/",
        StepView.as_view(),
        name="tournament-structure-step",
    ),
    path(
        "tournaments/<id:pk>/structure/<id:level_id>/delete/",
        StepDeleteView.as_view(),
        name="tournament-structure-delete",
    ),
]
