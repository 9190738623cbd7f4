"""The API of a table that runs all night: its seat map, the next hand's proposal
and deal, the showdown's award, and the room's players.

- ``GET/POST /api/v1/tables/{id}/seats/``: the seat map; seat a player with a buy-in.
- ``PATCH/DELETE /api/v1/tables/{id}/seats/{seat}/``: add chips (a rebuy with none in front),
  sit out, return (or wait for the big blind), correct the stack with a reason; leave with
  the chips (cash out).
- ``GET/POST /api/v1/tables/{id}/next-hand/``: the proposal (button, blinds, posts, who waits,
  each with its rule); deal it, or the dealer's correction with a reason.
- ``POST /api/v1/hands/{id}/award/``: push the pots from the showdown; the stacks (or the
  tournament's chips and eliminations) follow in the same transaction.
- ``GET /api/v1/players/?q=``: players by name or alias.

Readers (every floor role) read; floor managers and directors (``HAND_WRITERS``) write. The
services decide (``cardroom.seats.services``, through ``cardroom.tables.play`` for the hands, which
picks the tournament's rules at a tournament table). Answers: 400 for a body that is not
what the endpoint takes (naming the field), 422 for a request the rules refuse (with the
rule), 409 when another device changed the table first (look again), never 500.
"""

from __future__ import annotations

from typing import Any, cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.json_columns import as_read_back
from cardroom.core.parsers import whole_number
from cardroom.core.reasons import REASON_MAX
from cardroom.core.request_types import AuthenticatedApiRequest
from cardroom.core.roles import HAND_WRITERS, READERS, role_permission
from cardroom.seats import services as players
from cardroom.seats.models import Player, TableSeat
from cardroom.tables import play as table_play
from cardroom.tables.api import REFUSED_422, STALE_409, DealtHandSerializer
from cardroom.tables.choices import SeatStatus
from cardroom.tables.desk import MAX_STACK
from cardroom.tables.models import Hand, Table
from rules.betting import ERROR_400, ShowdownSerializer
from rules.engine.errors import BadInput
from tournaments import table_hands
from tournaments.models import SeatAssignment

SeatPermission = role_permission(read=READERS, write=HAND_WRITERS)


def refusing(exc: ValidationError) -> ValidationError:
    """A service's ``ValidationError`` as the API answers it: a ``Refusal`` (e.g.
    ``seat_refused``, with the rule) as it is; any other, a plain refusal (a closed table, a
    hand still in progress...: the body was well formed and the table's state says no), as a
    422 ``refused`` with the fields."""
    if isinstance(exc, Refusal):
        return exc
    return Refusal(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)


def bad_input(exc: BadInput) -> ValidationError:
    """The engine's bad input (a seat or amount it cannot read): 400 naming the field."""
    return ValidationError({exc.field or "non_field_errors": exc.message})


def calling(service: Any, **kwargs: Any) -> Any:
    try:
        return service(**kwargs)
    except BadInput as exc:
        raise bad_input(exc) from exc
    except ValidationError as exc:
        raise refusing(exc) from exc


# --- what the API shows ----------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer[Player]):
    public_name = serializers.CharField(
        read_only=True, help_text="What a public screen shows: the alias, else the initials."
    )

    class Meta:
        model = Player
        fields = ["id", "name", "alias", "public_name"]


class PlayerFoundSerializer(PlayerSerializer):
    seated = serializers.SerializerMethodField(
        help_text="Where the player sits now (table number and seat), or null."
    )

    contact_tail = serializers.CharField(
        read_only=True,
        help_text="The contact's last four characters ('…1234'), to tell two people of one name"
        " apart; '' without a contact.",
    )
    barred = serializers.BooleanField(
        read_only=True, help_text="Barred from the room: refused a seat, a list and an entry."
    )

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "contact_tail", "barred", "seated"]

    @extend_schema_field(
        inline_serializer(
            "PlayerSeat",
            {"table": serializers.IntegerField(), "seat": serializers.IntegerField()},
            allow_null=True,
        )
    )
    def get_seated(self, player: Player) -> dict[str, int] | None:
        live = next(iter(getattr(player, "live_seats", [])), None)
        return {"table": live.table.number, "seat": live.seat} if live is not None else None


