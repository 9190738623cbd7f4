"""Writes on the tables and their hands: each opens its transaction, locks what it decides on,
records history. (Rulings: ``cardroom/rulings/services.py``; removing a table:
``cardroom/tables/removal.py``.)"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.locks import lock_row, lock_rows
from cardroom.core.numbers import grouped
from cardroom.core.reasons import clean_reason
from cardroom.tables.choices import TableKind, TableStatus
from cardroom.tables.hand_records import record_hand
from cardroom.tables.models import (
    Hand,
    HandAction,
    HandRecordKind,
    HandStatus,
    LoggedAction,
    Replayed,
    Table,
    TableChange,
)
from cardroom.waitlists.base import record_event
from cardroom.waitlists.models import MustMove, WaitlistEventKind
from rules.engine.award import award_hand as engine_award
from rules.engine.award import check_showdown, parse_showdown
from rules.engine.config import GameConfig
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.out_of_turn import play_action
from rules.engine.posting import Blinds, Post
from rules.engine.state import Action, ActionKind, HandState, Seat, pots, replay

#: Fields a floor manager sets on a table (everything but bookkeeping).
EDITABLE_FIELDS: tuple[str, ...] = (
    "number", "name", "status", "kind", "seats", *Table.GAME_FIELDS, "min_buy_in",
    "max_buy_in", "action_clock_seconds", "clock_warning_seconds", "run_it_twice",
    "button_rule", "missed_blinds",
)  # fmt: skip


def _json_value(value: Any) -> Any:
    return value if isinstance(value, bool | int | str | type(None)) else str(value)


def create_table(*, by: User, **fields: Any) -> Table:
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({name: "Not a table setting." for name in sorted(unknown)})
    table = Table(**fields)
    table.full_clean()
    try:
        with transaction.atomic():
            table.save()
            TableChange.objects.create(
                table=table,
                changed_by=by,
                action="created",
                changes={
                    name: [None, _json_value(getattr(table, name))] for name in EDITABLE_FIELDS
                },
            )
    except IntegrityError as exc:
        # Two managers creating the same table number at once: the loser gets a form error.
        raise ValidationError({"number": "A table with this number already exists."}) from exc
    return table


#: Tables one request sets up for an event, at most: a large event's room, never a runaway.
MAX_NEW_TABLES = 200
#: The highest table number, as the table form takes it.
MAX_TABLE_NUMBER = 9_999


class NumbersTaken(Refusal):
    """New tables on numbers the room already uses: refused naming them (the API answers 422
    ``numbers_taken``)."""

    code = "numbers_taken"


def create_tournament_tables(*, by: User, count: int, seats: int, first: int) -> list[Table]:
    """``count`` room tables of kind tournament with ``seats`` seats each, numbered ``first``,
    ``first + 1``, … (an event's 101 to 120). No cash game is set on them: a tournament table
    plays the levels of the tournament drawn to it, so its game fields keep the model's
    defaults, which nothing reads there. Each is logged "created" like any table. Numbers the
    room already uses are refused, every one named, and nothing is made."""
    errors: dict[str, str] = {}
    if not 1 <= count <= MAX_NEW_TABLES:
        errors["count"] = f"Set up 1 to {MAX_NEW_TABLES} tables at a time."
    if not 2 <= seats <= 10:
        errors["seats"] = "Tables seat 2 to 10 players."
    if not 1 <= first <= MAX_TABLE_NUMBER or first + max(count, 1) - 1 > MAX_TABLE_NUMBER:
        errors["first"] = f"Table numbers run from 1 to {grouped(MAX_TABLE_NUMBER)}."
    if errors:
        raise ValidationError(errors)
    numbers = range(first, first + count)
    tables = [Table(number=n, kind=TableKind.TOURNAMENT, seats=seats) for n in numbers]
    for table in tables:
        table.full_clean(exclude=["number"])  # the numbers are checked together below
    with transaction.atomic():
        taken = list(
            Table.objects.filter(number__in=numbers)
            .order_by("number")
            .values_list("number", flat=True)
        )
        if taken:
            raise NumbersTaken("first", f"{numbers_phrase(taken)} already in the room.")
        try:
            with transaction.atomic():
                made = Table.objects.bulk_create(tables)
        except IntegrityError as exc:
            # Another manager made one of these numbers since: the same refusal, in words.
            raise NumbersTaken("first", "A table with one of these numbers was just made.") from exc
        TableChange.objects.bulk_create(
            TableChange(table=table, changed_by=by, action="created", changes=created(table))
            for table in made
        )
    return made


def created(table: Table) -> dict[str, list[Any]]:
    """A new table's settings as its "created" change records them."""
    return {name: [None, _json_value(getattr(table, name))] for name in EDITABLE_FIELDS}


def numbers_phrase(numbers: list[int]) -> str:
    """ "Table 101 is", "Tables 101 and 102 are", "Tables 101, 102 and 103 are" (at most ten
    named, then how many more)."""
    if len(numbers) == 1:
        return f"Table {numbers[0]} is"
    shown = [str(n) for n in numbers[:10]]
    more = len(numbers) - len(shown)
    if more:
        return f"Tables {', '.join(shown)} and {more} more are"
    return f"Tables {', '.join(shown[:-1])} and {shown[-1]} are"


def update_table(*, table: Table, by: User, confirm_seated: bool = False, **fields: Any) -> Table:
    """Change a table's settings, never stranding its players or its hand (``check_table_change``:
    closing with players seated asks first, like the Close buttons; ``confirm_seated`` says
    yes). The table row is locked, so a player seated at the same moment is seen."""
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({name: "Not a table setting." for name in sorted(unknown)})
    with transaction.atomic():
        # Lock the table: two managers editing at once must not interleave their changes, and
        # the seat map (players.lock_table) waits while the change is checked and saved.
        locked = lock_row(Table, table.pk)
        changes = {
            name: [_json_value(getattr(locked, name)), _json_value(value)]
            for name, value in fields.items()
            if getattr(locked, name) != value
        }
        if not changes:
            return locked
        check_table_change(
            locked, {name: fields[name] for name in changes}, confirm_seated=confirm_seated
        )
        for name, value in fields.items():
            setattr(locked, name, value)
        locked.full_clean()
        try:
            with transaction.atomic():
                locked.save()
        except IntegrityError as exc:
            raise ValidationError({"number": "A table with this number already exists."}) from exc
        TableChange.objects.create(table=locked, changed_by=by, action="updated", changes=changes)
        if "status" in changes and fields["status"] == TableStatus.CLOSED:
            _end_must_moves(locked, by)
    return locked


class TableInUse(Refusal):
    """A change of a table's settings that would strand the players seated there or the hand
    being played: refused naming who sits where (the API answers 422 ``table_in_use``)."""

    code = "table_in_use"


#: Checks a higher layer adds to ``check_table_change`` (the tournament playing at the table:
#: ``tournaments.table_hands``, registered when the app loads): each gets the locked table and
#: the changes, and raises ``TableInUse`` to refuse.
TABLE_CHANGE_CHECKS: list[Callable[[Table, dict[str, Any]], None]] = []


def check_table_change(
    table: Table, changes: dict[str, Any], *, confirm_seated: bool = False
) -> None:
    """The one check of a table's settings against who is at the table (the form, the API and
    the admin go through it): fewer seats than a player or the hand in play sits in, a change
    of kind with players seated or a hand in play, or of the game during a hand, is refused
    (``TableInUse``); closing with players seated asks first (``SeatedAtClose``)."""
    hand = hand_in_play(table)
    seated = list(table.seated.filter(left_at=None).select_related("player").order_by("seat"))
    errors: dict[str, str] = {}
    if (seats := changes.get("seats")) is not None:
        above = [s for s in seated if s.seat > seats]
        dealt = max((entry["seat"] for entry in hand.seats), default=0) if hand else 0
        if above:
            who = who_sits(above)
            errors["seats"] = (
                f"{who[0].upper()}{who[1:]} {'are' if len(above) > 1 else 'is'} seated above"
                f" seat {seats}: move them to other seats or let them leave first."
            )
        elif hand is not None and dealt > seats:
            errors["seats"] = (
                f"{hand} is in progress with seat {dealt} dealt in: finish or void it first."
            )
    if "kind" in changes:
        if seated:
            count = f"{len(seated)} player{'s' if len(seated) > 1 else ''}"
            errors["kind"] = (
                f"{table} has {count} seated ({who_sits(seated)}): it changes kind only when"
                " they have left."
            )
        elif hand is not None:
            errors["kind"] = f"{hand} is in progress: finish or void it first."
    if hand is not None and hand.state == HandStatus.IN_PROGRESS:
        for name in sorted(set(changes) & set(Table.GAME_FIELDS)):
            errors[name] = (
                f"The game cannot change while a hand is in progress ({hand}): change it between"
                " hands (the next hand deals with it)."
            )
    if errors:
        raise TableInUse(errors)
    for check in TABLE_CHANGE_CHECKS:
        check(table, changes)
    if changes.get("status") == TableStatus.CLOSED:
        names = _closing_check(table)
        if names and not confirm_seated:
            raise SeatedAtClose(table, names)


def who_sits(seats: list[Any]) -> str:
    """ "seat 7: Ana Ruiz (1,200 chips), seat 9: Bo Li (800 chips)": live ``TableSeat`` rows."""
    return ", ".join(f"seat {s.seat}: {s.player} ({grouped(s.stack)} chips)" for s in seats)


def hand_in_play(table: Table) -> Hand | None:
    """The hand in progress, or the last hand dealt from the seat map while its pots are not
    pushed yet (its chips are still in play)."""
    last = table.hands.order_by("-number").first()
    if last is None:
        return None
    if last.state == HandStatus.IN_PROGRESS or (last.names and not last.settled):
        return last
    return None


class SeatedAtClose(Refusal):
    """Closing a cash table with players still seated needs the floor's confirmation, naming
    them (``confirm_seated``): the form shows the question and a "Close anyway" button."""

    code = "confirm_seated"

    def __init__(self, table: Table, names: list[str]) -> None:
        self.names = names
        count = f"{len(names)} player{'s' if len(names) != 1 else ''}"
        super().__init__(
            {
                "status": f"{table} still has {count} seated: {', '.join(names)}. Close it anyway?"
                " Their seats and chips stay on record until they are moved or cashed out."
            }
        )


def set_table_status(*, table: Table, by: User, status: str, confirm_seated: bool = False) -> Table:
    """Open or close a table. Closing a cash table with players seated asks first: a
    floor closes a table that breaks or ends the night while players are still racking their
    chips, so refusing until everyone is stood up would force a dozen desk steps for nothing;
    but one click next to "Desk" must not close a live game, so the close names who is still
    seated and needs ``confirm_seated``. An active must-move of the table ends when it closes
    (recorded on the main game's list): nobody moves from a closed table."""
    if status not in TableStatus.values:
        raise ValidationError({"status": f"Unknown status {status!r}."})
    with transaction.atomic():
        locked = lock_row(Table, table.pk)
        if locked.status == status:
            return locked
        if status == TableStatus.CLOSED:
            names = _closing_check(locked)
            if names and not confirm_seated:
                raise SeatedAtClose(locked, names)
        old = locked.status
        locked.status = status
        locked.save(update_fields=["status", "updated_at"])
        TableChange.objects.create(
            table=locked, changed_by=by, action=status, changes={"status": [old, status]}
        )
        if status == TableStatus.CLOSED:
            _end_must_moves(locked, by)
    return locked


def _closing_check(table: Table) -> list[str]:
    """Before a table closes, by either door: refused while a hand is in progress; otherwise
    who is still seated at a cash table, by seat (a tournament table's seating is the
    tournament's own: it is closed by the tournament, not asked here)."""
    if hand_in_progress(table):
        raise ValidationError({"status": "Finish or void the hand in progress before closing."})
    if table.kind != TableKind.CASH:
        return []
    seated = table.seated.filter(left_at=None).select_related("player")
    return [str(s.player) for s in seated.order_by("seat")]


def _end_must_moves(table: Table, by: User) -> None:
    now = timezone.now()
    for must_move in lock_rows(
        MustMove.objects.filter(table=table, ended_at=None).select_related("main")
    ):
        must_move.ended_at = now
        must_move.save(update_fields=["ended_at"])
        note = "Must-move ended: the table was closed"
        record_event(must_move.main, WaitlistEventKind.MOVED, by, table=table, note=note)


def hand_in_progress(table: Table) -> bool:
    """True while the table has a hand being played."""
    return table.hands.filter(state=HandStatus.IN_PROGRESS).exists()


# --- live hands -----------------------------------------------------------------------------


class StaleHand(Conflict):
    """The hand changed since the client looked (another device entered first): HTTP 409."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(
            "stale",
            f"{hand} has changed since you looked (now at step {hand.seq}): check the table and enter again.",
            seq=hand.seq,
        )
        self.hand = hand


class HandVoided(Refusal):
    """The hand was called dead (``void_hand``): it takes no more actions and no more voids,
    and nothing is written. A ValidationError, so forms show it; the API answers 422
    ``hand_voided`` (a well-formed request the hand's state refuses, not bad input)."""

    code = "hand_voided"

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.text = f"{hand} was voided: it takes no more actions or voids."
        super().__init__({"hand": self.text})


#: A hand's actions as the desk and the API show them: in order, voided ones too, with who
#: entered and who voided each (one query for them all; in step order, without joining the
#: hands for the model's default order by hand).
ACTIONS_SHOWN = Prefetch(
    "actions",
    queryset=HandAction.objects.select_related("entered_by", "voided_by").order_by("seq"),
)


def read_hand(hand: Hand) -> Replayed:
    """The hand's actions and the engine's replay of them, read once: kept on ``hand``
    (``Hand.replayed``) for the rest of the request while it stays at this step, so the write,
    the desk and the API's answer share one read and one replay. One query, of plain values
    (none when the caller prefetched ``ACTIONS_SHOWN``, or a write of this request left
    them)."""
    kept = hand.replayed
    if kept is not None and kept.seq == hand.seq:
        return kept
    if "actions" in getattr(hand, "_prefetched_objects_cache", {}):
        actions = [LoggedAction.of(row) for row in hand.actions.all()]
    else:
        rows = hand.actions.order_by("seq").values_list(*LoggedAction.COLUMNS)
        actions = [LoggedAction(*row) for row in rows]
    # The chain's head is its last row by id (``audit``): the last by step, as rows are
    # entered in step order under the hand's lock.
    head = max(actions, key=lambda entry: entry.id).row_hash if actions else ""
    hand.replayed = Replayed(hand.seq, actions, replayed_state(hand, actions), head)
    return hand.replayed


def engine_state(hand: Hand) -> HandState:
    """The hand as the engine sees it: the deal replayed with every action not voided, those
    made out of turn held until their turn (TDA-53; the engine's ``replay``). Read once a
    request (``read_hand``): the state is shared, never changed by its readers."""
    return read_hand(hand).state


def replayed_state(hand: Hand, actions: list[LoggedAction]) -> HandState:
    """``engine_state`` from the hand's ``actions`` (every one, in order; the voided skipped)."""
    played = [Action.from_dict(a.as_engine_dict()) for a in actions if a.voided_at is None]
    return state_after(hand, played)


def played_actions(hands: Iterable[int]) -> dict[int, list[Action]]:
    """The actions of each hand (ids) as the engine plays them, in order, the voided left out:
    one query for any number of hands, read as values, for the screens that show many hands'
    state at once (``state_after``) without a model row an action."""
    played: dict[int, list[Action]] = defaultdict(list)
    for hand_id, seat, action, to, out_of_turn in (
        HandAction.objects.filter(hand_id__in=hands, voided_at__isnull=True)
        .order_by("hand_id", "seq")
        .values_list("hand_id", "seat", "action", "to", "out_of_turn")
    ):
        # As ``HandAction.as_engine_dict`` read by ``Action.from_dict``.
        played[hand_id].append(Action(seat, ActionKind.parse(action), to, out_of_turn))
    return played


def state_after(hand: Hand, played: list[Action]) -> HandState:
    """The hand dealt and ``played`` (its actions not voided, in order) replayed."""
    state, error = replay(
        GameConfig.from_dict(hand.game),
        hand.button,
        _seats(hand.seats),
        played,
        engine_blinds(hand.blinds),
        engine_posts(hand.posts),
    )
    if error is not None:  # stored actions were each checked when entered
        index, illegal = error
        raise ValidationError(f"Action {index + 1} of {hand} no longer replays: {illegal.message}")
    return state


def _seats(seats: list[dict[str, int]]) -> list[Seat]:
    return [Seat(seat=entry["seat"], stack=entry["stack"]) for entry in seats]


def engine_blinds(blinds: dict[str, Any] | None) -> Blinds | None:
    """A hand's stored ``blinds`` as the engine's (None: version 1, they follow the button)."""
    return None if blinds is None else Blinds(small=blinds.get("small"), big=blinds["big"])


def engine_posts(posts: list[dict[str, int]]) -> list[Post]:
    return [Post(seat=p["seat"], live=p.get("live", 0), dead=p.get("dead", 0)) for p in posts]


def start_hand(
    *,
    table: Table,
    by: User,
    button: int,
    seats: list[dict[str, int]],
    straddle: bool = True,
    game: dict[str, Any] | None = None,
    blinds: dict[str, Any] | None = None,
    posts: list[dict[str, int]] | None = None,
    names: dict[str, str] | None = None,
    correction: dict[str, Any] | None = None,
    after: Any = None,
    button_draw: dict[str, Any] | None = None,
    savepoint: bool = True,
) -> Hand:
    """Deal a hand at an open table: the engine posts the forced bets from the table's game
    (or ``game``: a tournament table's level), with the blind seats and missed-blind posts
    when given (contract v2, CR-BB.1-3).

    At a table that allows a straddle, ``straddle`` says whether the player left of the big
    blind posted it this hand: it is optional (RRoP-14.14), so a hand may go without.
    ``after(locked_table)`` runs inside the deal's transaction, with the table locked, before
    the hand is written: the seat map's and the tournament's checks (a ``Conflict`` there
    leaves nothing written). A table whose last hand is betting-complete but not awarded
    does not deal until it is (``award_hand``), when that hand was dealt from a seat map.
    ``button_draw``: the draw that placed a table's first button (CR-BB.9), kept on the hand.
    ``savepoint`` False: the caller's own transaction block, which rolls back whole on any
    refusal, holds the deal (no savepoint of its own: two statements fewer)."""
    numbers = [entry["seat"] for entry in seats]
    if any(not 1 <= number <= table.seats for number in numbers):
        raise ValidationError({"seats": f"Seats at {table} are numbered 1 to {table.seats}."})
    game = dict(game) if game is not None else table.engine_game()
    if not straddle:
        game["straddle"] = 0
    posts = list(posts or [])
    try:
        dealt, _ = replay(
            GameConfig.from_dict(game),
            button,
            _seats(seats),
            [],
            engine_blinds(blinds),
            engine_posts(posts),
        )
    except BadInput as exc:
        raise ValidationError({exc.field or "seats": exc.message}) from exc
    with transaction.atomic(savepoint=savepoint):
        # Lock the table: two devices dealing at once must not both start a hand.
        locked = lock_row(Table, table.pk)
        if locked.status != TableStatus.OPEN:
            raise ValidationError(
                {"table": f"{locked} is {locked.get_status_display().lower()}: open it first."}
            )
        current = locked.hands.filter(state=HandStatus.IN_PROGRESS).first()
        if current is not None:
            raise ValidationError(
                {"table": f"{current} is still in progress: finish or void it first."}
            )
        previous = locked.hands.order_by("-number").first()
        if previous is not None and previous.names and not previous.settled:
            raise Conflict(
                "not_awarded",
                f"{previous} is not awarded yet: push its pots before the next deal.",
            )
        if after is not None:
            after(locked)
        hand = Hand.objects.create(
            table=locked,
            number=(previous.number if previous is not None else 0) + 1,
            button=button,
            seats=seats,
            game=game,
            started_by=by,
            blinds=blinds,
            posts=posts,
            names=names or {},
            correction=correction or {},
            button_draw=button_draw or {},
        )
        # The deal as decided (seats, stacks, button, blinds, game), on the table's chain.
        record_hand(hand, HandRecordKind.DEALT)
        # The deal as replayed above: the answer shows it without reading it back.
        hand.replayed = Replayed(hand.seq, [], dealt, "")
        return hand


def lock_hand(hand: Hand | int, expected_seq: int) -> Hand:
    """The hand row (``hand``, or the hand of that id), locked until the transaction ends,
    read with its table unless the caller's copy has it; ``StaleHand`` when another write
    moved it past ``expected_seq``, ``Hand.DoesNotExist`` when there is no such hand."""
    given = hand if isinstance(hand, Hand) else None
    table_known = given is not None and Hand.table.is_cached(given)
    rows = Hand.objects.all() if table_known else Hand.objects.select_related("table")
    locked = lock_row(rows, given.pk if given is not None else hand)
    if locked.seq != expected_seq:
        raise StaleHand(locked)
    if given is None:
        return locked
    # What the caller read of the hand stands for the locked row: its table (a hand never
    # moves) and, at the same step, its actions and their replay (every change moves the step).
    if table_known:
        locked.table = given.table
    if given.replayed is not None and given.replayed.seq == locked.seq:
        locked.replayed = given.replayed
    return locked


def _lock_open(
    hand: Hand | int,
    expected_seq: int,
    awarded: str = "is awarded: it takes no more actions or voids",
) -> Hand:
    """The hand locked (``lock_hand``) for an action, a void or its award: refused once called
    dead (``HandVoided``) or awarded (an awarded hand is final: its chips are in the players'
    stacks; ``awarded`` says so in the refusal)."""
    locked = lock_hand(hand, expected_seq)
    if locked.state == HandStatus.VOIDED:
        raise HandVoided(locked)
    if locked.awarded_at is not None:
        raise Conflict("awarded", f"{locked} {awarded}.")
    return locked


def record_action(
    *,
    hand: Hand | int,
    by: User,
    expected_seq: int,
    seat: int,
    action: str,
    to: int | None = None,
    out_of_turn: bool = False,
) -> HandAction:
    """Enter an action: refused (``IllegalAction``) unless the engine allows it at this point,
    refused (``StaleHand``) if the hand moved on since the client looked. An action made
    ``out_of_turn`` by a seat not to act is held until its turn (TDA-53). ``hand``: the hand
    as the caller read it, or its id (read here, locked, with its table;
    ``Hand.DoesNotExist`` when there is none)."""
    entry: dict[str, object] = {"seat": seat, "action": action, "out_of_turn": out_of_turn}
    if to is not None:
        entry["to"] = to
    try:
        played = Action.from_dict(entry)
    except BadInput as exc:
        raise ValidationError({exc.field or "action": exc.message}) from exc
    try:
        with transaction.atomic():
            # Lock the hand row: the sequence check and the write happen as one step.
            locked = _lock_open(hand, expected_seq)
            read = read_hand(locked)
            live = [entry for entry in read.actions if entry.voided_at is None]
            # The action is played on a copy: the hand as read stays as it was if refused.
            state = read.state.copy()
            # The seat to act is never out of turn: its action is played as any other.
            out_of_turn = out_of_turn and seat != state.to_act
            # IllegalAction: nothing is written. So too when a held action this one makes
            # binding cannot be played at its turn (contract v2: checked then).
            held = play_action(state, len(live), played)
            if held is not None:
                index, error = held
                raise IllegalAction(
                    error.code,
                    f"Seat {live[index].seat}'s out-of-turn {live[index].action.replace('_', '-')}"
                    f" cannot stand at its turn: {error.message} Void the actions back to it"
                    " first.",
                    *error.citations,
                )
            locked.seq += 1
            locked.state = (
                HandStatus.IN_PROGRESS if state.to_act is not None else HandStatus.COMPLETE
            )
            locked.save(update_fields=["seq", "state", "updated_at"])  # the floor card reads it
            entered = HandAction(
                hand=locked,
                seq=locked.seq,
                seat=seat,
                action=action,
                to=to,
                out_of_turn=out_of_turn,
                entered_by=by,
            )
            # Linked to the chain's head as read with the actions, under the hand's lock.
            entered.save(force_insert=True, chain_heads={locked.pk: read.head})
            # The hand at its new step, as played here: ``entered.hand`` answers the request.
            logged = LoggedAction.of(entered)  # its users as given: no query
            locked.replayed = Replayed(locked.seq, [*read.actions, logged], state, entered.row_hash)
            return entered
    except IntegrityError as exc:
        # Without row locks (SQLite) the unique (hand, seq) pair still lets only one writer
        # win; a head read stale, the chain's one row per ``prev_hash`` likewise.
        pk = hand.pk if isinstance(hand, Hand) else hand
        raise StaleHand(Hand.objects.get(pk=pk)) from exc


def void_last_action(*, hand: Hand, by: User, expected_seq: int, reason: str) -> HandAction:
    """Take back the last action (kept in the history, marked void with who and why)."""
    reason = clean_reason(reason, "Say why the action is voided.")
    with transaction.atomic():
        locked = _lock_open(hand, expected_seq)
        last: HandAction | None = (
            locked.actions.filter(voided_at__isnull=True).order_by("-seq").first()
        )
        if last is None:
            raise ValidationError({"hand": "There is no action to void."})
        last.voided_by, last.voided_at, last.void_reason = by, timezone.now(), reason
        last.save(update_fields=["voided_by", "voided_at", "void_reason"])
        locked.seq += 1
        locked.state = HandStatus.IN_PROGRESS
        locked.save(update_fields=["seq", "state", "updated_at"])  # the floor card reads it
        return last


def void_hand(*, hand: Hand, by: User, expected_seq: int, reason: str) -> Hand:
    """Call the hand dead (a misdeal, a fouled deck): its actions stay on record."""
    reason = clean_reason(reason, "Say why the hand is voided.")
    with transaction.atomic():
        locked = _lock_open(hand, expected_seq)
        locked.state = HandStatus.VOIDED
        locked.voided_by, locked.voided_at, locked.void_reason = by, timezone.now(), reason
        locked.seq += 1
        locked.save(
            update_fields=["state", "voided_by", "voided_at", "void_reason", "seq", "updated_at"]
        )
        record_hand(locked, HandRecordKind.VOIDED)
        return locked


class HandNotOver(Conflict):
    """The betting is not over: nobody wins a pot before it ends (HTTP 409)."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(
            "hand_not_over", f"{hand}: the betting is not over, nobody wins a pot before it ends."
        )


def award_hand(
    *,
    hand: Hand,
    by: User,
    expected_seq: int,
    showdown: dict[str, Any] | None,
    after: Any = None,
    savepoint: bool = True,
) -> Hand:
    """Push the pots: the engine's award (contract v2 ``award``) from the showdown the dealer
    entered (``{"ranking": [[3], [1, 4]], "low_ranking": ..., "boards": ...}``; ignored when
    everyone else folded). Stored on the hand, once. ``after(locked_hand, result)`` runs in
    the same transaction, the hand locked: the seat map's or the tournament's stacks follow
    the award there (a refusal there leaves nothing written). ``savepoint`` False: the
    caller's own transaction block, which rolls back whole on any refusal, holds the award."""
    with transaction.atomic(savepoint=savepoint):
        locked = _lock_open(hand, expected_seq, awarded="is already awarded")
        read = read_hand(locked)
        state = read.state
        if state.street not in ("showdown", "complete"):
            raise HandNotOver(locked)
        try:
            parsed = None
            if state.street != "complete":
                parsed = parse_showdown(showdown, dealt=state.seat_order)
                check_showdown(parsed, live=[s for s in state.seat_order if s not in state.folded])
        except BadInput as exc:
            raise ValidationError({"showdown": exc.message}) from exc
        result = engine_award(
            pots=pots(state),
            showdown=parsed,
            button=locked.button,
            stacks=state.stacks,
            returned=state.returned,
            min_chip=GameConfig.from_dict(locked.game).min_chip,
            dead_money=sum(state.dead.values()),
        )
        result["showdown"] = showdown if parsed is not None else None
        locked.result = result
        locked.awarded_by, locked.awarded_at = by, timezone.now()
        locked.state = HandStatus.COMPLETE
        locked.seq += 1
        locked.save(
            update_fields=["result", "awarded_by", "awarded_at", "state", "seq", "updated_at"]
        )
        # The result as awarded, on the table's chain: a result rewritten later differs from it.
        record_hand(locked, HandRecordKind.AWARDED)
        # The award moves no chips in the betting: the replay stands at the new step.
        locked.replayed = Replayed(locked.seq, read.actions, state, read.head)
        if after is not None:
            after(locked, result)
        return locked
