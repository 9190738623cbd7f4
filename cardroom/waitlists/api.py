"""The waitlists' REST API: lists, their players, seat offers, seating with a
buy-in, must-move tables, starting a table from a list, the room's settings (the kiosk's
API is ``cardroom/waitlists/kiosk_api.py``).

Floor managers and staff run the lists; a floor manager alone reorders a list or changes the
room's settings; tournament directors read. The kiosk (no log-in, rate-limited) only adds a
player to lists. Errors: 400 bad input, 422 refused by a rule, 409 someone got there first."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.pagination import BoundedLimitOffsetPagination
from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.core.roles import READERS, Role, has_role, role_permission
from cardroom.seats.models import Player
from cardroom.tables.choices import Structure, Variant
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists import tables as waitlist_tables
from cardroom.waitlists.models import (
    LIVE_STATUSES,
    EntrySource,
    GameList,
    MustMove,
    RoomSettings,
    StartRule,
    WaitlistEntry,
    entry_facts,
)

#: Who runs the lists (add, call, seat, remove, must-move, start a game).
RUNNERS: tuple[Role, ...] = (Role.FLOOR_MANAGER, Role.STAFF)
Runners = role_permission(read=READERS, write=RUNNERS)
Managers = role_permission(read=READERS, write=[Role.FLOOR_MANAGER])

ERROR = inline_serializer(
    "WaitlistError",
    {
        "error": inline_serializer(
            "WaitlistErrorBody",
            {
                "code": serializers.CharField(),
                "message": serializers.CharField(),
                "fields": serializers.DictField(required=False),
            },
        )
    },
)
ERRORS: dict[int, Any] = {400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR, 422: ERROR}


def _user(request: Request) -> Any:
    return request.user


# --- serializers ----------------------------------------------------------------------------


class EntrySerializer(serializers.ModelSerializer[WaitlistEntry]):
    name = serializers.CharField(source="player.name", read_only=True)
    public_name = serializers.CharField(source="player.public_name", read_only=True)
    called_table = serializers.IntegerField(
        source="called_table.number", allow_null=True, read_only=True
    )
    seat = serializers.SerializerMethodField()
    playing_at = serializers.SerializerMethodField(help_text='Seated elsewhere: "Table 1 seat 3"')
    last_missed_at = serializers.SerializerMethodField(help_text="When an offer last ran out")
    offer_ran_out = serializers.BooleanField(
        read_only=True,
        help_text="Called, and the offer's time has passed: it ran out (the timers record it"
        " and call the next player within seconds)",
    )

    class Meta:
        model = WaitlistEntry
        fields = [
            "id", "game_list", "player", "name", "public_name", "source", "status", "position",
            "added_at", "check_in_by", "checked_in_at", "called_at", "call_expires_at",
            "called_table", "called_seat", "passes", "seated_at", "seat", "playing_at",
            "last_missed_at", "offer_ran_out",
        ]  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(
        inline_serializer(
            "EntrySeat",
            {"table": serializers.IntegerField(), "seat": serializers.IntegerField()},
            allow_null=True,
        )
    )
    def _facts(self, entry: WaitlistEntry) -> dict[str, Any]:
        facts = self.context.get("facts") or entry_facts([entry])
        return dict(facts.get(entry.pk, {}))

    def get_playing_at(self, entry: WaitlistEntry) -> str | None:
        return self._facts(entry).get("playing_at")

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_last_missed_at(self, entry: WaitlistEntry) -> str | None:
        missed = self._facts(entry).get("last_missed_at")
        return serializers.DateTimeField().to_representation(missed) if missed else None

    def get_seat(self, entry: WaitlistEntry) -> dict[str, int] | None:
        if entry.seat is None:
            return None
        return {"table": entry.seat.table.number, "seat": entry.seat.seat}


class GameListSerializer(serializers.ModelSerializer[GameList]):
    entries = serializers.SerializerMethodField(
        help_text="The first players in order (at most CARDROOM_WAITLIST_PAGE_ROWS); every"
        " one page by page at .../{id}/entries/"
    )
    waiting = serializers.SerializerMethodField(help_text="Everyone on the list")
    open_seats = serializers.SerializerMethodField()

    class Meta:
        model = GameList
        fields = [
            "id", "label", "variant", "structure", "small_blind", "big_blind",
            "start_threshold", "opened_at", "closed_at", "waiting", "entries", "open_seats",
        ]  # fmt: skip
        read_only_fields = fields

    @extend_schema_field(EntrySerializer(many=True))
    def get_entries(self, game_list: GameList) -> list[dict[str, Any]]:
        rows = waitlists.live_page(game_list, limit=settings.CARDROOM_WAITLIST_PAGE_ROWS)
        return entry_rows(rows)

    def get_waiting(self, game_list: GameList) -> int:
        counted = getattr(game_list, "waiting", None)
        if isinstance(counted, int):
            return counted
        return game_list.entries.filter(waitlists.on_the_list(timezone.now())).count()

    def get_open_seats(self, game_list: GameList) -> list[dict[str, int]]:
        return [
            {"table": t.pk, "number": t.number, "seat": s}
            for t, s in waitlists.open_seats(game_list)
        ]


PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, required=False, description="Rows in the page (at most 1,000)"),
    OpenApiParameter("offset", int, required=False, description="Rows before the page"),
]


def paged(name: str, rows: serializers.Serializer[Any]) -> Any:
    """The schema of a page of the project's pagination (limit, offset)."""
    return inline_serializer(
        name,
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": rows,
        },
    )


