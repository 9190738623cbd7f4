"""Writes on the tables and their hands: each opens its transaction, locks what it decides on,
records history. (Rulings: ``cardroom/ruling_services.py``.)"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from cardroom import audit
from cardroom.api_errors import Conflict
from cardroom.models import Hand, HandAction, HandStatus, Table, TableChange
from cardroom.table_choices import TableStatus
from rules.engine.config import GameConfig
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.out_of_turn import play_action
from rules.engine.state import Action, HandState, Seat, replay

#: Fields a floor manager sets on a table (everything but bookkeeping).
EDITABLE_FIELDS: tuple[str, ...] = (
    "number", "name", "status", "kind", "seats", *Table.GAME_FIELDS, "min_buy_in",
    "max_buy_in", "action_clock_seconds", "clock_warning_seconds", "run_it_twice",
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


def update_table(*, table: Table, by: User, **fields: Any) -> Table:
    """Change a table's settings; the game cannot change while a hand is in progress."""
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValidationError({name: "Not a table setting." for name in sorted(unknown)})
    with transaction.atomic():
        # Lock the table: two managers editing at once must not interleave their changes.
        locked = Table.objects.select_for_update().get(pk=table.pk)
        changes = {
            name: [_json_value(getattr(locked, name)), _json_value(value)]
            for name, value in fields.items()
            if getattr(locked, name) != value
        }
        if not changes:
            return locked
        game_changes = sorted(set(changes) & set(Table.GAME_FIELDS))
        if game_changes and hand_in_progress(locked):
            raise ValidationError(
                {
                    name: "The game cannot change while a hand is in progress."
                    for name in game_changes
                }
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
    return locked


def set_table_status(*, table: Table, by: User, status: str) -> Table:
    if status not in TableStatus.values:
        raise ValidationError({"status": f"Unknown status {status!r}."})
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status == status:
            return locked
        if status == TableStatus.CLOSED and hand_in_progress(locked):
            raise ValidationError({"status": "Finish or void the hand in progress before closing."})
        old = locked.status
        locked.status = status
        locked.save(update_fields=["status", "updated_at"])
        TableChange.objects.create(
            table=locked, changed_by=by, action=status, changes={"status": [old, status]}
        )
    return locked


def hand_in_progress(table: Table) -> bool:
    """True while the table has a hand being played."""
    return table.hands.filter(state=HandStatus.IN_PROGRESS).exists()


def delete_table(*, table: Table) -> None:
    """Remove a table set up by mistake. A table that has dealt hands or has rulings keeps its
    records: mark it broken or closed instead."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        rulings = getattr(locked, "rulings", None)
        if locked.hands.exists() or (rulings is not None and rulings.exists()):
            raise ValidationError(
                {"status": "This table has hands or rulings on record: close or break it instead."}
            )
        # The one deletion of audit rows: a table that never dealt a hand or had a ruling
        # takes its own configuration history (a whole stream of its own) with it.
        with audit.maintenance():
            locked.delete()


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


class HandVoided(ValidationError):
    """The hand was called dead (``void_hand``): it takes no more actions and no more voids,
    and nothing is written. A ValidationError, so forms show it; the API answers 422
    ``hand_voided`` (a well-formed request the hand's state refuses, not bad input)."""

    code = "hand_voided"

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.text = f"{hand} was voided: it takes no more actions or voids."
        super().__init__({"hand": self.text})


def engine_state(hand: Hand) -> HandState:
    """The hand as the engine sees it: the deal replayed with every action not voided, those
    made out of turn held until their turn (TDA-53; the engine's ``replay``)."""
    actions = [
        Action.from_dict(a.as_engine_dict()) for a in hand.actions.all() if a.voided_at is None
    ]
    state, error = replay(GameConfig.from_dict(hand.game), hand.button, _seats(hand.seats), actions)
    if error is not None:  # stored actions were each checked when entered
        index, illegal = error
        raise ValidationError(f"Action {index + 1} of {hand} no longer replays: {illegal.message}")
    return state


def _seats(seats: list[dict[str, int]]) -> list[Seat]:
    return [Seat(seat=entry["seat"], stack=entry["stack"]) for entry in seats]


def start_hand(
    *,
    table: Table,
    by: User,
    button: int,
    seats: list[dict[str, int]],
    straddle: bool = True,
) -> Hand:
    """Deal a hand at an open table: the engine posts the forced bets from the table's game.

    At a table that allows a straddle, ``straddle`` says whether the player left of the big
    blind posted it this hand: it is optional (RRoP-14.14), so a hand may go without."""
    numbers = [entry["seat"] for entry in seats]
    if any(not 1 <= number <= table.seats for number in numbers):
        raise ValidationError({"seats": f"Seats at {table} are numbered 1 to {table.seats}."})
    game = table.engine_game()
    if not straddle:
        game["straddle"] = 0
    try:
        replay(GameConfig.from_dict(game), button, _seats(seats), [])
    except BadInput as exc:
        raise ValidationError({exc.field or "seats": exc.message}) from exc
    with transaction.atomic():
        # Lock the table: two devices dealing at once must not both start a hand.
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if locked.status != TableStatus.OPEN:
            raise ValidationError(
                {"table": f"{locked} is {locked.get_status_display().lower()}: open it first."}
            )
        current = locked.hands.filter(state=HandStatus.IN_PROGRESS).first()
        if current is not None:
            raise ValidationError(
                {"table": f"{current} is still in progress: finish or void it first."}
            )
        last = locked.hands.order_by("-number").values_list("number", flat=True).first() or 0
        return Hand.objects.create(
            table=locked, number=last + 1, button=button, seats=seats, game=game, started_by=by
        )


def _lock(hand: Hand, expected_seq: int) -> Hand:
    locked = Hand.objects.select_for_update().get(pk=hand.pk)
    if locked.seq != expected_seq:
        raise StaleHand(locked)
    return locked


def record_action(
    *,
    hand: Hand,
    by: User,
    expected_seq: int,
    seat: int,
    action: str,
    to: int | None = None,
    out_of_turn: bool = False,
) -> HandAction:
    """Enter an action: refused (``IllegalAction``) unless the engine allows it at this point,
    refused (``StaleHand``) if the hand moved on since the client looked. An action made
    ``out_of_turn`` by a seat not to act is held until its turn (TDA-53)."""
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
            locked = _lock(hand, expected_seq)
            if locked.state == HandStatus.VOIDED:
                raise HandVoided(locked)
            state = engine_state(locked)
            live = list(locked.actions.filter(voided_at__isnull=True).order_by("seq"))
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
            return locked.actions.create(
                seq=locked.seq,
                seat=seat,
                action=action,
                to=to,
                out_of_turn=out_of_turn,
                entered_by=by,
            )
    except IntegrityError as exc:
        # Without row locks (SQLite) the unique (hand, seq) pair still lets only one writer win.
        raise StaleHand(Hand.objects.get(pk=hand.pk)) from exc


def void_last_action(*, hand: Hand, by: User, expected_seq: int, reason: str) -> HandAction:
    """Take back the last action (kept in the history, marked void with who and why)."""
    if not reason.strip():
        raise ValidationError({"reason": "Say why the action is voided."})
    with transaction.atomic():
        locked = _lock(hand, expected_seq)
        if locked.state == HandStatus.VOIDED:
            raise HandVoided(locked)
        last: HandAction | None = (
            locked.actions.filter(voided_at__isnull=True).order_by("-seq").first()
        )
        if last is None:
            raise ValidationError({"hand": "There is no action to void."})
        last.voided_by, last.voided_at, last.void_reason = by, timezone.now(), reason.strip()
        last.save(update_fields=["voided_by", "voided_at", "void_reason"])
        locked.seq += 1
        locked.state = HandStatus.IN_PROGRESS
        locked.save(update_fields=["seq", "state", "updated_at"])  # the floor card reads it
        return last


def void_hand(*, hand: Hand, by: User, expected_seq: int, reason: str) -> Hand:
    """Call the hand dead (a misdeal, a fouled deck): its actions stay on record."""
    if not reason.strip():
        raise ValidationError({"reason": "Say why the hand is voided."})
    with transaction.atomic():
        locked = _lock(hand, expected_seq)
        if locked.state == HandStatus.VOIDED:
            raise HandVoided(locked)
        locked.state = HandStatus.VOIDED
        locked.voided_by, locked.voided_at, locked.void_reason = by, timezone.now(), reason.strip()
        locked.seq += 1
        locked.save(
            update_fields=["state", "voided_by", "voided_at", "void_reason", "seq", "updated_at"]
        )
        return locked
