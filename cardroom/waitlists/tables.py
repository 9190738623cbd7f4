"""Tables and the waitlists: must-move tables feeding a main game, new tables started
from a list (a verifiable seat draw, or first come first seated). The lists themselves are
``cardroom/waitlists/services.py``; the public board reads them in ``cardroom/screens/board.py``."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from cardroom.core.api_errors import Conflict
from cardroom.core.locks import lock_row, lock_rows
from cardroom.core.numbers import grouped
from cardroom.seats import services as players
from cardroom.seats.models import TableSeat
from cardroom.tables import services
from cardroom.tables.choices import TableKind, TableStatus
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.models import (
    EntryStatus,
    GameList,
    MustMove,
    RoomSettings,
    StartRule,
    WaitlistEntry,
    WaitlistEvent,
    WaitlistEventKind,
)
from cardroom.waitlists.services import WaitlistRefused
from tournaments.draws.seat_draws import initial_seating
from tournaments.draws.seeds import SeededRandom, commitment_for, new_seed

# --- must-move tables -----------------------------------------------------------------------


def create_must_move(*, table: Table, main: GameList, by: User | None) -> MustMove:
    """Mark ``table`` must-move, feeding the ``main`` list's game."""
    with transaction.atomic():
        locked = lock_row(Table, table.pk)
        if locked.kind != TableKind.CASH or locked.status != TableStatus.OPEN:
            raise WaitlistRefused("table", f"{locked} is not an open cash table.")
        if main.closed_at is not None:
            raise WaitlistRefused("main", f"The {main.label} list is closed.")
        if not waitlists.same_game(locked, main):
            raise WaitlistRefused("table", f"{locked} does not play {main.label}.")
        if MustMove.objects.filter(table=locked, ended_at=None).exists():
            raise WaitlistRefused("table", f"{locked} is already must-move.")
        made = MustMove.objects.create(table=locked, main=main, created_by=by)
        waitlists.record_event(
            main, WaitlistEventKind.MOVED, by, table=locked, note="Must-move table"
        )
        return made


def end_must_move(*, must_move: MustMove, by: User | None) -> MustMove:
    with transaction.atomic():
        locked = lock_row(MustMove.objects.select_related("table", "main"), must_move.pk)
        if locked.ended_at is not None:
            raise Conflict("ended", "This must-move table has already ended.")
        locked.ended_at = timezone.now()
        locked.save(update_fields=["ended_at"])
        note = "Must-move ended"
        waitlists.record_event(
            locked.main, WaitlistEventKind.MOVED, by, table=locked.table, note=note
        )
        return locked


def must_move_next(must_move: MustMove) -> TableSeat | None:
    """The player longest at the must-move table (the first to move to the main game)."""
    query = must_move.table.seated.filter(left_at=None).select_related("player")
    return query.order_by("seated_at", "id").first()


def move_must_move_player(
    *,
    must_move: MustMove,
    by: User | None,
    to_table: Table | None = None,
    to_seat: int | None = None,
) -> TableSeat:
    """Move the longest-seated must-move player to the main game's next open seat (or the seat
    given), keeping their stack; recorded on the main list (and their entry there, if any, is
    marked seated)."""
    main = must_move.main
    if to_table is None or to_seat is None:
        seats = waitlists.open_seats(main, exclude=must_move.table)
        if not seats:
            raise WaitlistRefused("main", f"No open seat in {main.label} yet.")
        to_table, to_seat = seats[0]
    tables = sorted({must_move.table_id, to_table.pk})
    with waitlists.deadlines_first(main, tables=tables):  # a lapsed offer holds no seat
        lock_rows(Table, tables)
        current = lock_row(MustMove, must_move.pk)
        if current.ended_at is not None:
            raise Conflict("ended", "This must-move table has ended.")
        if not waitlists.same_game(to_table, main) or to_table.pk == current.table_id:
            raise WaitlistRefused("to_table", f"{to_table} is not a {main.label} main table.")
        waitlists.free_seat(to_table, to_seat)
        first = must_move_next(current)
        if first is None:
            raise WaitlistRefused("table", f"Nobody is seated at {current.table}.")
        moved = players.move_to_table(seat=first, to_table=to_table, to_seat=to_seat, by=by)
        game_list = waitlists.lock_list(main)
        entry = game_list.entries.filter(player=first.player, status__in=["waiting", "called"])
        note = f"From must-move {current.table} seat {first.seat}, stack {grouped(first.stack)}"
        if (waiting := next(iter(lock_rows(entry)), None)) is not None:
            waitlists.mark_seated(game_list, waiting, moved, by, note)
        waitlists.record_event(
            game_list, WaitlistEventKind.MOVED, by, table=to_table, seat=to_seat,
            note=f"{first.player.public_name}: {note}",
        )  # fmt: skip
        return moved


# --- starting a table from a list -----------------------------------------------------------


def _seated_at() -> dict[int, TableSeat]:
    """Every player seated now, by player id, with the seat they are in."""
    live = TableSeat.objects.filter(left_at=None).select_related("table", "player")
    return {seat.player_id: seat for seat in live}


