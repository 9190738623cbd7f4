"""Tournament writes. Each locks the tournament row first, so two directors drawing, breaking,
balancing or eliminating at once are served one after the other; the database's unique live-seat
constraints back that up. Seating changes are recorded as ``SeatMove`` rows, draws as ``Draw``
rows (committed before the deal, revealed after), both append-only.

The poker of seating (who goes where, and why) is ``tournaments.draws``, pure Python; this module
gathers its inputs from the database and writes its results back.
"""

from __future__ import annotations

import functools
import gc
import operator
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from cardroom import audit
from cardroom.models import Structure, Table, TableKind, Variant
from tournaments.draws.balancing import BalancePolicy, Game, SeatedPlayer, balance, tables_to_halt
from tournaments.draws.breaks import (
    default_break_order,
    seat_cards_for_break,
    tables_needed,
    tables_to_break,
)
from tournaments.draws.errors import (
    ALGORITHM,
    ALTERNATES_AND_LATE_ENTRIES,
    BALANCING,
    BALANCING_HALT,
    BALANCING_PROCEDURE,
    BREAKING_TABLES,
    DOUBLE_BLIND,
    FINAL_TABLE_SIZE,
    MOVED_PLAYER_SEAT,
    RANDOM_SEATING,
    SPECIAL_NEEDS,
    DrawError,
)
from tournaments.draws.positions import seats_between_button_and_small_blind
from tournaments.draws.replay import Verification, replay, verify_revealed
from tournaments.draws.seats import SeatRef
from tournaments.draws.seeds import commitment_for, new_seed
from tournaments.models import (
    RULEBOOK_EDITION,
    BalanceCheck,
    BalancingPolicy,
    ClockEvent,
    ClockState,
    Draw,
    DrawKind,
    DrawStatus,
    Elimination,
    Entrant,
    EntrantStatus,
    Level,
    MoveReason,
    Reinstatement,
    SeatAssignment,
    SeatMove,
    SeatReservation,
    Tournament,
    TournamentStatus,
    TournamentTable,
    TournamentTableStatus,
)

User = AbstractBaseUser

#: A player moved by balancing or a break this recently is not moved again while another
#: candidate exists (TDA 11).
RECENT_MOVE = timedelta(minutes=30)

#: Rule references stored with the records they justify (TDA 2024 numbering).
WRONG_SEAT = "TDA-7"
HAND_FOR_HAND = "TDA-RP-8"
#: TDA 1: fairness first; a director corrects a mistaken record (an "Out" clicked by mistake).
CORRECTION = "TDA-1"
#: TDA 8: late registration and re-entry; finishing places wait for registration to close.
LATE_REGISTRATION = ALTERNATES_AND_LATE_ENTRIES
FINAL_TABLE = FINAL_TABLE_SIZE

#: The pure draw each kind of tournament draw runs (``replay`` knows them by these names).
PURE_KIND: dict[str, str] = {
    DrawKind.INITIAL: "initial_seating",
    DrawKind.LATE_ENTRY: "open_seats",
    DrawKind.BREAK_TABLE: "break_table",
    DrawKind.FINAL_TABLE: "initial_seating",
}

MOVE_REASON: dict[str, str] = {
    DrawKind.INITIAL: MoveReason.INITIAL_DRAW,
    DrawKind.LATE_ENTRY: MoveReason.LATE_ENTRY,
    DrawKind.BREAK_TABLE: MoveReason.BREAK_TABLE,
    DrawKind.FINAL_TABLE: MoveReason.FINAL_TABLE,
}

DRAW_CITATIONS: dict[str, tuple[str, ...]] = {
    DrawKind.INITIAL: (RANDOM_SEATING, SPECIAL_NEEDS),
    DrawKind.LATE_ENTRY: (ALTERNATES_AND_LATE_ENTRIES, SPECIAL_NEEDS),
    DrawKind.BREAK_TABLE: (BREAKING_TABLES, MOVED_PLAYER_SEAT, DOUBLE_BLIND),
    DrawKind.FINAL_TABLE: (RANDOM_SEATING, FINAL_TABLE_SIZE),
}


def cite(*rules: str) -> list[dict[str, str]]:
    """Rule references as stored: every one carries the rulebook edition."""
    return [{"rule": rule, "edition": RULEBOOK_EDITION} for rule in rules]


def _lock(tournament_id: int) -> Tournament:
    """The tournament row, locked until the transaction ends: every seating write starts here."""
    return Tournament.objects.select_for_update().get(pk=tournament_id)


# --- the seating as it stands ------------------------------------------------------------------


class LiveSeat(NamedTuple):
    assignment_id: int
    entrant_id: int
    player: int  # the entrant's number: the id the pure draws see
    table: int
    seat: int


class TableInfo(NamedTuple):
    pk: int
    number: int
    seats: int
    button: int | None


@dataclass
class Seating:
    """Active tables, players per table, and who sits where at the tables loaded: every table
    with an open seat (and any asked for), or all of them. A full table not loaded has no open
    seat, so draws into open seats never need it: a break at 10,000 players reads a few rows."""

    tournament: Tournament
    tables: dict[int, TableInfo]
    counts: dict[int, int]  # every active table
    live: dict[int, LiveSeat]  # by entrant number, at the tables loaded
    by_table: dict[int, dict[int, LiveSeat]]  # the tables loaded
    reserved: dict[SeatRef, int]  # seats held for players not yet seated (TDA 9)

    def seat_numbers(self, table: int) -> list[int]:
        return list(range(1, self.tables[table].seats + 1))

    def open_seats(self, table: int) -> list[int]:
        taken = self.by_table.get(table)
        if taken is None:  # not loaded: full
            return []
        return [seat for seat in self.seat_numbers(table) if seat not in taken]

    def between_button_and_small_blind(self, table: int) -> frozenset[SeatRef]:
        button = self.tables[table].button
        if button is None or not self.by_table.get(table):
            return frozenset()
        return seats_between_button_and_small_blind(
            table, self.seat_numbers(table), self.by_table[table], button
        )

    def waiting_seats(self) -> frozenset[SeatRef]:
        """Every open seat where a newcomer would not be dealt in yet (TDA 8-A, 10-A)."""
        seats: set[SeatRef] = set()
        for table in self.by_table:
            seats |= self.between_button_and_small_blind(table)
        return frozenset(seats)

    def seated_players(self, recently_moved: Collection[int] = ()) -> dict[int, list[SeatedPlayer]]:
        """The tables loaded, as the pure draws take them."""
        recent = set(recently_moved)
        return {
            table: [
                SeatedPlayer(live.player, live.seat, live.player in recent)
                for live in seats.values()
            ]
            for table, seats in self.by_table.items()
        }


def load_seating(
    tournament: Tournament, *, everyone: bool = False, at: Collection[int] = ()
) -> Seating:
    """The seating in four queries. ``everyone``: every table's players; otherwise only the
    tables with an open seat and those in ``at``."""
    tables = {
        row[1]: TableInfo._make(row)
        for row in tournament.tables.filter(status=TournamentTableStatus.ACTIVE).values_list(
            "pk", "number", "seats", "button"
        )
    }
    live_rows = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    counts = dict.fromkeys(tables, 0)
    counts.update(
        live_rows.order_by()
        .values_list("table__number")
        .annotate(n=Count("id"))
        .values_list("table__number", "n")
    )
    loaded = (
        set(tables)
        if everyone
        else {n for n in tables if counts[n] < tables[n].seats} | set(at) & set(tables)
    )
    if not everyone:
        live_rows = live_rows.filter(table__number__in=sorted(loaded))
    live: dict[int, LiveSeat] = {}
    by_table: dict[int, dict[int, LiveSeat]] = {number: {} for number in sorted(loaded)}
    for row in live_rows.values_list(
        "id", "entrant_id", "entrant__number", "table__number", "seat"
    ):
        seat = LiveSeat._make(row)
        live[seat.player] = seat
        by_table[seat.table][seat.seat] = seat
    reserved = {
        SeatRef(table, seat): player
        for table, seat, player in SeatReservation.objects.filter(
            tournament=tournament, entrant__status=EntrantStatus.REGISTERED
        ).values_list("table__number", "seat", "entrant__number")
    }
    return Seating(tournament, tables, counts, live, by_table, reserved)


