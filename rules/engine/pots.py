"""Main and side pots, and splitting a pot with the odd chip rule."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rules.engine.errors import BadInput
from rules.engine.seat_order import clockwise_from


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


def build_pots(
    contributed: Mapping[int, int],
    folded: Collection[int],
    all_in: Collection[int] | None = None,
    dead: Mapping[int, int] | None = None,
) -> list[Pot]:
    """Main pot first, then side pots, from each seat's total contribution to the hand.

    ``dead`` is each seat's dead money (a big-blind ante, the dead part of a posted missed
    blind): it lies in the main pot and counts toward nobody's pot level, so ``contributed``
    excludes it.

    Each pot is capped at what an all-in player put in; a player still in the hand is eligible
    for a pot they contributed to fully. Folded players' chips stay in the pots they reached.
    ``all_in`` names the players who can put in no more; ``None`` means the betting is settled,
    so every live player's contribution is final (at showdown that gives the same pots).
    Mid-hand, a live player with chips behind is eligible for every pot: they may still match.
    """
    live = [seat for seat in contributed if seat not in folded]
    capped = live if all_in is None else [seat for seat in live if seat in all_in]
    caps = sorted({contributed[seat] for seat in capped})
    can_match = () if all_in is None else [seat for seat in live if seat not in all_in]
    dead = dead or {}
    dead_money = sum(dead.values())
    # Players still in with a stake: chips in (dead money too), or chips behind to match with.
    # A player dealt in with no chips who posted nothing has no stake in any pot.
    staked = {s for s in live if contributed[s] > 0 or dead.get(s, 0) > 0}
    staked.update(can_match)
    pots: list[Pot] = []
    if any(contributed[seat] == 0 and dead.get(seat, 0) > 0 for seat in capped):
        # A player all-in for dead money alone (a dead post with their last chips): their pot
        # level is 0, so the main pot is the dead money and nothing else. Contract v2: dead
        # money "lies in the main pot and never raises anyone's pot level", and a player is
        # eligible for the pots they contributed to fully; everyone still in contributed fully
        # to a level of 0 (CR-DM.1: the dead money is won with the main pot by the players
        # eligible for it). RRoP-TR.19: a player short of a forced bet "is entitled to get
        # action on whatever amount of money remains": here, the dead money.
        pots.append(Pot(dead_money, tuple(sorted(staked))))
        dead_money = 0
    previous = 0
    for cap in caps:
        amount = 0
        for chips in contributed.values():
            if chips > previous:
                amount += (cap if chips > cap else chips) - previous
        if amount:
            eligible = {s for s in live if contributed[s] >= cap}
            eligible.update(can_match)
            pots.append(Pot(amount, tuple(sorted(eligible))))
        previous = cap
    rest = sum(chips - previous for chips in contributed.values() if chips > previous)
    if rest:
        eligible = {s for s in live if contributed[s] > previous}
        eligible.update(can_match)
        if eligible:
            pots.append(Pot(rest, tuple(sorted(eligible))))
        elif pots:
            # Only folded players went beyond the last all-in: an uncalled excess not yet
            # returned. Their chips stay in the last pot anyone live can win.
            last = pots.pop()
            pots.append(Pot(last.amount + rest, last.eligible))
        elif live:
            pots.append(Pot(rest, tuple(sorted(live))))
    if dead_money:
        # Contract v2, "Dead money": in the main pot, won by whoever is eligible for it.
        if pots:
            main = pots[0]
            pots[0] = Pot(main.amount + dead_money, main.eligible)
        else:
            everyone = staked or live or list(contributed)
            pots.append(Pot(dead_money, tuple(sorted(everyone))))
    return pots


def split_pot(
    amount: int, winners: Sequence[int], button: int, seat_order: Sequence[int], min_chip: int = 1
) -> dict[int, int]:
    """Split a pot among tied winners as evenly as the smallest chip allows (TDA-19: split as
    evenly as possible). Whole odd chips go one each to the winners in order starting left of
    the button (Robert's Rules, Ties 5a: the first hand clockwise from the button gets the odd
    chip); change smaller than the smallest chip goes with the first of them."""
    if amount < 0:
        raise BadInput("A pot cannot be negative.", "amount")
    if min_chip < 1:
        raise BadInput("The smallest chip must be at least 1.", "min_chip")
    if not winners:
        raise BadInput("A pot needs at least one winner.", "winners")
    if len(set(winners)) != len(winners):
        raise BadInput("Each winner may be named only once.", "winners")
    seats = set(seat_order)
    if not seats.issuperset(winners):
        raise BadInput("Every winner must be a seat dealt in.", "winners")
    chosen = set(winners)
    ranked = [s for s in clockwise_from(button, seats) if s in chosen]
    units, loose = divmod(amount, min_chip)
    share, odd = divmod(units, len(ranked))
    result = {seat: share * min_chip for seat in ranked}
    for seat in ranked[:odd]:
        result[seat] += min_chip
    result[ranked[0]] += loose
    return result
