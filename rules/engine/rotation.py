"""Planning the next hand at a table: the button, the blinds, who is dealt in, who posts
missed blinds or a new player's big blind, who waits for the big blind, and what each seat
owes afterwards, with the rules applied.

Pure: the caller passes the seats (``SeatState``), the last hand's positions (``Previous``)
and the table's rules; ``plan_next_hand`` answers a ``Plan`` that ``posting.start_hand`` deals
as it is (``Blinds(plan.small, plan.big)``, ``plan.posts``, seats ``plan.dealt``).

- The dead button (CR-BB.1, TDA 32's practice; tournaments, and cash tables whose rule is
  "dead"): the big blind moves to the next active player after the last big blind, the small
  blind is the last big blind's seat (dead when nobody is dealt in there, CR-BB.2), the button
  the last small blind's seat.
- The moving button (CR-BB.4; cash tables whose rule is "moving"): the button moves to the next
  player, the small blind is the next player after it, the big blind the next after that; but
  the big blind never passes a player who is new, owes or waits: the first one after the last
  big blind takes it, with the two players before them in the small blind and on the button.
- Missed blinds (CR-BB.5): a seat sitting out that the big blind passes owes a big and a small
  blind; one the small blind alone passes (or falls on, dead) owes a small blind. On return the
  player posts them (CR-BB.3) or waits for the big blind.
- New players (CR-BB.6) post one big blind or wait for it; a game that starts deals everyone.
- A table's first hand (no last hand): the button by a draw for it, high card (CR-BB.9,
  ``button_draw``), when the caller passes the ``random.Random`` of the seed it stores.
- Heads-up (CR-BB.7): the button posts the small blind, the other player the big blind, and the
  big blind always moves on, so nobody posts it twice in a row. Under the moving button a
  player waiting whose seat the heads-up big blind would pass takes it: three are dealt in.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rules.engine import citations as cite
from rules.engine.button_draw import ButtonDraw, draw_for_button
from rules.engine.errors import BadInput, is_int
from rules.engine.posting import Post
from rules.engine.seat_order import first_blinds, next_after

RULES = ("dead", "moving")
MISSED_BLIND_RULES = ("post", "wait")


@dataclass(frozen=True, slots=True)
class SeatState:
    """A seat with a player: ``active`` = has chips and is playing (not sitting out)."""

    seat: int
    active: bool
    owes_big: bool = False
    owes_small: bool = False
    new: bool = False  # never dealt a hand at this table
    waits: bool = False  # chose (or must) wait for the big blind
    #: Chips before the deal; None: not said (a straddle table then takes it that the player
    #: after the big blind can cover the straddle).
    stack: int | None = None

    @property
    def flagged(self) -> bool:
        """Owes blinds, is new, or waits: not dealt in for free (CR-BB.5, CR-BB.6)."""
        return self.owes_big or self.owes_small or self.new or self.waits


@dataclass(frozen=True, slots=True)
class Previous:
    """The last hand's button and blinds (``small`` None: the small blind was dead)."""

    button: int
    small: int | None
    big: int


@dataclass(frozen=True, slots=True)
class Plan:
    button: int
    small: int | None  # None: a dead small blind (CR-BB.2)
    big: int
    dealt: tuple[int, ...]  # seats dealt in, ascending
    posts: tuple[Post, ...]  # missed blinds made up / a new player's big blind
    waiting: tuple[int, ...]  # active seats not dealt in: waiting for the big blind
    missed: dict[int, tuple[bool, bool]]  # every seat given -> (owes big, owes small) after
    cleared: tuple[int, ...]  # seats whose debts / new / waits this hand settles
    citations: tuple[str, ...]
    #: The draw that placed a table's first button (CR-BB.9), when one was made.
    draw: ButtonDraw | None = None


