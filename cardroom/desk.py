"""What the betting desk shows: the hand replayed by the engine, seat by seat, with the
options of the player to act and, for each option refused, the rule that refuses it."""

from __future__ import annotations

from typing import Any

from cardroom.models import Hand, HandAction
from cardroom.services import engine_state
from rules.engine.config import GameConfig
from rules.engine.errors import IllegalAction
from rules.engine.state import (
    Action,
    ActionKind,
    HandState,
    Seat,
    apply,
    legal_options,
    snapshot,
    start_hand,
)

#: The largest stack the desk takes: a bet or raise is stored as its total ("to") in
#: ``HandAction.to``, a PositiveIntegerField, whose column holds at most 2^31 - 1 on
#: PostgreSQL. A stack of 10^12 was accepted and the first large raise then overflowed that
#: column (a 500). A stack bounded by the column bounds every amount of the hand: no player
#: can raise to more than they hold. (The betting contract's own limit, 10^15 chips, is for
#: the stateless API; a live table's stacks must also fit the database.)
MAX_STACK = 2_147_483_647
STACK_ERROR = f"A stack is at most {MAX_STACK:,} chips."
AMOUNT_ERROR = f"An amount is at most {MAX_STACK:,} chips."


def desk_view(hand: Hand) -> dict[str, Any]:
    actions = list(hand.actions.select_related("entered_by", "voided_by"))
    state = engine_state(hand)
    snap = snapshot(state)
    options = legal_options(state)
    seats = []
    for entry in hand.seats:
        number = entry["seat"]
        seats.append(
            {
                "seat": number,
                "start": entry["stack"],
                "stack": state.stacks[number],
                "wager": state.street_wager.get(number, 0),
                "folded": number in state.folded,
                "all_in": state.stacks[number] == 0 and number not in state.folded,
                "button": number == hand.button,
                "to_act": number == state.to_act,
            }
        )
    why: dict[str, IllegalAction] = {}
    if options is not None and state.to_act is not None:
        if not options.check:
            why["check"] = refusal_of(state, Action(state.to_act, ActionKind.CHECK))
        if options.raise_ is None:
            target = max(state.current_bet, 0) + max(state.min_raise_increment, 1)
            why["raise"] = refusal_of(state, Action(state.to_act, ActionKind.RAISE, target))
    return {
        "snapshot": snap,
        "options": options,
        "why": why,
        "seats": seats,
        "log": action_log(hand, actions),
        "to_act": state.to_act,
        "street": state.street,
        "facing_bet": state.current_bet > 0,
    }


def refusal_of(state: Any, action: Action) -> IllegalAction:
    """Ask the engine why an option is not offered: try it on a copy and keep the refusal."""
    trial = state.copy()
    try:
        apply(trial, action)
    except IllegalAction as refusal:
        return refusal
    return IllegalAction("unavailable", "Not available now.")


def action_log(hand: Hand, actions: list[HandAction]) -> list[dict[str, Any]]:
    """Each action entered, in the dealer's words with its amount ("Seat 1 calls 44"): the
    hand is replayed so a call or an all-in states the chips it put in. A voided action is
    worded against the state it was entered in (voids take back the last action, so the
    live actions before it are exactly what the dealer saw)."""
    seats = [Seat(seat=entry["seat"], stack=entry["stack"]) for entry in hand.seats]
    state = start_hand(GameConfig.from_dict(hand.game), hand.button, seats)
    entries = []
    for entry in actions:
        live = entry.voided_at is None
        trial = state if live else state.copy()
        entries.append({"action": entry, "text": log_line(trial, entry)})
    return entries


def log_line(state: HandState, entry: HandAction) -> str:
    """Play ``entry`` on ``state`` and say what it did, amounts included."""
    seat = entry.seat
    facing = state.current_bet
    wager, stack = state.street_wager.get(seat, 0), state.stacks.get(seat, 0)
    try:
        apply(state, Action.from_dict(entry.as_engine_dict()))
    except (IllegalAction, ValueError):
        return f"Seat {seat} {entry.action.replace('_', ' ')}"
    paid = stack - state.stacks[seat]
    kind = ActionKind(entry.action)
    if kind is ActionKind.FOLD:
        return f"Seat {seat} folds"
    if kind is ActionKind.CHECK or (kind is ActionKind.CALL and paid == 0):
        return f"Seat {seat} checks"
    if kind is ActionKind.ALL_IN or paid == stack:
        # The chips in front of the player once all-in: this street's whole wager.
        return f"Seat {seat} all-in for {wager + paid}"
    if kind is ActionKind.CALL:
        return f"Seat {seat} calls {paid}"
    if facing == 0:
        return f"Seat {seat} bets {wager + paid}"
    return f"Seat {seat} raises to {wager + paid}"
