"""The public betting API (``../shared/contracts/betting-api.md``): stateless, no database.

``rules.betting_request`` reads the body (400 ``bad_request``; the schema's serializers are
derived from the same description), the engine does the poker (422 with the rule it applies),
output is the engine's snapshot. No poker in here.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import (
    OpenApiExample,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.api_errors import error_body
from cardroom.core.public_api import PublicRateThrottle
from rules.betting_request import ACTIONS as ACTIONS
from rules.betting_request import HAND, PHYSICAL, read_hand, read_physical, serializer_for
from rules.betting_request import MAX_ACTIONS as MAX_ACTIONS
from rules.betting_request import MAX_CHIPS as MAX_CHIPS
from rules.betting_request import MAX_SEAT as MAX_SEAT
from rules.betting_request import VERBALS as VERBALS
from rules.betting_request import ActionSerializer as ActionSerializer
from rules.betting_request import HandSerializer as HandSerializer
from rules.betting_request import SeatSerializer as SeatSerializer
from rules.betting_request import StrictInteger as StrictInteger
from rules.betting_request import build_hand as build_hand
from rules.engine.award import award_hand, check_showdown, parse_showdown
from rules.engine.chips import Facing, interpret
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.state import (
    HandState,
    legal_options,
    pots,
    replay,
    snapshot,
)


@extend_schema_field(
    {
        "nullable": True,
        "oneOf": [
            {"type": "string", "enum": list(VERBALS)},
            {
                "type": "object",
                "properties": {
                    "action": {"type": "string", "enum": ["bet", "raise"]},
                    "to": {"type": "integer", "minimum": 1, "maximum": MAX_CHIPS},
                },
                "required": ["action", "to"],
            },
        ],
    }
)
class VerbalField(serializers.Field[Any, Any, Any, Any]):
    """Schema only (``Physical.from_dict`` reads it): ``null``, a word (``"raise"``), or
    ``{"action": "bet" | "raise", "to": N}``."""


@extend_schema_field({"oneOf": [{"type": "boolean"}, {"type": "string", "enum": ["some"]}]})
class PulledBackField(serializers.Field[Any, Any, Any, Any]):
    """Schema only (``Physical.from_dict`` reads it): true, false or "some"."""


PhysicalSerializer = serializer_for(
    PHYSICAL,
    pulled_back=PulledBackField(default=False),
    verbal=VerbalField(default=None, allow_null=True),
)
InterpretSerializer = serializer_for(HAND, name="Interpret", physical=PhysicalSerializer())


def illegal(index: int, error: IllegalAction) -> Response:
    body = {
        "index": index,
        "code": error.code,
        "message": error.message,
        "citations": list(error.citations),
    }
    return Response({"error": body}, status=422)


def bad_input(error: BadInput) -> Response:
    # The contract's 400 body is exactly {code, message, fields}: the rules a refused post or
    # blind seat applies (CR-BB.1 to CR-BB.3, CR-DM.2) are named in the message, not in a key
    # version 1 clients do not expect.
    message = error.message
    if error.citations:
        message = f"{message} ({', '.join(error.citations)})"
    fields = {error.field: [message]} if error.field else {}
    return Response(error_body("bad_request", message, fields=fields), status=400)


class PublicBettingAPI(BasePermission):
    """Open while ``CARDROOM_PUBLIC_BETTING_API`` is on (the contract's default)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if settings.CARDROOM_PUBLIC_BETTING_API:
            return True
        return IsAuthenticated().has_permission(request, view)


class BettingView(APIView):
    permission_classes = [PublicBettingAPI]
    throttle_classes = [PublicRateThrottle]
    throttle_scope = "betting"

    def get_authenticators(self) -> list[Any]:
        # A public, stateless endpoint has nothing to protect with CSRF: don't authenticate.
        if settings.CARDROOM_PUBLIC_BETTING_API:
            return []
        return super().get_authenticators()

    def get_permissions(self) -> list[BasePermission]:
        if settings.CARDROOM_PUBLIC_BETTING_API:
            return [AllowAny()]
        return [IsAuthenticated()]


ERROR_422 = inline_serializer(
    "IllegalActionError",
    {
        "error": inline_serializer(
            "IllegalActionErrorBody",
            {
                "index": serializers.IntegerField(),
                "code": serializers.ChoiceField(
                    choices=[
                        "hand_over",
                        "not_your_turn",
                        "cannot_check",
                        "raise_not_allowed",
                        "raise_too_small",
                        "raise_too_large",
                        "hand_not_over",
                    ]
                ),
                "message": serializers.CharField(),
                "citations": serializers.ListField(child=serializers.CharField()),
            },
        )
    },
)
ERROR_400 = inline_serializer(
    "BadRequestError",
    {
        "error": inline_serializer(
            "BadRequestErrorBody",
            {
                "code": serializers.CharField(),
                "message": serializers.CharField(),
                "fields": serializers.DictField(required=False),
            },
        )
    },
)
EVALUATION = inline_serializer(
    "Evaluation",
    {
        "street": serializers.ChoiceField(
            choices=["preflop", "flop", "turn", "river", "showdown", "complete"]
        ),
        "to_act": serializers.IntegerField(allow_null=True),
        "pot": serializers.IntegerField(),
        "current_bet": serializers.IntegerField(),
        "min_raise_increment": serializers.IntegerField(),
        "options": inline_serializer(
            "Options",
            {
                "fold": serializers.BooleanField(),
                "check": serializers.BooleanField(),
                "call": serializers.IntegerField(allow_null=True),
                "raise": inline_serializer(
                    "RaiseRange",
                    {"min_to": serializers.IntegerField(), "max_to": serializers.IntegerField()},
                    allow_null=True,
                ),
            },
            allow_null=True,
        ),
        "pots": inline_serializer(
            "Pot",
            {
                "amount": serializers.IntegerField(),
                "eligible": serializers.ListField(child=serializers.IntegerField()),
            },
            many=True,
        ),
    },
)
EXAMPLE_HAND = {
    "game": {"structure": "no_limit", "small_blind": 100, "big_blind": 200},
    "button": 4,
    "seats": [{"seat": n, "stack": 10000} for n in (1, 2, 3, 4)],
    "actions": [{"seat": 3, "action": "raise", "to": 600}, {"seat": 4, "action": "call"}],
}


class EvaluateView(BettingView):
    @extend_schema(
        summary="Evaluate a hand: whose turn, the options, the pots",
        request=HandSerializer,
        responses={200: EVALUATION, 400: ERROR_400, 422: ERROR_422},
        examples=[OpenApiExample("Raise and call preflop", value=EXAMPLE_HAND, request_only=True)],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        return evaluation(request.data)


def evaluation(data: Any) -> Response:
    """The evaluate endpoints' answer for a hand body: 200, 400 or 422 as the contract says."""
    try:
        state, error = build_hand(data)
    except BadInput as exc:
        return bad_input(exc)
    if error is not None:
        return illegal(*error)
    return Response(snapshot(state))


INTERPRETATION = inline_serializer(
    "Interpretation",
    {
        "action": serializers.ChoiceField(choices=list(VERBALS)),
        "to": serializers.IntegerField(),
        "returned": serializers.IntegerField(),
        "explanation": serializers.CharField(),
        "citations": serializers.ListField(child=serializers.CharField()),
    },
)


class InterpretView(BettingView):
    @extend_schema(
        summary="Interpret chips pushed out and words spoken as the action they count as",
        request=InterpretSerializer,
        responses={200: INTERPRETATION, 400: ERROR_400, 422: ERROR_422},
        examples=[
            OpenApiExample(
                "One oversized chip facing a bet",
                value={**EXAMPLE_HAND, "physical": {"chips": [1000], "verbal": None}},
                request_only=True,
            )
        ],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data: Any = request.data  # JSON of any shape: read_hand checks it
        try:
            # The contract: the body's form first (400), then the first illegal action (422).
            hand = read_hand(data)
            if "physical" not in data:
                raise BadInput("`physical` is required.", "physical")
            physical = read_physical(data["physical"])
            state, error = replay(*hand)
            if error is not None:
                return illegal(*error)
            result = interpret(facing_of(state), physical)
        except BadInput as exc:
            return bad_input(exc)
        except IllegalAction as exc:
            return illegal(len(data.get("actions", [])), exc)
        return Response(result.to_dict())


def facing_of(state: HandState) -> Facing:
    """What the player to act faces, as the chip reader needs it."""
    options = legal_options(state)
    if options is None or state.to_act is None:
        raise IllegalAction("hand_over", "Nobody is to act: the betting is over.")
    seat = state.to_act
    raise_range = options.raise_
    return Facing(
        structure=str(state.config.structure),
        current_bet=state.current_bet,
        wager=state.street_wager[seat],
        stack=state.stacks[seat],
        call=options.call,
        min_to=raise_range.min_to if raise_range else None,
        max_to=raise_range.max_to if raise_range else None,
        min_raise_increment=state.min_raise_increment,
        bring_in=state.bring_in,
        min_chip=state.config.min_chip,
    )


AWARD_EXAMPLE = {
    **EXAMPLE_HAND,
    "actions": [
        {"seat": 3, "action": "all_in"},
        {"seat": 4, "action": "call"},
        {"seat": 1, "action": "fold"},
        {"seat": 2, "action": "fold"},
    ],
    "showdown": {"ranking": [[3, 4]]},
}
SEAT_AMOUNTS = inline_serializer(
    "SeatAmount",
    {"seat": serializers.IntegerField(), "amount": serializers.IntegerField()},
    many=True,
)
AWARD = inline_serializer(
    "Award",
    {
        "pots": inline_serializer(
            "AwardedPot",
            {
                "amount": serializers.IntegerField(),
                "eligible": serializers.ListField(child=serializers.IntegerField()),
                "awards": SEAT_AMOUNTS,
            },
            many=True,
        ),
        "returned": SEAT_AMOUNTS,
        "stacks": inline_serializer(
            "SeatStack",
            {"seat": serializers.IntegerField(), "stack": serializers.IntegerField()},
            many=True,
        ),
        "citations": serializers.ListField(child=serializers.CharField()),
    },
)


class BoardSerializer(serializers.Serializer[Any]):
    ranking = serializers.ListField(
        child=serializers.ListField(child=StrictInteger(min_value=1, max_value=MAX_SEAT)),
        help_text="Players still in the hand, best first; tied players share a group.",
    )
    low_ranking = serializers.ListField(
        child=serializers.ListField(child=StrictInteger(min_value=1, max_value=MAX_SEAT)),
        required=False,
        allow_null=True,
        help_text="High-low: the qualifying lows, best first (no qualifying low: left out).",
    )


class ShowdownSerializer(BoardSerializer):
    ranking = serializers.ListField(
        child=serializers.ListField(child=StrictInteger(min_value=1, max_value=MAX_SEAT)),
        required=False,
        help_text="Required unless the hand is complete (or `boards` is given).",
    )
    boards = BoardSerializer(
        many=True, required=False, allow_null=True, help_text="Run it twice: two boards."
    )


AwardSerializer = serializer_for(HAND, name="Award", showdown=ShowdownSerializer(required=False))


class AwardView(BettingView):
    @extend_schema(
        summary="Award the pots of a hand whose betting is over",
        request=AwardSerializer,
        responses={200: AWARD, 400: ERROR_400, 422: ERROR_422},
        examples=[OpenApiExample("A tie at showdown", value=AWARD_EXAMPLE, request_only=True)],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data: Any = request.data  # JSON of any shape: read_hand checks it
        try:
            # The contract: the body's form first (400), then the first illegal action and
            # `hand_not_over` (422), then the ranking against the players still in (400).
            hand = read_hand(data)
            state, error = replay(*hand)
            complete = error is None and state.street == "complete"
            # A complete hand's last player wins every pot: its showdown is ignored.
            raw = data.get("showdown")
            showdown = None if complete else parse_showdown(raw, dealt=state.seat_order)
            if error is not None:
                return illegal(*error)
            if state.street not in ("showdown", "complete"):
                return illegal(len(hand.actions), HAND_NOT_OVER)
            if showdown is not None:
                check_showdown(
                    showdown, live=[s for s in state.seat_order if s not in state.folded]
                )
            body = award_hand(
                pots=pots(state),
                showdown=showdown,
                button=hand.button,
                stacks=state.stacks,
                returned=state.returned,
                min_chip=hand.config.min_chip,
                dead_money=sum(state.dead.values()),
            )
        except BadInput as exc:
            return bad_input(exc)
        return Response(body)


HAND_NOT_OVER = IllegalAction(
    "hand_not_over", "The betting is not over: nobody wins a pot before it ends."
)
