"""Shorthand for dealing and playing hands in the engine tests.

Actions are written the way a dealer calls them: ``"3 raise 600"``, ``"4 call"``, ``"1 fold"``,
``"5 all_in"``. Seats are dealt from ``stacks``: a list gives seats 1..n, a dict names them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine.config import GameConfig
from rules.engine.errors import IllegalAction
from rules.engine.state import Action, ActionKind, HandState, Seat, replay


def game(
    structure: str = "no_limit", small_blind: int = 50, big_blind: int = 100, **extra: Any
) -> GameConfig:
    return GameConfig.from_dict(
        {"structure": structure, "small_blind": small_blind, "big_blind": big_blind, **extra}
    )


def seats(stacks: Sequence[int] | Mapping[int, int]) -> list[Seat]:
    if isinstance(stacks, Mapping):
        return [Seat(seat, stack) for seat, stack in stacks.items()]
    return [Seat(n, stack) for n, stack in enumerate(stacks, start=1)]


def table(players: int, stack: int = 10_000, **overrides: int) -> dict[int, int]:
    """``players`` seats numbered from 1 with ``stack`` each; ``s5=26`` gives seat 5 26 chips."""
    stacks = dict.fromkeys(range(1, players + 1), stack)
    for key, value in overrides.items():
        stacks[int(key.removeprefix("s"))] = value
    return stacks


def action(text: str) -> Action:
    parts = text.split()
    seat, kind = int(parts[0]), ActionKind(parts[1])
    to = int(parts[2]) if len(parts) > 2 else None
    return Action(seat, kind, to)


def play(
    config: GameConfig,
    button: int,
    stacks: Sequence[int] | Mapping[int, int],
    actions: Sequence[str] = (),
) -> tuple[HandState, tuple[int, IllegalAction] | None]:
    return replay(config, button, seats(stacks), [action(a) for a in actions])


def played(
    config: GameConfig,
    button: int,
    stacks: Sequence[int] | Mapping[int, int],
    actions: Sequence[str] = (),
) -> HandState:
    """Like ``play`` but every action must be legal."""
    state, error = play(config, button, stacks, actions)
    assert error is None, f"action {error[0]} refused: {error[1].code}: {error[1].message}"
    return state


def refused(
    config: GameConfig,
    button: int,
    stacks: Sequence[int] | Mapping[int, int],
    actions: Sequence[str],
) -> IllegalAction:
    """Every action but the last is legal; the last is refused: its error."""
    _state, error = play(config, button, stacks, actions)
    assert error is not None, f"the last action was accepted: {actions[-1]}"
    index, illegal = error
    assert index == len(actions) - 1, f"action {index} refused early: {illegal.message}"
    return illegal


def limp_round(order: Sequence[int]) -> list[str]:
    """Everyone in ``order`` calls; the last (the big blind) checks."""
    return [f"{seat} call" for seat in order[:-1]] + [f"{order[-1]} check"]


def check_round(order: Sequence[int]) -> list[str]:
    return [f"{seat} check" for seat in order]
