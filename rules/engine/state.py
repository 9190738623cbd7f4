"""A hand of poker as the betting rules see it: whose turn, what they may do, and the pots.

``start_hand`` deals and posts the forced bets (``posting.py``); ``legal_options`` lists what
the player to act may do (``options.py``); ``apply`` checks an action against those same rules
and plays it (``play.py``); ``snapshot`` gives the betting contract's response body; ``replay``
deals and plays a list of actions, out-of-turn ones held (``out_of_turn.py``), up to the first
illegal one. Chips are ints, seats are seat numbers (clockwise = ascending, wrapping).
``HandState``'s attributes: ``hand.py``. This module is the engine's one way in: every name a
caller needs is importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine.config import GameConfig
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.hand import (
    COMPLETE,
    SHOWDOWN,
    STREETS,
    Action,
    ActionKind,
    HandState,
    Options,
    RaiseRange,
    Seat,
)
from rules.engine.options import legal_options
from rules.engine.out_of_turn import Held, play_action
from rules.engine.play import apply
from rules.engine.posting import Blinds, Post, start_hand
from rules.engine.pots import Pot, build_pots

__all__ = [
    "COMPLETE",
    "SHOWDOWN",
    "STREETS",
    "Action",
    "ActionKind",
    "Blinds",
    "HandState",
    "Held",
    "Options",
    "Post",
    "RaiseRange",
    "Seat",
    "apply",
    "legal_options",
    "pots",
    "replay",
    "snapshot",
    "start_hand",
]


def pots(state: HandState) -> list[Pot]:
    """Main pot first, then side pots (eligible: players still in who can match the pot).
    Dead money lies in the main pot and raises nobody's pot level (contract v2)."""
    stacks = state.stacks
    all_in = [seat for seat in state.seat_order if stacks[seat] == 0]
    dead = state.dead
    live = {seat: chips - dead[seat] for seat, chips in state.total_contributed.items()}
    return build_pots(live, state.folded, all_in, dead)


def snapshot(state: HandState) -> dict[str, Any]:
    """The betting contract's 200 response body (v2: with the blinds used, and the actions
    held out of turn and voided)."""
    options = legal_options(state)
    return {
        "street": state.street,
        "to_act": state.to_act,
        "pot": state.pot,
        "current_bet": state.current_bet,
        "min_raise_increment": state.min_raise_increment,
        "options": None if options is None else options.to_dict(),
        "pots": [pot.to_dict() for pot in pots(state)],
        "blinds": {"button": state.button, "small": state.sb_seat, "big": state.bb_seat},
        "held": [held.to_dict() for held in state.held],
        "voided": [held.to_dict() for held in state.voided],
    }


def replay(
    config: GameConfig,
    button: int,
    seats: Sequence[Seat],
    actions: Sequence[Action],
    blinds: Blinds | None = None,
    posts: Sequence[Post] = (),
) -> tuple[HandState, tuple[int, IllegalAction] | None]:
    """Deal and play ``actions`` until the first illegal one (the ones before it stand).
    Returns the state and ``(index, error)`` for the illegal action, or None. An action held
    out of turn that is illegal when its turn comes is reported at its own index."""
    state = start_hand(config, button, seats, blinds, posts)
    dealt = state.next_seat
    for index, action in enumerate(actions):
        if action.seat not in dealt:
            raise BadInput(
                f"Action {index}: seat {action.seat} is not dealt in.", f"actions.{index}.seat"
            )
    for index, action in enumerate(actions):
        try:
            refused = play_action(state, index, action)
        except IllegalAction as error:
            return state, (index, error)
        if refused is not None:
            return state, refused
    return state, None
