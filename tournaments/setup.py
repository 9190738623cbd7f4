"""Setting up a tournament: creating it with its tables and levels, registering entrants."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.locks import lock_rows
from cardroom.seats.models import Player, name_key
from cardroom.seats.services import SeatRefused, barred_refusal, find_or_create_player
from cardroom.tables.choices import Structure, TableKind, Variant, variant_refusal
from cardroom.tables.models import Table
from cardroom.tables.services import create_tournament_tables
from tournaments.draws.breaks import (
    default_break_order,
)
from tournaments.models import (
    BalancingPolicy,
    ClockEvent,
    Entrant,
    EntrantStatus,
    Level,
    Tournament,
    TournamentAnte,
    TournamentStatus,
    TournamentTable,
)
from tournaments.money import payments
from tournaments.money.models import Method
from tournaments.seating import lock_tournament, the


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
    ante_type: str = TournamentAnte.EACH,
) -> Tournament:
    """A tournament on room tables of kind "tournament", numbered 1.. in room-number order.
    ``ante_type``: who pays the levels' antes (every player, or the big blind: CR-DM.2); the
    form and the API choose the big-blind ante unless the director says otherwise.

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
    elif refusal := variant_refusal(variant):
        # Its tables are dealt at the betting desk like any other: only the games it deals.
        errors["variant"] = refusal
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
    if structure == Structure.FIXED_LIMIT and not any(int(lv.get("ante") or 0) for lv in levels):
        ante_type = TournamentAnte.EACH  # no ante to pay: the big-blind default does not apply
    if refusal := ante_type_refusal(ante_type, structure):
        errors["ante_type"] = refusal
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
            ante_type=ante_type, created_by=by, **orders,
        )  # fmt: skip
        position = {number: i + 1 for i, number in enumerate(orders["break_order"])}
        TournamentTable.objects.bulk_create(
            TournamentTable(
                tournament=tournament,
                table=room,
                number=number,
                seats=seats_per_table,
                break_position=position[number],
                button=None,  # placed by the first hand's draw (CR-BB.9) or the dealer
            )
            for number, room in zip(numbers, room_tables, strict=True)
        )
        Level.objects.bulk_create(Level(tournament=tournament, **lv) for lv in structure_levels)
    return tournament


#: ``create_tournament_tables``' fields as the director fills them in.
NEW_TABLE_FIELDS = {"count": "new_tables", "first": "first_table", "seats": "seats_per_table"}


@dataclass(frozen=True)
class NewTables:
    """Room tables set up with the tournament: ``count`` of them, numbered from ``first``,
    seating the tournament's players a table (``seats_per_table``)."""

    count: int
    first: int


def create_event(
    *,
    by: User,
    tables: Sequence[Table] = (),
    new_tables: NewTables | None = None,
    seats_per_table: int = 9,
    break_order: Sequence[int] | None = None,
    balancing_order: Sequence[int] | None = None,
    orders_by_room: bool = True,
    **settings: Any,
) -> Tournament:
    """A tournament as the director sets it up: on room tables chosen, on new ones made for it
    (``cardroom.tables.services.create_tournament_tables``: kind tournament, no cash game), or
    both, in one transaction (a refused tournament leaves no new table behind). The break and
    balancing orders name the tables as everyone sees them, by the room's numbers (TDA 11-C);
    they are kept in the tournament's own numbering, which the draws use and no page shows.
    ``orders_by_room=False``: the orders are given in that numbering (1..n) already, as the
    API has always taken them."""
    with transaction.atomic():
        made: list[Table] = []
        if new_tables is not None:
            try:
                made = create_tournament_tables(
                    by=by, count=new_tables.count, seats=seats_per_table, first=new_tables.first
                )
            except ValidationError as exc:
                # Said under the fields the director filled in (the form's and the API's).
                exc.error_dict = {NEW_TABLE_FIELDS.get(k, k): v for k, v in exc.error_dict.items()}
                raise
        room = sorted({t.pk: t for t in [*tables, *made]}.values(), key=lambda t: t.number)
        internal = {table.number: n for n, table in enumerate(room, start=1)}
        if not orders_by_room:
            internal = {n: n for n in internal.values()}
        orders: dict[str, list[int] | None] = {}
        for field, given in (("break_order", break_order), ("balancing_order", balancing_order)):
            if given is None or not room:  # no tables: create_tournament asks for them
                orders[field] = None
                continue
            if sorted(given) != sorted(internal):
                listed = ", ".join(str(n) for n in sorted(internal))
                raise ValidationError({field: f"List every table ({listed}) once."})
            orders[field] = [internal[n] for n in given]
        return create_tournament(
            by=by, tables=room, seats_per_table=seats_per_table,
            break_order=orders["break_order"], balancing_order=orders["balancing_order"],
            **settings,
        )  # fmt: skip


