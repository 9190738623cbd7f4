"""Actions out of turn (TDA-53 and the illustrated addendum's two examples; RRoP-BR.10).

An action marked ``out_of_turn`` by a seat whose turn it is not is held, not played. When the
turn reaches that seat: if the action to it has not changed (nobody has put in more than the
bet it faced: a call or a fold changes nothing), the held action is binding and is played as
that seat's action, checked then; if it has changed, the held action is void and the player
has every option. Held actions whose turn never comes on their street are void.

Contract v2 readings: "the action changed" means the amount the seat must put in to call has
grown (any bet, raise or all-in above the current bet, even short of a full raise); a seat that
has folded or is all-in, or already holds an action, may not act out of turn (``not_your_turn``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.engine import citations as rule
from rules.engine.errors import IllegalAction
from rules.engine.hand import Action, HandState
from rules.engine.play import apply

#: The rules a binding or a voided held action applies.
CITATIONS = (rule.TDA_ACTING_IN_TURN, rule.ACT_IN_TURN)


@dataclass(frozen=True, slots=True)
class Held:
    """An out-of-turn action: ``index`` into the request's actions, ``level`` the bet the
    seat faced when it was made (the current bet of the street)."""

    seat: int
    action: Action
    index: int
    level: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "action": str(self.action.kind),
            "to": self.action.to,
            "index": self.index,
        }


def play_action(state: HandState, index: int, action: Action) -> tuple[int, IllegalAction] | None:
    """Play ``action`` (``actions[index]``): hold it when it is made out of turn, else apply it;
    then settle every held action whose turn has come. ``IllegalAction`` for the action itself;
    ``(held index, error)`` when a binding held action turns out illegal at its turn."""
    if action.out_of_turn and action.seat != state.to_act:
        _hold(state, index, action)
        return None
    apply(state, action)
    return _settle(state)


def _hold(state: HandState, index: int, action: Action) -> None:
    seat = action.seat
    if state.to_act is None:
        raise IllegalAction(
            "hand_over",
            f"Nobody is to act: the betting is over ({state.street}).",
            rule.ACT_IN_TURN,
        )
    if seat not in state.stacks:
        # Only a player dealt in has an action (RRoP-BR.10, TDA-53): seat 7 of a hand dealt to
        # seats 1 to 3 was a KeyError here, a 500.
        raise IllegalAction(
            "not_your_turn", f"Seat {seat} is not dealt in: it has no action, in turn or out.",
            *CITATIONS,
        )  # fmt: skip
    if seat in state.folded or state.stacks[seat] == 0:
        why = "has folded" if seat in state.folded else "is all-in"
        raise IllegalAction(
            "not_your_turn", f"Seat {seat} {why}: it has no action, in turn or out.", *CITATIONS
        )
    if any(held.seat == seat for held in state.held):
        raise IllegalAction(
            "not_your_turn",
            f"Seat {seat} already has an action held out of turn: it acts again only in turn.",
            *CITATIONS,
        )
    state.held.append(Held(seat, action, index, state.current_bet))


def _settle(state: HandState) -> tuple[int, IllegalAction] | None:
    """The turn has reached a seat holding an action: bind it, or void it if the action to the
    seat has changed since (TDA-53; addendum, Action out of turn, examples 1 and 2)."""
    while state.held and state.to_act is not None:
        seat = state.to_act
        held = next((h for h in state.held if h.seat == seat), None)
        if held is None:
            return None
        state.held.remove(held)
        if state.current_bet > held.level:
            # The bet faced has grown: the held action is void, every option is open.
            state.voided.append(held)
            return None
        binding = Action(seat, held.action.kind, held.action.to)
        try:
            apply(state, binding)
        except IllegalAction as error:
            return held.index, error
    return None
