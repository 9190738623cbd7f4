"""The floor's REST API: tables and their game configuration."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import generics, serializers, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.reasons import REASON_MAX
from cardroom.core.request_types import AuthenticatedApiRequest
from cardroom.core.roles import HAND_WRITERS, READERS, Role, role_permission
from cardroom.tables.desk import AMOUNT_ERROR, MAX_STACK, STACK_ERROR
from cardroom.tables.filters import TableFilter
from cardroom.tables.forms import TABLE_HELP, unconfirmed_void
from cardroom.tables.models import Hand, HandAction, HandStatus, LoggedAction, Table
from cardroom.tables.removal import delete_table
from cardroom.tables.services import (
    ACTIONS_SHOWN,
    EDITABLE_FIELDS,
    create_table,
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
    BettingView,
    HandSerializer,
    bad_input,
    evaluation,
)
from rules.engine.errors import BadInput
from rules.engine.state import snapshot

if TYPE_CHECKING:  # built at run time from the contract: mypy knows it as a serializer class
    _ContractHand = serializers.Serializer[Any]
else:
    _ContractHand = HandSerializer


class TableSerializer(serializers.ModelSerializer[Table]):
    """A table's settings. Validation is the model's (``Table.clean``), run by the service."""

    game = serializers.SerializerMethodField(
        help_text="The table's game as the betting API's `game` object (ready to evaluate)."
    )
    game_label = serializers.CharField(read_only=True)
    chip_that_plays = serializers.IntegerField(read_only=True)
    confirm_seated = serializers.BooleanField(
        write_only=True,
        required=False,
        help_text="Closing a cash table with players seated: true closes it anyway (their seats"
        " and chips stay on record until they are moved or cashed out); without it the close"
        " is a 422 `confirm_seated` naming them.",
    )

    class Meta:
        model = Table
        fields = [
            "id", *EDITABLE_FIELDS, "game_label", "chip_that_plays", "game", "updated_at",
            "confirm_seated",
        ]  # fmt: skip
        read_only_fields = ["id", "updated_at"]
        # Uniqueness and cross-field rules are checked once, in the model, by the service.
        validators: list[Any] = []
        extra_kwargs: dict[str, dict[str, Any]] = {
            "number": {"validators": []},
            **{name: {"help_text": text} for name, text in TABLE_HELP.items()},
        }

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_game(self, table: Table) -> dict[str, Any]:
        return table.engine_game()

    def create(self, validated_data: dict[str, Any]) -> Table:
        validated_data.pop("confirm_seated", None)
        return create_table(by=self.context["request"].user, **validated_data)

    def update(self, instance: Table, validated_data: dict[str, Any]) -> Table:
        confirm = validated_data.pop("confirm_seated", False)
        return update_table(
            table=instance, by=self.context["request"].user, confirm_seated=confirm,
            **validated_data,
        )  # fmt: skip


@extend_schema_view(
    list=extend_schema(summary="List tables"),
    retrieve=extend_schema(summary="One table with its engine-ready game"),
    create=extend_schema(summary="Create a table (floor managers)"),
    update=extend_schema(summary="Replace a table's settings (floor managers)"),
    partial_update=extend_schema(summary="Change some of a table's settings (floor managers)"),
    destroy=extend_schema(
        summary="Delete a table with nothing on record (floor managers); 409"
        " `table_has_history` names what holds it"
    ),
)
class TableViewSet(viewsets.ModelViewSet[Table]):
    lookup_value_regex = "[0-9]{1,18}"  # an absurd id is a 404, not a driver overflow
    serializer_class = TableSerializer
    permission_classes = [role_permission(read=READERS, write=[Role.FLOOR_MANAGER])]
    queryset = Table.objects.all()
    filter_backends = [DjangoFilterBackend]
    filterset_class = TableFilter

    def perform_destroy(self, instance: Table) -> None:
        delete_table(table=instance)


class TableHandSerializer(_ContractHand):
    """The contract's hand without its ``game``: the table's configuration supplies it."""

    game = None


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

#: An idempotency key: 1-64 visible ASCII characters (a UUID fits).
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,64}")
HandPermission = role_permission(read=READERS, write=HAND_WRITERS)


class SeatInSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(min_value=1)
    # Bounded by the column a raise is stored in (cardroom.tables.desk.MAX_STACK).
    stack = serializers.IntegerField(
        min_value=0, max_value=MAX_STACK, error_messages={"max_value": STACK_ERROR}
    )


class DealSerializer(serializers.Serializer[Any]):
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


#: How DRF shows a date and time (``DateTimeField``: the current time zone, ISO 8601, UTC as Z).
SHOWN_AT = serializers.DateTimeField(read_only=True)


class HandActionSerializer(serializers.ModelSerializer[HandAction]):
    """An action as entered: a row (``HandAction``, the log's list) or as a request read it
    (``LoggedAction``, a hand's answer); who entered and who voided it by username, which
    is what a user shows as text."""

    entered_by = serializers.CharField(read_only=True)
    voided_by = serializers.CharField(read_only=True, allow_null=True)

    class Meta:
        model = HandAction
        fields = [
            "id", "seq", "seat", "action", "to", "out_of_turn", "entered_by", "entered_at",
            "voided_by", "voided_at", "void_reason",
        ]  # fmt: skip

    def to_representation(self, instance: HandAction | LoggedAction) -> dict[str, Any]:
        """The fields of ``Meta`` as the generic serializer shows them, written out: a hand's
        answer shows every action, and DRF's field by field walk cost more than the rest of
        a long hand's award (``tests/cardroom/test_hand_api.py`` holds the two equal)."""
        voided_by = instance.voided_by
        return {
            "id": instance.id,
            "seq": instance.seq,
            "seat": instance.seat,
            "action": instance.action,
            "to": instance.to,
            "out_of_turn": instance.out_of_turn,
            "entered_by": str(instance.entered_by),
            "entered_at": SHOWN_AT.to_representation(instance.entered_at),
            "voided_by": str(voided_by) if voided_by is not None else None,
            "voided_at": (
                None
                if instance.voided_at is None
                else SHOWN_AT.to_representation(instance.voided_at)
            ),
            "void_reason": instance.void_reason,
        }


@extend_schema_serializer(component_name="Hand")
class DealtHandSerializer(serializers.ModelSerializer[Hand]):
    """A hand dealt at a table, as recorded. (The hand sent to the betting API to be evaluated
    is ``rules.betting.HandSerializer``.)"""

    table = serializers.IntegerField(source="table.number", read_only=True)
    betting = serializers.SerializerMethodField(
        help_text="The engine's evaluation of the hand (the betting API's response body); "
        "null once the hand is voided."
    )
    # As the request read them (``Hand.logged_actions``): a write's answer reads none again.
    actions = HandActionSerializer(many=True, read_only=True, source="logged_actions")

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


@cache
def dealt_hand_serializer() -> DealtHandSerializer:
    """One ``DealtHandSerializer`` for the process, its fields built once: it holds no
    state of its own between answers (no context, no instance)."""
    return DealtHandSerializer()


def dealt_hand_answer(hand: Hand) -> dict[str, Any]:
    """``DealtHandSerializer(hand).data``, by the serializer built once a process."""
    return dealt_hand_serializer().to_representation(hand)


class ActionInSerializer(serializers.Serializer[Any]):
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
    out_of_turn = serializers.BooleanField(
        required=False,
        default=False,
        help_text="The seat acted before its turn: held until the turn reaches it, then "
        "binding, or void if the action to it changed (TDA-53).",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["action"] in ("bet", "raise") and data.get("to") is None:
            raise ValidationError({"to": f"A {data['action']} needs `to`."})
        if data["action"] not in ("bet", "raise"):
            data["to"] = None
        return data


class VoidInSerializer(serializers.Serializer[Any]):
    expected_seq = serializers.IntegerField(min_value=0)
    reason = serializers.CharField(max_length=REASON_MAX)
    confirm_hand = serializers.IntegerField(
        min_value=1, required=False,
        help_text="Voiding the whole hand (`void/`): the hand's `number`, required, so that a "
        "void of the hand always names it. Not used by `void-last/`.",
    )  # fmt: skip


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


class TableHandsView(generics.ListCreateAPIView[Hand]):
    """The hands dealt at a table, newest first; POST deals the next one."""

    serializer_class = DealtHandSerializer
    permission_classes = [HandPermission]

    def get_queryset(self) -> QuerySet[Hand]:
        table = get_object_or_404(Table, pk=self.kwargs["table_id"])
        return table.hands.prefetch_related(ACTIONS_SHOWN).select_related("table")

    @extend_schema(
        summary="Deal a hand at a table",
        request=DealSerializer,
        responses={201: DealtHandSerializer},
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        deal = DealSerializer(data=request.data)
        deal.is_valid(raise_exception=True)
        by = cast(AuthenticatedApiRequest, request).user  # ``HandPermission``: signed in
        hand = start_hand(table=table, by=by, **deal.validated_data)
        return Response(DealtHandSerializer(hand).data, status=201)


class HandDetailView(generics.RetrieveAPIView[Hand]):
    serializer_class = DealtHandSerializer
    permission_classes = [HandPermission]
    queryset = Hand.objects.select_related("table").prefetch_related(ACTIONS_SHOWN)


class HandActionsView(generics.ListCreateAPIView[HandAction]):
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
        responses={
            201: DealtHandSerializer,
            400: OpenApiTypes.OBJECT,
            409: STALE_409,
            422: REFUSED_422,
        },
    )
    def post(self, request: Request, hand_id: int) -> Response:
        entry = ActionInSerializer(data=request.data)
        if not entry.is_valid():
            get_object_or_404(Hand, pk=hand_id)  # no such hand: a 404 whatever the body
            raise ValidationError(entry.errors)
        by = cast(AuthenticatedApiRequest, request).user  # ``HandPermission``: signed in
        try:
            # The hand read once, locked, with its table, by the service.
            entered = record_action(hand=hand_id, by=by, **entry.validated_data)
        except Hand.DoesNotExist:
            get_object_or_404(Hand, pk=hand_id)
            raise
        # The hand as the action left it, with its actions and their replay: not read again.
        return Response(dealt_hand_answer(entered.hand), status=201)


class HandVoidView(APIView):
    permission_classes = [HandPermission]
    what = "last"

    @extend_schema(
        summary="Void the last action, or the hand (named by `confirm_hand`), with a reason "
        "(both stay on record)",
        request=VoidInSerializer,
        responses={200: DealtHandSerializer, 409: STALE_409, 422: REFUSED_422},
    )
    def post(self, request: AuthenticatedApiRequest, hand_id: int) -> Response:
        hand = get_object_or_404(Hand, pk=hand_id)
        entry = VoidInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = dict(entry.validated_data)
        confirm = data.pop("confirm_hand", None)
        if self.what == "hand" and (asked := unconfirmed_void(hand.number, confirm)):
            raise ValidationError({"confirm_hand": [asked]})
        service = void_last_action if self.what == "last" else void_hand
        service(hand=hand, by=request.user, **data)
        voided = Hand.objects.select_related("table").prefetch_related(ACTIONS_SHOWN)
        return Response(DealtHandSerializer(voided.get(pk=hand.pk)).data)