def entry_rows(rows: list[WaitlistEntry]) -> list[dict[str, Any]]:
    """Entries as the API gives them, their facts read once for all (two queries)."""
    facts = entry_facts(rows)
    return [dict(EntrySerializer(e, context={"facts": facts}).data) for e in rows]


class ListInSerializer(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # Built here: a class attribute named ``label`` would shadow DRF's own.
        return {
            "variant": serializers.ChoiceField(choices=Variant.choices),
            "structure": serializers.ChoiceField(choices=Structure.choices),
            "small_blind": serializers.IntegerField(min_value=1, max_value=2**31 - 1),
            "big_blind": serializers.IntegerField(min_value=1, max_value=2**31 - 1),
            "label": serializers.CharField(
                max_length=60, required=False, allow_blank=True, default=""
            ),
            "start_threshold": serializers.IntegerField(min_value=2, max_value=10, default=9),
        }


class AddInSerializer(serializers.Serializer[Any]):
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # Built here: a class attribute named ``source`` would shadow DRF's own.
        return {
            "name": serializers.CharField(max_length=120),
            "alias": serializers.CharField(
                max_length=40, required=False, allow_blank=True, default=""
            ),
            "source": serializers.ChoiceField(
                choices=[EntrySource.FLOOR, EntrySource.CALL_IN], default=EntrySource.FLOOR
            ),
        }


class EntryPatchSerializer(serializers.Serializer[Any]):
    check_in = serializers.BooleanField(required=False)
    position = serializers.IntegerField(min_value=1, max_value=10_000, required=False)
    reason = serializers.CharField(max_length=REASON_MAX, required=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if data.get("check_in") is not True and "position" not in data:
            raise serializers.ValidationError("Send check_in: true, or a position and a reason.")
        if "position" in data and not data.get("reason", "").strip():
            raise serializers.ValidationError({"reason": "A reorder needs a reason."})
        return data


class ReasonSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=REASON_MAX)


class OfferInSerializer(serializers.Serializer[Any]):
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    seat = serializers.IntegerField(min_value=1, max_value=10)


class OfferBuyInSerializer(OfferInSerializer):
    #: The buy-in; for a player playing at another table, who moves with their chips, the
    #: chips they add (0 allowed): ``waitlists.seat_from_list``.
    buy_in = serializers.IntegerField(min_value=0, max_value=2**31 - 1)


class MustMoveSerializer(serializers.ModelSerializer[MustMove]):
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    next_player = serializers.SerializerMethodField()

    class Meta:
        model = MustMove
        fields = ["id", "table", "table_number", "main", "created_at", "ended_at", "next_player"]
        read_only_fields = ["id", "created_at", "ended_at"]

    def get_next_player(self, must_move: MustMove) -> dict[str, Any] | None:
        first = waitlist_tables.must_move_next(must_move) if must_move.ended_at is None else None
        if first is None:
            return None
        return {"name": first.player.name, "seat": first.seat, "stack": first.stack}


class MoveInSerializer(serializers.Serializer[Any]):
    to_table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all(), required=False)
    to_seat = serializers.IntegerField(min_value=1, max_value=10, required=False)


