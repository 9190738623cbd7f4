"""The tournaments API's bodies: what it answers (``...Serializer``) and what it reads
(``...InSerializer``), and the refusal shape it documents (``cardroom/core/api_errors.py`` answers
it). The views are in ``tournaments/api.py``."""

from __future__ import annotations

from typing import Any, cast

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from cardroom.core.reasons import REASON_MAX
from cardroom.tables.choices import Structure, Variant, desk_variant_choices
from cardroom.tables.services import MAX_NEW_TABLES, MAX_TABLE_NUMBER
from tournaments.clock.reading import level_dict, read_clock
from tournaments.models import (
    BalanceCheck,
    BalancingPolicy,
    Draw,
    DrawKind,
    Elimination,
    Entrant,
    Level,
    Reinstatement,
    SeatMove,
    Tournament,
    TournamentAnte,
    TournamentTable,
)
from tournaments.money.models import Method
from tournaments.money.payments import PAID_WITH
from tournaments.table_names import room_numbers

#: A refusal: by the seating rules (with the rulebook's ``edition``) or by a service's own rules
#: (a ``Refusal``, e.g. ``numbers_taken`` or a re-entry limit: the ``fields`` refused, no edition).
REFUSED = inline_serializer(
    "SeatingRefusal",
    {
        "error": inline_serializer(
            "SeatingRefusalBody",
            {
                "code": serializers.CharField(),
                "message": serializers.CharField(),
                "citations": serializers.ListField(child=serializers.CharField()),
                "edition": serializers.CharField(required=False),
                "fields": serializers.DictField(
                    child=serializers.ListField(child=serializers.CharField()), required=False
                ),
            },
        )
    },
)
ERRORS = {400: OpenApiTypes.OBJECT, 409: REFUSED, 422: REFUSED}


#: How a body names a tournament's table: the number older clients have always sent.
OWN_NUMBER = (
    "(its 'number' in the tournament's tables, the tournament's own numbering 1..n; its "
    "'name', 'Table 101', is the room's)."
)

# --- serializers --------------------------------------------------------------------------------


@extend_schema_field({"type": "integer", "nullable": True})
class RoomTable(serializers.Field[int | None, Any, int | None, Any]):
    """The room's number for a table a row names in the tournament's own numbering (1..n): the
    table's one name ("Table 101"), beside the number older clients read. One query a
    tournament per answer, kept in the serializer's context."""

    def __init__(self, number_field: str, **kwargs: Any) -> None:
        kwargs.update(source="*", read_only=True)
        super().__init__(**kwargs)
        self.number_field = number_field

    def to_representation(self, value: Any) -> int | None:
        number = getattr(value, self.number_field)
        if number is None:
            return None
        context = cast(dict[str, Any], self.context)  # the root serializer's own dict
        rooms: dict[int, dict[int, int]] = context.setdefault("room_numbers", {})
        if value.tournament_id not in rooms:
            rooms[value.tournament_id] = room_numbers(value.tournament_id)
        room: int | None = rooms[value.tournament_id].get(number)
        return room


class LevelSerializer(serializers.ModelSerializer[Level]):
    seconds = serializers.SerializerMethodField()

    class Meta:
        model = Level
        fields = ["number", "small_blind", "big_blind", "ante", "seconds", "is_break"]

    def get_seconds(self, level: Level) -> int:
        return int(level.duration.total_seconds())


class TournamentTableSerializer(serializers.ModelSerializer[TournamentTable]):
    """A tournament's table. ``name`` ("Table 101", the room's number) is how it is named
    everywhere; ``number`` (1..n) is the tournament's own numbering, the one the break and
    balancing orders and the draws' records use, kept for the clients that read it."""

    room_table = serializers.IntegerField(source="table.number", read_only=True)
    name = serializers.CharField(read_only=True)

    class Meta:
        model = TournamentTable
        fields = ["number", "room_table", "name", "seats", "status", "break_position", "button"]


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    levels = LevelSerializer(many=True, read_only=True)
    tables = TournamentTableSerializer(many=True, read_only=True)
    clock = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id", "name", "variant", "structure", "mixed_game", "seats_per_table",
            "starting_stack", "status", "balancing_policy", "break_order", "balancing_order",
            "final_table_size", "ante_type", "hand_for_hand", "hand_for_hand_announced_at",
            "hand_for_hand_hand", "seating_version", "registration_closed_at", "levels", "tables",
            "clock", "created_at",
        ]  # fmt: skip

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_clock(self, tournament: Tournament) -> dict[str, Any]:
        return clock_body(tournament)


