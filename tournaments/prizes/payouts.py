"""Payouts: how many places a tournament pays and what each is paid, from the room's own
percentage templates or a curve, in whole units of the room's money, and the split when
players out on the same hand-for-hand hand tie for places.

Pure: the standard library only. Amounts are integers in the currency's minor unit.

The seeds say nothing of payouts; this follows published practice:

- Places paid: a share of the field (the WSOP pays about 15% of entries) or a fixed number.
- The curve: each place's weight falls as a power of the place, ``place ** -steepness`` (a
  Zipf curve: the shape published payout tables such as the WSOP's follow closely); a
  minimum cash (e.g. 2x the buy-in) comes first to every place paid, the rest of the pool by
  the weights.
- Rounding: every prize down to the unit (a room pays in 5s or 100s of the minor unit), the
  remainder to first place, as payout tables are usually published.
- Ties: players out on the same hand-for-hand hand at different tables share the prizes of
  the places they cover equally (TDA RP-8-A: "All 3 players will share in the 50th place
  payout"), to the unit; the units left over go one each to the players in the order given,
  which the caller makes the order of the chips they started the hand with (CR-TP.3: the
  bigger stack finishes higher), so a tie never pays the smaller stack more.
- Satellites: as many seats (each worth the target event's entry) as the pool buys; what is
  left is paid in cash to the first place out of the seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

#: Percentages are in basis points: 10,000 is the whole pool.
WHOLE = 10_000
#: The most places a payout table holds.
MAX_PLACES = 10_000


class PayoutError(ValueError):
    """A payout that cannot be made, naming the input at fault (``field``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def places_paid(entries: int, *, share: int = 1500, fixed: int | None = None) -> int:
    """The places paid: ``fixed`` if given, else ``share`` basis points of the entries (1,500:
    15%), rounded down, at least 1 and never more than the entries."""
    if entries < 1:
        raise PayoutError("entries", "A tournament with no entries pays nobody.")
    if fixed is not None:
        if not 1 <= fixed <= entries:
            raise PayoutError("places", f"Pay 1 to {entries} places (one a player at most).")
        return fixed
    if not 1 <= share <= WHOLE:
        raise PayoutError("share", "The share of the field paid is above 0% and at most 100%.")
    return max(1, min(entries, entries * share // WHOLE))


def _check(pool: int, places: int, unit: int) -> None:
    if pool < 0:
        raise PayoutError("pool", "The prize pool is never below zero.")
    if not 1 <= places <= MAX_PLACES:
        raise PayoutError("places", f"Pay 1 to {MAX_PLACES} places.")
    if unit < 1:
        raise PayoutError("unit", "The unit is at least 1.")


def _to_unit(exact_shares: Sequence[int], pool: int, unit: int) -> list[int]:
    """Each share down to the unit, the remainder of the pool to first place."""
    prizes = [share // unit * unit for share in exact_shares]
    prizes[0] += pool - sum(prizes)
    return prizes


def curve(
    pool: int, places: int, *, min_cash: int = 0, unit: int = 1, steepness: float = 1.0
) -> list[int]:
    """Prizes for ``places`` from first down: ``min_cash`` each, the rest by the weights
    ``place ** -steepness``; each down to ``unit``, the remainder to first. Non-increasing,
    summing to ``pool``."""
    _check(pool, places, unit)
    if min_cash < 0:
        raise PayoutError("min_cash", "The minimum cash is never below zero.")
    if min_cash % unit:
        raise PayoutError("min_cash", f"The minimum cash ({min_cash}) is a multiple of the "
                                      f"unit ({unit}).")  # fmt: skip
    if min_cash * places > pool:
        raise PayoutError(
            "min_cash",
            f"{places} places at a minimum cash of {min_cash} need {min_cash * places}; "
            f"the pool is {pool}. Pay fewer places or lower the minimum.",
        )
    if not 0 <= steepness <= 4:
        raise PayoutError("steepness", "The curve's steepness is 0 (equal prizes) to 4.")
    weights = [place**-steepness for place in range(1, places + 1)]
    total, rest = sum(weights), pool - min_cash * places
    # Floats: IEEE arithmetic is monotone, so falling weights never give a rising prize; the
    # sum is kept exactly by the remainder to first place.
    shares = [min_cash + int(rest * weight / total) for weight in weights]
    return _to_unit(shares, pool, unit)


def from_template(pool: int, percentages: Sequence[int], *, unit: int = 1) -> list[int]:
    """Prizes from the room's template: ``percentages`` in basis points, first place first,
    non-increasing, summing to 10,000; each prize down to the unit, the remainder to first."""
    _check(pool, len(percentages) or 1, unit)
    if not percentages:
        raise PayoutError("percentages", "A payout template pays at least one place.")
    if any(p < 0 for p in percentages) or sum(percentages) != WHOLE:
        raise PayoutError(
            "percentages", f"The percentages add up to {sum(percentages) / 100:g}%, not 100%."
        )
    if any(a < b for a, b in pairwise(percentages)):
        raise PayoutError("percentages", "A lower place never pays more than a higher one.")
    return _to_unit([pool * p // WHOLE for p in percentages], pool, unit)


def split_tie(prizes: Sequence[int], players: int, *, unit: int = 1) -> list[int]:
    """The places ``prizes`` covers shared equally by ``players`` (as many as the places),
    each share down to the unit; the units left over (and any odd amount under a unit, to the
    first) go one each to the players in the order given: the caller's order of the chips
    they started the hand with, bigger first."""
    if players != len(prizes) or players < 1:
        raise PayoutError("players", "Players tied for places share as many places as they are.")
    if unit < 1:
        raise PayoutError("unit", "The unit is at least 1.")
    total = sum(prizes)
    each = total // players // unit * unit
    shares = [each] * players
    left = total - each * players
    for i in range(players):
        give = min(unit, left)
        shares[i] += give
        left -= give
    shares[0] += left
    return shares


@dataclass(frozen=True)
class SatellitePrizes:
    seats: int
    #: Cash to the first place out of the seats (0 when the pool buys whole seats).
    cash: int


def satellite(pool: int, seat_value: int) -> SatellitePrizes:
    """Seats worth ``seat_value`` each, as many as the pool buys; the rest in cash to the
    next place."""
    if seat_value < 1:
        raise PayoutError("seat_value", "A seat is worth at least 1.")
    if pool < 0:
        raise PayoutError("pool", "The prize pool is never below zero.")
    return SatellitePrizes(seats=pool // seat_value, cash=pool % seat_value)
