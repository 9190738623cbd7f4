"""A table's choices (status, structure, variant, ante type, kind) and the small values derived
from them (the default raise cap, the smallest chip in play): what the table model, its checks,
forms, the API and the tournaments share."""

from __future__ import annotations

from math import gcd

from django.db import models

from rules.engine import citations

#: Chip denominations a cardroom stocks, smallest first.
STANDARD_CHIPS: tuple[int, ...] = (1, 5, 25, 100, 500, 1000, 5000, 25000, 100000)


class TableStatus(models.TextChoices):
    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"
    RESERVED = "reserved", "Reserved"
    BROKEN = "broken", "Broken"


class Structure(models.TextChoices):
    NO_LIMIT = "no_limit", "No-limit"
    POT_LIMIT = "pot_limit", "Pot-limit"
    FIXED_LIMIT = "fixed_limit", "Fixed-limit"


class Variant(models.TextChoices):
    HOLDEM = "holdem", "Hold'em"
    OMAHA = "omaha", "Omaha"
    OMAHA_HILO = "omaha_hilo", "Omaha Hi-Lo"
    STUD = "stud", "Seven-card stud"
    STUD_HILO = "stud_hilo", "Stud Hi-Lo"
    RAZZ = "razz", "Razz"
    BADUGI = "badugi", "Badugi"
    TRIPLE_DRAW = "triple_draw", "2-7 Triple Draw"
    SINGLE_DRAW = "single_draw", "2-7 Single Draw"
    FIVE_CARD_DRAW = "five_card_draw", "Five-card draw"


#: Betting rounds per variant: Robert's BR-3 caps two-round games at a bet and four raises.
BETTING_ROUNDS: dict[str, int] = {
    Variant.HOLDEM: 4,
    Variant.OMAHA: 4,
    Variant.OMAHA_HILO: 4,
    Variant.STUD: 5,
    Variant.STUD_HILO: 5,
    Variant.RAZZ: 5,
    Variant.BADUGI: 4,
    Variant.TRIPLE_DRAW: 4,
    Variant.SINGLE_DRAW: 2,
    Variant.FIVE_CARD_DRAW: 2,
}


#: The games the desk deals correctly, and so the only ones a table is set up for (CR-GM.1):
#: button games with blinds and four betting rounds, played by ``rules/engine`` street by
#: street (preflop from the big blind, later rounds from the button). Waitlists and the board
#: offer only these too.
DESK_VARIANTS: tuple[str, ...] = (Variant.HOLDEM, Variant.OMAHA, Variant.OMAHA_HILO)

_NOT_DEALT: dict[str, str] = {
    Variant.STUD: "is dealt with antes, a bring-in set by the up-cards and five betting rounds,"
    " without a button or blinds",
    Variant.STUD_HILO: "is dealt with antes, a bring-in set by the up-cards and five betting"
    " rounds, without a button or blinds",
    Variant.RAZZ: "is dealt with antes, a bring-in set by the up-cards and five betting rounds,"
    " without a button or blinds",
    Variant.SINGLE_DRAW: f"has two betting rounds around one draw ({citations.LIMIT_RAISE_CAP}), not four",
    Variant.FIVE_CARD_DRAW: f"has two betting rounds around one draw ({citations.LIMIT_RAISE_CAP}),"
    " not four",
    Variant.BADUGI: "has three draws between its betting rounds, which the desk neither records"
    " nor names",
    Variant.TRIPLE_DRAW: "has three draws between its betting rounds, which the desk neither"
    " records nor names",
}


def variant_refusal(variant: str) -> str | None:
    """Why a table cannot be set up for ``variant`` (None: the desk deals it), with its rule."""
    if variant in DESK_VARIANTS or variant not in _NOT_DEALT:
        return None
    return (
        f"{Variant(variant).label} {_NOT_DEALT[variant]}: the desk deals hold'em, Omaha and"
        f" Omaha Hi-Lo only{rule(citations.GAMES_AT_THE_DESK)}."
    )


def desk_variant_choices() -> list[tuple[str, str]]:
    """The variants a table or a waitlist may be set up for, as form choices."""
    return [(value, label) for value, label in Variant.choices if value in DESK_VARIANTS]


class AnteType(models.TextChoices):
    NONE = "none", "No ante"
    EACH = "each", "Every player"
    BIG_BLIND = "big_blind", "Big-blind ante"


class ButtonRule(models.TextChoices):
    """How the button moves between hands at a cash table (CR-BB.1; tournament tables always
    use the dead button, TDA 32)."""

    DEAD = "dead", "Dead button (CR-BB.1)"
    MOVING = "moving", "Moving button (CR-BB.4)"


class MissedBlindRule(models.TextChoices):
    """What a player who missed the blinds, or a new player, does to be dealt in (CR-BB.3)."""

    POST = "post", "Post or wait: the player chooses"
    WAIT = "wait", "Must wait for the big blind"


class SeatStatus(models.TextChoices):
    PLAYING = "playing", "Playing"
    SITTING_OUT = "sitting_out", "Sitting out"


class SeatEventKind(models.TextChoices):
    SEATED = "seated", "Seated with a buy-in"
    ADDED = "added", "Added chips"
    REBUY = "rebuy", "Rebought"
    SAT_OUT = "sat_out", "Sat out"
    RETURNED = "returned", "Returned"
    HAND = "hand", "Hand result"
    BUSTED = "busted", "Busted"
    MOVED_OUT = "moved_out", "Moved to another table"
    MOVED_IN = "moved_in", "Moved from another table"
    LEFT = "left", "Left and cashed out"
    CORRECTED = "corrected", "Stack corrected"


class TableKind(models.TextChoices):
    """One name on every page: a "Tournament table" plays its tournament's levels."""

    CASH = "cash", "Cash table"
    TOURNAMENT = "tournament", "Tournament table"


def default_raise_cap(variant: str) -> int:
    """Robert's BR-3: a bet and three raises, or four in games with two betting rounds."""
    return 4 if BETTING_ROUNDS.get(variant, 4) <= 2 else 3


def smallest_chip_in_play(*amounts: int) -> int:
    """The smallest chip used in the blinds and antes (Robert's BR-7): the largest stocked
    denomination that makes every forced bet."""
    common = 0
    for amount in amounts:
        if amount:
            common = gcd(common, amount)
    best = 1
    for chip in STANDARD_CHIPS:
        if common and common % chip == 0:
            best = chip
    return best


def choice_check(field: str, choices: type[models.Choices]) -> models.CheckConstraint:
    """The database refuses a value outside the field's choices, whatever path writes it (a
    form, the API, a raw ``.update()``): a forged value can never be stored."""
    return models.CheckConstraint(
        condition=models.Q(**{f"{field}__in": list(choices.values)}),
        name=f"%(app_label)s_%(class)s_{field}_valid",
    )


def rule(citation: str) -> str:
    return f" ({citation})"
