"""A table's game as the engine needs it: structure, forced bets, limits, smallest chip.

``GameConfig`` is frozen and checks itself in ``__post_init__``: every problem is a
``BadInput`` naming the field (HTTP 400 ``bad_request``). ``GameConfig.from_dict`` reads the
betting contract's ``game`` object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.engine import citations as rule
from rules.engine.errors import BadInput, is_int


class Structure(StrEnum):
    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


_INT_FIELDS = (
    "small_blind", "big_blind", "ante", "big_blind_ante", "straddle", "raise_cap", "min_chip",
    "pot_round_unit",
)  # fmt: skip
_OPTIONAL_INT_FIELDS = ("small_bet", "big_bet")


@dataclass(frozen=True, slots=True)
class GameConfig:
    """The game: ``small_bet``/``big_bet``/``raise_cap`` matter in fixed limit only,
    ``pot_limit_small_blind_as_big`` and ``pot_round_unit`` in pot limit only.

    ``ante`` is posted by every player; ``big_blind_ante`` (the alternative) by the big blind
    alone for the table, after the blind. Both are dead money. ``pot_round_unit`` rounds the
    pot size up to a multiple of the unit when sizing a pot-limit bet (RRoP-PL.4)."""

    structure: Structure
    small_blind: int
    big_blind: int
    ante: int = 0
    straddle: int = 0
    small_bet: int | None = None
    big_bet: int | None = None
    raise_cap: int = 3
    pot_limit_small_blind_as_big: bool = False
    min_chip: int = 1
    big_blind_ante: int = 0
    pot_round_unit: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.structure, Structure):
            try:
                # A frozen dataclass: normalise "no_limit" to Structure.NO_LIMIT in place.
                object.__setattr__(self, "structure", Structure(self.structure))
            except ValueError:
                raise BadInput(
                    "game.structure must be no_limit, pot_limit or fixed_limit.", "structure"
                ) from None
        for name in _INT_FIELDS:
            if not is_int(getattr(self, name)):
                raise BadInput(f"game.{name} must be a whole number of chips.", name)
        for name in _OPTIONAL_INT_FIELDS:
            value = getattr(self, name)
            if value is not None and not is_int(value):
                raise BadInput(f"game.{name} must be a whole number of chips or null.", name)
        if not isinstance(self.pot_limit_small_blind_as_big, bool):
            raise BadInput(
                "game.pot_limit_small_blind_as_big must be true or false.",
                "pot_limit_small_blind_as_big",
            )
        if self.small_blind <= 0:
            raise BadInput("game.small_blind must be more than 0.", "small_blind")
        if self.big_blind <= 0:
            raise BadInput("game.big_blind must be more than 0.", "big_blind")
        if self.big_blind < self.small_blind:
            raise BadInput("game.big_blind cannot be smaller than the small blind.", "big_blind")
        if self.ante < 0:
            raise BadInput("game.ante cannot be negative.", "ante")
        if self.big_blind_ante < 0:
            raise BadInput("game.big_blind_ante cannot be negative.", "big_blind_ante")
        if self.ante and self.big_blind_ante:
            raise BadInput(  # CR-DM.2: a game with a big-blind ante has no other antes
                "game: an ante from every player or a big-blind ante, not both.",
                "big_blind_ante",
                citations=(rule.BIG_BLIND_ANTE,),
            )
        if self.pot_round_unit < 0:
            raise BadInput("game.pot_round_unit cannot be negative.", "pot_round_unit")
        if self.straddle not in (0, 2 * self.big_blind):
            # RRoP-14.14: a straddle is twice the big blind.
            raise BadInput(
                f"game.straddle is exactly twice the big blind ({2 * self.big_blind}),"
                " or 0 for none.",
                "straddle",
            )
        if self.min_chip < 1:
            raise BadInput("game.min_chip must be at least 1.", "min_chip")
        if self.raise_cap < 0:
            raise BadInput("game.raise_cap cannot be negative.", "raise_cap")
        if self.structure is Structure.FIXED_LIMIT:
            if self.straddle:
                raise BadInput(
                    "game.straddle: a live straddle is a no-limit and pot-limit rule.", "straddle"
                )
            small, big = self.limit_bets
            if small < self.big_blind:
                raise BadInput(
                    f"game.small_bet ({small}) cannot be smaller than the big blind"
                    f" ({self.big_blind}): preflop the big blind is the bet.",
                    "small_bet",
                )
            if big < small:
                raise BadInput(
                    f"game.big_bet ({big}) cannot be smaller than the small bet ({small}).",
                    "big_bet",
                )

    @property
    def bring_in(self) -> int:
        """The minimum bet in a big-bet game: the straddle when one is posted, else the big
        blind (RRoP-14.2). A hand dealt heads-up has no straddle: see ``HandState.bring_in``."""
        return self.straddle or self.big_blind

    @property
    def limit_bets(self) -> tuple[int, int]:
        """Fixed limit: (small bet, big bet), defaulting to the big blind and twice it."""
        small = self.small_bet if self.small_bet is not None else self.big_blind
        big = self.big_bet if self.big_bet is not None else 2 * self.big_blind
        return small, big

    def bet_size(self, street: int) -> int:
        """Fixed limit: the small bet preflop and on the flop, the big bet on turn and river."""
        small, big = self.limit_bets
        return small if street < 2 else big

    @classmethod
    def from_dict(cls, data: Any) -> GameConfig:
        """Read the contract's ``game`` object; every problem is a ``BadInput`` naming the field."""
        if not isinstance(data, Mapping):
            raise BadInput("game must be an object.", "game")
        structure = data.get("structure")
        if not isinstance(structure, str):
            raise BadInput(
                "game.structure must be no_limit, pot_limit or fixed_limit.", "structure"
            )
        for name in ("small_blind", "big_blind"):
            if data.get(name) is None:
                raise BadInput(f"game.{name} is required.", name)
        values: dict[str, Any] = {"structure": structure}
        for name in (*_INT_FIELDS, *_OPTIONAL_INT_FIELDS, "pot_limit_small_blind_as_big"):
            if name in data and (data[name] is not None or name in _OPTIONAL_INT_FIELDS):
                values[name] = data[name]
        return cls(**values)
