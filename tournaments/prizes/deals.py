"""Deal quotes: how the remaining prizes of a tournament are shared when the players left agree
to stop (or to play on for an amount left to play for), by ICM, chip chop, chip chop with a
floor, or equal shares, in whole units of the room's money.

Pure: the standard library only. The public deal calculator (``tournaments.deal_quotes``) and
the director's deal page read it.

The seeds say nothing of deals; this follows published practice:

- ICM is Malmuth-Harville (Mason Malmuth, *Gambling Theory and Other Topics*, 1987; D. A.
  Harville, JASA 68, 1973): a player finishes first with the probability of their share of
  the chips, and each later place follows the same rule among the players left. A player's
  equity is the sum over the places of the chance of finishing there times its prize.
- Chip chop: the prizes' total shared in proportion to the chips. With a floor: every player
  first gets the smallest remaining prize (what each is sure to win), the rest by chips.
- An amount left to play for comes off the first prize before the split and goes to the
  eventual winner (the usual deal: "take X each and play for the rest").

Every value is exact (``fractions.Fraction``); the shares are the exact values rounded down to
the unit, and the units left over go one each to the largest remainders (ties: the larger
stack, then the earlier in the list), so they sum to the total exactly and a bigger stack
never gets less than a smaller one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import comb

#: The most players a quote shares between (any method): a final table and then some.
MAX_PLAYERS = 1000
#: The most players an ICM quote is computed for.
MAX_ICM_PLAYERS = 20
#: The most steps (a player taking a place, given who took the places above) an exact ICM
#: quote may take, about 35 µs each in exact fractions: 10 players and 10 prizes take 5,120,
#: 11 and 11 take 11,264; 20 players are quoted while few places are paid (3 prizes: 3,820),
#: refused beyond (4 prizes: 23,200).
MAX_ICM_STEPS = 12_000


class Method(StrEnum):
    ICM = "icm"
    CHIP_CHOP = "chip_chop"
    CHIP_CHOP_FLOOR = "chip_chop_floor"
    EQUAL = "equal"


#: Each method as the pages and the sheets name it, side by side in this order.
METHOD_NAMES = {
    Method.ICM.value: "ICM",
    Method.CHIP_CHOP.value: "Chip chop",
    Method.CHIP_CHOP_FLOOR.value: "Chip chop, smallest prize first",
    Method.EQUAL.value: "Equal",
}


class DealError(ValueError):
    """A quote that cannot be made, naming the input at fault (``field``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


@dataclass(frozen=True)
class Quote:
    method: Method
    #: Each player's share, in the order of the stacks: multiples of the unit summing to the
    #: prizes' total less the amount left to play for.
    shares: tuple[int, ...]
    #: The exact value of each share before rounding to the unit.
    exact: tuple[Fraction, ...]


def quote(
    method: str,
    stacks: Sequence[int],
    prizes: Sequence[int],
    *,
    unit: int = 1,
    play_for: int = 0,
    money: Callable[[int], str] = str,
) -> Quote:
    """The shares of ``prizes`` (the remaining prizes, first place first; places without one
    pay nothing) between the players with ``stacks``, by ``method``, in multiples of ``unit``,
    ``play_for`` taken off the first prize first. ``DealError`` names a refused input, its
    amounts written by ``money`` (the caller's currency; plain minor units by default)."""
    chosen = _method(method)
    _check(stacks, prizes, unit, play_for, money)
    paid = [prizes[0] - play_for, *prizes[1:]]
    paid += [0] * (len(stacks) - len(paid))
    if chosen is Method.ICM:
        exact = icm_equities(stacks, paid)
    elif chosen is Method.CHIP_CHOP:
        exact = _by_chips(stacks, Fraction(sum(paid)))
    elif chosen is Method.CHIP_CHOP_FLOOR:
        floor = min(paid)
        rest = _by_chips(stacks, Fraction(sum(paid) - floor * len(stacks)))
        exact = [floor + share for share in rest]
    else:
        exact = [Fraction(sum(paid), len(stacks))] * len(stacks)
    return Quote(chosen, round_to_unit(exact, stacks, unit), tuple(exact))


def _method(method: str) -> Method:
    try:
        return Method(method)
    except ValueError:
        names = ", ".join(f'"{m.value}"' for m in Method)
        raise DealError("method", f"Choose the method: {names}.") from None


def _check(
    stacks: Sequence[int], prizes: Sequence[int], unit: int, play_for: int,
    money: Callable[[int], str],
) -> None:  # fmt: skip
    if not stacks:
        raise DealError("stacks", "Give each player's chips.")
    if len(stacks) > MAX_PLAYERS:
        raise DealError("stacks", f"A deal shares between {MAX_PLAYERS} players at most.")
    if any(stack <= 0 for stack in stacks):
        raise DealError("stacks", "Every player in a deal holds chips: a stack is at least 1.")
    if not prizes:
        raise DealError("prizes", "Give the remaining prizes, first place first.")
    if len(prizes) > len(stacks):
        raise DealError(
            "prizes", f"{len(prizes)} prizes for {len(stacks)} players: one prize a player at most."
        )
    if any(prize < 0 for prize in prizes):
        raise DealError("prizes", "A prize is never below zero.")
    if unit < 1:
        raise DealError("unit", "The unit is at least 1.")
    if play_for < 0:
        raise DealError("play_for", "The amount left to play for is never below zero.")
    if play_for > prizes[0]:
        raise DealError(
            "play_for", f"The amount left to play for ({money(play_for)}) is above the first "
            f"prize ({money(prizes[0])}), which it comes off."
        )  # fmt: skip
    if sum(prizes) % unit:
        raise DealError("prizes", f"The prizes' total ({money(sum(prizes))}) is not a multiple "
                                  f"of the unit ({money(unit)}).")  # fmt: skip
    if play_for % unit:
        raise DealError("play_for", f"The amount left to play for ({money(play_for)}) is not a "
                                    f"multiple of the unit ({money(unit)}).")  # fmt: skip


def _by_chips(stacks: Sequence[int], total: Fraction) -> list[Fraction]:
    chips = sum(stacks)
    return [total * stack / chips for stack in stacks]


def icm_steps(players: int, places: int) -> int:
    """The steps ``icm_equities`` takes: for each place, each set of players who took the
    places above it, each player left."""
    return sum(comb(players, taken) * (players - taken) for taken in range(min(places, players)))


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Malmuth-Harville equities, exact: over the sets of players who took the places above
    (a bit mask), the chance of that set, each player left taking the next place with their
    share of the chips left. ``prizes`` first place first; trailing places pay nothing."""
    places = len(prizes)
    while places and prizes[places - 1] == 0:
        places -= 1
    players = len(stacks)
    if players > MAX_ICM_PLAYERS or icm_steps(players, places) > MAX_ICM_STEPS:
        raise DealError(
            "stacks",
            f"An exact ICM quote takes too long for {players} players and {places} prizes paid "
            f"(exact up to 10 players; up to {MAX_ICM_PLAYERS} when few places are paid). "
            "Quote a chip chop, or fewer places.",
        )
    total = sum(stacks)
    equity = [Fraction(0)] * players
    taken: dict[int, tuple[Fraction, int]] = {0: (Fraction(1), 0)}  # mask: (chance, its chips)
    for place in range(places):
        prize, after = prizes[place], dict[int, tuple[Fraction, int]]()
        for mask, (chance, gone) in taken.items():
            left = total - gone
            for i, stack in enumerate(stacks):
                if mask >> i & 1:
                    continue
                p = chance * stack / left
                if prize:
                    equity[i] += p * prize
                if place + 1 < places:
                    key = mask | 1 << i
                    before = after.get(key)
                    after[key] = (p if before is None else before[0] + p, gone + stack)
        taken = after
    return equity


def round_to_unit(exact: Sequence[Fraction], stacks: Sequence[int], unit: int) -> tuple[int, ...]:
    """Each exact value down to the unit, then the units left over one each to the largest
    remainders (ties: the larger stack, then the earlier in the list). ``exact`` sums to a
    multiple of the unit."""
    total = sum(exact, Fraction(0))
    assert total.denominator == 1 and total.numerator % unit == 0, total
    shares = [int(value // unit) * unit for value in exact]
    left = (total.numerator - sum(shares)) // unit
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - shares[i]), -stacks[i], i))
    for i in order[:left]:
        shares[i] += unit
    return tuple(shares)
