"""The kiosk's REST API: no log-in, a player puts their own name on one or more
waitlists; it lists the open lists with how many wait (never a name). Like the kiosk's page
(``cardroom/waitlists/kiosk_views.py``, "Privacy"), an answer never depends on whether the name typed is
already down: a name already on a list keeps its entry and gets the answer a new name gets
(the lists, and the board's name made from what was typed), with no place. Adding is rate-limited per address (scope ``kiosk``; refused posts ``kiosk_refused``).
The floor's API of the lists is ``cardroom/waitlists/api.py``; the kiosk's page is
``cardroom/waitlists/kiosk_views.py``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import Throttled, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.api_errors import Conflict
from cardroom.core.public_api import CountedThrottle
from cardroom.seats.models import Player, split_contact
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.api import ERROR, ERRORS
from cardroom.waitlists.models import EntrySource, GameList


class KioskInSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    alias = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    lists = serializers.PrimaryKeyRelatedField(
        queryset=GameList.objects.filter(closed_at__isnull=True), many=True, allow_empty=False
    )


class KioskView(APIView):
    """No log-in: a player puts their own name on lists. Nothing else, and rate-limited."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes: list[Any] = []  # a post is counted once its outcome is known (below)

    @extend_schema(
        summary="Kiosk: put yourself on one or more lists (no log-in, rate-limited)",
        request=KioskInSerializer,
        responses={
            201: inline_serializer(
                "KioskAdded",
                {
                    "public_name": serializers.CharField(),
                    "lists": serializers.ListField(child=serializers.DictField()),
                },
            ),
            429: ERROR,
            **ERRORS,
        },
    )
    def post(self, request: Request) -> Response:
        # Names added count against ``kiosk``; refused posts against ``kiosk_refused``, a
        # higher cap. Looking at the lists (no names) is not limited.
        added, refused = CountedThrottle("kiosk"), CountedThrottle("kiosk_refused")
        for gate in (refused, added):
            if (wait := gate.check(request)) is not None:
                raise Throttled(wait)
        try:
            body = self._add(request)
        except (ValidationError, DjangoValidationError, Conflict):
            refused.count()
            raise
        added.count()
        return body

    def _add(self, request: Request) -> Response:
        data = KioskInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        with transaction.atomic():  # on every list asked for, or on none: the API's contract
            adds = waitlists.add_to_lists(
                game_lists=fields["lists"], name=fields["name"], alias=fields["alias"],
                source=EntrySource.KIOSK, by=None,
            )  # fmt: skip
            if adds.refused:
                raise adds.refused[0][1]  # the first list's refusal; the others' adds undone
        placed = [{"list": entry.game_list.label} for entry in adds.added]
        name = split_contact(fields["name"])[0]  # a contact typed after it is no part of it
        typed = Player(name=name, alias=fields["alias"].strip())
        return Response({"public_name": typed.public_name, "lists": placed}, status=201)

    @extend_schema(
        summary="Kiosk: the lists a player may join (no names shown)",
        responses={
            200: inline_serializer(
                "KioskList",
                {
                    "id": serializers.IntegerField(),
                    "label": serializers.CharField(),
                    "waiting": serializers.IntegerField(),
                },
                many=True,
            )
        },
    )
    def get(self, request: Request) -> Response:
        return Response(
            [
                {"id": g.pk, "label": g.label, "waiting": waiting}
                for g, waiting in waitlists.open_lists_waiting()
            ]
        )
