"""What the betting desk shows: the hand replayed by the engine, seat by seat, with the
options of the player to act and, for each option refused, the rule that refuses it; actions
made out of turn held on their seat, and when each became binding or void (TDA-53)."""

from __future__ import annotations

from typing import Any

from cardroom.models import Hand, HandAction
from cardroom.services import engine_state
from rules.engine.config import GameConfig
from rules.engine.errors import IllegalAction
from rules.engine.out_of_turn import CITATIONS as OUT_OF_TURN_CITATIONS
from rules.engine.out_of_turn import Held, play_action
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
    held = {entry.seat: entry for entry in state.held}
    seats = []
    for entry in hand.seats:
        number = entry["seat"]
        folded, all_in = number in state.folded, state.stacks[number] == 0
        seats.append(
            {
                "seat": number,
                "start": entry["stack"],
                "stack": state.stacks[number],
                "wager": state.street_wager.get(number, 0),
                "folded": folded,
                "all_in": all_in and not folded,
                "button": number == hand.button,
                "to_act": number == state.to_act,
                "held": held_words(held[number].action) if number in held else None,
                # Who may be entered out of turn: a player still in with chips, not the one
                # to act (the engine refuses a second held action: TDA-53).
                "may_act_out_of_turn": state.to_act is not None
                and number != state.to_act
                and not folded
                and not all_in,
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
        "out_of_turn_seats": [s["seat"] for s in seats if s["may_act_out_of_turn"]],
        "out_of_turn_citations": OUT_OF_TURN_CITATIONS,
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


def held_words(action: Action) -> str:
    """A held action as the dealer says it: "raise to 800", "call", "all-in"."""
    kind = ActionKind(action.kind)
    if kind is ActionKind.RAISE or kind is ActionKind.BET:
        return f"{kind} to {action.to}" if kind is ActionKind.RAISE else f"bet {action.to}"
    return "all-in" if kind is ActionKind.ALL_IN else str(kind)


def action_log(hand: Hand, actions: list[HandAction]) -> list[dict[str, Any]]:
    """Each action entered, in the dealer's words with its amount ("Seat 1 calls 44"): the
    hand is replayed so a call or an all-in states the chips it put in. A voided action is
    worded against the state it was entered in (voids take back the last action, so the
    live actions before it are exactly what the dealer saw). An action made out of turn is
    held; the action whose turn-passing made a held one binding or void says so, with the
    rule (TDA-53)."""
    seats = [Seat(seat=entry["seat"], stack=entry["stack"]) for entry in hand.seats]
    state = start_hand(GameConfig.from_dict(hand.game), hand.button, seats)
    raises: list[tuple[int, int, str, str]] = []  # (index, seat, street, verb): the bet grew
    held_on: dict[int, str] = {}  # a held action's index: the street it was made on
    entries, index = [], 0
    for entry in actions:
        live = entry.voided_at is None
        trial = state if live else state.copy()
        before, street, bet = list(trial.held), trial.street, trial.current_bet
        text = log_line(trial, index, entry)
        notes = []
        if any(h.index == index for h in trial.held):
            held_on[index] = street
        elif trial.street == street and trial.street_wager.get(entry.seat, 0) > bet:
            # The entry itself put in more than the bet: the action to every later seat
            # changed (a binding held action it set off is not its doing).
            verb = "went all-in" if entry.action == "all_in" else "bet" if bet == 0 else "raised"
            raises.append((index, entry.seat, street, verb))
        for settled in before:
            if settled in trial.held:
                continue
            notes.append(settle_note(settled, settled in trial.voided, held_on, raises))
        entries.append({"action": entry, "text": text, "notes": notes})
        if live:
            index += 1
    return entries


def settle_note(
    held: Held, void: bool, held_on: dict[int, str], raises: list[tuple[int, int, str, str]]
) -> str:
    """A held action settled (TDA-53): "Seat 6's out-of-turn raise to 800 stands: ...", or
    "... is void: seat 5 raised; seat 6 has every option"."""
    seat, words = held.seat, held_words(held.action)
    if not void:
        return f"Seat {seat}'s out-of-turn {words} stands: the action to it did not change"
    street = held_on.get(held.index)
    changed = next((r for r in raises if r[0] > held.index and r[2] == street), None)
    if changed is None:
        return f"Seat {seat}'s out-of-turn {words} is void: its turn never came on the {street}"
    return (
        f"Seat {seat}'s out-of-turn {words} is void: seat {changed[1]} {changed[3]}; "
        f"seat {seat} has every option"
    )


def log_line(state: HandState, index: int, entry: HandAction) -> str:
    """Play ``entry`` on ``state`` (held if made out of turn) and say what it did."""
    seat = entry.seat
    facing = state.current_bet
    wager, stack = state.street_wager.get(seat, 0), state.stacks.get(seat, 0)
    try:
        action = Action.from_dict(entry.as_engine_dict())
        refused = play_action(state, index, action)
    except (IllegalAction, ValueError):
        return f"Seat {seat} {entry.action.replace('_', ' ')}"
    if refused is None and any(h.index == index for h in state.held):
        return f"Seat {seat}: {held_words(action)} out of turn, held until its turn"
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