def clock_body(tournament: Tournament) -> dict[str, Any]:
    reading = read_clock(tournament, list(tournament.levels.all()), timezone.now())
    ante_type = tournament.ante_type  # who pays a level's ante: "each" or "big_blind" (CR-DM.2)
    # "name": Level 4 after Level 3 and a break; "number" is the step of the structure.
    return {
        "state": reading.state,
        "level": (
            level_dict(reading.level, reading.level_name, ante_type) if reading.level else None
        ),
        "next_level": (
            level_dict(reading.next_level, reading.next_name, ante_type)
            if reading.next_level
            else None
        ),
        "elapsed_seconds": int(reading.elapsed.total_seconds()),
        "remaining_seconds": max(0, int(reading.remaining.total_seconds())),
        "version": tournament.clock_version,
    }


class LevelInSerializer(serializers.Serializer[Any]):
    small_blind = serializers.IntegerField(min_value=0, default=0)
    big_blind = serializers.IntegerField(min_value=0, default=0)
    ante = serializers.IntegerField(min_value=0, default=0)
    minutes = serializers.IntegerField(min_value=0, required=False)
    seconds = serializers.IntegerField(min_value=0, required=False)
    is_break = serializers.BooleanField(default=False)


class NewTablesInSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField(min_value=1, max_value=MAX_NEW_TABLES)
    first = serializers.IntegerField(
        min_value=1, max_value=MAX_TABLE_NUMBER, help_text="The first new table's room number."
    )


class TournamentInSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, max_length=MAX_NEW_TABLES,
        help_text="Room table numbers (tables of kind 'tournament'); or new_tables, or both.",
    )  # fmt: skip
    new_tables = NewTablesInSerializer(
        required=False,
        help_text="New room tables for the event, of seats_per_table seats, numbered from "
        "'first' (kind tournament, no cash game); numbers the room uses are refused (422 "
        "numbers_taken).",
    )
    levels = LevelInSerializer(many=True, allow_empty=False)
    variant = serializers.ChoiceField(
        choices=[value for value, _ in desk_variant_choices()], default=Variant.HOLDEM
    )
    structure = serializers.ChoiceField(choices=Structure.values, default=Structure.NO_LIMIT)
    mixed_game = serializers.BooleanField(default=False)
    seats_per_table = serializers.IntegerField(min_value=2, max_value=10, default=9)
    starting_stack = serializers.IntegerField(min_value=1, default=20_000)
    balancing_policy = serializers.ChoiceField(
        choices=BalancingPolicy.values, default=BalancingPolicy.TDA
    )
    final_table_size = serializers.IntegerField(
        min_value=2, max_value=10, required=False, allow_null=True
    )
    ante_type = serializers.ChoiceField(
        choices=TournamentAnte.choices, default=TournamentAnte.BIG_BLIND,
        help_text="Who pays a level's ante: 'big_blind' (one ante for the table, from the big "
        "blind, CR-DM.2; the default) or 'each' (every player). No-limit and pot-limit only "
        "for 'big_blind'.",
    )  # fmt: skip
    break_order = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False,
        help_text="Tournament table numbers (1..n), first to break first (TDA 11-C).",
    )  # fmt: skip
    balancing_order = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False
    )


class AnteTypeInSerializer(serializers.Serializer[Any]):
    ante_type = serializers.ChoiceField(
        choices=TournamentAnte.choices,
        help_text="'each' (every player antes) or 'big_blind' (the big blind antes for the "
        "table, CR-DM.2); applies from the next hand dealt.",
    )


class EntrantSerializer(serializers.ModelSerializer[Entrant]):
    """An entry; a withdrawn one (refunded before the initial draw) with when and what it was
    paid back, read from entrants annotated by ``money.payments.with_refunds`` (an entrant
    without the annotation reads as not refunded: a new registration)."""

    reentry_of = serializers.IntegerField(
        source="reentry_of.number", read_only=True, allow_null=True
    )
    withdrawn_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="When the entry was refunded; null if not."
    )
    refunded = serializers.IntegerField(
        read_only=True, default=0,
        help_text="What the refund paid the player back, in the currency's minor unit "
        "(0 when not refunded).",
    )  # fmt: skip

    class Meta:
        model = Entrant
        fields = [
            "number", "name", "status", "late", "alternate", "reentry_of", "special_needs",
            "place", "chips", "registered_at", "withdrawn_at", "refunded",
        ]  # fmt: skip


class EntrantInSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="",
        help_text="Required for a new player. A re-entry takes the player's own name: leave it "
        "out, or give the same name (a different one is refused).",
    )  # fmt: skip
    alternate = serializers.BooleanField(default=False)
    reentry_of = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="Entry number re-entering."
    )
    special_needs = serializers.CharField(max_length=200, required=False, default="")
    # A string checked here, not an enum: "method" names the deal quotes' enum in the schema.
    method = serializers.CharField(
        max_length=8, default=Method.CASH,
        help_text="What the entry was paid with when it has a price (a ledger line): cash, card or voucher.",
    )  # fmt: skip

    def validate_method(self, value: str) -> str:
        if value not in PAID_WITH:
            raise serializers.ValidationError("Paid with cash, card or voucher.")
        return value


