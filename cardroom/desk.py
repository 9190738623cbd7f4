"""What the betting desk shows: the hand replayed by the engine, seat by seat, with the
options of the player to act and, for each option refused, the rule that refuses it."""

from __future__ import annotations

from typing import Any

from cardroom.models import Hand
from cardroom.services import engine_state
from rules.engine.errors import IllegalAction
from rules.engine.state import Action, ActionKind, apply, legal_options, snapshot


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
        "log": actions,
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