class StartInSerializer(serializers.Serializer[Any]):
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    buy_ins = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1), required=False
    )

    def validate_buy_ins(self, value: dict[str, int]) -> dict[int, int]:
        ids = {whole_number(key, 18): amount for key, amount in value.items()}
        if None in ids:
            raise serializers.ValidationError("Keys are entry ids, in digits 0 to 9.")
        return {pk: amount for pk, amount in ids.items() if pk is not None}


class RoomSettingsSerializer(serializers.ModelSerializer[RoomSettings]):
    start_rule = serializers.ChoiceField(choices=StartRule.choices, required=False)

    class Meta:
        model = RoomSettings
        fields = ["call_in_minutes", "offer_minutes", "start_rule", "kiosk_enabled", "updated_at"]
        read_only_fields = ["updated_at"]


# --- lists ----------------------------------------------------------------------------------


def _entry(entry_id: int) -> WaitlistEntry:
    return get_object_or_404(WaitlistEntry.objects.select_related("game_list"), pk=entry_id)


def _entry_body(entry: WaitlistEntry) -> dict[str, Any]:
    return dict(EntrySerializer(WaitlistEntry.objects.get(pk=entry.pk)).data)


class ListsView(APIView):
    permission_classes = [Runners]

    @extend_schema(summary="The open waitlists, each with how many wait, its first players in"
                   " order and its open seats (a page of lists: limit, offset)",
                   parameters=PAGE_PARAMETERS, operation_id="v1_waitlists_list",
                   responses={200: paged("GameListPage", GameListSerializer(many=True))})  # fmt: skip
    def get(self, request: Request) -> Response:
        now = timezone.now()
        lists = GameList.objects.filter(closed_at__isnull=True).annotate(
            waiting=waitlists.waiting_on(now)
        )
        pages = BoundedLimitOffsetPagination()
        page = pages.paginate_queryset(lists, request, view=self) or []
        return pages.get_paginated_response(GameListSerializer(page, many=True).data)

    @extend_schema(summary="Open a list for a game and stakes (floor managers and staff)",
                   request=ListInSerializer, responses={201: GameListSerializer, **ERRORS})  # fmt: skip
    def post(self, request: Request) -> Response:
        data = ListInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = waitlists.open_list(by=_user(request), **data.validated_data)
        return Response(GameListSerializer(made).data, status=201)


class ListDetailView(APIView):
    permission_classes = [Runners]

    @extend_schema(summary="One list", responses={200: GameListSerializer, 404: ERROR})
    def get(self, request: Request, list_id: int) -> Response:
        return Response(GameListSerializer(get_object_or_404(GameList, pk=list_id)).data)

    @extend_schema(summary="Close a list (its players are removed, recorded)",
                   responses={200: GameListSerializer, **ERRORS})  # fmt: skip
    def delete(self, request: Request, list_id: int) -> Response:
        game_list = get_object_or_404(GameList, pk=list_id)
        closed = waitlists.close_list(game_list=game_list, by=_user(request))
        return Response(GameListSerializer(closed).data)


class ListEntriesView(APIView):
    permission_classes = [Runners]

    @extend_schema(
        summary="A list's players in order, page by page (limit, offset), or those whose name"
        " or alias holds q",
        parameters=[*PAGE_PARAMETERS, OpenApiParameter("q", str, required=False)],
        responses={200: paged("EntryPage", EntrySerializer(many=True)), 404: ERROR},
    )
    def get(self, request: Request, list_id: int) -> Response:
        game_list = get_object_or_404(GameList, pk=list_id)
        search = request.query_params.get("q", "")
        live = game_list.entries.filter(status__in=LIVE_STATUSES)
        if text := " ".join(search.split())[:60]:
            live = live.filter(player__in=Player.objects.matching(text))
        pages = BoundedLimitOffsetPagination()
        count = live.count()
        limit = pages.get_limit(request) or pages.default_limit or 100
        offset = pages.get_offset(request)
        rows = waitlists.live_page(game_list, offset=offset, limit=limit, search=search)
        pages.count, pages.limit, pages.offset, pages.request = count, limit, offset, request
        return pages.get_paginated_response(entry_rows(rows))

    @extend_schema(summary="Add a player to a list (the floor, or a call-in with a deadline)",
                   request=AddInSerializer, responses={201: EntrySerializer, **ERRORS})  # fmt: skip
    def post(self, request: Request, list_id: int) -> Response:
        game_list = get_object_or_404(GameList, pk=list_id)
        data = AddInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = waitlists.add_to_list(game_list=game_list, by=_user(request), **data.validated_data)
        return Response(_entry_body(entry), status=201)