def recently_moved(tournament: Tournament, now: datetime, *, numbers: bool = True) -> set[int]:
    """Players not to move again while another candidate exists (TDA 11): moved by balancing or
    a break within ``RECENT_MOVE``, or sitting in a seat reserved for them (TDA 9)."""
    rows = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True).filter(
        Q(reason=MoveReason.RESERVED)
        | Q(
            reason__in=[MoveReason.BALANCE, MoveReason.BREAK_TABLE],
            started_at__gt=now - RECENT_MOVE,
        )
    )
    return set(rows.values_list("entrant__number" if numbers else "entrant_id", flat=True))


def _seat_dicts(seats: Iterable[SeatRef]) -> list[dict[str, int]]:
    return [seat.to_dict() for seat in sorted(seats)]


# --- setting up --------------------------------------------------------------------------------


def create_tournament(
    *,
    by: User,
    name: str,
    tables: Sequence[Table],
    levels: Sequence[Mapping[str, Any]],
    variant: str = Variant.HOLDEM,
    structure: str = Structure.NO_LIMIT,
    mixed_game: bool = False,
    seats_per_table: int = 9,
    starting_stack: int = 20_000,
    balancing_policy: str = BalancingPolicy.TDA,
    break_order: Sequence[int] | None = None,
    balancing_order: Sequence[int] | None = None,
    final_table_size: int | None = None,
) -> Tournament:
    """A tournament on room tables of kind "tournament", numbered 1.. in room-number order.

    The break order and balancing order are fixed here, before play (TDA 11-C): by default the
    highest-numbered table breaks first and gives up players first.
    """
    errors: dict[str, str] = {}
    if not name.strip():
        errors["name"] = "Name the tournament."
    room_tables = sorted({table.pk: table for table in tables}.values(), key=lambda t: t.number)
    if not room_tables:
        errors["tables"] = "Choose the room tables the tournament plays on."
    cash = [t.number for t in room_tables if t.kind != TableKind.TOURNAMENT]
    if cash:
        errors["tables"] = f"{tables_phrase(cash, 'is a cash-game table', 'are cash-game tables')}."
    small = [t.number for t in room_tables if t.seats < seats_per_table]
    if not 2 <= seats_per_table <= 10:
        errors["seats_per_table"] = "Tables seat 2 to 10 players."
    elif small:
        errors["tables"] = tables_phrase(small, "has", "have") + (
            f" fewer than {seats_per_table} seats."
        )
    busy = busy_tables(room_tables)
    if busy:
        errors["tables"] = " ".join(
            f"{tables_phrase(numbers, 'is', 'are')} already in {the(name)}."
            for name, numbers in busy.items()
        )
    if variant not in Variant.values:
        errors["variant"] = f"Unknown game {variant!r}."
    if structure not in Structure.values:
        errors["structure"] = f"Unknown structure {structure!r}."
    if balancing_policy not in BalancingPolicy.values:
        errors["balancing_policy"] = f"Unknown balancing policy {balancing_policy!r}."
    if final_table_size is not None and not 2 <= final_table_size <= seats_per_table:
        errors["final_table_size"] = (
            f"The final table seats 2 to {seats_per_table} players (TDA RP-9)."
        )
    if starting_stack < 1:
        errors["starting_stack"] = "Players start with chips."
    numbers = list(range(1, len(room_tables) + 1))
    orders: dict[str, list[int]] = {}
    for field, given, default in (
        ("break_order", break_order, default_break_order(numbers)),
        ("balancing_order", balancing_order, break_order or default_break_order(numbers)),
    ):
        order = list(default if given is None else given)
        if sorted(order) != numbers:
            errors[field] = f"List every table 1 to {len(numbers)} once."
        orders[field] = order
    structure_levels = _check_levels(levels, errors)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name.strip(), variant=variant, structure=structure, mixed_game=mixed_game,
            seats_per_table=seats_per_table, starting_stack=starting_stack,
            balancing_policy=balancing_policy, final_table_size=final_table_size,
            created_by=by, **orders,
        )  # fmt: skip
        position = {number: i + 1 for i, number in enumerate(orders["break_order"])}
        TournamentTable.objects.bulk_create(
            TournamentTable(
                tournament=tournament,
                table=room,
                number=number,
                seats=seats_per_table,
                break_position=position[number],
                button=1,
            )
            for number, room in zip(numbers, room_tables, strict=True)
        )
        Level.objects.bulk_create(Level(tournament=tournament, **lv) for lv in structure_levels)
    return tournament


def tables_phrase(numbers: Sequence[int], one: str, many: str) -> str:
    """Plain words: "Table 21 is", "Tables 21 and 22 are", "Tables 3, 4 and 5 are"."""
    names = [str(n) for n in numbers]
    if len(names) == 1:
        return f"Table {names[0]} {one}"
    return f"Tables {', '.join(names[:-1])} and {names[-1]} {many}"


def the(name: str) -> str:
    """A tournament's name in a sentence: "the Sunday Deepstack" ("The Big One" as it is)."""
    return name if name.lower().startswith("the ") else f"the {name}"


def busy_tables(tables: Iterable[Table]) -> dict[str, list[int]]:
    """Of these room tables, those in a tournament still in play: room numbers by tournament."""
    busy: dict[str, list[int]] = {}
    for name, number in (
        TournamentTable.objects.in_play()
        .filter(table__in=list(tables))
        .order_by("tournament__name", "table__number")
        .values_list("tournament__name", "table__number")
    ):
        busy.setdefault(name, []).append(number)
    return busy


def _check_levels(
    levels: Sequence[Mapping[str, Any]], errors: dict[str, str]
) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []
    for number, level in enumerate(levels, start=1):
        seconds = int(level.get("seconds") or 60 * int(level.get("minutes") or 0))
        is_break = bool(level.get("is_break", False))
        sb, bb, ante = (int(level.get(k) or 0) for k in ("small_blind", "big_blind", "ante"))
        if seconds <= 0:
            errors["levels"] = f"Level {number} needs a duration."
        elif not is_break and not 0 < sb < bb:
            errors["levels"] = f"Level {number}: the big blind must be larger than the small."
        result.append(
            {
                "number": number,
                "small_blind": sb,
                "big_blind": bb,
                "ante": ante,
                "duration": timedelta(seconds=seconds),
                "is_break": is_break,
            }
        )
    if not result:
        errors["levels"] = "Give the blind structure: at least one level."
    return result


def name_key(name: str) -> str:
    """Two names are the same entrant's when they match trimmed, spaces collapsed, any case."""
    return " ".join(name.split()).casefold()