def plan_next_hand(
    *,
    seats: Sequence[SeatState],
    previous: Previous | None,
    rule: str,
    missed_blinds: str,
    small_blind: int,
    big_blind: int,
    straddle: bool = False,
    ante: int = 0,
    draw: random.Random | None = None,
) -> Plan:
    """The next hand at a table whose button rule is ``rule`` ("dead" or "moving") and whose
    missed-blind rule is ``missed_blinds`` ("post": a player who owes may post or wait, as
    their ``waits`` says; "wait": must wait for the big blind). The posts carry chips: the big
    blind live, the small blind dead. ``straddle``: the game posts a straddle (the player
    after the big blind posts it and makes up no missed blind, CR-BB.3) when that player's
    ``stack``, less every player's ``ante``, covers it. ``draw``: at a table's first hand
    (``previous`` None) the button goes to the high card of a draw for it made with this
    ``random.Random`` (CR-BB.9), not to the lowest seat. ``BadInput`` when the input is
    malformed or fewer than two players can be dealt in."""
    by_seat = _check(seats, previous, rule, missed_blinds, small_blind, big_blind, ante)
    active = sorted(s.seat for s in seats if s.active)
    clean = [n for n in active if not by_seat[n].flagged]
    if len(active) < 2:
        raise BadInput(
            f"Fewer than two players can be dealt in ({len(active)} playing).",
            "seats",
            citations=(rule_id(rule),),
        )
    cited: list[str] = [rule_id(rule)]
    if previous is None or len(clean) < 2:
        drawn = draw_for_button(active, draw) if previous is None and draw is not None else None
        return _new_game(seats, previous, active, cited, drawn)
    spots = _positions(rule, previous, by_seat, active, clean)
    button, small, big = spots.button, spots.small, spots.big
    dealt = set(clean) | {big} | ({small} if small is not None else set())
    posting: list[int] = []
    waiting: list[int] = []
    for n in active:
        if n in dealt:
            continue
        if n in spots.between or missed_blinds == "wait" or by_seat[n].waits:
            waiting.append(n)
        else:
            posting.append(n)
    dealt |= set(posting)

    if len(dealt) == 2:
        # CR-BB.7: heads-up the button posts the small blind. The big blind has moved on to
        # the next player as always, so nobody posts it twice in a row, also when a table goes
        # from three players to two (the other player may post the small blind twice).
        button = small = next(n for n in dealt if n != big)
        cited.append(cite.HEADS_UP)
    elif small is None:
        cited.append(cite.DEAD_SMALL_BLIND)

    order = sorted(dealt)
    straddler = next_after(big, order)
    may_straddle = straddle and len(order) > 2 and small is not None and straddler != small
    chips = by_seat[straddler].stack
    if may_straddle and chips is not None and chips - min(ante, chips) < 2 * big_blind:
        # RRoP-14.14: the straddle is twice the big blind, posted whole or not at all (the
        # contract's "Straddle not posted", after the ante): a player who cannot cover it does
        # not straddle and makes up what they owe like anyone else (CR-BB.3).
        may_straddle = False
    posts: list[Post] = []
    for n in posting:
        if may_straddle and n == straddler:
            continue  # CR-BB.3: the straddle settles what they owe
        state = by_seat[n]
        live = big_blind if state.owes_big or state.new else 0
        dead = small_blind if state.owes_small else 0
        if live or dead:
            posts.append(Post(n, live, dead))

    missed, accrued = _debts(rule, seats, previous, spots, dealt)
    cleared = tuple(n for n in order if by_seat[n].flagged)
    owed = [n for n in (*cleared, *waiting) if by_seat[n].owes_big or by_seat[n].owes_small]
    if posts or owed:
        cited.append(cite.MISSED_BLINDS)
    if accrued or owed:
        cited.append(cite.MISSED_BLINDS_ACCRUE)
    if any(by_seat[n].new or by_seat[n].waits for n in (*cleared, *waiting)):
        cited.append(cite.NEW_PLAYER)
    return Plan(
        button=button,
        small=small,
        big=big,
        dealt=tuple(order),
        posts=tuple(posts),
        waiting=tuple(waiting),
        missed=missed,
        cleared=cleared,
        citations=tuple(dict.fromkeys(cited)),
    )


@dataclass(frozen=True, slots=True)
class _Spots:
    """Where the blinds fall before heads-up is settled: ``small_position`` is the small
    blind's seat even when it is dead; ``between`` the seats from the button to the big blind,
    where nobody is dealt in without a blind (CR-BB.6)."""

    button: int
    small: int | None
    big: int
    small_position: int
    between: set[int]