class EntryView(APIView):
    permission_classes = [Runners]

    @extend_schema(
        summary="Check a call-in in, or move a player on the list (floor managers, with a reason)",
        request=EntryPatchSerializer,
        responses={200: EntrySerializer, **ERRORS},
    )
    def patch(self, request: Request, entry_id: int) -> Response:
        entry = _entry(entry_id)
        data = EntryPatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        if "position" in fields:
            if not has_role(request.user, Role.FLOOR_MANAGER):
                raise PermissionDenied("Only a floor manager reorders a list.")
            entry = waitlists.reorder(
                entry=entry, position=fields["position"], reason=fields["reason"], by=_user(request)
            )
        else:
            entry = waitlists.check_in(entry=entry, by=_user(request))
        return Response(_entry_body(entry))

    @extend_schema(
        summary="Take a player off a list, with a reason (body or ?reason=)",
        request=ReasonSerializer,
        parameters=[OpenApiParameter("reason", str, required=False)],
        responses={200: EntrySerializer, **ERRORS},
    )
    def delete(self, request: Request, entry_id: int) -> Response:
        entry = _entry(entry_id)
        given = request.data if isinstance(request.data, dict) and request.data else None
        data = ReasonSerializer(data=given or {"reason": request.query_params.get("reason", "")})
        data.is_valid(raise_exception=True)
        entry = waitlists.remove_entry(entry=entry, by=_user(request), **data.validated_data)
        return Response(_entry_body(entry))


class CallView(APIView):
    permission_classes = [Runners]

    @extend_schema(summary="Offer a seat to the first player in the room (starts the timer)",
                   request=OfferInSerializer, responses={200: EntrySerializer, **ERRORS})  # fmt: skip
    def post(self, request: Request, entry_id: int) -> Response:
        entry = _entry(entry_id)
        data = OfferInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = waitlists.call_player(entry=entry, by=_user(request), **data.validated_data)
        return Response(_entry_body(entry))

    @extend_schema(summary="Release a running seat offer (the player keeps their place for the"
                   " next seat; this seat goes to the next player); optional ?reason=",
                   responses={200: EntrySerializer, **ERRORS},
                   parameters=[OpenApiParameter("reason", str, required=False)])  # fmt: skip
    def delete(self, request: Request, entry_id: int) -> Response:
        reason = request.query_params.get("reason", "")
        entry = waitlists.release_offer(entry=_entry(entry_id), by=_user(request), reason=reason)
        return Response(_entry_body(entry))


class SeatView(APIView):
    permission_classes = [Runners]

    @extend_schema(summary="Seat a player from the list with their buy-in (one tap)",
                   request=OfferBuyInSerializer, responses={200: EntrySerializer, **ERRORS})  # fmt: skip
    def post(self, request: Request, entry_id: int) -> Response:
        entry = _entry(entry_id)
        data = OfferBuyInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = waitlists.seat_from_list(entry=entry, by=_user(request), **data.validated_data)
        return Response(_entry_body(entry))


# --- must-move and new tables ---------------------------------------------------------------


class MustMovesView(APIView):
    permission_classes = [Runners]

    @extend_schema(summary="Must-move tables running now",
                   responses={200: MustMoveSerializer(many=True)})  # fmt: skip
    def get(self, request: Request) -> Response:
        running = MustMove.objects.filter(ended_at=None).select_related("table", "main")
        return Response(MustMoveSerializer(running, many=True).data)

    @extend_schema(summary="Mark a table must-move, feeding a main game's list",
                   request=MustMoveSerializer, responses={201: MustMoveSerializer, **ERRORS})  # fmt: skip
    def post(self, request: Request) -> Response:
        data = MustMoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = waitlist_tables.create_must_move(
            table=data.validated_data["table"], main=data.validated_data["main"], by=_user(request)
        )
        return Response(MustMoveSerializer(made).data, status=201)