def register_entrants(
    *,
    tournament: Tournament,
    names: Sequence[str],
    by: User,
    alternate: bool = False,
    reentry_of: Entrant | None = None,
    special_needs: str = "",
) -> list[Entrant]:
    """Register players. After the initial draw they are late entries (TDA 8-A): they wait for a
    late-entry draw into the open seats.

    One name, one player: a name already in this tournament (trimmed, any case) is refused,
    except on a re-entry, where the player chosen is the source of truth and the name is theirs
    (a different name typed with it is refused, never silently kept)."""
    cleaned = [" ".join(name.split()) for name in names]
    with transaction.atomic():
        locked = _lock(tournament.pk)
        if not locked.registration_open:
            raise ValidationError({"name": "Registration and re-entry are closed."})
        if reentry_of is not None:
            previous = _reentering(locked, reentry_of, cleaned)
            cleaned = [previous.name]
        if not cleaned or not all(cleaned):
            raise ValidationError({"name": "Give the player's name."})
        if reentry_of is None:
            _refuse_duplicate_names(locked, cleaned)
        last = locked.entrants.aggregate(n=Max("number"))["n"] or 0
        late = locked.status != TournamentStatus.REGISTERING
        return Entrant.objects.bulk_create(
            Entrant(
                tournament=locked,
                number=last + i,
                name=name,
                late=late,
                alternate=alternate,
                reentry_of=reentry_of,
                special_needs=special_needs.strip(),
                registered_by=by,
            )
            for i, name in enumerate(cleaned, start=1)
        )


def _reentering(tournament: Tournament, reentry_of: Entrant, names: Sequence[str]) -> Entrant:
    """The entry a re-entry follows: this tournament's, out, and not already re-entered (one
    live entry per player); a name given with it must be that player's."""
    if len(names) > 1:
        raise ValidationError({"reentry_of": "Re-enter one player at a time."})
    previous = Entrant.objects.get(pk=reentry_of.pk)
    if previous.tournament_id != tournament.pk or previous.status != EntrantStatus.ELIMINATED:
        raise ValidationError({"reentry_of": "Only an eliminated entry re-enters."})
    again = previous.reentries.order_by("number").first()
    if again is not None:
        raise ValidationError(
            {"reentry_of": f"{previous.name} (#{previous.number}) has already re-entered as "
                           f"#{again.number}."}
        )  # fmt: skip
    typed = names[0] if names else ""
    if typed and name_key(typed) != name_key(previous.name):
        raise ValidationError(
            {"name": f"This is a re-entry of {previous.name} (#{previous.number}), not "
                     f"{typed}: leave the name blank or type {previous.name}."}
        )  # fmt: skip
    return previous


def _refuse_duplicate_names(tournament: Tournament, names: Sequence[str]) -> None:
    wanted: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        if key in wanted:
            raise ValidationError({"name": f"{name} is in the list twice."})
        wanted[key] = name
    rows = tournament.entrants.order_by("number")
    if len(names) <= 50:  # the database narrows it down; stored names are already trimmed
        rows = rows.filter(functools.reduce(operator.or_, (Q(name__iexact=n) for n in names)))
    taken = [
        (name, number)
        for name, number in rows.values_list("name", "number")
        if name_key(name) in wanted
    ]
    if taken:
        name, number = taken[0]
        raise ValidationError(
            {"name": f"{name} is already entered (#{number}). A player coming back after busting "
                     "is a re-entry: choose them under \"Re-entry of\"."}
        )  # fmt: skip


def register_entrant(
    *,
    tournament: Tournament,
    name: str,
    by: User,
    alternate: bool = False,
    reentry_of: Entrant | None = None,
    special_needs: str = "",
) -> Entrant:
    return register_entrants(
        tournament=tournament, names=[name], by=by, alternate=alternate,
        reentry_of=reentry_of, special_needs=special_needs,
    )[0]  # fmt: skip


# --- draws: commit, then deal and reveal ------------------------------------------------------


def _dealing_order(seating: Seating, table: int) -> list[int]:
    """The players at a table in the order the dealer deals them a card: left of the button
    first (rising seat numbers, clockwise), the button last."""
    occupied = seating.by_table[table]
    button = seating.tables[table].button or 0
    seats = sorted(occupied)
    order = [s for s in seats if s > button] + [s for s in seats if s <= button]
    return [occupied[s].player for s in order]


def _draw_inputs(
    seating: Seating, kind: str, *, table: int | None = None, entrants: Sequence[int] = ()
) -> dict[str, Any]:
    """Everything the draw depends on, as committed before the deal. The same call at the deal
    must give the same inputs, or the field changed in between and the draw is abandoned."""
    tournament = seating.tournament
    reserved = frozenset(seating.reserved)
    context: dict[str, Any] = {
        "reserved": _seat_dicts(reserved),
        "reserved_for": [seating.reserved[seat] for seat in sorted(reserved)],
        "seating_version": tournament.seating_version,
    }
    if kind == DrawKind.INITIAL:
        if tournament.status != TournamentStatus.REGISTERING or any(seating.counts.values()):
            raise DrawError("already_drawn", "The initial draw has been made.", RANDOM_SEATING)
        held = set(seating.reserved.values())
        players = sorted(
            number
            for number in tournament.entrants.filter(status=EntrantStatus.REGISTERED).values_list(
                "number", flat=True
            )
            if number not in held
        )
        if not players and not held:
            raise DrawError("no_entrants", "Register players before the draw.", RANDOM_SEATING)
        pure: dict[str, Any] = {
            "entrants": players,
            "tables": [
                {
                    "table": number,
                    "seats": [
                        s
                        for s in seating.seat_numbers(number)
                        if SeatRef(number, s) not in reserved
                    ],
                }
                for number in sorted(seating.tables)
            ],
        }
    elif kind == DrawKind.LATE_ENTRY:
        if tournament.status == TournamentStatus.REGISTERING:
            raise DrawError("not_started", "Make the initial draw first.", RANDOM_SEATING)
        players = sorted(entrants)
        if not players:
            raise DrawError(
                "no_entrants", "No late entries are waiting.", ALTERNATES_AND_LATE_ENTRIES
            )
        open_seats = [
            SeatRef(number, seat) for number in sorted(seating.tables)
            for seat in seating.open_seats(number)
        ]  # fmt: skip
        waiting = seating.waiting_seats()
        forbidden = reserved | waiting
        if len([s for s in open_seats if s not in forbidden]) < len(players):
            # Not enough seats where they are dealt in at once: they may take those too, and
            # sit out until the button passes (TDA 8-A).
            forbidden = reserved
        context["waits_for_button"] = _seat_dicts(set(open_seats) & (waiting - forbidden))
        pure = {
            "entrants": players,
            "open_seats": _seat_dicts(open_seats),
            "forbidden": _seat_dicts(forbidden & set(open_seats)),
            "seated": [
                {"table": number, "players": count}
                for number, count in sorted(seating.counts.items())
            ],
        }
    elif kind == DrawKind.BREAK_TABLE:
        if table not in seating.tables:
            raise DrawError("unknown_table", f"Table {table} is not in play.", BREAKING_TABLES)
        if len(seating.tables) < 2:
            raise DrawError("last_table", "The last table cannot break.", BREAKING_TABLES)
        players = _dealing_order(seating, table)
        if not players:
            raise DrawError("empty_table", f"Table {table} has no players.", BREAKING_TABLES)
        # Only tables with an open seat can receive; full ones change nothing in the choice.
        layout = seating.seated_players()
        seat_map = {number: seating.seat_numbers(number) for number in layout}
        waiting = seating.waiting_seats()
        room = [
            SeatRef(n, s) for n in layout if n != table for s in seating.open_seats(n)
        ]  # fmt: skip
        forbidden = reserved | waiting
        if len([seat for seat in room if seat not in forbidden]) < len(players):
            # Too few seats where movers are dealt in at once: use those too (TDA 10-A).
            forbidden = reserved
        receiving = seat_cards_for_break(
            layout, seats=seat_map, breaking_table=table, forbidden=forbidden,
            balancing_order=tournament.balancing_order,
        )  # fmt: skip
        context["waits_for_button"] = _seat_dicts(set(receiving) & waiting)
        pure = {
            "breaking_table": table,
            "players": players,
            "receiving_seats": _seat_dicts(receiving),
            "forbidden": [],
        }
    elif kind == DrawKind.FINAL_TABLE:
        players = sorted(seating.live)
        size = tournament.final_table_size or tournament.seats_per_table
        if len(seating.tables) < 2:
            raise DrawError("one_table", "Play is already on one table.", FINAL_TABLE)
        if tables_needed(len(players), tournament.seats_per_table, size) != 1:
            raise DrawError(
                "too_many_players",
                f"{len(players)} players left: the final table seats {size} (TDA RP-9).",
                FINAL_TABLE,
            )
        final = [n for n in tournament.break_order if n in seating.tables][-1]
        pure = {
            "entrants": players,
            "tables": [{"table": final, "seats": list(range(1, size + 1))}],
        }
    else:
        raise DrawError("unknown_kind", f"No draw of kind {kind!r}.")
    return {
        "kind": PURE_KIND[kind],
        "algorithm": ALGORITHM,
        "input": pure,
        "context": context,
    }