def _starters(game_list: GameList, table: Table) -> list[WaitlistEntry]:
    seated = _seated_at()
    ready = [
        e
        for e in waitlists.live_entries(game_list)
        if waitlists.eligible(e) and e.player_id not in seated
    ]
    return ready[: table.seats]


def _free_tables(game_list: GameList) -> list[Table]:
    """Tables of the game nobody sits at (or is called to; not must-move): the open ones first (no table to
    open, no dealer to send), then the closed ones."""
    free = game_list.game_tables().filter(status__in=[TableStatus.OPEN, TableStatus.CLOSED])
    offered = WaitlistEntry.objects.filter(status=EntryStatus.CALLED).values("called_table_id")
    sitting = TableSeat.objects.filter(left_at=None).values("table_id")
    moving = MustMove.objects.filter(ended_at=None).values("table_id")
    free = free.exclude(pk__in=sitting).exclude(pk__in=offered).exclude(pk__in=moving)
    return sorted(free, key=lambda t: (t.status != TableStatus.OPEN, t.number))


def _skipped_text(skipped: list[TableSeat]) -> str:
    """ "Gina Rossi and Jack Lee are playing at Table 1"."""
    names = [str(seat.player) for seat in skipped]
    who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    verb = "is" if len(names) == 1 else "are"
    tables = sorted({seat.table.number for seat in skipped})
    where = " and ".join(f"Table {n}" for n in tables)
    return f"{who} {verb} playing at {where}"


def start_table_proposal(game_list: GameList) -> dict[str, Any]:
    """Whether the list has reached its threshold, the table of its game to start (an empty
    open one before a closed one), who can be seated now and who is skipped because they are
    playing at another table (they keep their place on the list)."""
    eligible = waitlists.eligible_entries(game_list)
    waiting = eligible.count()
    ready = waiting >= game_list.start_threshold
    free = _free_tables(game_list)
    table = free[0] if free else None
    seated = _seated_at()
    seats = table.seats if table is not None else game_list.start_threshold
    # Down the list only as far as the table's seats (a list of 10,000 was read whole on every
    # page and poll): those playing at another table are skipped up to the last one seated.
    starters: list[WaitlistEntry] = []
    skipped: list[tuple[WaitlistEntry, TableSeat]] = []
    passed: list[tuple[WaitlistEntry, TableSeat]] = []
    for entry in eligible.iterator(chunk_size=100):
        if len(starters) == seats:
            break
        if entry.player_id in seated:
            passed.append((entry, seated[entry.player_id]))
        else:
            starters.append(entry)
            skipped, passed = skipped + passed, []
    skipped = skipped if starters else passed
    if not ready:
        message = f"{waiting} of {game_list.start_threshold} players waiting."
    elif table is None:
        message = (
            f"No {game_list.label} table is free (an open one nobody sits at, or a closed"
            " one): set one up to start the game."
        )
    elif table.status == TableStatus.OPEN:
        message = f"{waiting} waiting: start {game_list.label} at {table} (open, empty)."
    else:
        message = f"{waiting} waiting: open {table} for {game_list.label}."
    if ready and table is not None and skipped:
        message += (
            f" {len(starters)} of the {len(starters) + len(skipped)} can be seated now:"
            f" {_skipped_text([seat for _, seat in skipped])}."
        )
    return {
        "ready": ready and table is not None and len(starters) >= 2,
        "waiting": waiting,
        "threshold": game_list.start_threshold,
        "table": table,
        "players": starters,
        "skipped": [
            {"entry": e.pk, "player": str(e.player), "table": at.table.number, "seat": at.seat}
            for e, at in skipped
        ],
        "message": message,
    }


