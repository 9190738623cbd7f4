"""The floor's REST API: tables and their game configuration."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import generics, mixins, serializers, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api_errors import error_body
from cardroom.desk import AMOUNT_ERROR, MAX_STACK, STACK_ERROR
from cardroom.forms import RulingFilterForm
from cardroom.models import (
    Hand,
    HandAction,
    HandStatus,
    Ruling,
    RulingCitation,
    RulingKind,
    Structure,
    Table,
    TableKind,
    TableStatus,
)
from cardroom.roles import READERS, Role, role_permission
from cardroom.ruling_services import IdempotencyKeyReused, record_ruling
from cardroom.services import (
    EDITABLE_FIELDS,
    StaleHand,
    create_table,
    delete_table,
    engine_state,
    record_action,
    start_hand,
    update_table,
    void_hand,
    void_last_action,
)
from rules.betting import (
    ERROR_400,
    ERROR_422,
    EVALUATION,
    MAX_ACTIONS,
    MAX_SEAT,
    ActionSerializer,
    BettingView,
    SeatSerializer,
    StrictInteger,
    bad_input,
    evaluation,
)
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.state import snapshot


class TableSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    """A table's settings. Validation is the model's (``Table.clean``), run by the service."""

    game = serializers.SerializerMethodField(
        help_text="The table's game as the betting API's `game` object (ready to evaluate)."
    )
    game_label = serializers.CharField(read_only=True)
    chip_that_plays = serializers.IntegerField(read_only=True)

    class Meta:
        model = Table
        fields = ["id", *EDITABLE_FIELDS, "game_label", "chip_that_plays", "game", "updated_at"]
        read_only_fields = ["id", "updated_at"]
        # Uniqueness and cross-field rules are checked once, in the model, by the service.
        validators: list[Any] = []
        extra_kwargs = {"number": {"validators": []}}

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_game(self, table: Table) -> dict[str, Any]:
        return table.engine_game()

    def create(self, validated_data: dict[str, Any]) -> Table:
        return create_table(by=self.context["request"].user, **validated_data)

    def update(self, instance: Table, validated_data: dict[str, Any]) -> Table:
        return update_table(table=instance, by=self.context["request"].user, **validated_data)


@extend_schema_view(
    list=extend_schema(
        summary="List tables",
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=TableStatus.values),
            OpenApiParameter("structure", OpenApiTypes.STR, enum=Structure.values),
            OpenApiParameter("kind", OpenApiTypes.STR, enum=TableKind.values),
            OpenApiParameter("stakes", OpenApiTypes.STR, description="small/big blind, e.g. 2/5"),
        ],
    ),
    retrieve=extend_schema(summary="One table with its engine-ready game"),
    create=extend_schema(summary="Create a table (floor managers)"),
    update=extend_schema(summary="Replace a table's settings (floor managers)"),
    partial_update=extend_schema(summary="Change some of a table's settings (floor managers)"),
    destroy=extend_schema(summary="Delete a table that has never dealt a hand (floor managers)"),
)
class TableViewSet(viewsets.ModelViewSet):  # type: ignore[type-arg]
    lookup_value_regex = "[0-9]{1,18}"  # an absurd id is a 404, not a driver overflow
    serializer_class = TableSerializer
    permission_classes = [role_permission(read=READERS, write=[Role.FLOOR_MANAGER])]

    def get_queryset(self) -> QuerySet[Table]:
        tables = Table.objects.all()
        params = self.request.query_params
        choices = {
            "status": TableStatus.values,
            "structure": Structure.values,
            "kind": TableKind.values,
        }
        for name, allowed in choices.items():
            if value := params.get(name):
                if value not in allowed:
                    raise ValidationError({name: f"Choose one of {', '.join(allowed)}."})
                tables = tables.filter(**{name: value})
        if stakes := params.get("stakes"):
            parts = stakes.replace("-", "/").split("/")
            if len(parts) != 2 or not all(part.isdigit() for part in parts):
                raise ValidationError({"stakes": "Write stakes as small/big blind, e.g. 2/5."})
            tables = tables.filter(small_blind=int(parts[0]), big_blind=int(parts[1]))
        return tables

    def perform_destroy(self, instance: Table) -> None:
        delete_table(table=instance)


class TableHandSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The contract's hand without its ``game``: the table's configuration supplies it."""

    button = StrictInteger(min_value=1, max_value=MAX_SEAT)
    seats = SeatSerializer(many=True, allow_empty=False, max_length=MAX_SEAT)
    actions = ActionSerializer(many=True, default=list, max_length=MAX_ACTIONS)