def commit_draw(
    *,
    tournament: Tournament,
    kind: str,
    by: User,
    table: int | None = None,
    entrants: Sequence[Entrant] | None = None,
) -> Draw:
    """Seal a fresh secret seed and publish its commitment with the draw's inputs: nothing is
    dealt yet. ``deal_draw`` then makes the draw and reveals the seed."""
    with transaction.atomic():
        locked = _lock(tournament.pk)
        seating = load_seating(
            locked, everyone=kind == DrawKind.FINAL_TABLE, at=[table] if table else []
        )
        numbers: list[int] = []
        if kind == DrawKind.LATE_ENTRY:
            waiting = locked.entrants.filter(status=EntrantStatus.REGISTERED).exclude(
                number__in=list(seating.reserved.values())
            )
            if entrants is not None:
                waiting = waiting.filter(pk__in=[e.pk for e in entrants])
                if waiting.count() != len(entrants):
                    raise DrawError(
                        "not_waiting", "Only registered players not yet seated can be drawn.",
                        ALTERNATES_AND_LATE_ENTRIES,
                    )  # fmt: skip
            numbers = list(waiting.values_list("number", flat=True))
        inputs = _draw_inputs(seating, kind, table=table, entrants=numbers)
        seed = new_seed()
        number = (locked.draws.aggregate(n=Max("number"))["n"] or 0) + 1
        return Draw.objects.create(
            tournament=locked, number=number, kind=kind,
            commitment=commitment_for(seed, inputs), seed=seed, inputs=inputs,
            citations=cite(*_rules_applied(kind, inputs)), committed_by=by,
        )  # fmt: skip


def _rules_applied(kind: str, inputs: Mapping[str, Any]) -> list[str]:
    """The draw's rules; TDA 9 only when a reserved seat was kept out of it."""
    rules = list(DRAW_CITATIONS[kind])
    if not inputs["context"]["reserved"] and SPECIAL_NEEDS in rules:
        rules.remove(SPECIAL_NEEDS)
    return rules


def deal_draw(*, draw: Draw, by: User) -> Draw:
    """Make a committed draw: the same inputs as committed, the sealed seed, then reveal.

    If the seating changed since the commitment (a bust, another draw), the draw is abandoned
    (kept on record) and ``DrawError("stale_draw")`` asks for a new commitment."""
    stale = False
    with transaction.atomic():
        locked = _lock(draw.tournament_id)
        draw = Draw.objects.get(pk=draw.pk)
        if draw.status != DrawStatus.COMMITTED:
            raise DrawError("not_committed", f"{draw} was already {draw.get_status_display()}.")
        current: dict[str, Any] | None = draw.inputs
        if draw.kind == DrawKind.INITIAL:
            # Registrations do not move anyone: read the field again.
            try:
                current = _draw_inputs(load_seating(locked), draw.kind)
            except DrawError:
                current = None
        elif draw.inputs["context"]["seating_version"] != locked.seating_version:
            current = None  # someone sat down, moved or busted since the commitment
        if current != draw.inputs:
            draw.status = DrawStatus.ABANDONED
            draw.save(update_fields=["status"])
            stale = True
        else:
            record = _run(draw)
            try:
                with transaction.atomic():
                    _apply_draw(locked, draw, record, by)
            except IntegrityError as exc:
                # Only reachable without the tournament lock: the live-seat constraint holds.
                raise DrawError(
                    "seat_taken", "Another change took one of these seats at the same moment; "
                    "commit the draw again.",
                ) from exc  # fmt: skip
            draw.result = record
            draw.status = DrawStatus.REVEALED
            draw.revealed_at = timezone.now()
            draw.save(update_fields=["result", "status", "revealed_at"])
    if stale:
        raise DrawError(
            "stale_draw",
            f"The seating changed since draw {draw.number} was committed; it is abandoned. "
            "Commit a new draw.",
            *DRAW_CITATIONS[draw.kind],
        )
    return draw


def run_draw(
    *,
    tournament: Tournament,
    kind: str,
    by: User,
    table: int | None = None,
    entrants: Sequence[Entrant] | None = None,
) -> Draw:
    """Commit and deal in one go (the API's one-step form, and the bench)."""
    draw = commit_draw(tournament=tournament, kind=kind, by=by, table=table, entrants=entrants)
    return deal_draw(draw=draw, by=by)


def draw_initial_seating(*, tournament: Tournament, by: User) -> Draw:
    return run_draw(tournament=tournament, kind=DrawKind.INITIAL, by=by)


def draw_late_entries(
    *, tournament: Tournament, by: User, entrants: Sequence[Entrant] | None = None
) -> Draw:
    return run_draw(tournament=tournament, kind=DrawKind.LATE_ENTRY, by=by, entrants=entrants)


def break_table(*, table: TournamentTable, by: User) -> Draw:
    return run_draw(
        tournament=table.tournament, kind=DrawKind.BREAK_TABLE, by=by, table=table.number
    )


def redraw_final_table(*, tournament: Tournament, by: User) -> Draw:
    return run_draw(tournament=tournament, kind=DrawKind.FINAL_TABLE, by=by)


def _run(draw: Draw) -> dict[str, Any]:
    """The pure draw from the sealed seed and the committed inputs; its audit record."""
    return replay({**draw.inputs, "seed": draw.seed}).to_dict()


