"""What the chip reader (``chips.interpret``) reads and rules: ``Facing`` (what the player to
act faces, from the engine's options), ``Physical`` (the chips pushed out and the words spoken)
and ``Interpretation`` (the ruling: the action, its total, the chips returned, the rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.engine.errors import BadInput, is_int

STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
VERBAL_WORDS = ("check", "call", "bet", "raise", "all_in")
ACTIONS = ("check", "call", "bet", "raise", "all_in")


@dataclass(frozen=True, slots=True)
class Facing:
    """What the player to act faces, as the engine's options give it."""

    structure: str  # "no_limit" | "pot_limit" | "fixed_limit"
    current_bet: int  # what a caller must match this street (preflop the big blind is a bet)
    wager: int  # the actor's wager already counted on this street (a blind posted, say)
    stack: int  # the actor's chips behind, not counting ``wager``
    call: int | None  # chips to add to call, capped by the stack; None when they can check
    min_to: int | None  # smallest legal bet/raise total; None when they may not bet or raise
    max_to: int | None  # largest legal total (pot limit: the pot; no limit: all-in)
    min_raise_increment: int
    bring_in: int
    min_chip: int  # the smallest chip that plays

    def __post_init__(self) -> None:
        if self.structure not in STRUCTURES:
            raise BadInput(f"structure must be one of {', '.join(STRUCTURES)}.", "structure")
        amounts = ("current_bet", "wager", "stack", "min_raise_increment", "bring_in")
        for name in (*amounts, "min_chip"):
            value = getattr(self, name)
            if not is_int(value) or value < (1 if name == "min_chip" else 0):
                raise BadInput(f"{name} must be a whole number of chips.", name)
        owed = self.current_bet - self.wager
        expected = None if owed <= 0 else min(owed, self.stack)
        if self.call != expected or isinstance(self.call, bool):
            raise BadInput(f"call must be {expected} (what is owed, capped by the stack).", "call")
        if (self.min_to is None) != (self.max_to is None):
            raise BadInput("min_to and max_to are both set or both None.", "min_to")
        if self.min_to is not None and self.max_to is not None:
            if not (is_int(self.min_to) and is_int(self.max_to)):
                raise BadInput("min_to and max_to must be whole numbers of chips.", "min_to")
            if not max(self.current_bet, self.wager) < self.min_to <= self.max_to <= self.all_in_to:
                raise BadInput(
                    "A bet or raise range must lie above the current bet and within the stack.",
                    "min_to",
                )

    @property
    def all_in_to(self) -> int:
        """The wager on this street if every chip goes in."""
        return self.wager + self.stack

    @property
    def playing_all_in_to(self) -> int:
        """The wager on this street if every chip that plays goes in: chips behind worth less
        than the smallest chip that plays stay behind (RRoP-BR.7)."""
        return self.wager + self.stack - self.stack % self.min_chip

    @property
    def call_to(self) -> int:
        """The wager on this street after a call (the wager itself when nothing is owed)."""
        return self.wager + (self.call or 0)

    @property
    def word(self) -> str:
        """``bet`` with no bet on the street, ``raise`` facing one (preflop the blind is one)."""
        return "raise" if self.current_bet > 0 else "bet"


def _chip_tuple(value: object, name: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise BadInput(f"{name} must be a list of chip denominations.", name)
    for chip in value:
        if not is_int(chip) or chip <= 0:
            raise BadInput(f"{name}: {chip!r} is not a chip denomination.", name)
    return tuple(value)


@dataclass(frozen=True, slots=True)
class Physical:
    """What the player did: chips pushed out now, chips already in front, words spoken."""

    chips: tuple[int, ...]
    prior_chips: tuple[int, ...] = ()
    pulled_back: bool | Literal["some"] = False
    verbal: str | None = None
    verbal_to: int | None = None

    def __post_init__(self) -> None:
        # Lists become tuples so a Physical is always hashable and immutable.
        object.__setattr__(self, "chips", _chip_tuple(self.chips, "physical.chips"))
        object.__setattr__(
            self, "prior_chips", _chip_tuple(self.prior_chips, "physical.prior_chips")
        )
        if not (isinstance(self.pulled_back, bool) or self.pulled_back == "some"):
            raise BadInput(
                'physical.pulled_back must be true, false or "some".', "physical.pulled_back"
            )
        if self.verbal is not None and self.verbal not in VERBAL_WORDS:
            raise BadInput(
                f"physical.verbal must be null, one of {', '.join(VERBAL_WORDS)},"
                ' or {"action": "bet" | "raise", "to": N}.',
                "physical.verbal",
            )
        if self.verbal_to is not None:
            if self.verbal not in ("bet", "raise"):
                raise BadInput('A spoken amount goes with "bet" or "raise".', "physical.verbal")
            if not is_int(self.verbal_to) or self.verbal_to <= 0:
                raise BadInput("A spoken amount needs a positive whole `to`.", "physical.verbal")

    @classmethod
    def from_dict(cls, data: object) -> Physical:
        """Parse the contract's ``physical`` object; ``BadInput`` for anything malformed."""
        if not isinstance(data, Mapping):
            raise BadInput("physical must be an object.", "physical")
        verbal: Any = data.get("verbal")
        verbal_to: Any = None
        if isinstance(verbal, Mapping):
            verbal, verbal_to = verbal.get("action"), verbal.get("to")
            if verbal not in ("bet", "raise"):
                raise BadInput('A spoken amount goes with "bet" or "raise".', "physical.verbal")
            if not is_int(verbal_to) or verbal_to <= 0:
                raise BadInput("A spoken amount needs a positive whole `to`.", "physical.verbal")
        elif verbal is not None and not isinstance(verbal, str):
            raise BadInput("physical.verbal must be null, a word or an object.", "physical.verbal")
        return cls(
            chips=_chip_tuple(data.get("chips", []), "physical.chips"),
            prior_chips=_chip_tuple(data.get("prior_chips", []), "physical.prior_chips"),
            pulled_back=data.get("pulled_back", False),
            verbal=verbal,
            verbal_to=verbal_to,
        )


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What the chips and words count as: an action, the street total, the change."""

    action: str  # check | call | bet | raise | all_in
    to: int  # the player's total wager on the street after the action
    returned: int  # chips in front that go back to the player
    explanation: str
    citations: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "to": self.to,
            "returned": self.returned,
            "explanation": self.explanation,
            "citations": list(self.citations),
        }