class TableEvaluateView(BettingView):
    """``POST /api/v1/tables/{id}/betting/evaluate``: the public evaluate, with the game taken
    from the table's configuration (blinds, ante, straddle, limits, pot-limit options)."""

    @extend_schema(
        summary="Evaluate a hand at this table: the game is the table's",
        request=TableHandSerializer,
        responses={200: EVALUATION, 400: ERROR_400, 404: OpenApiTypes.OBJECT, 422: ERROR_422},
        auth=[],
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        data = request.data
        if not isinstance(data, dict):
            return bad_input(BadInput("The body must be a JSON object.", "body"))
        if "game" in data:
            return bad_input(
                BadInput(
                    f"The game is {table}'s configuration: send button, seats and actions, or"
                    " POST the whole hand to /api/v1/betting/evaluate.",
                    "game",
                )
            )
        return evaluation({**data, "game": table.engine_game()})


# --- live hands -----------------------------------------------------------------------------

HAND_WRITERS = [Role.FLOOR_MANAGER, Role.DIRECTOR]
#: An idempotency key: 1-64 visible ASCII characters (a UUID fits).
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,64}")
HandPermission = role_permission(read=READERS, write=HAND_WRITERS)


class SeatInSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField(min_value=1)
    # Bounded by the column a raise is stored in (cardroom.desk.MAX_STACK).
    stack = serializers.IntegerField(
        min_value=0, max_value=MAX_STACK, error_messages={"max_value": STACK_ERROR}
    )


class DealSerializer(serializers.Serializer):  # type: ignore[type-arg]
    button = serializers.IntegerField(min_value=1)
    seats = SeatInSerializer(many=True, allow_empty=False)
    straddle = serializers.BooleanField(
        default=True,
        help_text="At a table that allows a straddle: whether it was posted this hand "
        "(it is optional).",
    )

    def validate_seats(self, seats: list[dict[str, int]]) -> list[dict[str, int]]:
        numbers = [s["seat"] for s in seats]
        if len(numbers) != len(set(numbers)):
            raise ValidationError("Each seat may be dealt in only once.")
        return [dict(s) for s in seats]


class HandActionSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    entered_by = serializers.CharField(source="entered_by.username", read_only=True)
    voided_by = serializers.CharField(source="voided_by.username", read_only=True, allow_null=True)

    class Meta:
        model = HandAction
        fields = [
            "id", "seq", "seat", "action", "to", "entered_by", "entered_at",
            "voided_by", "voided_at", "void_reason",
        ]  # fmt: skip


class HandSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    table = serializers.IntegerField(source="table.number", read_only=True)
    betting = serializers.SerializerMethodField(
        help_text="The engine's evaluation of the hand (the betting API's response body); "
        "null once the hand is voided."
    )
    actions = HandActionSerializer(many=True, read_only=True)

    class Meta:
        model = Hand
        fields = [
            "id", "table", "number", "button", "seats", "game", "state", "seq", "started_at",
            "voided_at", "void_reason", "betting", "actions",
        ]  # fmt: skip

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_betting(self, hand: Hand) -> dict[str, Any] | None:
        if hand.state == HandStatus.VOIDED:
            return None
        return snapshot(engine_state(hand))