def _apply_draw(tournament: Tournament, draw: Draw, record: Mapping[str, Any], by: User) -> None:
    """Seat the draw's result: end the movers' old seats, write the new ones and the moves."""
    now = timezone.now()
    waits = {SeatRef.from_dict(s) for s in draw.inputs["context"].get("waits_for_button", [])}
    reason = MOVE_REASON[draw.kind]
    placed = [
        (entry["player"], SeatRef(entry["table"], entry["seat"]), entry.get("card"), reason)
        for entry in record["result"]
    ]
    if draw.kind == DrawKind.INITIAL:
        # TDA 9: players with a reserved seat sit there; the draw never offered those seats.
        placed += [
            (player, SeatRef.from_dict(seat), None, MoveReason.RESERVED)
            for seat, player in zip(
                draw.inputs["context"]["reserved"],
                draw.inputs["context"]["reserved_for"],
                strict=True,
            )
        ]
    players = {player for player, *_ in placed}
    ids = dict(tournament.entrants.filter(number__in=players).values_list("number", "id"))
    live = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    if draw.kind != DrawKind.FINAL_TABLE:  # the final table redraw reseats everyone
        live = live.filter(entrant_id__in=list(ids.values()))
    ending = {
        number: (pk, table, seat)
        for pk, number, table, seat in live.values_list(
            "pk", "entrant__number", "table__number", "seat"
        )
    }
    if ending:
        SeatAssignment.objects.filter(pk__in=[pk for pk, _, _ in ending.values()]).update(
            ended_at=now
        )
    tables = dict(
        tournament.tables.filter(number__in={seat.table for _, seat, _, _ in placed}).values_list(
            "number", "pk"
        )
    )
    citations = {reason: draw.citations, MoveReason.RESERVED: cite(SPECIAL_NEEDS)}
    _insert(
        SeatAssignment,
        [
            {
                "tournament_id": tournament.pk,
                "entrant_id": ids[player],
                "table_id": tables[seat.table],
                "seat": seat.seat,
                "draw_id": draw.pk,
                "reason": why,
                "waits_for_button": seat in waits,
                "started_at": now,
            }
            for player, seat, _, why in placed
        ],
    )
    _insert(
        SeatMove,
        [
            {
                "tournament_id": tournament.pk,
                "entrant_id": ids[player],
                "from_table": ending[player][1] if player in ending else None,
                "from_seat": ending[player][2] if player in ending else None,
                "to_table": seat.table,
                "to_seat": seat.seat,
                "reason": why,
                "note": _move_note(card, seat in waits, why),
                "citations": citations[why],
                "draw_id": draw.pk,
                "by_id": by.pk,
                "at": now,
            }
            for player, seat, card, why in placed
        ],
    )
    Entrant.objects.filter(pk__in=list(ids.values()), status=EntrantStatus.REGISTERED).update(
        status=EntrantStatus.SEATED
    )
    if draw.kind == DrawKind.BREAK_TABLE:
        tournament.tables.filter(number=draw.inputs["input"]["breaking_table"]).update(
            status=TournamentTableStatus.BROKEN, broken_at=now
        )
    if draw.kind == DrawKind.FINAL_TABLE:
        final = draw.inputs["input"]["tables"][0]["table"]
        TournamentTable.objects.filter(tournament=tournament).exclude(number=final).filter(
            status=TournamentTableStatus.ACTIVE
        ).update(status=TournamentTableStatus.BROKEN, broken_at=now)
        tournament.status = TournamentStatus.FINAL_TABLE
        if tournament.registration_closed_at is None:
            # Nobody enters at the final table: registration closes and places are fixed.
            tournament.registration_closed_at = now
            tournament.save(update_fields=["registration_closed_at"])
            recompute_places(tournament)
    if draw.kind == DrawKind.INITIAL:
        tournament.status = TournamentStatus.RUNNING
    _seating_changed(tournament)


def _move_note(card: str | None, waits: bool, reason: str) -> str:
    notes = []
    if card:
        notes.append(f"Dealt the {card}.")
    if waits:
        notes.append("Sits out until the button passes (TDA 8-A, 10-A).")
    if reason == MoveReason.RESERVED:
        notes.append("Seat reserved for special needs.")
    return " ".join(notes)


def _insert(model: type[models.Model], rows: list[dict[str, Any]]) -> None:
    """Insert rows with one ``executemany``. ``bulk_create`` builds a model instance per row
    (about 100 µs each) and an opening draw of 10,000 players writes 20,000 rows; values that
    are not plain numbers or text are prepared by their field, as the ORM would."""
    if not rows:
        return
    if model._meta.label in audit.CHAINS:  # an audit log: each row chained (cardroom/audit.py)
        audit.link_rows(model, rows)
    meta = model._meta
    fields = [meta.get_field(name) for name in rows[0]]
    prepared: dict[tuple[str, int], Any] = {}

    def value(field: Any, raw: Any) -> Any:
        if raw is None or isinstance(raw, int | str):
            return raw
        key = (field.attname, id(raw))
        if key not in prepared:  # repeated objects (the time, the citations) once each
            prepared[key] = field.get_db_prep_save(raw, connection)
        return prepared[key]

    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    # Only the model's own table and column names go into the text; values are parameters.
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"  # noqa: S608
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, [[value(f, row[f.attname]) for f in fields] for row in rows])


def _seating_changed(tournament: Tournament) -> None:
    """Bump the seating version and queue a balancing check once the change is committed."""
    from tournaments.tasks import check_balance

    tournament.seating_version += 1
    tournament.save(update_fields=["seating_version", "status", "updated_at"])
    check_balance.delay_on_commit(tournament.pk)


# --- verification -----------------------------------------------------------------------------


def verify_draw(draw: Draw) -> Verification:
    """Replay a revealed draw from its seed and committed inputs (nothing is written)."""
    return verify_revealed(
        seed=draw.public_seed, commitment=draw.commitment, inputs=draw.inputs, result=draw.result
    )


# --- eliminations, hand-for-hand ---------------------------------------------------------------


def eliminate_player(*, entrant: Entrant, by: User) -> Elimination:
    """A player is out: the seat opens, the place is recorded (shared with the other busts of
    the same hand during hand-for-hand, TDA RP-8), and a balancing check is queued.

    While registration is open no finishing place is fixed (TDA 8): the player may re-enter and
    the field is still growing, so the place is set when registration closes."""
    with transaction.atomic():
        locked = _lock(entrant.tournament_id)
        entrant = Entrant.objects.get(pk=entrant.pk)
        if entrant.status != EntrantStatus.SEATED:
            raise DrawError(
                "not_seated", f"{entrant} is {entrant.get_status_display().lower()}, not seated."
            )
        left = locked.entrants.exclude(status=EntrantStatus.ELIMINATED).count()
        if left <= 1:
            raise DrawError("winner", f"{entrant} is the last player: the winner.")
        live = SeatAssignment.objects.select_related("table").get(
            entrant=entrant, ended_at__isnull=True
        )
        now = timezone.now()
        if left == 2:  # heads-up bust: the tournament is over, nobody enters any more
            locked.status = TournamentStatus.COMPLETE
            locked.registration_closed_at = locked.registration_closed_at or now
            locked.save(update_fields=["status", "registration_closed_at", "updated_at"])
        place = None if locked.registration_open else left
        live.ended_at = now
        live.save(update_fields=["ended_at"])
        SeatMove.objects.create(
            tournament=locked, entrant=entrant, from_table=live.table.number,
            from_seat=live.seat, reason=MoveReason.ELIMINATED, by=by, at=now,
            citations=cite(HAND_FOR_HAND) if locked.hand_for_hand else [],
        )  # fmt: skip
        hand = locked.hand_for_hand_hand if locked.hand_for_hand else None
        elimination = Elimination.objects.create(
            tournament=locked, entrant=entrant, place=place, hand_for_hand_hand=hand,
            table_number=live.table.number, seat=live.seat, by=by,
        )  # fmt: skip
        entrant.status, entrant.place = EntrantStatus.ELIMINATED, place
        entrant.save(update_fields=["status", "place"])
        if left == 2:
            recompute_places(locked)  # the winner, and anyone out before registration closed
        elif hand is not None and place is not None:
            # RP-8: everyone out on this hand shares the best of their places.
            same_hand = locked.eliminations.standing().filter(hand_for_hand_hand=hand)
            Entrant.objects.filter(pk__in=same_hand.values("entrant_id")).update(place=place)
        _seating_changed(locked)
    return elimination


def recompute_places(tournament: Tournament) -> None:
    """Every entrant's finishing place from the standing eliminations, in bust order.

    - Registration open: no places (TDA 8: the field is not final, and a player out may still
      re-enter).
    - An entry followed by a re-entry has no place: that player is still in (or is placed by
      the last entry).
    - The others rank from the field size down in bust order: the first out of N players
      finishes Nth. Busts on one hand-for-hand hand share the best of their places (TDA RP-8).
    - A finished tournament's last player is 1st.
    Only rows whose place changes are written."""
    rows = dict(tournament.entrants.values_list("pk", "place"))
    places: dict[int, int | None] = dict.fromkeys(rows)
    if not tournament.registration_open:
        final = tournament.entrants.filter(reentries__isnull=True)
        busts = list(
            tournament.eliminations.standing()
            .filter(entrant__in=final)
            .order_by("id")
            .values_list("entrant_id", "hand_for_hand_hand")
        )
        field = final.count()
        best: dict[int, int] = {}
        for k, (pk, hand) in enumerate(busts):
            places[pk] = field - k
            if hand is not None:
                best[hand] = field - k  # the last out on the hand holds the best place
        for pk, hand in busts:
            if hand is not None:
                places[pk] = best[hand]
        if tournament.status == TournamentStatus.COMPLETE:
            out = {pk for pk, _ in busts}
            still_in = [pk for pk in final.values_list("pk", flat=True) if pk not in out]
            if len(still_in) == 1:
                places[still_in[0]] = 1
    changed = [Entrant(pk=pk, place=place) for pk, place in places.items() if rows[pk] != place]
    Entrant.objects.bulk_update(changed, ["place"], batch_size=500)