def _positions(
    rule: str,
    previous: Previous,
    by_seat: dict[int, SeatState],
    active: list[int],
    clean: list[int],
) -> _Spots:
    """The button and the blinds after ``previous`` by the table's button rule."""
    if rule == "dead":
        # CR-BB.1: the big blind moves on to the next player (a waiting player there takes
        # it); the small blind is the last big blind's seat, dead without a player (CR-BB.2).
        big = next_after(previous.big, active)
        small_position = previous.big
        small: int | None = previous.big if previous.big in active else None
        if previous.small is not None and previous.small not in (big, previous.big):
            button = previous.small
        else:
            # The last small blind was dead, or the last hand was heads-up and its button is
            # now the big blind: the button goes to the seat before the small blind's, and
            # nobody is dealt in between it and the small blind (CR-BB.1).
            button = _seat_before(previous.big, by_seat, previous)
        return _Spots(button, small, big, small_position, _open(button, big, active) | {button})
    # CR-BB.4: the button, then the small blind, move on to the next player who has been
    # playing; the big blind is the next player after the small blind.
    button = next_after(previous.button, clean)
    small = next_after(button, clean)
    big = next_after(small, active)
    small_position = small
    # Flagged players: the big blind takes one in; one between the button and the big blind
    # waits (nobody is dealt in there without a blind, CR-BB.6); the others post or wait as
    # the table's rule and their choice say (CR-BB.5).
    between = _open(button, big, active) | {button}
    if big == button:
        # Only two players have been playing (the others sit between them): heads-up between
        # those two (CR-BB.7). The big blind moves on to the player after the last big blind,
        # as the TDA adjusts the button going heads-up, so nobody posts it twice in a row; the
        # others wait this hand (unless it passes one of them, below; the next hand it
        # reaches them, CR-BB.4).
        big = next_after(previous.big, clean)
        button = small = small_position = next(n for n in clean if n != big)
        between = set(active)
    passed = _open(previous.big, big, active).difference(clean)
    if passed:
        # CR-BB.4: the big blind never passes a player who is new, owes blinds or waits for
        # it: the first one after the last big blind takes it and owes nothing more, and the
        # small blind and the button are the two players before them who have been playing
        # (the button may stay where it was; with two of those, three are dealt in).
        big = next_after(previous.big, passed)
        small = small_position = _before(big, clean)
        button = _before(small, clean)
        between = _open(button, big, active) | {button}
    elif small == previous.small and previous.big in clean:
        # Coming out of heads-up (or after a correction) the button moving on would give the
        # last small blind the small blind again and the big blind would pass them: the big
        # blind moves on to the next player instead, the small blind is the last big blind
        # and the button the player before; heads-up again when only two have been playing,
        # the others waiting for the big blind, which reaches them next (CR-BB.4, CR-BB.7).
        big = next_after(previous.big, active)
        small = small_position = _before(big, clean)
        button = _before(small, clean)
        between = _open(button, big, active) | {button}
        if button == big:
            button = small
            between = set(active)
    return _Spots(button, small, big, small_position, between)


def _debts(
    rule: str,
    seats: Sequence[SeatState],
    previous: Previous,
    spots: _Spots,
    dealt: set[int],
) -> tuple[dict[int, tuple[bool, bool]], bool]:
    """What every seat owes after the hand (owes big, owes small), and whether a debt accrued:
    CR-BB.5, the seats sitting out that the blinds passed (a new player owes nothing)."""
    big, small_position = spots.big, spots.small_position
    sitting_out = {s.seat for s in seats if not s.active and not s.new}
    passed_big = _open(previous.big, big, sitting_out)
    low = previous.small if previous.small is not None else previous.button
    # The small blind passes the seats from the last one to its new seat, when it has moved
    # on: under the moving button it may stay, or go back to the player before a big blind
    # that has moved on to a waiting player (CR-BB.4).
    moved_on = rule == "dead" or (
        small_position != low
        and (low == big or small_position in _open(low, big, {small_position}))
    )
    passed_small = _open(low, small_position, sitting_out) if moved_on else set()
    if rule == "dead" and small_position in sitting_out:
        passed_small.add(small_position)  # the dead small blind fell on them
    missed: dict[int, tuple[bool, bool]] = {}
    accrued = False
    for s in seats:
        owes = (s.owes_big, s.owes_small)
        if s.seat in dealt:
            missed[s.seat] = (False, False)
        elif s.seat in sitting_out:
            big_passed = s.seat in passed_big
            missed[s.seat] = (
                owes[0] or big_passed,
                owes[1] or big_passed or s.seat in passed_small,
            )
            accrued |= missed[s.seat] != owes
        else:
            missed[s.seat] = owes
    return missed, accrued


