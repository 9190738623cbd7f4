"""The rulebook's REST API: search and read rules by citation; floor managers write house rules.

Reading is public while ``CARDROOM_PUBLIC_RULEBOOK`` is on (as the pages are), otherwise for
staff and up. Errors have the one shape of ``cardroom.core.api_errors``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.pagination import BoundedLimitOffsetPagination
from cardroom.core.public_api import PublicRateThrottle
from cardroom.core.request_types import AuthenticatedApiRequest
from cardroom.core.roles import Role, can_read, has_role
from rules.models import Rule
from rules.search import MAX_QUERY, Hit, resolve_citation, search_rules
from rules.services import create_house_rule, update_house_rule

#: The most hits one search returns (they come ranked; the best are first).
SEARCH_LIMIT = 50


class RulebookPermission(BasePermission):
    """Reading: anyone while the rulebook is public, else a reader role. Writing: floor managers."""

    message = "Your role does not allow this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        signed_in = bool(request.user and request.user.is_authenticated)
        if request.method in SAFE_METHODS:
            return settings.CARDROOM_PUBLIC_RULEBOOK or (signed_in and can_read(request.user))
        return signed_in and has_role(request.user, Role.FLOOR_MANAGER)


class RuleSerializer(serializers.ModelSerializer[Rule]):
    book = serializers.CharField(source="rulebook.code", read_only=True)
    section = serializers.CharField(source="section.code", read_only=True)
    section_title = serializers.CharField(source="section.title", read_only=True)
    url = serializers.SerializerMethodField(help_text="The rule's permalink page.")
    rank = serializers.SerializerMethodField(help_text="Search relevance (searches only).")
    snippet = serializers.SerializerMethodField(
        help_text="HTML: the rule's words escaped, the matches in <mark> (searches only)."
    )

    class Meta:
        model = Rule
        fields = [
            "citation_id", "book", "section", "section_title", "number", "title", "text",
            "withdrawn", "house", "url", "rank", "snippet",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, rule: Rule) -> str:
        request = self.context.get("request")
        path = rule.get_absolute_url()
        return request.build_absolute_uri(path) if request else path

    def _hit(self, rule: Rule) -> Hit | None:
        hits: dict[int, Hit] = self.context.get("hits", {})
        return hits.get(rule.pk)

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_rank(self, rule: Rule) -> float | None:
        hit = self._hit(rule)
        return round(hit.rank, 4) if hit else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_snippet(self, rule: Rule) -> str | None:
        hit = self._hit(rule)
        return str(hit.snippet) if hit else None


class ExampleSerializer(serializers.Serializer[Any]):
    title = serializers.CharField()
    text = serializers.CharField()


class OtherEditionSerializer(serializers.Serializer[Any]):
    citation_id = serializers.CharField()
    edition = serializers.CharField()
    number = serializers.CharField()


class RuleDetailSerializer(RuleSerializer):
    examples = ExampleSerializer(many=True, read_only=True)
    other_editions = OtherEditionSerializer(source="aliases", many=True, read_only=True)
    cited_in = serializers.SerializerMethodField(help_text="How many rulings cite the rule.")
    edition = serializers.SerializerMethodField()
    attribution = serializers.CharField(source="rulebook.attribution", read_only=True)
    previous = serializers.SerializerMethodField(help_text="Citation id of the rule before.")
    next = serializers.SerializerMethodField(help_text="Citation id of the rule after.")

    class Meta(RuleSerializer.Meta):
        fields = [
            *(f for f in RuleSerializer.Meta.fields if f not in {"rank", "snippet"}),
            "examples", "other_editions", "cited_in", "edition", "source", "stub", "note",
            "withdrawn_at", "attribution", "previous", "next",
        ]  # fmt: skip
        read_only_fields = fields

    def get_cited_in(self, rule: Rule) -> int:
        return rule.cited_count()

    def get_edition(self, rule: Rule) -> str:
        return rule.edition or rule.rulebook.edition

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_previous(self, rule: Rule) -> str | None:
        before = rule.neighbours()[0]
        return before.citation_id if before else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_next(self, rule: Rule) -> str | None:
        after = rule.neighbours()[1]
        return after.citation_id if after else None


class HouseRuleInput(serializers.Serializer[Any]):
    title = serializers.CharField(max_length=200)
    text = serializers.CharField()


class NewHouseRuleInput(HouseRuleInput):
    number = serializers.CharField(
        required=False, allow_blank=True, max_length=10,
        help_text="Digits; the rule is cited HOUSE-<number>. Blank: the next free number.",
    )  # fmt: skip


SEARCH_PARAMETERS = [
    OpenApiParameter("q", str, description="Words, web-search syntax, or a citation (TDA 45)."),
    OpenApiParameter("book", str, description="A book's code: RRoP, TDA, BH, CR, HOUSE."),
    OpenApiParameter("section", str, description="A section's code within the books: 14, BR."),
]


class RuleListView(GenericAPIView[Rule]):
    permission_classes = [RulebookPermission]
    throttle_classes = [PublicRateThrottle]
    throttle_scope = "rulebook"
    serializer_class = RuleSerializer
    pagination_class = BoundedLimitOffsetPagination

    def get_queryset(self) -> QuerySet[Rule]:
        # Also what the browsable API asks for when it renders this view as HTML.
        return Rule.objects.filter(withdrawn=False).select_related("rulebook", "section")

    @extend_schema(
        summary="Search the rulebook, or list its rules",
        description="With `q`: the best matches first, each with `rank` and an HTML `snippet` "
        f"(at most {SEARCH_LIMIT}). Without: every current rule in book order. Paginated.",
        parameters=SEARCH_PARAMETERS,
        responses=RuleSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        query = params.get("q", "").strip()
        if len(query) > MAX_QUERY:
            raise serializers.ValidationError({"q": f"At most {MAX_QUERY} characters."})
        book, section = params.get("book") or None, params.get("section") or None
        hits: dict[int, Hit] = {}
        if query:
            found = search_rules(query, book=book, section=section, limit=SEARCH_LIMIT)
            hits = {hit.rule.pk: hit for hit in found}
            rules: Any = [hit.rule for hit in found]
        else:
            rules = self.get_queryset()
            if book:
                rules = rules.filter(rulebook__code__iexact=book)
            if section:
                rules = rules.filter(section__code__iexact=section)
        paginator = BoundedLimitOffsetPagination()
        page: list[Rule] = paginator.paginate_queryset(rules, request, view=self) or []
        context = {"request": request, "hits": hits}
        return paginator.get_paginated_response(
            RuleSerializer(page, many=True, context=context).data
        )

    @extend_schema(
        summary="Add a house rule (floor managers)",
        request=NewHouseRuleInput,
        responses={201: RuleDetailSerializer},
    )
    def post(self, request: AuthenticatedApiRequest) -> Response:
        data = _valid(NewHouseRuleInput, request)
        rule = create_house_rule(by=request.user, **data)
        body = RuleDetailSerializer(rule, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)


class RuleDetailView(APIView):
    permission_classes = [RulebookPermission]
    throttle_classes = [PublicRateThrottle]
    throttle_scope = "rulebook"

    def _rule(self, citation_id: str) -> Rule:
        rule = resolve_citation(citation_id)
        if rule is None:
            raise Http404
        return rule

    @extend_schema(
        summary="One rule by citation id",
        description="An older edition's number (TDA-41) or other capitals answer with the rule "
        "they name, under its own `citation_id`. Withdrawn rules still answer (rulings cite them).",
        responses=RuleDetailSerializer,
    )
    def get(self, request: Request, citation_id: str) -> Response:
        rule = self._rule(citation_id)
        return Response(RuleDetailSerializer(rule, context={"request": request}).data)

    @extend_schema(
        summary="Change a house rule's words (floor managers; history is kept)",
        request=HouseRuleInput,
        responses=RuleDetailSerializer,
    )
    def put(self, request: AuthenticatedApiRequest, citation_id: str) -> Response:
        return self._update(request, citation_id, partial=False)

    @extend_schema(
        summary="Change some of a house rule's words (floor managers; history is kept)",
        request=HouseRuleInput(partial=True),
        responses=RuleDetailSerializer,
    )
    def patch(self, request: AuthenticatedApiRequest, citation_id: str) -> Response:
        return self._update(request, citation_id, partial=True)

    def _update(
        self, request: AuthenticatedApiRequest, citation_id: str, *, partial: bool
    ) -> Response:
        rule = self._rule(citation_id)
        data = {"title": rule.title, "text": rule.text, **_valid(HouseRuleInput, request, partial)}
        rule = update_house_rule(rule=rule, by=request.user, **data)
        return Response(RuleDetailSerializer(rule, context={"request": request}).data)


def _valid(
    serializer: type[serializers.Serializer[Any]], request: Request, partial: bool = False
) -> Any:
    checked = serializer(data=request.data, partial=partial)
    checked.is_valid(raise_exception=True)
    return checked.validated_data