class MustMoveEndView(APIView):
    permission_classes = [Runners]

    @extend_schema(summary="End a must-move table", request=None,
                   responses={200: MustMoveSerializer, **ERRORS})  # fmt: skip
    def post(self, request: Request, must_move_id: int) -> Response:
        must_move = get_object_or_404(MustMove, pk=must_move_id)
        ended = waitlist_tables.end_must_move(must_move=must_move, by=_user(request))
        return Response(MustMoveSerializer(ended).data)


class MustMoveNextView(APIView):
    permission_classes = [Runners]

    @extend_schema(
        summary="Move the longest-seated must-move player to the main game (stack kept)",
        request=MoveInSerializer,
        responses={
            200: inline_serializer(
                "MovedPlayer",
                {
                    "table": serializers.IntegerField(),
                    "seat": serializers.IntegerField(),
                    "stack": serializers.IntegerField(),
                    "name": serializers.CharField(),
                },
            ),
            **ERRORS,
        },
    )
    def post(self, request: Request, must_move_id: int) -> Response:
        must_move = get_object_or_404(
            MustMove.objects.select_related("table", "main"), pk=must_move_id
        )
        data = MoveInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        moved = waitlist_tables.move_must_move_player(
            must_move=must_move, by=_user(request), **data.validated_data
        )
        body = {"table": moved.table.number, "seat": moved.seat, "stack": moved.stack}
        return Response({**body, "name": moved.player.name})


PROPOSAL = inline_serializer(
    "StartProposal",
    {
        "ready": serializers.BooleanField(),
        "waiting": serializers.IntegerField(),
        "threshold": serializers.IntegerField(),
        "table": serializers.IntegerField(allow_null=True),
        "players": serializers.ListField(child=serializers.IntegerField()),
        "skipped": serializers.ListField(
            child=serializers.DictField(),
            help_text="Ahead in the list but playing at another table: entry, player, table, seat.",
        ),
        "message": serializers.CharField(),
        "starts": serializers.ListField(
            child=serializers.DictField(),
            help_text="Tables started from this list: rule, seed, commitment, entrants (in list"
            " order), table, seats, the seats drawn, and whether the draw verifies.",
        ),
    },
)


class StartGameView(APIView):
    permission_classes = [Runners]

    @extend_schema(summary="Whether the list can start a table, and which one",
                   responses={200: PROPOSAL, 404: ERROR})  # fmt: skip
    def get(self, request: Request, list_id: int) -> Response:
        proposal = waitlist_tables.start_table_proposal(get_object_or_404(GameList, pk=list_id))
        table = proposal["table"]
        proposal["table"] = table.pk if table is not None else None
        proposal["players"] = [entry.pk for entry in proposal["players"]]
        proposal["starts"] = waitlist_tables.starts(get_object_or_404(GameList, pk=list_id))
        return Response(proposal)

    @extend_schema(
        summary="Open the table and seat the first players (seat draw or first come)",
        request=StartInSerializer,
        responses={201: EntrySerializer(many=True), **ERRORS},
    )
    def post(self, request: Request, list_id: int) -> Response:
        game_list = get_object_or_404(GameList, pk=list_id)
        data = StartInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seated = waitlist_tables.start_game(
            game_list=game_list, by=_user(request), **data.validated_data
        )
        return Response([_entry_body(entry) for entry in seated], status=201)


class RoomSettingsView(APIView):
    permission_classes = [Managers]

    @extend_schema(summary="The room's waitlist settings", responses={200: RoomSettingsSerializer})
    def get(self, request: Request) -> Response:
        return Response(RoomSettingsSerializer(RoomSettings.current()).data)

    @extend_schema(summary="Change the room's waitlist settings (floor managers)",
                   request=RoomSettingsSerializer, responses={200: RoomSettingsSerializer, **ERRORS})  # fmt: skip
    def patch(self, request: Request) -> Response:
        data = RoomSettingsSerializer(RoomSettings.current(), data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        data.save()
        return Response(data.data)
