"""The floor's REST API: tables and their game configuration."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.core.request_types import AuthenticatedApiRequest
from cardroom.core.roles import READERS, RULING_WRITERS, role_permission
from cardroom.rulings.filters import RulingFilter
from cardroom.rulings.models import Ruling, RulingCitation, RulingKind
from cardroom.rulings.reading import ruling_references
from cardroom.rulings.services import WITH_TOURNAMENT, record_ruling, tournament_of
from cardroom.tables.api import IDEMPOTENCY_KEY
from rules.betting import (
    HandSerializer,
)

if TYPE_CHECKING:  # built at run time from the contract: mypy knows it as a serializer class
    _ContractHand = serializers.Serializer[Any]
else:
    _ContractHand = HandSerializer


# --- rulings --------------------------------------------------------------------------------


class CitationSerializer(serializers.Serializer[Any]):
    rule = serializers.CharField(help_text="Citation id, e.g. TDA-45.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class CitedRuleSerializer(serializers.ModelSerializer[RulingCitation]):
    citation_id = serializers.CharField(source="rule.citation_id")
    title = serializers.CharField(source="rule.title")
    url = serializers.SerializerMethodField()

    class Meta:
        model = RulingCitation
        fields = ["citation_id", "title", "note", "url"]

    def get_url(self, citation: RulingCitation) -> str:
        return f"/rulebook/{citation.rule_id}/"


class RulingSerializer(serializers.ModelSerializer[Ruling]):
    table = serializers.IntegerField(source="table.number")
    tournament = serializers.SerializerMethodField()
    director = serializers.CharField(source="director.username", read_only=True)
    citations = CitedRuleSerializer(many=True, read_only=True)
    action = serializers.IntegerField(source="action.seq", allow_null=True, read_only=True)

    class Meta:
        model = Ruling
        fields = [
            "id", "table", "tournament", "number", "kind", "amends", "hand", "action", "seats",
            "names", "situation", "decision", "citations", "director", "created_at",
        ]  # fmt: skip
        extra_kwargs = {
            "names": {
                "read_only": True,
                "help_text": "Who sat in each seat involved when the ruling was made, by seat "
                '("3": "Alice"); a seat empty then is not named.',
            }
        }

    @extend_schema_field(
        inline_serializer(
            "RulingTournament",
            {"id": serializers.IntegerField(), "name": serializers.CharField()},
            allow_null=True,
        )
    )
    def get_tournament(self, ruling: Ruling) -> dict[str, Any] | None:
        tournament = tournament_of(ruling)
        if tournament is None:
            return None
        return {"id": tournament.pk, "name": tournament.name}


class RulingInSerializer(serializers.Serializer[Any]):
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
    list=extend_schema(summary="Rulings, newest first, filtered"),
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
    viewsets.GenericViewSet[Ruling],
):
    """Append-only: no update, no delete (405)."""

    lookup_value_regex = "[0-9]{1,18}"

    serializer_class = RulingSerializer
    # Floor managers and directors; the ruling's table decides which of them (a tournament
    # table's is the director's: ``record_ruling`` answers 403 to the other).
    permission_classes = [role_permission(read=READERS, write=RULING_WRITERS)]
    queryset = Ruling.objects.select_related(
        "table", WITH_TOURNAMENT, "director", "action"
    ).prefetch_related("citations__rule")
    filter_backends = [DjangoFilterBackend]
    filterset_class = RulingFilter

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get("Idempotency-Key")
        if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
            raise ValidationError(
                {"Idempotency-Key": "Send 1-64 visible ASCII characters, e.g. a UUID."}
            )
        entry = RulingInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data = dict(entry.validated_data)
        found = ruling_references(
            table=data.pop("table"), hand=data.pop("hand", None),
            action=data.pop("action", None), amends=data.pop("amends", None),
        )  # fmt: skip
        citations = [(c["rule"], c["note"]) for c in data.pop("citations")]
        # The write permission (``role_permission``) admits only signed-in floor roles.
        director = cast(AuthenticatedApiRequest, request).user
        ruling, replayed = record_ruling(
            director=director, citations=citations, request_key=key, **found, **data
        )
        body = RulingSerializer(self.get_queryset().get(pk=ruling.pk)).data
        if replayed:
            return Response(body, status=200, headers={"Idempotent-Replayed": "true"})
        return Response(body, status=201)