class ActionInSerializer(serializers.Serializer):  # type: ignore[type-arg]
    expected_seq = serializers.IntegerField(
        min_value=0, help_text="The hand's `seq` you last saw; a stale value gets 409."
    )
    seat = serializers.IntegerField(min_value=1)
    action = serializers.ChoiceField(choices=["fold", "check", "call", "bet", "raise", "all_in"])
    to = serializers.IntegerField(
        min_value=0,
        max_value=MAX_STACK,
        required=False,
        allow_null=True,
        error_messages={"max_value": AMOUNT_ERROR},
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["action"] in ("bet", "raise") and data.get("to") is None:
            raise ValidationError({"to": f"A {data['action']} needs `to`."})
        if data["action"] not in ("bet", "raise"):
            data["to"] = None
        return data


class VoidInSerializer(serializers.Serializer):  # type: ignore[type-arg]
    expected_seq = serializers.IntegerField(min_value=0)
    reason = serializers.CharField(max_length=500)


def stale(exc: StaleHand) -> Response:
    body = error_body("stale", str(exc), seq=exc.hand.seq)
    return Response(body, status=409)


def refused(exc: IllegalAction) -> Response:
    body = error_body(exc.code, exc.message, citations=list(exc.citations))
    return Response(body, status=422)


STALE_409 = inline_serializer(
    "StaleHandError",
    {
        "error": inline_serializer(
            "StaleHandErrorBody",
            {
                "code": serializers.CharField(),
                "message": serializers.CharField(),
                "seq": serializers.IntegerField(),
            },
        )
    },
)
REFUSED_422 = inline_serializer(
    "RefusedActionError",
    {
        "error": inline_serializer(
            "RefusedActionErrorBody",
            {
                "code": serializers.CharField(),
                "message": serializers.CharField(),
                "citations": serializers.ListField(child=serializers.CharField()),
            },
        )
    },
)


class TableHandsView(generics.ListCreateAPIView):  # type: ignore[type-arg]
    """The hands dealt at a table, newest first; POST deals the next one."""

    serializer_class = HandSerializer
    permission_classes = [HandPermission]

    def get_queryset(self) -> QuerySet[Hand]:
        table = get_object_or_404(Table, pk=self.kwargs["table_id"])
        return table.hands.prefetch_related(
            "actions__entered_by", "actions__voided_by"
        ).select_related("table")

    @extend_schema(
        summary="Deal a hand at a table", request=DealSerializer, responses={201: HandSerializer}
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        deal = DealSerializer(data=request.data)
        deal.is_valid(raise_exception=True)
        hand = start_hand(table=table, by=request.user, **deal.validated_data)
        return Response(HandSerializer(hand).data, status=201)


class HandDetailView(generics.RetrieveAPIView):  # type: ignore[type-arg]
    serializer_class = HandSerializer
    permission_classes = [HandPermission]
    queryset = Hand.objects.select_related("table").prefetch_related("actions__entered_by")


class HandActionsView(generics.ListCreateAPIView):  # type: ignore[type-arg]
    """A hand's actions in order (voided ones included, marked); POST enters the next."""

    serializer_class = HandActionSerializer
    permission_classes = [HandPermission]
    pagination_class = None

    def get_queryset(self) -> QuerySet[HandAction]:
        hand = get_object_or_404(Hand, pk=self.kwargs["hand_id"])
        return hand.actions.select_related("entered_by", "voided_by")

    @extend_schema(
        summary="Enter an action (validated by the engine against the table's game)",
        request=ActionInSerializer,
        responses={201: HandSerializer, 400: OpenApiTypes.OBJECT, 409: STALE_409, 422: REFUSED_422},
    )
    def post(self, request: Request, hand_id: int) -> Response:
        hand = get_object_or_404(Hand, pk=hand_id)
        entry = ActionInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        try:
            record_action(hand=hand, by=request.user, **entry.validated_data)
        except StaleHand as exc:
            return stale(exc)
        except IllegalAction as exc:
            return refused(exc)
        return Response(HandSerializer(Hand.objects.get(pk=hand.pk)).data, status=201)


class HandVoidView(APIView):
    permission_classes = [HandPermission]
    what = "last"

    @extend_schema(
        summary="Void the last action, or the hand, with a reason (both stay on record)",
        request=VoidInSerializer,
        responses={200: HandSerializer, 409: STALE_409},
    )
    def post(self, request: Request, hand_id: int) -> Response:
        hand = get_object_or_404(Hand, pk=hand_id)
        entry = VoidInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        service = void_last_action if self.what == "last" else void_hand
        try:
            service(hand=hand, by=request.user, **entry.validated_data)
        except StaleHand as exc:
            return stale(exc)
        return Response(HandSerializer(Hand.objects.get(pk=hand.pk)).data)


# --- rulings --------------------------------------------------------------------------------


class CitationSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rule = serializers.CharField(help_text="Citation id, e.g. TDA-45.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class CitedRuleSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    citation_id = serializers.CharField(source="rule.citation_id")
    title = serializers.CharField(source="rule.title")
    url = serializers.SerializerMethodField()

    class Meta:
        model = RulingCitation
        fields = ["citation_id", "title", "note", "url"]

    def get_url(self, citation: RulingCitation) -> str:
        return f"/rulebook/{citation.rule_id}/"


class RulingSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    table = serializers.IntegerField(source="table.number")
    tournament = serializers.SerializerMethodField()
    director = serializers.CharField(source="director.username", read_only=True)
    citations = CitedRuleSerializer(many=True, read_only=True)
    action = serializers.IntegerField(source="action.seq", allow_null=True, read_only=True)

    class Meta:
        model = Ruling
        fields = [
            "id", "table", "tournament", "number", "kind", "amends", "hand", "action", "seats",
            "situation", "decision", "citations", "director", "created_at",
        ]  # fmt: skip

    @extend_schema_field(
        inline_serializer(
            "RulingTournament",
            {"id": serializers.IntegerField(), "name": serializers.CharField()},
            allow_null=True,
        )
    )
    def get_tournament(self, ruling: Ruling) -> dict[str, Any] | None:
        if ruling.tournament is None:
            return None
        return {"id": ruling.tournament_id, "name": ruling.tournament.name}


class RulingInSerializer(serializers.Serializer):  # type: ignore[type-arg]
    table = serializers.IntegerField(min_value=1, help_text="Table number.")
    hand = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    action = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="The action's seq in the hand."
    )
    seats = serializers.ListField(child=serializers.IntegerField(min_value=1), default=list)
    situation = serializers.CharField(max_length=4000)
    decision = serializers.CharField(max_length=4000)
    citations = CitationSerializer(many=True, allow_empty=False)
    amends = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    kind = serializers.ChoiceField(choices=RulingKind.values, default=RulingKind.RULING)


@extend_schema_view(
    list=extend_schema(
        summary="Rulings, newest first, filtered",
        parameters=[
            OpenApiParameter("q", OpenApiTypes.STR, description="Words in situation or decision"),
            OpenApiParameter("table", OpenApiTypes.INT),
            OpenApiParameter("director", OpenApiTypes.STR),
            OpenApiParameter("rule", OpenApiTypes.STR, description="Citation id cited"),
            OpenApiParameter("date_from", OpenApiTypes.DATE),
            OpenApiParameter("date_to", OpenApiTypes.DATE),
        ],
    ),
    retrieve=extend_schema(summary="One ruling with its citations expanded"),
    create=extend_schema(
        summary="Log a ruling (directors); rulings are never updated or deleted",
        description=(
            "Send an `Idempotency-Key` header (e.g. a UUID) to make a retry safe: a post "
            "repeated with the same key answers 200 with the ruling the first one wrote "
            "(header `Idempotent-Replayed: true`) instead of logging it twice. The same key "
            "with another ruling in the body answers 422 `idempotency_key_reused`."
        ),
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="1-64 visible ASCII characters, new for each ruling",
            )
        ],
        request=RulingInSerializer,
        responses={
            201: RulingSerializer,
            200: RulingSerializer,
            400: OpenApiTypes.OBJECT,
            422: OpenApiTypes.OBJECT,
        },
    ),
)
class RulingViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,  # type: ignore[type-arg]
):
    """Append-only: no update, no delete (405)."""

    lookup_value_regex = "[0-9]{1,18}"

    serializer_class = RulingSerializer
    permission_classes = [role_permission(read=READERS, write=[Role.DIRECTOR])]

    def get_queryset(self) -> QuerySet[Ruling]:
        rulings = Ruling.objects.select_related(
            "table", "tournament", "director", "action"
        ).prefetch_related("citations__rule")
        if self.action != "list":
            return rulings
        form = RulingFilterForm(self.request.query_params)
        if not form.is_valid():
            raise ValidationError(form.errors.get_json_data())
        return form.filter(rulings)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get("Idempotency-Key")
        if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
            raise ValidationError(
                {"Idempotency-Key": "Send 1-64 visible ASCII characters, e.g. a UUID."}
            )
        entry = RulingInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = dict(entry.validated_data)
        table = Table.objects.filter(number=data.pop("table")).first()
        if table is None:
            raise ValidationError({"table": "There is no such table."})
        hand = Hand.objects.filter(pk=data.pop("hand", None) or 0).first()
        seq = data.pop("action", None)
        action = hand.actions.filter(seq=seq).first() if hand is not None and seq else None
        if seq and action is None:
            raise ValidationError({"action": "That hand has no action with this number."})
        amends_id = data.pop("amends", None)
        amends = Ruling.objects.filter(pk=amends_id).first() if amends_id else None
        if amends_id and amends is None:
            raise ValidationError({"amends": "There is no such ruling."})
        citations = [(c["rule"], c["note"]) for c in data.pop("citations")]
        try:
            ruling, replayed = record_ruling(
                table=table, director=request.user, hand=hand, action=action, amends=amends,
                citations=citations, request_key=key, **data,
            )  # fmt: skip
        except IdempotencyKeyReused as reused:
            return Response(
                error_body(reused.code, reused.messages[0], fields=reused.message_dict),
                status=422,
            )
        body = RulingSerializer(self.get_queryset().get(pk=ruling.pk)).data
        if replayed:
            return Response(body, status=200, headers={"Idempotent-Replayed": "true"})
        return Response(body, status=201)