def ante_type_refusal(ante_type: str, structure: str) -> str:
    """Why this ante type is refused for this structure ("" when it is fine): a big-blind ante
    is for no-limit and pot-limit games, as at the room's tables (CR-DM.2)."""
    if ante_type not in TournamentAnte.values:
        return f"Unknown ante type {ante_type!r}: per player ('each') or big-blind ('big_blind')."
    if ante_type == TournamentAnte.BIG_BLIND and structure == Structure.FIXED_LIMIT:
        return "A big-blind ante is for no-limit and pot-limit games (CR-DM.2): choose per player."
    return ""


def set_ante_type(*, tournament: Tournament, ante_type: str, by: User) -> Tournament:
    """The director switches who pays the antes. It applies from the next hand dealt (a hand
    already dealt keeps its game; a proposal shown before is stale, CR-TP.2) and goes on the
    clock's log ("ante_each" / "ante_big_blind")."""
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if refusal := ante_type_refusal(ante_type, locked.structure):
            raise ValidationError({"ante_type": refusal})
        if locked.ante_type != ante_type:
            locked.ante_type = ante_type
            locked.save(update_fields=["ante_type", "updated_at"])
            ClockEvent.objects.create(
                tournament=locked, action=f"ante_{ante_type}", level_number=locked.level_number,
                by=by,
            )  # fmt: skip
    return locked


def tables_phrase(numbers: Sequence[int], one: str, many: str) -> str:
    """Plain words: "Table 21 is", "Tables 21 and 22 are", "Tables 3, 4 and 5 are"."""
    names = [str(n) for n in numbers]
    if len(names) == 1:
        return f"Table {names[0]} {one}"
    return f"Tables {', '.join(names[:-1])} and {names[-1]} {many}"


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


def register_entrants(
    *,
    tournament: Tournament,
    names: Sequence[str],
    by: User,
    alternate: bool = False,
    reentry_of: Entrant | None = None,
    special_needs: str = "",
    method: str = Method.CASH,
) -> list[Entrant]:
    """Register players. After the initial draw they are late entries (TDA 8-A): they wait for a
    late-entry draw into the open seats.

    Each name is a person, the room's one record (``find_or_create_player``): a name alone,
    or "name, phone or e-mail" (two people of one name are told apart by their contacts). A
    person is entered once: one already in this tournament is refused naming their entry (a
    player coming back after busting is a re-entry, where the player chosen is the source of
    truth and the name is theirs: a different name typed with it is refused, never silently
    kept). A barred player is refused, with the reason (staff only).

    When the tournament has an entry price, each entry is paid in the same transaction
    (``payments.take_entry``: an ENTRY line, a REENTRY for a re-entry, paid with ``method`` and
    taken by ``by``), and a re-entry is refused beyond the event's limit or last level (TDA
    8-A, ``payments.refuse_reentry``). A free entry writes no ledger line."""
    payments.check_method(method)
    cleaned = [" ".join(name.split()) for name in names]
    try:
        with transaction.atomic():
            locked = lock_tournament(tournament.pk)
            if not locked.registration_open:
                raise ValidationError({"name": "Registration and re-entry are closed."})
            if reentry_of is not None:
                previous = _reentering(locked, reentry_of, cleaned)
                payments.refuse_reentry(locked, previous)
                cleaned, people = [previous.name], [previous.player]
            if not cleaned or not all(cleaned):
                raise ValidationError({"name": "Give the player's name."})
            if reentry_of is None:
                people = [_person(name, by) for name in cleaned]
                refuse_duplicate_people(locked, people, cleaned)
            # Locked after the tournament (the floor's order): a bar written meanwhile counts.
            for person in lock_rows(Player, [p.pk for p in people]):
                if (why := barred_refusal(person)) is not None:
                    raise EntryRefused("name", why)
            last = locked.entrants.aggregate(n=Max("number"))["n"] or 0
            late = locked.status != TournamentStatus.REGISTERING
            entrants = Entrant.objects.bulk_create(
                Entrant(
                    tournament=locked,
                    number=last + i,
                    player=person,
                    name=person.name if reentry_of is None else name,
                    late=late,
                    alternate=alternate,
                    reentry_of=reentry_of,
                    special_needs=special_needs.strip(),
                    chips=locked.starting_stack,  # every entry, re-entries too, starts afresh
                    registered_by=by,
                )
                for i, (name, person) in enumerate(zip(cleaned, people, strict=True), start=1)
            )
            for entrant in entrants:
                payments.take_entry(locked=locked, entrant=entrant, method=method, by=by)
            return entrants
    except IntegrityError as exc:
        # Only without row locks (SQLite), or a lock bypassed: the key keeps one live entry.
        raise Conflict(
            "already_entered", "This player was entered a moment ago: look at the entrants."
        ) from exc


