"""The tournaments API, under /api/v1/tournaments/: the same services as the pages.

Reads for every floor role, writes for tournament directors. A refusal by the seating rules is
422 ``{"error": {"code", "message", "citations", "edition"}}``; a draw or balancing check made
stale by another change is 409 (both answered by ``cardroom/core/api_errors.py``). The bodies are in
``tournaments/serializers.py``.
"""

from __future__ import annotations

from typing import Any, cast

from django.db.models import F, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.request_types import AuthenticatedApiRequest
from cardroom.core.roles import READERS, Role, role_permission
from cardroom.tables.models import Table
from tournaments import (
    balance_checks,
    director_seats,
    draw_services,
    eliminations,
    setup,
    table_hands,
)
from tournaments.clock import services as clock
from tournaments.models import (
    BalanceCheck,
    Draw,
    Entrant,
    SeatAssignment,
    Tournament,
    TournamentTable,
)
from tournaments.money.payments import with_refunds
from tournaments.serializers import (
    ERRORS,
    REFUSED,
    SEATING,
    AnteTypeInSerializer,
    BalanceCheckSerializer,
    DrawInSerializer,
    DrawSerializer,
    EliminationSerializer,
    EntrantInSerializer,
    EntrantSerializer,
    ReinstateInSerializer,
    ReinstatementSerializer,
    ReservationInSerializer,
    SeatMoveSerializer,
    TournamentInSerializer,
    TournamentSerializer,
    TournamentTableSerializer,
    WrongSeatInSerializer,
    clock_body,
)

TournamentPermission = role_permission(read=READERS, write=[Role.DIRECTOR])


class TournamentAPIView(APIView):
    permission_classes = [TournamentPermission]

    def tournament(self) -> Tournament:
        return get_object_or_404(Tournament, pk=self.kwargs["pk"])


# --- tournaments --------------------------------------------------------------------------------


@extend_schema(tags=["tournaments"])
class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Tournament],
):
    serializer_class = TournamentSerializer
    permission_classes = [TournamentPermission]
    lookup_value_regex = "[0-9]{1,18}"  # an absurd id is a 404, not a driver overflow

    def get_queryset(self) -> QuerySet[Tournament]:
        return Tournament.objects.prefetch_related("levels", "tables__table")

    @extend_schema(summary="Tournaments, newest first")
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One tournament: structure, tables, published orders, clock")
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="Create a tournament on room tables, new ones or both (directors)",
        request=TournamentInSerializer,
        responses={201: TournamentSerializer, 400: OpenApiTypes.OBJECT, 422: REFUSED},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        entry = TournamentInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = dict(entry.validated_data)
        numbers = data.pop("tables", [])
        tables = list(Table.objects.filter(number__in=numbers))
        if len(tables) != len(set(numbers)):
            raise ValidationError({"tables": "Name existing room tables."})
        new = data.pop("new_tables", None)
        # ``TournamentPermission`` admits only signed-in directors to a write.
        by = cast(AuthenticatedApiRequest, request).user
        tournament = setup.create_event(
            by=by, tables=tables, new_tables=setup.NewTables(**new) if new else None,
            orders_by_room=False, **data,
        )  # fmt: skip
        return Response(TournamentSerializer(tournament).data, status=201)


