"""The payments API, under /api/v1/tournaments/{id}/payments/: a rebuy or an add-on taken for a
player by entry number, paid with a method. The same service as the cashier's page
(``payments``); its bodies are here.

Taken by the cashier or the director (``roles.MONEY_TAKERS``). A malformed body is 400, a
method or kind not taken 400 with the field, a payment the state refuses (a limit reached, a
window closed, a stack above the ceiling, the player in a hand or out) 409 with the rule
(``cardroom/core/api_errors.py`` answers them all).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.parsers import whole_number
from cardroom.core.request_types import AuthenticatedApiRequest
from cardroom.core.roles import MONEY_TAKERS, role_permission
from tournaments.models import Entrant
from tournaments.money import payments
from tournaments.money.models import Method, MoneyMove
from tournaments.money.payments import PAID_WITH
from tournaments.serializers import ERRORS

PaymentPermission = role_permission(read=MONEY_TAKERS, write=MONEY_TAKERS)


class PaymentInSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["rebuy", "addon"], help_text="rebuy or addon.")
    entry = serializers.IntegerField(
        min_value=1, max_value=2_147_483_647, help_text="The player's entry number."
    )

    def to_internal_value(self, data: Any) -> Any:
        # An entry number in ASCII digits: DRF's own reads "٣" as 3.
        number = data.get("entry") if isinstance(data, dict) else None
        if isinstance(number, bool) or (
            isinstance(number, str) and whole_number(number, 12) is None
        ):
            raise serializers.ValidationError({"entry": ["An entry number, in digits."]})
        return super().to_internal_value(data)

    # A string checked here, not an enum: "method" names the deal quotes' enum in the schema.
    method = serializers.CharField(
        max_length=8, default=Method.CASH,
        help_text="What it was paid with: cash, card or voucher.",
    )  # fmt: skip

    def validate_method(self, value: str) -> str:
        if value not in PAID_WITH:
            raise serializers.ValidationError("Paid with cash, card or voucher.")
        return value


class MoneyMoveSerializer(serializers.ModelSerializer[MoneyMove]):
    entry = serializers.IntegerField(source="entrant.number", allow_null=True, default=None)
    # A plain string: the ledger's methods include the room's own ("room"), which a payment
    # is never taken with (one enum per name in the schema).
    method = serializers.CharField(help_text="cash, card, voucher, or room (the room's money).")
    by = serializers.CharField(source="by.username")

    class Meta:
        model = MoneyMove
        fields = [
            "id", "kind", "entry", "method", "player_in", "room_in", "player_out", "room_out",
            "pool", "house", "staff", "bounty", "owed", "chips", "note", "by", "at",
        ]  # fmt: skip


class PaymentsView(APIView):
    permission_classes = [PaymentPermission]

    @extend_schema(
        summary="Take a rebuy or an add-on for a player (within its limit and window)",
        request=PaymentInSerializer,
        responses={201: MoneyMoveSerializer, **ERRORS},
    )
    def post(self, request: AuthenticatedApiRequest, pk: int) -> Response:
        entry = PaymentInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = entry.validated_data
        entrant = get_object_or_404(Entrant, tournament_id=pk, number=data["entry"])
        take = payments.take_rebuy if data["kind"] == "rebuy" else payments.take_addon
        line = take(entrant=entrant, method=data["method"], by=request.user)
        return Response(MoneyMoveSerializer(line).data, status=201)


api_urls = [
    path("tournaments/<id:pk>/payments/", PaymentsView.as_view(), name="tournament-payments"),
]
