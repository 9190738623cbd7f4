"""Who wins what when the betting is over: each pot awarded on its own, ties, the odd chip,
high-low halves and running it twice (the betting contract's ``POST /api/v1/betting/award``).

``parse_showdown`` reads the showdown's form (a ``BadInput`` naming the dotted field);
``check_showdown`` checks it against the players still in the hand; ``award_pots`` splits the
pots; ``award_hand`` puts them together, with the uncalled chips the hand handed back when
the betting closed (``HandState.returned``), into the contract's response body.

Rules applied (each cited in the answer when it decides something):

- RRoP-TI.5 (d): every pot is split on its own, never mixed with another; (a) the odd chip
  goes to the first tied hand clockwise from the button, counted from the button's seat
  number even when the button is dead.
- TDA-20: a tie is split as evenly as possible (a 66-chip pot two ways is 33 and 33); in a
  high-low pot two players who each win both halves get 33 each, never 34 and 32.
- RRoP-BR.7: splits are made in the smallest chip that plays; a remainder smaller than it
  goes with the first share.
- RRoP-14.17: dealing twice divides the pot in two, each part dealt for separately.
- CR-BB.1 (TDA 32's dead button): with a dead button the odd chip is counted from the
  button's seat number, where nobody sits.
- CR-DM.1: dead money (a big-blind ante, a dead post) is won with the main pot.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine import citations as rule
from rules.engine.errors import BadInput
from rules.engine.pots import Pot, split_pot

Ranking = tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Board:
    """One board's result: ``ranking`` best first (ties share a group); ``low_ranking`` the
    qualifying lows best first, None when the game has no low half."""

    ranking: Ranking
    low_ranking: Ranking | None = None


@dataclass(frozen=True, slots=True)
class Showdown:
    """One board, or two when the players ran it twice."""

    boards: tuple[Board, ...]


@dataclass(frozen=True, slots=True)
class AwardedPot:
    pot: Pot
    awards: dict[int, int]

    def to_dict(self) -> dict[str, object]:
        return {
            **self.pot.to_dict(),
            "awards": [{"seat": s, "amount": self.awards[s]} for s in sorted(self.awards)],
        }


# --- reading the showdown ---------------------------------------------------------------------


def _ranking(raw: Any, field: str, dealt: Collection[int]) -> Ranking:
    """A list of groups of seat numbers, each seat dealt in and named once."""
    if not isinstance(raw, list):
        raise BadInput(f"`{field}` must be a list of groups of seat numbers.", field)
    if len(raw) > len(dealt):
        raise BadInput(f"`{field}` has more groups than players dealt in.", field)
    seen: set[int] = set()
    groups = []
    for g, group in enumerate(raw):
        where = f"{field}.{g}"
        if not isinstance(group, list) or not group:
            raise BadInput(f"`{where}` must be a non-empty list of seat numbers.", where)
        if len(group) > len(dealt):
            raise BadInput(f"`{where}` has more seats than players dealt in.", where)
        for s, seat in enumerate(group):
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise BadInput(f"`{where}.{s}` must be a seat number.", f"{where}.{s}")
            if seat not in dealt:
                raise BadInput(f"Seat {seat} is not dealt in.", f"{where}.{s}")
            if seat in seen:
                raise BadInput(f"Seat {seat} is ranked twice.", f"{where}.{s}")
            seen.add(seat)
        groups.append(tuple(group))
    return tuple(groups)


def _board(raw: Any, field: str, dealt: Collection[int]) -> Board:
    if not isinstance(raw, dict):
        raise BadInput(f"`{field}` must be an object {{ranking, low_ranking}}.", field)
    if raw.get("ranking") is None:
        raise BadInput(f"`{field}.ranking` is required.", f"{field}.ranking")
    ranking = _ranking(raw["ranking"], f"{field}.ranking", dealt)
    low = raw.get("low_ranking")
    low_ranking = None if low is None else _ranking(low, f"{field}.low_ranking", dealt)
    return Board(ranking, low_ranking)


def _same(one: Ranking, other: Ranking | None) -> bool:
    """The same groups in the same order (a group's seats in any order)."""
    return other is not None and [set(g) for g in one] == [set(g) for g in other]


def parse_showdown(raw: Any, *, dealt: Collection[int]) -> Showdown:
    """Read ``{"ranking", "low_ranking", "boards"}``: the form only (seats dealt in, none
    twice, two boards when run twice, a top-level ranking equal to the first board's).
    Whether the rankings name the right players is ``check_showdown``'s question."""
    if raw is None:
        raise BadInput("`showdown.ranking` is required unless the hand is complete.", "showdown")
    if not isinstance(raw, dict):
        raise BadInput("`showdown` must be an object.", "showdown")
    boards = raw.get("boards")
    if boards is None:
        return Showdown((_board(raw, "showdown", dealt),))
    if not isinstance(boards, list) or len(boards) != 2:
        raise BadInput(
            "Run it twice: `showdown.boards` has exactly two entries.", "showdown.boards"
        )
    parsed = tuple(_board(board, f"showdown.boards.{i}", dealt) for i, board in enumerate(boards))
    first = parsed[0]
    top = raw.get("ranking")
    if top is not None and not _same(_ranking(top, "showdown.ranking", dealt), first.ranking):
        raise BadInput(
            "`showdown.ranking` must equal the first board's ranking.", "showdown.ranking"
        )
    if raw.get("low_ranking") is not None:
        low = _ranking(raw["low_ranking"], "showdown.low_ranking", dealt)
        if not _same(low, first.low_ranking):
            raise BadInput(
                "`showdown.low_ranking` must equal the first board's low ranking.",
                "showdown.low_ranking",
            )
    return Showdown(parsed)


def check_showdown(showdown: Showdown, *, live: Collection[int]) -> None:
    """Every ranking names only players still in the hand, and each ``ranking`` names them
    all (a low ranking leaves out the players with no qualifying low)."""
    several = len(showdown.boards) > 1
    for b, board in enumerate(showdown.boards):
        base = f"showdown.boards.{b}" if several else "showdown"
        for name, ranking in (("ranking", board.ranking), ("low_ranking", board.low_ranking)):
            for g, group in enumerate(ranking or ()):
                for s, seat in enumerate(group):
                    if seat not in live:
                        raise BadInput(
                            f"Seat {seat} has folded: only players still in the hand are ranked.",
                            f"{base}.{name}.{g}.{s}",
                        )
        ranked = {seat for group in board.ranking for seat in group}
        missing = sorted(set(live) - ranked)
        if missing:
            raise BadInput(
                f"`{base}.ranking` leaves out seat {missing[0]}, still in the hand.",
                f"{base}.ranking",
            )


# --- splitting ------------------------------------------------------------------------------


def halves(amount: int, min_chip: int) -> tuple[int, int]:
    """A pot halved in whole units of the smallest chip: the first half takes the odd unit
    and any remainder smaller than a unit."""
    second = amount // min_chip // 2 * min_chip
    return amount - second, second


def _best(ranking: Ranking | None, eligible: Collection[int]) -> tuple[int, ...]:
    """The best-ranked group's players eligible for the pot (none: nobody qualifies)."""
    for group in ranking or ():
        winners = tuple(seat for seat in group if seat in eligible)
        if winners:
            return winners
    return ()


class _Splitter:
    """Splits amounts among winners and notes the rules each split applied."""

    def __init__(self, button: int, seat_order: Sequence[int], min_chip: int) -> None:
        self.button, self.seat_order, self.min_chip = button, seat_order, min_chip
        self.cited: dict[str, None] = {}

    def cite(self, *citations: str) -> None:
        self.cited.update(dict.fromkeys(citations))

    def split(self, amount: int, winners: Sequence[int], into: dict[int, int]) -> None:
        if len(winners) > 1:
            self.cite(rule.SPLIT_EVENLY)
            if self.min_chip > 1:
                self.cite(rule.SMALLEST_CHIP)
            if amount // self.min_chip % len(winners):
                self.cite(rule.ODD_CHIP)
                if self.button not in self.seat_order:
                    self.cite(rule.DEAD_BUTTON)  # counted from the dead button's seat
        shares = split_pot(amount, winners, self.button, self.seat_order, self.min_chip)
        for seat, share in shares.items():
            into[seat] = into.get(seat, 0) + share

    def board(
        self, amount: int, board: Board, eligible: Collection[int], into: dict[int, int]
    ) -> None:
        high = _best(board.ranking, eligible)
        low = _best(board.low_ranking, eligible)
        if board.low_ranking is not None:
            self.cite(rule.HIGH_LOW)
        if not low or set(low) == set(high):
            # No qualifying low: all to high. The same players win both halves: TDA-20's
            # 66-chip example splits the whole pot among them (33 and 33, never 34 and 32).
            self.split(amount, high, into)
            return
        high_half, low_half = halves(amount, self.min_chip)
        self.split(high_half, high, into)
        self.split(low_half, low, into)


def award_pots(
    *,
    pots: Sequence[Pot],
    showdown: Showdown | None,
    button: int,
    seat_order: Sequence[int],
    min_chip: int,
    dead_money: int = 0,
) -> tuple[list[AwardedPot], list[str]]:
    """Award each pot on its own (RRoP-TI.5 (d)) to the best-ranked players eligible for it.
    ``showdown`` None: one player is left (the hand is complete) and wins every pot.
    ``dead_money``: how much of the main pot is dead money (CR-DM.1, cited when any is).
    Returns the awarded pots, main pot first, and the citations of the rules applied."""
    splitter = _Splitter(button, seat_order, min_chip)
    if dead_money:
        splitter.cite(rule.DEAD_MONEY)
    if len(pots) > 1:
        splitter.cite(rule.SEPARATE_POTS)
    if showdown is not None and len(showdown.boards) > 1:
        splitter.cite(rule.NL_RUN_IT_TWICE)
    result = []
    for pot in pots:
        awards: dict[int, int] = {}
        if showdown is None:
            splitter.split(pot.amount, pot.eligible, awards)
        elif len(showdown.boards) == 1:
            splitter.board(pot.amount, showdown.boards[0], pot.eligible, awards)
        else:
            # RRoP-14.17: the pot divided in two, the first board taking the odd unit.
            for board, part in zip(showdown.boards, halves(pot.amount, min_chip), strict=True):
                splitter.board(part, board, pot.eligible, awards)
        result.append(AwardedPot(pot, awards))
    return result, list(splitter.cited)


def award_hand(
    *,
    pots: Sequence[Pot],
    showdown: Showdown | None,
    button: int,
    stacks: Mapping[int, int],
    returned: Mapping[int, int],
    min_chip: int,
    dead_money: int = 0,
) -> dict[str, Any]:
    """The contract's response body: the pots with their awards, the chips returned, and
    every dealt-in seat's stack after the award (``stacks``: chips behind once the betting
    closed, returns included; ``dead_money`` the hand's dead money, in the main pot)."""
    order = sorted(stacks)
    awarded, citations = award_pots(
        pots=pots,
        showdown=showdown,
        button=button,
        seat_order=order,
        min_chip=min_chip,
        dead_money=dead_money,
    )
    after = dict(stacks)
    for pot in awarded:
        for seat, amount in pot.awards.items():
            after[seat] += amount
    return {
        "pots": [pot.to_dict() for pot in awarded],
        "returned": [{"seat": s, "amount": returned[s]} for s in sorted(returned) if returned[s]],
        "stacks": [{"seat": s, "stack": after[s]} for s in order],
        "citations": citations,
    }
