"""The public deal calculator, ``POST /api/v1/deals/quote``: the shares of a final table's
remaining prizes by ICM, chip chop, chip chop with a floor, or equal (``tournaments.prizes.deals``
does the arithmetic). Stateless and open like the betting API: no log-in, no database, bounded
(256 KB bodies, at most 1,000 players, an exact ICM quote only while it stays quick) and rate
limited per client (scope ``deals``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from rules.betting import ERROR_400, BettingView
from rules.betting_request import StrictInteger
from tournaments.prizes.deals import MAX_PLAYERS, DealError, Method, quote


class DealQuoteSerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(choices=[m.value for m in Method])
    stacks = serializers.ListField(
        child=StrictInteger(), max_length=MAX_PLAYERS,
        help_text="Each player's chips (at least 1); the shares come back in this order.",
    )  # fmt: skip
    prizes = serializers.ListField(
        child=StrictInteger(), max_length=MAX_PLAYERS,
        help_text="The remaining prizes, first place first, at most one a player (missing "
                  "places pay 0), in the currency's minor unit.",
    )  # fmt: skip
    unit = StrictInteger(default=1, help_text="The shares are multiples of it.")
    play_for = StrictInteger(
        default=0, help_text="Left to play for: taken off the first prize before the split."
    )


QUOTE = inline_serializer(
    "DealQuote",
    {
        "method": serializers.ChoiceField(choices=[m.value for m in Method]),
        "shares": serializers.ListField(child=serializers.IntegerField()),
        "exact": serializers.ListField(child=serializers.FloatField()),
    },
)


class DealQuoteView(BettingView):
    """Quote a deal. The shares are multiples of ``unit`` summing to the prizes' total less
    ``play_for``: each exact value rounded down to the unit, the units left over one each to
    the largest remainders (ties: the larger stack, then the earlier in the list). Open and
    unauthenticated exactly as the betting API is (``BettingView``), with its own rate."""

    throttle_scope = "deals"

    @extend_schema(
        operation_id="deals_quote",
        request=DealQuoteSerializer,
        responses={200: QUOTE, 400: ERROR_400},
        auth=[],
        examples=[
            OpenApiExample(
                "Three-way ICM",
                request_only=True,
                value={"method": "icm", "stacks": [5000, 3000, 2000], "prizes": [500, 300, 200]},
            ),
            OpenApiExample(
                "Its answer",
                response_only=True,
                value={
                    "method": "icm",
                    "shares": [384, 327, 289],
                    "exact": [383.9285714285714, 327.5, 288.57142857142856],
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise exceptions.ValidationError(
                {"non_field_errors": ["The body is a JSON object: method, stacks, prizes."]}
            )
        given = DealQuoteSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            made = quote(**given.validated_data)
        except DealError as error:
            raise exceptions.ValidationError({error.field: [error.message]}) from None
        return Response(
            {
                "method": made.method.value,
                "shares": list(made.shares),
                "exact": [float(value) for value in made.exact],
            }
        )