def start_game(
    *,
    game_list: GameList,
    table: Table,
    by: User,
    buy_ins: dict[int, int] | None = None,
) -> list[WaitlistEntry]:
    """Open a closed table of the list's game (or take an open one nobody sits at) and seat
    the first players in the room (as many
    as it has seats): by a seat draw (seed committed, recorded, replayable: ``verify_start``)
    or first come, first seated, per the room's ``start_rule``. Each buys in for the table's
    minimum unless ``buy_ins`` (entry id: chips) says otherwise; every buy-in is checked
    before anything changes, and those outside the table's limits are refused together, each
    naming its player (``SeatRefused``, fields ``buy_ins.<entry id>``)."""
    rule = RoomSettings.current().start_rule
    with waitlists.deadlines_first(game_list, tables=[table.pk]):  # nor a late call-in a place
        status = lock_row(Table, table.pk).status
        if status != TableStatus.OPEN:
            status = TableStatus.CLOSED
        locked = waitlists.lock_cash_table(table, game_list, status=status)
        if locked.seated.filter(left_at=None).exists():
            raise WaitlistRefused("table", f"{locked} has players seated.")
        if WaitlistEntry.objects.filter(status=EntryStatus.CALLED, called_table=locked).exists():
            raise WaitlistRefused("table", f"A seat at {locked} is offered to a player.")
        game = waitlists.lock_list(game_list)
        starters = _starters(game, locked)
        if len(starters) < 2:
            raise WaitlistRefused("game_list", f"Fewer than 2 players are waiting for {game}.")
        entries = [waitlists.lock_entry(e) for e in starters]
        amounts = {e.pk: (buy_ins or {}).get(e.pk, locked.min_buy_in) for e in entries}
        refused = []
        for entry in entries:
            try:
                players.check_buy_in(
                    locked, amounts[entry.pk], f"buy_ins.{entry.pk}", player=entry.player
                )
            except players.SeatRefused as exc:
                refused.append(exc)
        if refused:
            raise players.SeatRefused.together(refused)
        seats = list(range(1, locked.seats + 1))
        ids = [e.player_id for e in entries]
        if rule == StartRule.DRAW:
            seed = new_seed()
            inputs = {"entrants": ids, "table": locked.number, "seats": seats}
            draw = initial_seating(ids, {locked.number: seats}, SeededRandom(seed))
            where = {p: ref.seat for p, ref in draw.seating.items()}
            record = {"rule": rule, "seed": seed, "commitment": commitment_for(seed, inputs)}
            note = json.dumps({**record, **inputs}, separators=(",", ":"))
        else:
            where = {p: seats[i] for i, p in enumerate(ids)}
            note = json.dumps({"rule": rule, "entrants": ids, "table": locked.number})
        if locked.status != TableStatus.OPEN:
            services.set_table_status(table=locked, by=by, status=TableStatus.OPEN)
        waitlists.record_event(game, WaitlistEventKind.STARTED, by, table=locked, note=note)
        for entry in entries:
            buy_in = amounts[entry.pk]
            live = players.seat_player(
                table=locked, player=entry.player, seat=where[entry.player_id], buy_in=buy_in, by=by
            )
            how = "Seat draw" if rule == StartRule.DRAW else "First come, first seated"
            waitlists.mark_seated(game, entry, live, by, f"{how}; buy-in {grouped(buy_in)}")
        return entries


def verify_start(event: WaitlistEvent) -> bool:
    """True when a drawn start replays: the seed opens the commitment recorded before the
    seats, and the draw from it puts every player in the seat recorded."""
    data = json.loads(event.note)
    if data.get("rule") != StartRule.DRAW:
        return False
    inputs = {"entrants": data["entrants"], "table": data["table"], "seats": data["seats"]}
    if commitment_for(data["seed"], inputs) != data["commitment"]:
        return False
    draw = initial_seating(
        data["entrants"], {data["table"]: data["seats"]}, SeededRandom(data["seed"])
    )
    seated = event.game_list.events.filter(
        kind=WaitlistEventKind.SEATED, table_number=data["table"], id__gt=event.pk
    ).order_by("id")[: len(data["entrants"])]
    recorded = {e.player_id: e.seat for e in seated}
    return recorded == {p: ref.seat for p, ref in draw.seating.items()}


def starts(game_list: GameList) -> list[dict[str, Any]]:
    """The tables started from a list, newest first, each with its record and whether it
    verifies (a drawn start: the seed opens the commitment and replays to the seats)."""
    found = []
    for event in game_list.events.filter(kind=WaitlistEventKind.STARTED).order_by("-id")[:20]:
        data = json.loads(event.note)
        seated = game_list.events.filter(
            kind=WaitlistEventKind.SEATED, table_number=event.table_number, id__gt=event.pk
        ).order_by("id")[: len(data["entrants"])]
        found.append(
            {
                **data,
                "at": event.at.isoformat(),
                "seats_drawn": [{"player": e.player_id, "seat": e.seat} for e in seated],
                "verified": verify_start(event) if data["rule"] == StartRule.DRAW else None,
            }
        )
    return found


#: How long the floor page keeps showing how a new table was started (its seat draw).
STARTED_SHOWN = timedelta(hours=3)


def last_start(game_list: GameList) -> dict[str, Any] | None:
    """The list's latest new table (in the last hours), for the floor's page: the rule, the
    seats, and for a draw the seed and its commitment, checked by replaying the draw."""
    since = timezone.now() - STARTED_SHOWN
    kind = WaitlistEventKind.STARTED
    event = game_list.events.filter(kind=kind, at__gte=since).order_by("-id").first()
    if event is None:
        return None
    try:
        data = json.loads(event.note)
    except ValueError:
        return None
    seated = game_list.events.filter(
        kind=WaitlistEventKind.SEATED, table_number=event.table_number, id__gt=event.pk
    ).select_related("player")
    seats = sorted((e.seat or 0, str(e.player)) for e in seated[: len(data.get("entrants", []))])
    draw = data.get("rule") == StartRule.DRAW
    return {
        "event": event,
        "draw": draw,
        "seed": data.get("seed", ""),
        "commitment": data.get("commitment", ""),
        "verified": verify_start(event) if draw else None,
        "seats": seats,
    }


__all__ = [
    "create_must_move",
    "end_must_move",
    "last_start",
    "move_must_move_player",
    "must_move_next",
    "start_game",
    "start_table_proposal",
    "verify_start",
]