class EliminationSerializer(serializers.ModelSerializer[Elimination]):
    entrant = serializers.IntegerField(source="entrant.number")
    name = serializers.CharField(source="entrant.name")
    shared_place = serializers.IntegerField(
        source="entrant.place", allow_null=True,
        help_text="The finishing place now: shared on one hand-for-hand hand (RP-8), null while "
        "registration is open (TDA 8) or once the elimination is undone.",
    )  # fmt: skip
    by = serializers.CharField(source="by.username")
    room_table = RoomTable("table_number", help_text="The table's room number, its one name.")

    class Meta:
        model = Elimination
        fields = [
            "entrant", "name", "place", "shared_place", "hand_for_hand_hand", "table_number",
            "room_table", "seat", "by", "at",
        ]  # fmt: skip


class ReinstatementSerializer(serializers.ModelSerializer[Reinstatement]):
    entrant = serializers.IntegerField(source="entrant.number")
    name = serializers.CharField(source="entrant.name")
    eliminated_at = serializers.DateTimeField(source="elimination.at")
    by = serializers.CharField(source="by.username")
    room_table = RoomTable("table_number", help_text="The table's room number, its one name.")

    class Meta:
        model = Reinstatement
        fields = [
            "entrant", "name", "table_number", "room_table", "seat", "reason", "eliminated_at",
            "by", "at",
        ]  # fmt: skip


class ReinstateInSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(
        max_length=REASON_MAX, help_text="Why the elimination is undone (kept in the audit log)."
    )


class DrawSerializer(serializers.ModelSerializer[Draw]):
    seed = serializers.CharField(
        source="public_seed", allow_null=True, help_text="Sealed (null) until revealed."
    )
    committed_by = serializers.CharField(source="committed_by.username")

    class Meta:
        model = Draw
        fields = [
            "number", "kind", "status", "commitment", "seed", "inputs", "result",
            "rulebook_edition", "citations", "committed_by", "committed_at", "revealed_at",
        ]  # fmt: skip


class DrawInSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=DrawKind.values)
    table = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="The table to break " + OWN_NUMBER
    )
    entrants = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, allow_null=True,
        help_text="Late entry: the entry numbers to draw (default: everyone waiting).",
    )  # fmt: skip
    deal = serializers.BooleanField(
        default=False, help_text="Deal and reveal at once, after committing."
    )


class BalanceCheckSerializer(serializers.ModelSerializer[BalanceCheck]):
    stale = serializers.SerializerMethodField()
    room_tables = serializers.SerializerMethodField(
        help_text="The tournament's table numbers the check uses (moves, counts, tables to "
        "break or halt) to the room's, each table's one name: {\"1\": 101}."
    )

    class Meta:
        model = BalanceCheck
        fields = [
            "id", "moves", "tables_to_break", "tables_to_halt", "final_table", "citations",
            "counts", "seating_version", "stale", "room_tables", "at",
        ]  # fmt: skip

    def get_stale(self, check: BalanceCheck) -> bool:
        return bool(check.seating_version != check.tournament.seating_version)

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_room_tables(self, check: BalanceCheck) -> dict[str, int]:
        return {str(n): room for n, room in room_numbers(check.tournament_id).items()}


class SeatMoveSerializer(serializers.ModelSerializer[SeatMove]):
    entrant = serializers.IntegerField(source="entrant.number")
    by = serializers.CharField(source="by.username")
    draw = serializers.IntegerField(source="draw.number", allow_null=True)
    from_room_table = RoomTable("from_table", help_text="The room's number, the table's name.")
    to_room_table = RoomTable("to_table", help_text="The room's number, the table's name.")

    class Meta:
        model = SeatMove
        fields = [
            "entrant", "from_table", "from_room_table", "from_seat", "to_table", "to_room_table",
            "to_seat", "reason", "note", "citations", "draw", "by", "at",
        ]  # fmt: skip


SEATING = inline_serializer(
    "TableMap",
    {
        "tables": inline_serializer(
            "TableMapTable",
            {
                "number": serializers.IntegerField(
                    help_text="The tournament's own numbering (1..n), for older clients."
                ),
                "room_table": serializers.IntegerField(),
                "name": serializers.CharField(help_text="The table's one name: 'Table 101'."),
                "button": serializers.IntegerField(allow_null=True),
                "seats": serializers.ListField(child=serializers.DictField()),
            },
            many=True,
        )
    },
)


class ReservationInSerializer(serializers.Serializer[Any]):
    entrant = serializers.IntegerField(min_value=1)
    table = serializers.IntegerField(min_value=1, help_text="The table " + OWN_NUMBER)
    seat = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=REASON_MAX)


class WrongSeatInSerializer(serializers.Serializer[Any]):
    entrant = serializers.IntegerField(min_value=1)
    found_table = serializers.IntegerField(
        min_value=1, help_text="The table the player was found at " + OWN_NUMBER
    )
    found_seat = serializers.IntegerField(min_value=1)
    note = serializers.CharField(max_length=200, required=False, default="")