def close_registration(*, tournament: Tournament, by: User) -> Tournament:
    """Late registration and re-entry end (TDA 8): the field is final, so the players already
    out get their finishing places, and every bust from now on gets one at once."""
    with transaction.atomic():
        locked = _lock(tournament.pk)
        if not locked.registration_open:
            raise DrawError(
                "registration_closed", "Registration is already closed.", LATE_REGISTRATION
            )
        locked.registration_closed_at = timezone.now()
        locked.save(update_fields=["registration_closed_at", "updated_at"])
        ClockEvent.objects.create(
            tournament=locked, action="registration_closed", level_number=locked.level_number,
            by=by,
        )  # fmt: skip
        recompute_places(locked)
    return locked


def reinstate_player(*, entrant: Entrant, by: User, reason: str) -> Reinstatement:
    """Undo a mistaken elimination (an "Out" clicked by mistake): the player goes back to the
    seat they were put out of, places are worked out again, and a ``Reinstatement`` row (who,
    when, why) plus a seat move record the correction. The elimination row stays.

    TDA 1 (fairness first): the player never left the table, so the seat is theirs. If it is
    no longer free (someone was drawn into it, or the table broke) the correction is refused:
    any other seat would be a new seat assignment, which TDA 6/8-A/10 give by random draw,
    never by the director's hand."""
    reason = " ".join(reason.split())
    if not reason:
        raise ValidationError({"reason": "Say why the elimination is undone: it goes on record."})
    with transaction.atomic():
        locked = _lock(entrant.tournament_id)
        entrant = Entrant.objects.get(pk=entrant.pk)
        elimination = entrant.eliminations.standing().order_by("-id").first()
        if entrant.status != EntrantStatus.ELIMINATED or elimination is None:
            raise DrawError("not_eliminated", f"{entrant} is not eliminated.", CORRECTION)
        again = entrant.reentries.order_by("number").first()
        if again is not None:
            raise DrawError(
                "reentered", f"{entrant.name} has re-entered as #{again.number}: the first entry "
                "stays out.", CORRECTION,
            )  # fmt: skip
        table = locked.tables.filter(number=elimination.table_number).first()
        seat = elimination.seat
        if table is None or seat is None or table.status != TournamentTableStatus.ACTIVE:
            raise DrawError(
                "seat_not_free", f"Table {elimination.table_number} has broken since: "
                f"{entrant.name} cannot go back to seat {seat}. The elimination stands.",
                CORRECTION,
            )  # fmt: skip
        seating = load_seating(locked, at=[table.number])
        occupant = seating.by_table[table.number].get(seat)
        holder = seating.reserved.get(SeatRef(table.number, seat))
        if occupant is not None or holder is not None:
            who = occupant.player if occupant is not None else holder
            other = locked.entrants.get(number=who)
            raise DrawError(
                "seat_not_free", f"{entrant.name} cannot go back to table {table.number} seat "
                f"{seat}: it is {'taken by' if occupant else 'reserved for'} {other}. "
                "The elimination stands.", CORRECTION,
            )  # fmt: skip
        now = timezone.now()
        SeatAssignment.objects.create(
            tournament=locked, entrant=entrant, table=table, seat=seat,
            reason=MoveReason.REINSTATED, started_at=now,
        )  # fmt: skip
        SeatMove.objects.create(
            tournament=locked, entrant=entrant, to_table=table.number, to_seat=seat,
            reason=MoveReason.REINSTATED, note=reason, citations=cite(CORRECTION), by=by, at=now,
        )  # fmt: skip
        reinstatement = Reinstatement.objects.create(
            tournament=locked, elimination=elimination, entrant=entrant,
            table_number=table.number, seat=seat, reason=reason, by=by,
        )  # fmt: skip
        entrant.status, entrant.place = EntrantStatus.SEATED, None
        entrant.save(update_fields=["status", "place"])
        if locked.status == TournamentStatus.COMPLETE:
            final_drawn = locked.draws.filter(
                kind=DrawKind.FINAL_TABLE, status=DrawStatus.REVEALED
            ).exists()
            locked.status = (
                TournamentStatus.FINAL_TABLE if final_drawn else TournamentStatus.RUNNING
            )
        recompute_places(locked)
        _seating_changed(locked)
    return reinstatement


def set_hand_for_hand(*, tournament: Tournament, on: bool, by: User) -> Tournament:
    """Switch hand-for-hand play (TDA RP-8) on or off; switching on records the announcement
    time and starts counting hands, so busts on one hand share the place."""
    with transaction.atomic():
        locked = _lock(tournament.pk)
        if locked.hand_for_hand == on:
            return locked
        locked.hand_for_hand = on
        if on:
            locked.hand_for_hand_announced_at = timezone.now()
            locked.hand_for_hand_hand += 1
        locked.save(update_fields=["hand_for_hand", "hand_for_hand_announced_at",
                                   "hand_for_hand_hand", "updated_at"])  # fmt: skip
        ClockEvent.objects.create(
            tournament=locked, action="hand_for_hand_on" if on else "hand_for_hand_off",
            level_number=locked.level_number, by=by,
        )  # fmt: skip
    return locked


def next_hand_for_hand(*, tournament: Tournament, by: User) -> Tournament:
    """Every table has finished the hand: the next hand-for-hand hand begins."""
    with transaction.atomic():
        locked = _lock(tournament.pk)
        if not locked.hand_for_hand:
            raise DrawError("not_hand_for_hand", "Hand-for-hand is off.", HAND_FOR_HAND)
        locked.hand_for_hand_hand += 1
        locked.save(update_fields=["hand_for_hand_hand", "updated_at"])
    return locked


# --- seats by the director: reservations, wrong seats, the button ------------------------------


def reserve_seat(
    *, entrant: Entrant, table: TournamentTable, seat: int, reason: str, by: User
) -> SeatReservation:
    """TDA 9: reserve a seat for a player with special needs. Before the draw the seat is kept
    out of it; once play has begun the player is seated there now."""
    if not reason.strip():
        raise ValidationError({"reason": "Say what the special need is."})
    with transaction.atomic():
        locked = _lock(entrant.tournament_id)
        entrant = Entrant.objects.get(pk=entrant.pk)
        table = TournamentTable.objects.get(pk=table.pk)
        if table.tournament_id != locked.pk or table.status != TournamentTableStatus.ACTIVE:
            raise DrawError("unknown_table", f"{table} is not in play.", SPECIAL_NEEDS)
        if not 1 <= seat <= table.seats:
            raise DrawError("bad_seat", f"{table} has seats 1 to {table.seats}.", SPECIAL_NEEDS)
        if entrant.status == EntrantStatus.ELIMINATED:
            raise DrawError("eliminated", f"{entrant} is out of the tournament.", SPECIAL_NEEDS)
        seating = load_seating(locked, at=[table.number])
        occupant = seating.by_table[table.number].get(seat)
        if occupant is not None and occupant.entrant_id != entrant.pk:
            raise DrawError("seat_taken", f"{table} seat {seat} is taken.", SPECIAL_NEEDS)
        holder = seating.reserved.get(SeatRef(table.number, seat))
        if holder is not None and holder != entrant.number:
            raise DrawError("seat_reserved", f"{table} seat {seat} is reserved.", SPECIAL_NEEDS)
        reservation = SeatReservation.objects.create(
            tournament=locked, entrant=entrant, table=table, seat=seat, reason=reason.strip(),
            by=by,
        )  # fmt: skip
        if locked.status != TournamentStatus.REGISTERING and occupant is None:
            _move(
                locked, entrant, SeatRef(table.number, seat), table.pk, by,
                reason=MoveReason.RESERVED, note=reason.strip(), citations=cite(SPECIAL_NEEDS),
            )  # fmt: skip
            _seating_changed(locked)
    return reservation