class EntryRefused(Refusal):
    """A registration the room refuses for who the person is (already entered, out and so a
    re-entry, barred, a name several people have): keyed by the name field; the API answers
    422 ``entry_refused``."""

    code = "entry_refused"


def _person(line: str, by: User) -> Player:
    """The person a line names ("name" or "name, contact"), found or created; the room's
    refusals of a name or contact are said on the name field."""
    try:
        return find_or_create_player(name=line, by=by)
    except SeatRefused as exc:
        raise EntryRefused({"name": exc.messages}) from exc


def _reentering(tournament: Tournament, reentry_of: Entrant, names: Sequence[str]) -> Entrant:
    """The entry a re-entry follows: this tournament's, out, and not already re-entered (one
    live entry per player); a name given with it must be that player's."""
    if len(names) > 1:
        raise ValidationError({"reentry_of": "Re-enter one player at a time."})
    previous = Entrant.objects.get(pk=reentry_of.pk)
    if previous.tournament_id == tournament.pk and previous.status == EntrantStatus.WITHDRAWN:
        # A refunded entry never played: the player comes back as a new entry, not a re-entry.
        raise ValidationError(
            {"reentry_of": f"{previous} withdrew (the entry was refunded): register the player "
                           "as a new entry, not a re-entry."}
        )  # fmt: skip
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


def refuse_duplicate_people(
    tournament: Tournament, people: Sequence[Player], lines: Sequence[str]
) -> None:
    """People, not names: a person twice in the list, or one with an entry in this tournament
    (live, or out: coming back is a re-entry), is refused naming the entry. Two people of one
    name (different contacts) are two entries. An entry refunded before the draw never played:
    its player may enter again, as a new entry."""
    seen: set[int] = set()
    for person, line in zip(people, lines, strict=True):
        if person.pk in seen:
            raise EntryRefused("name", f"{line} is in the list twice.")
        seen.add(person.pk)
    entered = (
        tournament.entrants.filter(player__in=list(seen))
        .exclude(status=EntrantStatus.WITHDRAWN)
        .order_by("-number")
        .values_list("name", "number", "status")
        .first()
    )
    if entered is None:
        return
    name, number, status = entered
    if status == EntrantStatus.ELIMINATED:
        raise EntryRefused(
            "name", f"{name} is out (#{number}). A player coming back after busting is a "
            're-entry: choose them under "Re-entry of".'
        )  # fmt: skip
    raise EntryRefused(
        "name", f"{name} is already entered (#{number}). One live entry a player: another"
        " person of that name is told apart by their phone or e-mail, type"
        f' "{name}, 600 123 456".'
    )  # fmt: skip


@dataclass(frozen=True)
class Registration:
    """One line of a list of names: the entry it made, or why it was refused."""

    name: str
    entrant: Entrant | None = None
    refusal: str = ""


def register_list(
    *,
    tournament: Tournament,
    names: Sequence[str],
    by: User,
    alternate: bool = False,
    reentry_of: Entrant | None = None,
    method: str = Method.CASH,
) -> list[Registration]:
    """A list of names typed or pasted by the director, one a line: each registered on its own
    (``register_entrants``) or refused with its reason (a name already entered, twice in the
    list, registration closed), so one bad line never holds up the others. A re-entry is one
    player: the name may be blank (the player's own is used)."""
    if reentry_of is not None:
        if len(names) > 1:
            refusal = "Re-enter one player at a time: one name (theirs) or none with the re-entry."
            return [Registration(name=name, refusal=refusal) for name in names]
        names = list(names) or [""]
    results = []
    for name in names:
        try:
            [entrant] = register_entrants(
                tournament=tournament, names=[name], by=by, alternate=alternate,
                reentry_of=reentry_of, method=method,
            )  # fmt: skip
        except ValidationError as exc:
            results.append(Registration(name=name, refusal=" ".join(exc.messages)))
        except Conflict as exc:  # entered by another device a moment ago
            results.append(Registration(name=name, refusal=exc.message))
        else:
            results.append(Registration(name=name, entrant=entrant))
    return results


def register_entrant(
    *,
    tournament: Tournament,
    name: str,
    by: User,
    alternate: bool = False,
    reentry_of: Entrant | None = None,
    special_needs: str = "",
    method: str = Method.CASH,
) -> Entrant:
    return register_entrants(
        tournament=tournament, names=[name], by=by, alternate=alternate,
        reentry_of=reentry_of, special_needs=special_needs, method=method,
    )[0]  # fmt: skip