class TableSeatSerializer(serializers.ModelSerializer[TableSeat]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = TableSeat
        fields = [
            "seat", "player", "stack", "status", "away_since", "owes_big", "owes_small",
            "waits_for_big_blind", "new", "seated_at",
        ]  # fmt: skip


SEAT_MAP = inline_serializer(
    "SeatMap",
    {
        "table": serializers.IntegerField(help_text="The table's id."),
        "number": serializers.IntegerField(),
        "kind": serializers.ChoiceField(
            choices=["cash", "tournament"],
            help_text="tournament: a tournament is in play here; its seats are its entrants.",
        ),
        "max_seats": serializers.IntegerField(),
        "seated": serializers.IntegerField(),
        "open": serializers.ListField(child=serializers.IntegerField()),
        "seats": serializers.ListField(
            child=serializers.DictField(),
            help_text="Cash: each live seat (player, stack, status, blinds owed, waits for the"
            " big blind, new). Tournament: seat, entrant number, name and chips.",
        ),
    },
)


def seat_map(table: Table) -> dict[str, Any]:
    """The table's seats now: the cash seat map, or the tournament's entrants and chips."""
    place = table_hands.tournament_table_for(table)
    if place is not None:
        rows = (
            SeatAssignment.objects.filter(table=place, ended_at__isnull=True)
            .select_related("entrant")
            .order_by("seat")
        )
        seats = [
            {"seat": r.seat, "entrant": r.entrant.number, "name": r.entrant.name,
             "chips": r.entrant.chips}
            for r in rows
        ]  # fmt: skip
        kind, max_seats = "tournament", place.seats
    else:
        seats = cast(
            list[dict[str, Any]], TableSeatSerializer(players.live_seats(table), many=True).data
        )
        kind, max_seats = "cash", table.seats
    taken = {entry["seat"] for entry in seats}
    return {
        "table": table.pk, "number": table.number, "kind": kind, "max_seats": max_seats,
        "seated": len(seats), "open": [n for n in range(1, max_seats + 1) if n not in taken],
        "seats": seats,
    }  # fmt: skip


# --- what the API takes ----------------------------------------------------------------------


def chips_field(**kwargs: Any) -> serializers.IntegerField:
    # The most chips one number in a seat-map request may say (the stack column's bound).
    return serializers.IntegerField(max_value=MAX_STACK, **kwargs)


class SeatPlayerSerializer(serializers.Serializer[Any]):
    """Seat a player: a known player by ``player`` (id), or by ``name`` (found, trimmed and in
    any case, or a new record)."""

    player = serializers.IntegerField(
        min_value=1, required=False, help_text="A known player's id (GET /api/v1/players/)."
    )
    name = serializers.CharField(max_length=120, required=False, help_text="Or the name.")
    alias = serializers.CharField(
        max_length=40, required=False, allow_blank=True, default="",
        help_text="Shown on public screens instead of the initials (new players).",
    )  # fmt: skip
    seat = serializers.IntegerField(min_value=1, max_value=12)
    buy_in = chips_field(
        min_value=1,
        help_text="Between the table's minimum and maximum buy-in (RRoP-14.16), in chips "
        "that play there.",
    )
    waits_for_big_blind = serializers.BooleanField(
        default=False, help_text="Dealt in when the big blind reaches the seat (CR-BB.6)."
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("player" in data) == ("name" in data):
            raise serializers.ValidationError(
                {"player": "Give a known player's id or a name (one of the two)."}
            )
        if "player" in data:
            found = Player.objects.filter(pk=data["player"]).first()
            if found is None:
                raise serializers.ValidationError({"player": f"No player {data['player']}."})
            data["player"] = found
        return data


class SeatChangeSerializer(serializers.Serializer[Any]):
    """One change to a seat: ``add_chips``; or ``status`` (sitting_out, or playing with
    ``wait_for_big_blind``); or ``stack`` with a ``reason`` (a count made at the table)."""

    player = serializers.IntegerField(
        min_value=1, required=False,
        help_text="The player you saw in the seat: 409 if someone else sits there now.",
    )  # fmt: skip
    add_chips = chips_field(
        min_value=1, required=False,
        help_text="Chips bought between hands; with none in front, a rebuy. The stack after "
        "is at most the table's maximum buy-in (RRoP-14.16).",
    )  # fmt: skip
    status = serializers.ChoiceField(choices=SeatStatus.values, required=False)
    wait_for_big_blind = serializers.BooleanField(
        required=False, help_text="With status playing: wait for the big blind (CR-BB.3)."
    )
    stack = chips_field(min_value=0, required=False, help_text="The stack counted; needs reason.")
    reason = serializers.CharField(max_length=REASON_MAX, required=False)

    CHANGES = ("add_chips", "status", "stack")

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        given = [name for name in self.CHANGES if name in data]
        if len(given) != 1:
            raise serializers.ValidationError(
                {"non_field_errors": "Send one change: add_chips, status or stack."}
            )
        if "wait_for_big_blind" in data and data.get("status") != SeatStatus.PLAYING:
            raise serializers.ValidationError(
                {"wait_for_big_blind": "Only with status playing (coming back)."}
            )
        if "stack" in data and not data.get("reason", "").strip():
            raise serializers.ValidationError({"reason": "Say why the stack is corrected."})
        return data


class NextHandInSerializer(serializers.Serializer[Any]):
    """Deal the proposal as it is (an empty body), or the dealer's correction of its button
    and blinds with a ``reason`` (kept on the hand)."""

    button = serializers.IntegerField(min_value=1, max_value=12, required=False)
    small = serializers.IntegerField(
        min_value=0, max_value=12, required=False, help_text="0: a dead small blind (CR-BB.2)."
    )
    big = serializers.IntegerField(min_value=1, max_value=12, required=False)
    reason = serializers.CharField(
        max_length=300, required=False, default="", allow_blank=True,
        help_text="Required when the button or the blinds differ from the proposal.",
    )  # fmt: skip
    version = serializers.CharField(
        max_length=200, required=False, default="", allow_blank=True,
        help_text="The proposal's version: 409 if the seat map changed since.",
    )  # fmt: skip
    straddle = serializers.BooleanField(
        default=True, help_text="At a table with a straddle: posted this hand (RRoP-14.14)."
    )


class AwardInSerializer(serializers.Serializer[Any]):
    expected_seq = serializers.IntegerField(
        min_value=0, help_text="The hand's `seq` you last saw; a stale value gets 409."
    )
    showdown = ShowdownSerializer(
        required=False, allow_null=True,
        help_text="Contract v2's showdown: `ranking` (best first, ties grouped), `low_ranking`"
        " (high-low), `boards` (run it twice). Not needed when everyone else folded.",
    )  # fmt: skip


@extend_schema_serializer(component_name="SeatMapHand")
class SeatMapHandSerializer(DealtHandSerializer):
    """A hand dealt from a seat map or a tournament: its blinds, posts, names, the dealer's
    correction, and once awarded the award (pots, winnings, stacks)."""

    awarded_by = serializers.CharField(
        source="awarded_by.username", read_only=True, allow_null=True
    )

    class Meta(DealtHandSerializer.Meta):
        fields = [
            *DealtHandSerializer.Meta.fields, "blinds", "posts", "names", "correction",
            "result", "awarded_by", "awarded_at",
        ]  # fmt: skip


#: The hand's JSON columns a seat-map hand's answer shows.
JSON_SHOWN = ("seats", "game", "blinds", "posts", "names", "correction", "result")


def as_stored(hand: Hand) -> Hand:
    """A hand just written, answered as any later read shows it: its JSON columns as the
    database gives them back (PostgreSQL keeps an object's keys in an order of its own:
    ``json_columns.as_read_back``, no query), the rest as the write left it (its table,
    actions and their replay: ``Hand.replayed``)."""
    return as_read_back(hand, JSON_SHOWN)


# --- the views ------------------------------------------------------------------------------


def live_seat(table: Table, seat: int, player: int | None) -> TableSeat:
    if not 1 <= seat <= table.seats:
        raise NotFound(f"Seats at {table} are numbered 1 to {table.seats}.")
    found = (
        TableSeat.objects.select_related("player", "table")
        .filter(table=table, seat=seat, left_at__isnull=True)
        .first()
    )
    if found is None:
        raise NotFound(f"Nobody sits in seat {seat} at {table}.")
    if player is not None and found.player_id != player:
        raise Conflict(
            "seat_changed",
            f"Seat {seat} at {table} is {found.player}'s now, not player {player}'s.",
        )
    return found


def writer(request: Request) -> Any:
    return cast(AuthenticatedApiRequest, request).user  # ``SeatPermission``: signed in


CONFLICT_409 = inline_serializer(
    "SeatConflictError",
    {
        "error": inline_serializer(
            "SeatConflictErrorBody",
            {"code": serializers.CharField(), "message": serializers.CharField()},
        )
    },
)
SEAT_ERRORS = {400: ERROR_400, 404: OpenApiTypes.OBJECT, 409: CONFLICT_409, 422: REFUSED_422}


class TableSeatsView(APIView):
    permission_classes = [SeatPermission]

    @extend_schema(
        operation_id="table_seat_map",
        summary="The table's seat map",
        responses={200: SEAT_MAP, 404: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, table_id: int) -> Response:
        return Response(seat_map(get_object_or_404(Table, pk=table_id)))

    @extend_schema(
        summary="Seat a player with a buy-in (cash tables)",
        description="A seat taken or a player seated elsewhere, even a moment ago by another "
        "device, is 409; a buy-in outside the table's limits or not in chips that play, a "
        "tournament table or a broken one, is 422 with the rule.",
        request=SeatPlayerSerializer,
        responses={201: TableSeatSerializer, **SEAT_ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        entry = SeatPlayerSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data, by = entry.validated_data, writer(request)
        with transaction.atomic():  # a seat refused leaves no new player record behind
            seated = self.seat(table, data, by)
        return Response(TableSeatSerializer(seated).data, status=201)

    @staticmethod
    def seat(table: Table, data: dict[str, Any], by: Any) -> TableSeat:
        player = data.get("player") or calling(
            players.find_or_create_player, name=data["name"], alias=data["alias"], by=by
        )
        seated: TableSeat = calling(
            players.seat_player, table=table, player=player, seat=data["seat"],
            buy_in=data["buy_in"], by=by, waits_for_big_blind=data["waits_for_big_blind"],
        )  # fmt: skip
        return seated


class TableSeatView(APIView):
    permission_classes = [SeatPermission]

    @extend_schema(
        operation_id="table_seat",
        summary="One seat",
        responses={200: TableSeatSerializer, 404: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, table_id: int, seat: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        return Response(TableSeatSerializer(live_seat(table, seat, None)).data)

    @extend_schema(
        summary="Add chips, sit out, come back, or correct the stack",
        description="Between hands only: a seat dealt into a hand not yet awarded is 409 "
        "`in_hand` for chips and corrections.",
        request=SeatChangeSerializer,
        responses={200: TableSeatSerializer, **SEAT_ERRORS},
    )
    def patch(self, request: Request, table_id: int, seat: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        entry = SeatChangeSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        data, by = entry.validated_data, writer(request)
        live = live_seat(table, seat, data.get("player"))
        if "add_chips" in data:
            changed = calling(players.add_chips, seat=live, amount=data["add_chips"], by=by)
        elif "stack" in data:
            changed = calling(
                players.correct_stack, seat=live, stack=data["stack"], reason=data["reason"],
                by=by,
            )  # fmt: skip
        elif data["status"] == SeatStatus.SITTING_OUT:
            changed = calling(players.sit_out, seat=live, by=by)
        else:
            changed = calling(
                players.return_to_play, seat=live, by=by,
                wait_for_big_blind=data.get("wait_for_big_blind", False),
            )  # fmt: skip
        return Response(TableSeatSerializer(changed).data)

    @extend_schema(
        summary="Leave the seat: the player cashes out every chip",
        parameters=[
            OpenApiParameter(
                "player", OpenApiTypes.INT, description="409 if another player sits there now"
            )
        ],
        responses={
            200: inline_serializer(
                "CashOut",
                {
                    "seat": serializers.IntegerField(),
                    "player": PlayerSerializer(),
                    "cashed_out": serializers.IntegerField(),
                },
            ),
            **SEAT_ERRORS,
        },
    )
    def delete(self, request: Request, table_id: int, seat: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        guard = request.query_params.get("player")
        player = whole_number(guard, 18)
        if guard is not None and player is None:
            raise ValidationError({"player": "A player's id."})
        live = live_seat(table, seat, player)
        left = calling(players.leave_seat, seat=live, by=writer(request))
        body = {"seat": left.seat, "player": PlayerSerializer(left.player).data,
                "cashed_out": left.stack}  # fmt: skip
        return Response(body)


PROPOSAL = inline_serializer(
    "NextHandProposal",
    {
        "button": serializers.IntegerField(),
        "blinds": serializers.DictField(help_text="`small` (null: dead) and `big` seats."),
        "seats": serializers.ListField(child=serializers.DictField(), help_text="seat, stack"),
        "posts": serializers.ListField(
            child=serializers.DictField(), help_text="seat, live, dead: missed blinds posted"
        ),
        "names": serializers.DictField(child=serializers.CharField()),
        "waiting": serializers.ListField(child=serializers.IntegerField()),
        "missed": serializers.DictField(help_text="What each seat will owe after the hand."),
        "citations": serializers.ListField(child=serializers.CharField()),
        "version": serializers.CharField(help_text="Send it back with the deal."),
    },
)


class NextHandView(APIView):
    permission_classes = [SeatPermission]

    @extend_schema(
        summary="The next hand's proposal: button, blinds, posts, who waits, with the rules",
        description="A cash table's from its seat map and button rule; a tournament table's "
        "from the tournament's level and entrants (always the dead button, CR-BB.1). 422 "
        "when fewer than two players can be dealt in; 409 while the last hand is not awarded.",
        responses={200: PROPOSAL, **SEAT_ERRORS},
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        return Response(calling(table_play.propose, table=table))

    @extend_schema(
        summary="Deal the next hand: the proposal, or the dealer's correction with a reason",
        request=NextHandInSerializer,
        responses={201: SeatMapHandSerializer, **SEAT_ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = get_object_or_404(Table, pk=table_id)
        entry = NextHandInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        hand = calling(table_play.deal, table=table, by=writer(request), **entry.validated_data)
        return Response(SeatMapHandSerializer(as_stored(hand)).data, status=201)


class HandAwardView(APIView):
    permission_classes = [SeatPermission]

    @extend_schema(
        summary="Push the pots from the showdown; the stacks follow",
        description="The engine's award (contract v2) from the showdown; each seat's stack "
        "(or entrant's chips, with any elimination) is what the award left it, in the same "
        "transaction. A stale `expected_seq` or an award already made is 409; a hand whose "
        "betting is not over is 409 `hand_not_over`; a showdown naming the wrong players 400.",
        request=AwardInSerializer,
        responses={200: SeatMapHandSerializer, 400: ERROR_400, 409: STALE_409, 422: REFUSED_422},
    )
    def post(self, request: Request, hand_id: int) -> Response:
        hand = get_object_or_404(Hand.objects.select_related("table"), pk=hand_id)
        entry = AwardInSerializer(data=request.data)
        entry.is_valid(raise_exception=True)
        showdown = cast(dict[str, Any], request.data).get(
            "showdown"
        )  # as sent: the engine reads the contract's form
        try:
            settled = table_play.settle(
                hand=hand, by=writer(request), expected_seq=entry.validated_data["expected_seq"],
                showdown=showdown,
            )  # fmt: skip
        except BadInput as exc:
            raise bad_input(exc) from exc
        return Response(SeatMapHandSerializer(as_stored(settled)).data)


class PlayerSearchView(APIView):
    permission_classes = [SeatPermission]

    @extend_schema(
        summary="Players by name or alias (at most 20), with where each sits now",
        parameters=[
            OpenApiParameter("q", OpenApiTypes.STR, required=True, description="1-120 characters")
        ],
        responses={200: PlayerFoundSerializer(many=True), 400: ERROR_400},
    )
    def get(self, request: Request) -> Response:
        words = " ".join(request.query_params.get("q", "").split())
        if not words or len(words) > 120:
            raise ValidationError({"q": "Give 1 to 120 characters of a name or alias."})
        found = Player.objects.matching(words)
        live = TableSeat.objects.filter(left_at__isnull=True).select_related("table")
        rows = found.prefetch_related(Prefetch("seats", queryset=live, to_attr="live_seats"))
        return Response(PlayerFoundSerializer(rows.order_by("name", "id")[:20], many=True).data)