def _live_seat(entrant_id: int) -> tuple[int, int, int] | None:
    """The entrant's live assignment: (id, table number, seat), or None."""
    return (
        SeatAssignment.objects.filter(entrant_id=entrant_id, ended_at__isnull=True)
        .values_list("pk", "table__number", "seat")
        .first()
    )


def _move(
    tournament: Tournament,
    entrant: Entrant,
    to: SeatRef,
    table_pk: int,
    by: User,
    *,
    reason: str,
    note: str,
    citations: list[dict[str, str]],
) -> SeatMove:
    now = timezone.now()
    live = _live_seat(entrant.pk)
    if live is not None:
        SeatAssignment.objects.filter(pk=live[0]).update(ended_at=now)
    SeatAssignment.objects.create(
        tournament=tournament, entrant=entrant, table_id=table_pk, seat=to.seat, reason=reason,
        started_at=now,
    )  # fmt: skip
    if entrant.status != EntrantStatus.SEATED:
        entrant.status = EntrantStatus.SEATED
        entrant.save(update_fields=["status"])
    return SeatMove.objects.create(
        tournament=tournament, entrant=entrant,
        from_table=live[1] if live else None, from_seat=live[2] if live else None,
        to_table=to.table, to_seat=to.seat, reason=reason, note=note, citations=citations,
        by=by, at=now,
    )  # fmt: skip


def correct_wrong_seat(
    *, entrant: Entrant, found_table: int, found_seat: int, by: User, note: str = ""
) -> SeatMove:
    """TDA 7: a player found in the wrong seat moves to the assigned seat with the current
    stack. The assignment stands; the move is recorded."""
    with transaction.atomic():
        locked = _lock(entrant.tournament_id)
        live = _live_seat(entrant.pk)
        if live is None:
            raise DrawError("not_seated", f"{entrant} has no seat to go to.", WRONG_SEAT)
        _, table, seat = live
        if (table, seat) == (found_table, found_seat):
            raise DrawError("right_seat", f"{entrant} is in the assigned seat.", WRONG_SEAT)
        return SeatMove.objects.create(
            tournament=locked, entrant_id=entrant.pk, from_table=found_table,
            from_seat=found_seat, to_table=table, to_seat=seat,
            reason=MoveReason.WRONG_SEAT,
            note=" ".join(("Moves to the assigned seat with the current stack.", note.strip())).strip(),
            citations=cite(WRONG_SEAT), by=by,
        )  # fmt: skip


def set_button(*, table: TournamentTable, seat: int, by: User) -> TournamentTable:
    """Record where the dealer button is (balancing and new players' seats depend on it)."""
    with transaction.atomic():
        locked = _lock(table.tournament_id)
        table = TournamentTable.objects.get(pk=table.pk)
        if not 1 <= seat <= table.seats:
            raise ValidationError({"seat": f"{table} has seats 1 to {table.seats}."})
        table.button = seat
        table.save(update_fields=["button"])
        # Who is due the big blind, and which seats wait for the button, depend on it.
        locked.seating_version += 1
        locked.save(update_fields=["seating_version", "updated_at"])
    return table


# --- balancing ------------------------------------------------------------------------------


def _game(tournament: Tournament) -> Game:
    if tournament.mixed_game:
        return Game.MIXED
    return Game.STUD if tournament.is_stud else Game.FLOP


def _policy(tournament: Tournament) -> BalancePolicy:
    if tournament.balancing_policy == BalancingPolicy.FEWEST_MOVES:
        return BalancePolicy.KEEP_POSITION
    return BalancePolicy.TDA


def check_balance(*, tournament_id: int) -> BalanceCheck:
    """What balancing needs now: tables to break (in the published order), the final-table
    redraw, or the moves of TDA 11; and tables that must halt (11-D). Recorded, not applied."""
    with transaction.atomic():
        locked = _lock(tournament_id)
        seating = load_seating(locked)  # players per table; who sits where only if needed
        counts = seating.counts
        players = sum(counts.values())
        in_play = sorted(seating.tables)
        size = locked.final_table_size or locked.seats_per_table
        moves: list[dict[str, Any]] = []
        to_break: list[int] = []
        halt: list[int] = []
        final = False
        citations = [BALANCING, BALANCING_PROCEDURE]
        if locked.status == TournamentStatus.RUNNING and players:
            to_break = tables_to_break(
                players, in_play, locked.seats_per_table, locked.break_order, size
            )
            if to_break and len(in_play) - len(to_break) == 1:
                final, to_break = True, []
                citations.append(FINAL_TABLE)
            elif to_break:
                citations.append(BREAKING_TABLES)
            elif max(counts.values()) - min(counts.values()) > 1:
                moves, layout = _balancing_moves(locked, seating)
                halt = tables_to_halt(layout)
                if halt:
                    citations.append(BALANCING_HALT)
        return BalanceCheck.objects.create(
            tournament=locked, moves=moves, tables_to_break=to_break, tables_to_halt=halt,
            final_table=final, citations=cite(*citations), counts={str(n): c for n, c in counts.items()},
            seating_version=locked.seating_version,
        )  # fmt: skip


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Hold the cyclic garbage collector while a whole field is turned into objects.

    Ten thousand short-lived seats with no reference cycles are freed by reference counting
    anyway; a full collection triggered halfway would scan the whole process heap and double
    the time of a balancing check."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _balancing_moves(
    tournament: Tournament, seating: Seating
) -> tuple[list[dict[str, Any]], dict[int, list[SeatedPlayer]]]:
    """TDA 11 moves over every table. Players are entrant ids here (one light query for 10,000
    seats), entry numbers in the moves recorded."""
    with _no_gc_pauses():
        return _balancing_moves_of(tournament, seating)


def _balancing_moves_of(
    tournament: Tournament, seating: Seating
) -> tuple[list[dict[str, Any]], dict[int, list[SeatedPlayer]]]:
    recent = set(recently_moved(tournament, timezone.now(), numbers=False))
    number_of = {info.pk: number for number, info in seating.tables.items()}
    layout: dict[int, list[SeatedPlayer]] = {number: [] for number in seating.tables}
    for entrant_id, table_id, seat in SeatAssignment.objects.filter(
        tournament=tournament, ended_at__isnull=True
    ).values_list("entrant_id", "table_id", "seat"):
        layout[number_of[table_id]].append(SeatedPlayer(entrant_id, seat, entrant_id in recent))
    moves = balance(
        layout,
        seats={n: seating.seat_numbers(n) for n in seating.tables},
        buttons={n: t.button or 1 for n, t in seating.tables.items()},
        game=_game(tournament),
        policy=_policy(tournament),
        balancing_order=tournament.balancing_order,
        last_opened=_last_opened(tournament) if tournament.is_stud else None,
        forbidden=frozenset(seating.reserved),
    )
    numbers = dict(
        tournament.entrants.filter(pk__in=[m.player for m in moves]).values_list("pk", "number")
    )
    return [{**move.to_dict(), "player": numbers[move.player]} for move in moves], layout