class EntrantsView(TournamentAPIView):
    @extend_schema(summary="Entrants in entry order", responses={200: EntrantSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        entrants = with_refunds(self.tournament().entrants.select_related("reentry_of"))
        return Response(EntrantSerializer(entrants, many=True).data)

    @extend_schema(
        summary="Register a player (after the initial draw: a late entry, TDA 8-A)",
        request=EntrantInSerializer,
        responses={201: EntrantSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = self.tournament()
        entry = EntrantInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = dict(entry.validated_data)
        number = data.pop("reentry_of", None)
        reentry_of = (
            get_object_or_404(Entrant, tournament=tournament, number=number) if number else None
        )
        entrant = setup.register_entrant(
            tournament=tournament, by=request.user, reentry_of=reentry_of, **data
        )
        return Response(EntrantSerializer(entrant).data, status=201)


class EliminateView(TournamentAPIView):
    @extend_schema(
        summary="Eliminate a player: the seat opens and a balancing check is queued",
        request=None,
        responses={201: EliminationSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, number: int) -> Response:
        entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
        elimination = eliminations.eliminate_player(entrant=entrant, by=request.user)
        return Response(EliminationSerializer(elimination).data, status=201)


class EliminationsView(TournamentAPIView):
    @extend_schema(
        summary="Eliminations by place (shared on one hand-for-hand hand, TDA RP-8)",
        responses={200: EliminationSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        rows = (
            self.tournament()
            .eliminations.standing()
            .select_related("entrant", "by")
            .order_by(F("entrant__place").asc(nulls_last=True), "-id")
        )
        return Response(EliminationSerializer(rows, many=True).data)


class ReinstateView(TournamentAPIView):
    @extend_schema(
        summary="Undo a mistaken elimination (directors): the player goes back to the seat, "
        "places are worked out again, and the correction is recorded; the elimination stays",
        request=ReinstateInSerializer,
        responses={201: ReinstatementSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, number: int) -> Response:
        entrant = get_object_or_404(Entrant, tournament_id=pk, number=number)
        entry = ReinstateInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        reinstatement = eliminations.reinstate_player(
            entrant=entrant, by=request.user, reason=entry.validated_data["reason"]
        )
        return Response(ReinstatementSerializer(reinstatement).data, status=201)


class ReinstatementsView(TournamentAPIView):
    @extend_schema(
        summary="Eliminations undone, newest first: who, when, why, the seat given back",
        responses={200: ReinstatementSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        rows = self.tournament().reinstatements.select_related("entrant", "elimination", "by")
        return Response(ReinstatementSerializer(rows, many=True).data)


class RegistrationCloseView(TournamentAPIView):
    @extend_schema(
        summary="Close late registration and re-entry (TDA 8): finishing places are fixed",
        request=None,
        responses={200: TournamentSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = eliminations.close_registration(tournament=self.tournament(), by=request.user)
        return Response(TournamentSerializer(tournament).data)


class SeatingView(TournamentAPIView):
    @extend_schema(summary="The table map: who sits where now", responses={200: SEATING})
    def get(self, request: Request, pk: int) -> Response:
        tournament = self.tournament()
        live = SeatAssignment.objects.filter(
            tournament=tournament, ended_at__isnull=True
        ).select_related("entrant", "table")
        by_table: dict[int, list[dict[str, Any]]] = {}
        for a in live.order_by("table__number", "seat"):
            by_table.setdefault(a.table.number, []).append(
                {
                    "seat": a.seat,
                    "entrant": a.entrant.number,
                    "name": a.entrant.name,
                    "chips": a.entrant.chips,
                    "waits_for_button": a.waits_for_button,
                }
            )
        # "name" and "room_table": the table's one name, the room's; "number" is the
        # tournament's own numbering (the draws' and the orders'), kept for older clients.
        tables = [
            {
                "number": t.number,
                "room_table": t.room_number,
                "name": t.name,
                "button": t.button,
                "seats": by_table.get(t.number, []),
            }
            for t in tournament.tables.filter(status="active").select_related("table")
        ]
        return Response({"tables": tables})


class MovesView(TournamentAPIView):
    @extend_schema(
        summary="Every seat change: from, to, why, when, by whom, which draw",
        responses={200: SeatMoveSerializer(many=True)},
    )
    def get(self, request: Request, pk: int) -> Response:
        moves = self.tournament().moves.select_related("entrant", "by", "draw")[:500]
        return Response(SeatMoveSerializer(moves, many=True).data)


# --- draws --------------------------------------------------------------------------------------


class DrawsView(TournamentAPIView):
    @extend_schema(summary="Draws, newest first", responses={200: DrawSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        draws = self.tournament().draws.select_related("committed_by")
        return Response(DrawSerializer(draws, many=True).data)

    @extend_schema(
        summary="Commit a draw: seal a seed, publish its SHA-256 with the inputs (and deal)",
        request=DrawInSerializer,
        responses={201: DrawSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = self.tournament()
        entry = DrawInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = entry.validated_data
        entrants = None
        if data.get("entrants"):
            entrants = list(tournament.entrants.filter(number__in=data["entrants"]))
            if len(entrants) != len(set(data["entrants"])):
                raise ValidationError({"entrants": "Name entry numbers of this tournament."})
        draw = draw_services.commit_draw(
            tournament=tournament, kind=data["kind"], by=request.user, table=data.get("table"),
            entrants=entrants,
        )  # fmt: skip
        if data["deal"]:
            draw = draw_services.deal_draw(draw=draw, by=request.user)
        return Response(DrawSerializer(draw).data, status=201)


class DrawDetailView(TournamentAPIView):
    def draw(self) -> Draw:
        draw: Draw = get_object_or_404(
            Draw.objects.select_related("committed_by"),
            tournament_id=self.kwargs["pk"], number=self.kwargs["number"],
        )  # fmt: skip
        return draw

    @extend_schema(summary="One draw: commitment, inputs; seed and result once revealed",
                   responses={200: DrawSerializer})  # fmt: skip
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(DrawSerializer(self.draw()).data)


class DrawDealView(DrawDetailView):
    @extend_schema(
        summary="Deal a committed draw and reveal its seed",
        request=None,
        responses={200: DrawSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, number: int) -> Response:
        return Response(
            DrawSerializer(draw_services.deal_draw(draw=self.draw(), by=request.user)).data
        )


class DrawVerifyView(DrawDetailView):
    @extend_schema(
        summary="Replay a draw from its seed and inputs; check the commitment",
        responses={
            200: inline_serializer(
                "DrawVerification",
                {
                    "ok": serializers.BooleanField(),
                    "commitment_matches": serializers.BooleanField(),
                    "replay_matches": serializers.BooleanField(),
                    "problems": serializers.ListField(child=serializers.CharField()),
                },
            )
        },
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(draw_services.verify_draw(self.draw()).as_dict())


# --- balancing, director's seat actions -------------------------------------------------------


class BalanceView(TournamentAPIView):
    @extend_schema(
        summary="The latest balancing check (moves, tables to break or halt)",
        responses={200: BalanceCheckSerializer, 404: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, pk: int) -> Response:
        check = self.tournament().balance_checks.select_related("tournament").first()
        if check is None:
            raise NotFound("No balancing check yet.")
        return Response(BalanceCheckSerializer(check).data)

    @extend_schema(summary="Run a balancing check now", request=None,
                   responses={201: BalanceCheckSerializer})  # fmt: skip
    def post(self, request: Request, pk: int) -> Response:
        check = balance_checks.check_balance(tournament_id=self.tournament().pk)
        return Response(BalanceCheckSerializer(check).data, status=201)


class BalanceApplyView(TournamentAPIView):
    @extend_schema(
        summary="Make a check's moves (409 if the seating changed since the check)",
        request=None,
        responses={200: SeatMoveSerializer(many=True), **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, check_id: int) -> Response:
        check = get_object_or_404(BalanceCheck, tournament_id=pk, pk=check_id)
        moves = balance_checks.apply_balance(check=check, by=request.user)
        return Response(SeatMoveSerializer(moves, many=True).data)


class ReservationView(TournamentAPIView):
    @extend_schema(
        summary="Reserve a seat for special needs (TDA 9)",
        request=ReservationInSerializer,
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        entry = ReservationInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = entry.validated_data
        entrant = get_object_or_404(Entrant, tournament_id=pk, number=data["entrant"])
        table = get_object_or_404(TournamentTable, tournament_id=pk, number=data["table"])
        reservation = director_seats.reserve_seat(
            entrant=entrant, table=table, seat=data["seat"], reason=data["reason"], by=request.user
        )
        body = {"entrant": entrant.number, "table": table.number, "seat": reservation.seat,
                "reason": reservation.reason}  # fmt: skip
        return Response(body, status=201)


class WrongSeatView(TournamentAPIView):
    @extend_schema(
        summary="A player found in the wrong seat moves to the assigned one (TDA 7)",
        request=WrongSeatInSerializer,
        responses={201: SeatMoveSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        entry = WrongSeatInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = dict(entry.validated_data)
        entrant = get_object_or_404(Entrant, tournament_id=pk, number=data.pop("entrant"))
        move = director_seats.correct_wrong_seat(entrant=entrant, by=request.user, **data)
        return Response(SeatMoveSerializer(move).data, status=201)


class ButtonView(TournamentAPIView):
    @extend_schema(
        summary="Record the dealer button's seat at a table",
        request=inline_serializer("ButtonIn", {"seat": serializers.IntegerField(min_value=1)}),
        responses={200: TournamentTableSerializer},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int, number: int) -> Response:
        table = get_object_or_404(TournamentTable, tournament_id=pk, number=number)
        seat = cast(dict[str, Any], request.data).get("seat")  # SafeJSONParser: an object
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValidationError({"seat": "Give the button's seat number."})
        table = director_seats.set_button(table=table, seat=seat, by=request.user)
        return Response(TournamentTableSerializer(table).data)


HAND_FOR_HAND_ACTIONS = ("on", "off", "next")


class HandForHandView(TournamentAPIView):
    @extend_schema(
        summary="Hand-for-hand (TDA RP-8): announce (on), next hand, or end (off)",
        request=inline_serializer(
            "HandForHandIn",
            {
                "action": serializers.ChoiceField(choices=HAND_FOR_HAND_ACTIONS),
                "force": serializers.BooleanField(
                    required=False,
                    help_text="next: release it although a table has not pushed its hand of "
                    "this one (without it, 422 hand_not_finished naming the tables).",
                ),
            },
        ),
        responses={200: TournamentSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = self.tournament()
        data = cast(dict[str, Any], request.data)  # SafeJSONParser: an object
        action = data.get("action")
        if action not in HAND_FOR_HAND_ACTIONS:
            raise ValidationError({"action": "Choose on, off or next."})
        if action == "next":
            tournament = table_hands.next_hand_for_hand(
                tournament=tournament, by=request.user, force=data.get("force") is True
            )
        else:
            tournament = eliminations.set_hand_for_hand(
                tournament=tournament, on=action == "on", by=request.user
            )
        return Response(TournamentSerializer(tournament).data)


class AnteTypeView(TournamentAPIView):
    @extend_schema(
        summary="Who pays the levels' antes: every player, or the big blind (CR-DM.2)",
        request=AnteTypeInSerializer,
        responses={200: TournamentSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = self.tournament()
        entry = AnteTypeInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        tournament = setup.set_ante_type(
            tournament=tournament, ante_type=entry.validated_data["ante_type"], by=request.user
        )
        return Response(TournamentSerializer(tournament).data)


CLOCK_ACTIONS = ("start", "pause", "resume", "advance", "back")


class ClockView(TournamentAPIView):
    @extend_schema(
        summary="The clock: level, time left, state", responses={200: OpenApiTypes.OBJECT}
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(clock_body(self.tournament()))

    @extend_schema(
        summary="Start, pause, resume, or move the clock a level on or back",
        request=inline_serializer(
            "ClockIn", {"action": serializers.ChoiceField(choices=CLOCK_ACTIONS)}
        ),
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        tournament = self.tournament()
        data = cast(dict[str, Any], request.data)  # SafeJSONParser: an object
        action = data.get("action")
        if action not in CLOCK_ACTIONS:
            raise ValidationError({"action": f"Choose one of {', '.join(CLOCK_ACTIONS)}."})
        service = {
            "start": clock.start_clock,
            "pause": clock.pause_clock,
            "resume": clock.resume_clock,
            "advance": clock.advance_level,
        }.get(action)
        if service is None:
            tournament = clock.advance_level(tournament=tournament, by=request.user, back=True)
        else:
            tournament = service(tournament=tournament, by=request.user)
        return Response(clock_body(tournament))


api_urls = [
    path("tournaments/<id:pk>/entrants/", EntrantsView.as_view(), name="tournament-entrants"),
    path(
        "tournaments/<id:pk>/entrants/<id:number>/eliminate/",
        EliminateView.as_view(),
        name="tournament-eliminate",
    ),
    path(
        "tournaments/<id:pk>/eliminations/",
        EliminationsView.as_view(),
        name="tournament-eliminations",
    ),
    path(
        "tournaments/<id:pk>/entrants/<id:number>/reinstate/",
        ReinstateView.as_view(),
        name="tournament-reinstate",
    ),
    path(
        "tournaments/<id:pk>/reinstatements/",
        ReinstatementsView.as_view(),
        name="tournament-reinstatements",
    ),
    path(
        "tournaments/<id:pk>/registration/close/",
        RegistrationCloseView.as_view(),
        name="tournament-registration-close",
    ),
    path("tournaments/<id:pk>/seating/", SeatingView.as_view(), name="tournament-seating"),
    path("tournaments/<id:pk>/moves/", MovesView.as_view(), name="tournament-moves"),
    path("tournaments/<id:pk>/draws/", DrawsView.as_view(), name="tournament-draws"),
    path(
        "tournaments/<id:pk>/draws/<id:number>/",
        DrawDetailView.as_view(),
        name="tournament-draw",
    ),
    path(
        "tournaments/<id:pk>/draws/<id:number>/deal/",
        DrawDealView.as_view(),
        name="tournament-draw-deal",
    ),
    path(
        "tournaments/<id:pk>/draws/<id:number>/verify/",
        DrawVerifyView.as_view(),
        name="tournament-draw-verify",
    ),
    path("tournaments/<id:pk>/balance/", BalanceView.as_view(), name="tournament-balance"),
    path(
        "tournaments/<id:pk>/balance/<id:check_id>/apply/",
        BalanceApplyView.as_view(),
        name="tournament-balance-apply",
    ),
    path(
        "tournaments/<id:pk>/reservations/",
        ReservationView.as_view(),
        name="tournament-reservations",
    ),
    path("tournaments/<id:pk>/wrong-seat/", WrongSeatView.as_view(), name="tournament-wrong-seat"),
    path(
        "tournaments/<id:pk>/tables/<id:number>/button/",
        ButtonView.as_view(),
        name="tournament-button",
    ),
    path(
        "tournaments/<id:pk>/hand-for-hand/",
        HandForHandView.as_view(),
        name="tournament-hand-for-hand",
    ),
    path("tournaments/<id:pk>/ante/", AnteTypeView.as_view(), name="tournament-ante"),
    path("tournaments/<id:pk>/clock/", ClockView.as_view(), name="tournament-clock"),
]