def rule_id(button_rule: str) -> str:
    return cite.DEAD_BUTTON if button_rule == "dead" else cite.MOVING_BUTTON


def _new_game(
    seats: Sequence[SeatState],
    previous: Previous | None,
    active: list[int],
    cited: list[str],
    drawn: ButtonDraw | None = None,
) -> Plan:
    """CR-BB.6: a game starts (no last hand, or fewer than two players who have been
    playing): everyone playing is dealt in, nobody posts, debts are forgiven. The button is
    the next player after the last button; at a table's first hand, the high card of the
    draw for the button (CR-BB.9), or the first player without one. The blinds follow it
    (CR-BB.7 heads-up)."""
    if drawn is not None:
        button = drawn.button
        cited.extend(drawn.citations)
    else:
        button = active[0] if previous is None else next_after(previous.button, active)
    first = first_blinds(button, active)
    if len(active) == 2:
        cited.append(cite.HEADS_UP)
    cited.append(cite.NEW_PLAYER)
    dealt = set(active)
    by_seat = {s.seat: s for s in seats}
    return Plan(
        button=first.button,
        small=first.small,
        big=first.big,
        dealt=tuple(active),
        posts=(),
        waiting=(),
        missed={
            s.seat: (False, False) if s.seat in dealt else (s.owes_big, s.owes_small) for s in seats
        },
        cleared=tuple(n for n in active if by_seat[n].flagged),
        citations=tuple(dict.fromkeys(cited)),
        draw=drawn,
    )


def _before(seat: int, among: Collection[int]) -> int:
    """The first of ``among`` counterclockwise before ``seat`` (itself when the only one)."""
    earlier = [n for n in among if n < seat]
    return max(earlier) if earlier else max(among)


def _open(start: int, end: int, among: Collection[int]) -> set[int]:
    """The seats of ``among`` strictly between ``start`` and ``end`` clockwise (every other
    seat when they are the same)."""
    if start < end:
        return {n for n in among if start < n < end}
    return {n for n in among if n > start or n < end} - {start}


def _seat_before(seat: int, by_seat: dict[int, SeatState], previous: Previous) -> int:
    """The seat number before ``seat`` (before seat 1, the highest seat known): the button's
    seat when it cannot be the last small blind's (CR-BB.1)."""
    if seat > 1:
        return seat - 1
    return max([*by_seat, previous.button, previous.big, previous.small or 0])


def _check(
    seats: Sequence[SeatState],
    previous: Previous | None,
    button_rule: str,
    missed_blinds: str,
    small_blind: int,
    big_blind: int,
    ante: int,
) -> dict[int, SeatState]:
    if button_rule not in RULES:
        raise BadInput(f"The button rule is 'dead' or 'moving', not {button_rule!r}.", "rule")
    if missed_blinds not in MISSED_BLIND_RULES:
        raise BadInput(
            f"The missed-blind rule is 'post' or 'wait', not {missed_blinds!r}.", "missed_blinds"
        )
    for name, value in (("small_blind", small_blind), ("big_blind", big_blind), ("ante", ante)):
        if not is_int(value) or value < 0:
            raise BadInput(f"The {name.replace('_', ' ')} is a whole number from 0.", name)
    by_seat: dict[int, SeatState] = {}
    for index, state in enumerate(seats):
        if not isinstance(state, SeatState) or not is_int(state.seat) or state.seat < 1:
            raise BadInput("A seat number is a whole number from 1.", f"seats.{index}")
        if state.seat in by_seat:
            raise BadInput(f"Seat {state.seat} is given twice.", f"seats.{index}")
        if state.stack is not None and (not is_int(state.stack) or state.stack < 0):
            raise BadInput("A stack is a whole number of chips from 0.", f"seats.{index}.stack")
        by_seat[state.seat] = state
    if previous is not None:
        for name in ("button", "small", "big"):
            value = getattr(previous, name)
            if value is not None and (not is_int(value) or value < 1):
                raise BadInput("The last hand's positions are seat numbers.", f"previous.{name}")
    return by_seat