def _last_opened(tournament: Tournament) -> dict[int, list[int]]:
    """Each active table's seats in the order they were vacated (stud fills the last, 11-B)."""
    opened: dict[int, list[int]] = {}
    for table, seat in (
        SeatAssignment.objects.filter(
            tournament=tournament,
            ended_at__isnull=False,
            table__status=TournamentTableStatus.ACTIVE,
        )
        .order_by("ended_at", "id")
        .values_list("table__number", "seat")
    ):
        seats = opened.setdefault(table, [])
        if seat in seats:
            seats.remove(seat)
        seats.append(seat)
    return opened


def apply_balance(*, check: BalanceCheck, by: User) -> list[SeatMove]:
    """Make the moves of a balancing check (one click). A check made before the seating last
    changed is stale: check again and look before moving anyone."""
    with transaction.atomic():
        locked = _lock(check.tournament_id)
        if check.seating_version != locked.seating_version:
            raise DrawError(
                "stale_check", "The seating changed since this check; check again.",
                BALANCING_PROCEDURE,
            )  # fmt: skip
        if not check.moves:
            raise DrawError("nothing_to_move", "The tables are balanced.", BALANCING)
        entrants = {
            e.number: e
            for e in locked.entrants.filter(number__in=[m["player"] for m in check.moves])
        }
        tables = dict(locked.tables.values_list("number", "pk"))
        made = []
        try:
            with transaction.atomic():
                for move in check.moves:
                    mover, to = entrants[move["player"]], SeatRef.from_dict(move["to"])
                    live = _live_seat(mover.pk)
                    taken = SeatAssignment.objects.filter(
                        table_id=tables[to.table], seat=to.seat, ended_at__isnull=True
                    ).exists()
                    if (
                        live is None
                        or SeatRef(*live[1:]) != SeatRef.from_dict(move["from"])
                        or taken
                    ):
                        raise DrawError("stale_check", "The seating changed; check again.")
                    made.append(
                        _move(
                            locked,
                            mover,
                            to,
                            tables[to.table],
                            by,
                            reason=MoveReason.BALANCE,
                            note=move["reason"],
                            citations=move["citations"],
                        )
                    )
        except IntegrityError as exc:
            raise DrawError(
                "seat_taken", "A seat was taken at the same moment; check again."
            ) from exc
        _seating_changed(locked)
    return made


# --- the clock ----------------------------------------------------------------------------------


def _levels(tournament: Tournament) -> dict[int, Level]:
    return {level.number: level for level in tournament.levels.all()}


def _catch_up(tournament: Tournament, levels: Mapping[int, Level], now: datetime) -> list[int]:
    """Pass the levels whose time ran out while the clock ran; returns the levels reached."""
    reached: list[int] = []
    while tournament.clock_state == ClockState.RUNNING:
        level = levels.get(tournament.level_number)
        assert tournament.level_started_at is not None
        if level is None:
            tournament.clock_state = ClockState.FINISHED
            break
        ends = tournament.level_started_at + level.duration - tournament.level_elapsed
        if ends > now:
            break
        tournament.level_started_at, tournament.level_elapsed = ends, timedelta(0)
        tournament.level_number += 1
        if tournament.level_number not in levels:
            tournament.clock_state = ClockState.FINISHED
            tournament.level_number -= 1
            break
        reached.append(tournament.level_number)
    return reached


def _save_clock(tournament: Tournament, action: str, by: User | None, reached: list[int]) -> None:
    tournament.clock_version += 1
    tournament.save(
        update_fields=["clock_state", "level_number", "level_started_at", "level_elapsed",
                       "clock_version", "updated_at"]
    )  # fmt: skip
    events = [
        ClockEvent(tournament=tournament, action="level_on_time", level_number=n) for n in reached
    ]
    events.append(
        ClockEvent(
            tournament=tournament, action=action, level_number=tournament.level_number, by=by
        )
    )
    ClockEvent.objects.bulk_create(events)
    _schedule_tick(tournament)


def _schedule_tick(tournament: Tournament) -> None:
    """Queue the next level change for when this level's time runs out (after commit).

    Without a broker, tasks run in-process at once and cannot wait: nothing is queued. The
    clock's reading still passes levels on time (``read_clock``), and the next clock action
    records the levels reached."""
    from cardroom.celery import app
    from tournaments.tasks import advance_clock

    if app.conf.task_always_eager:
        return
    if tournament.clock_state != ClockState.RUNNING or tournament.level_started_at is None:
        return
    level = tournament.levels.filter(number=tournament.level_number).first()
    if level is None:
        return
    due = tournament.level_started_at + level.duration - tournament.level_elapsed
    advance_clock.apply_async_on_commit(args=(tournament.pk, tournament.clock_version), eta=due)


def start_clock(*, tournament: Tournament, by: User) -> Tournament:
    with transaction.atomic():
        locked = _lock(tournament.pk)
        if locked.clock_state != ClockState.STOPPED:
            raise DrawError("clock_started", "The clock has already started.")
        locked.clock_state, locked.level_number = ClockState.RUNNING, 1
        locked.level_started_at, locked.level_elapsed = timezone.now(), timedelta(0)
        _save_clock(locked, "start", by, [])
    return locked


def pause_clock(*, tournament: Tournament, by: User) -> Tournament:
    with transaction.atomic():
        locked = _lock(tournament.pk)
        now = timezone.now()
        reached = _catch_up(locked, _levels(locked), now)
        if locked.clock_state != ClockState.RUNNING:
            raise DrawError("clock_not_running", "The clock is not running.")
        locked.level_elapsed = locked.level_elapsed_at(now)
        locked.clock_state, locked.level_started_at = ClockState.PAUSED, None
        _save_clock(locked, "pause", by, reached)
    return locked


def resume_clock(*, tournament: Tournament, by: User) -> Tournament:
    with transaction.atomic():
        locked = _lock(tournament.pk)
        if locked.clock_state != ClockState.PAUSED:
            raise DrawError("clock_not_paused", "The clock is not paused.")
        locked.clock_state, locked.level_started_at = ClockState.RUNNING, timezone.now()
        _save_clock(locked, "resume", by, [])
    return locked


def advance_level(*, tournament: Tournament, by: User, back: bool = False) -> Tournament:
    """Go to the next (or previous) level now, its full time ahead; a paused clock stays paused."""
    with transaction.atomic():
        locked = _lock(tournament.pk)
        levels = _levels(locked)
        now = timezone.now()
        reached = _catch_up(locked, levels, now)
        target = locked.level_number + (-1 if back else 1)
        if target not in levels:
            # Not "level {target}": that is the step, and a break before it is not a level.
            where = "before this one" if back else "after this one"
            raise DrawError("no_level", f"The structure has no level {where}.")
        if locked.clock_state == ClockState.FINISHED:
            locked.clock_state = ClockState.PAUSED
        locked.level_number, locked.level_elapsed = target, timedelta(0)
        if locked.clock_state == ClockState.RUNNING:
            locked.level_started_at = now
        _save_clock(locked, "back" if back else "advance", by, reached)
    return locked


def tick_clock(*, tournament_id: int, version: int) -> Tournament | None:
    """The scheduled tick: pass the levels whose time ran out. A tick queued for an older clock
    (paused, resumed or moved since) does nothing; an early one is queued again."""
    with transaction.atomic():
        locked = _lock(tournament_id)
        if locked.clock_version != version or locked.clock_state != ClockState.RUNNING:
            return None
        reached = _catch_up(locked, _levels(locked), timezone.now())
        if not reached and locked.clock_state == ClockState.RUNNING:
            _schedule_tick(locked)
            return locked
        _save_clock(locked, "tick", None, reached)
    return locked


# --- reading ------------------------------------------------------------------------------------


def table_counts(tournament: Tournament) -> dict[int, int]:
    """Players seated at each active table, in one query."""
    rows = (
        SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
        .values("table__number")
        .annotate(n=Count("id"))
    )
    return {row["table__number"]: row["n"] for row in rows}
