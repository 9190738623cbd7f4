"""The public betting API (``../shared/contracts/betting-api.md``): stateless, no database.

Input serializers check the shape of the body (400 ``bad_request``), the engine does the poker
(422 with the rule it applies), output is the engine's snapshot. No poker in here.
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

from cardroom.api_errors import error_body
from cardroom.public_api import PublicRateThrottle
from rules.engine.chips import Facing, Physical, interpret
from rules.engine.config import GameConfig
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.state import Action, HandState, Seat, legal_options, replay, snapshot

ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")
VERBALS = ("check", "call", "bet", "raise", "all_in")


#: The contract's limits, for the serializers that document the body (``parse_hand`` applies
#: them): seat numbers 1 to 12, at most 1,000 actions, every number from 0 to 10^15.
MAX_SEAT = 12
MAX_ACTIONS = 1000
MAX_CHIPS = 10**15


class StrictInteger(serializers.IntegerField):
    """A JSON integer: ``"5"``, ``5.5`` and ``true`` are type errors, not numbers. At most
    10^15 unless told otherwise (the contract: exact in every JSON client)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", MAX_CHIPS)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class GameSerializer(serializers.Serializer):  # type: ignore[type-arg]
    structure = serializers.ChoiceField(choices=["no_limit", "pot_limit", "fixed_limit"])
    small_blind = StrictInteger(min_value=1)
    big_blind = StrictInteger(min_value=1)
    ante = StrictInteger(min_value=0, default=0)
    straddle = StrictInteger(min_value=0, default=0)
    small_bet = StrictInteger(min_value=1, required=False, allow_null=True)
    big_bet = StrictInteger(min_value=1, required=False, allow_null=True)
    raise_cap = StrictInteger(min_value=0, default=3)
    pot_limit_small_blind_as_big = serializers.BooleanField(default=False)
    min_chip = StrictInteger(min_value=1, default=1)
    big_blind_ante = StrictInteger(
        min_value=0, default=0, help_text="Extension: the big blind posts the table's ante."
    )
    pot_round_unit = StrictInteger(
        min_value=0, default=0, help_text="Extension: pot limit, round the pot size up to this."
    )


class SeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = StrictInteger(min_value=1, max_value=MAX_SEAT)
    stack = StrictInteger(min_value=1, help_text="A player with no chips is not dealt in.")


class ActionSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = StrictInteger(min_value=1, max_value=MAX_SEAT)
    action = serializers.ChoiceField(choices=ACTIONS)
    to = StrictInteger(min_value=0, required=False, allow_null=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data["action"] in ("bet", "raise") and data.get("to") is None:
            raise serializers.ValidationError({"to": f"A {data['action']} needs `to`."})
        return data


class HandSerializer(serializers.Serializer):  # type: ignore[type-arg]
    game = GameSerializer()
    button = StrictInteger(min_value=1, max_value=MAX_SEAT)
    seats = SeatSerializer(many=True, allow_empty=False, max_length=MAX_SEAT)
    actions = ActionSerializer(many=True, default=list, max_length=MAX_ACTIONS)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        numbers = [seat["seat"] for seat in data["seats"]]
        if len(numbers) != len(set(numbers)):
            raise serializers.ValidationError({"seats": "Each seat may be dealt in only once."})
        if len(numbers) < 2:
            raise serializers.ValidationError({"seats": "A hand needs at least two players."})
        if data["button"] not in numbers:
            raise serializers.ValidationError({"button": "The button must be a seat dealt in."})
        for index, action in enumerate(data["actions"]):
            if action["seat"] not in numbers:
                raise serializers.ValidationError(
                    {"actions": {index: {"seat": f"Seat {action['seat']} is not dealt in."}}}
                )
        return data


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
class VerbalField(serializers.Field):  # type: ignore[type-arg]
    """``null``, a word (``"raise"``), or ``{"action": "bet" | "raise", "to": N}``."""

    def to_internal_value(self, data: Any) -> dict[str, Any] | str | None:
        if data is None or (isinstance(data, str) and data in VERBALS):
            return data
        if isinstance(data, dict) and data.get("action") in ("bet", "raise"):
            to = data.get("to")
            if isinstance(to, int) and not isinstance(to, bool) and to > 0:
                return {"action": data["action"], "to": to}
            raise serializers.ValidationError("A spoken amount needs a positive integer `to`.")
        raise serializers.ValidationError(
            f"Say one of {', '.join(VERBALS)}, or give {{'action': 'bet'|'raise', 'to': N}}."
        )

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field({"oneOf": [{"type": "boolean"}, {"type": "string", "enum": ["some"]}]})
class PulledBackField(serializers.Field):  # type: ignore[type-arg]
    def to_internal_value(self, data: Any) -> bool | str:
        if isinstance(data, bool) or data == "some":
            return data
        raise serializers.ValidationError('Use true, false or "some".')

    def to_representation(self, value: Any) -> Any:
        return value


class PhysicalSerializer(serializers.Serializer):  # type: ignore[type-arg]
    chips = serializers.ListField(child=StrictInteger(min_value=1), default=list)
    prior_chips = serializers.ListField(child=StrictInteger(min_value=1), default=list)
    pulled_back = PulledBackField(default=False)
    verbal = VerbalField(default=None, allow_null=True)


class InterpretSerializer(HandSerializer):
    physical = PhysicalSerializer()


#: The game's numbers, each a whole number from 0 to 10^15 (a body over the contract's 256 KB
#: is refused before it is read: ``cardroom.middleware.BodySizeLimitMiddleware``). With the
#: limits above they bound the work of one request: ``bench/bench_engine.py`` times the worst.
_GAME_NUMBERS = (
    "small_blind", "big_blind", "ante", "straddle", "small_bet", "big_bet", "raise_cap",
    "min_chip", "big_blind_ante", "pot_round_unit",
)  # fmt: skip


def _whole(value: Any, field: str, minimum: int = 0, maximum: int = MAX_CHIPS) -> int:
    """A whole number from ``minimum`` to ``maximum``, or a ``BadInput`` naming ``field`` (its
    dotted path, as the contract's ``fields`` keys it: ``seats.2.stack``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"`{field}` must be a whole number.", field)
    if not minimum <= value <= maximum:
        raise BadInput(f"`{field}` must be from {minimum:,} to {maximum:,}.", field)
    return value


def _game(raw: Any) -> GameConfig:
    if not isinstance(raw, dict):
        raise BadInput("`game` must be an object.", "game")
    for name in _GAME_NUMBERS:
        value = raw.get(name)
        if value is not None:
            _whole(value, f"game.{name}")
    try:
        return GameConfig.from_dict(raw)
    except BadInput as exc:  # the engine names the game's own field: give its dotted path
        field = exc.field if exc.field and exc.field.startswith("game") else f"game.{exc.field}"
        raise BadInput(exc.message, field) from None


def parse_hand(data: Any) -> tuple[GameConfig, int, list[Seat], list[Action]]:
    """Read a request body into engine objects. Hand-written rather than a DRF serializer: this
    is the hot path of the public API (the serializers above document it in the schema).

    Every list is measured before it is walked, so the work is bounded by the contract's
    limits whatever the body holds."""
    if not isinstance(data, dict):
        raise BadInput("The body must be a JSON object.", "body")
    if "game" not in data:
        raise BadInput("`game` is required.", "game")
    config = _game(data["game"])
    button = _whole(data.get("button"), "button", 1, MAX_SEAT)
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats:
        raise BadInput("`seats` must be a non-empty list of {seat, stack}.", "seats")
    if len(raw_seats) > MAX_SEAT:
        raise BadInput(f"At most {MAX_SEAT} players: seats run from 1 to {MAX_SEAT}.", "seats")
    seats = []
    for index, entry in enumerate(raw_seats):
        if not isinstance(entry, dict):
            raise BadInput("Each seat is an object {seat, stack}.", f"seats.{index}")
        seat = _whole(entry.get("seat"), f"seats.{index}.seat", 1, MAX_SEAT)
        # Contract v2: players with no chips are not dealt in, so a stack is at least 1.
        stack = _whole(entry.get("stack"), f"seats.{index}.stack", 1)
        seats.append(Seat(seat=seat, stack=stack))
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise BadInput("`actions` must be a list.", "actions")
    if len(raw_actions) > MAX_ACTIONS:
        raise BadInput(f"At most {MAX_ACTIONS:,} actions.", "actions")
    actions = []
    for index, entry in enumerate(raw_actions):
        if not isinstance(entry, dict):
            raise BadInput("Each action is an object {seat, action, to}.", f"actions.{index}")
        _whole(entry.get("seat"), f"actions.{index}.seat", 1, MAX_SEAT)
        to = entry.get("to")
        # A `to` sent with a call or all-in is ignored (v1), unless it is a number out of range.
        if isinstance(to, int) or (to is not None and entry.get("action") in ("bet", "raise")):
            _whole(to, f"actions.{index}.to")
        try:
            actions.append(Action.from_dict(entry))
        except BadInput as exc:
            raise BadInput(exc.message, f"actions.{index}") from None
    return config, button, seats, actions


def parse_physical(data: Any) -> Physical:
    """The ``physical`` object, every number within the contract's limits."""
    if not isinstance(data, dict):
        raise BadInput("physical must be an object.", "physical")
    for name in ("chips", "prior_chips"):
        chips = data.get(name)
        if isinstance(chips, list):
            for index, chip in enumerate(chips):
                _whole(chip, f"physical.{name}.{index}", 1)
    verbal = data.get("verbal")
    if isinstance(verbal, dict) and verbal.get("to") is not None:
        _whole(verbal["to"], "physical.verbal.to", 1)
    return Physical.from_dict(data)


def build_hand(data: Any) -> tuple[HandState, tuple[int, IllegalAction] | None]:
    """The engine's hand from a request body; ``BadInput`` (a 400) for what it refuses."""
    return replay(*parse_hand(data))


def illegal(index: int, error: IllegalAction) -> Response:
    body = {
        "index": index,
        "code": error.code,
        "message": error.message,
        "citations": list(error.citations),
    }
    return Response({"error": body}, status=422)


def bad_input(error: BadInput) -> Response:
    fields = {error.field: [error.message]} if error.field else {}
    return Response(error_body("bad_request", error.message, fields=fields), status=400)


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
        data = request.data
        try:
            # The contract: the body's form first (400), then the first illegal action (422).
            hand = parse_hand(data)
            if "physical" not in data:
                raise BadInput("`physical` is required.", "physical")
            physical = parse_physical(data["physical"])
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
