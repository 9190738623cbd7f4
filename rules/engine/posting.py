"""Dealing a hand in and posting its forced bets: antes, blinds, the big-blind ante, the
straddle, and the posts of players making up missed blinds.

Without ``Blinds`` the blinds follow the button (version 1 of the betting contract); with them
the request names the blind seats and the button may be dead (CR-BB.1, TDA 32's dead button
for tournaments) and the small blind too (CR-BB.2). ``Post`` is a cash-game player making up
missed blinds (CR-BB.3): ``live`` counts toward their wager like a big blind (with its
option), ``dead`` goes into the pot as dead money (CR-DM.1). The big-blind ante (CR-DM.2) is
dead money too. The TDA's own text of Rule 32 is not in the bundled sources: the rulebook's
CR book holds Cardroom's written procedures, and refusals here cite them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.engine import citations as rule
from rules.engine.config import GameConfig, Structure
from rules.engine.errors import BadInput, is_int
from rules.engine.hand import STREETS, HandState, Seat, pass_action
from rules.engine.seat_order import clockwise_from, first_blinds, next_after


@dataclass(frozen=True, slots=True)
class Blinds:
    """The seats posting the blinds: ``small`` None is a dead small blind (nobody posts it)."""

    small: int | None
    big: int


@dataclass(frozen=True, slots=True)
class Post:
    """Missed blinds made up: ``live`` (0 or the big blind) counts toward the player's wager,
    ``dead`` (0 or the small blind) is dead money in the pot."""

    seat: int
    live: int = 0
    dead: int = 0


def start_hand(
    config: GameConfig,
    button: int,
    seats: Sequence[Seat],
    blinds: Blinds | None = None,
    posts: Sequence[Post] = (),
) -> HandState:
    """Deal ``seats`` in and post the antes, the blinds, the big-blind ante, the straddle and
    the posts, in that order (a player who cannot cover one posts what they have and is
    all-in). ``BadInput`` names the field (dotted path) of whatever cannot be dealt."""
    if not isinstance(config, GameConfig):
        raise BadInput("The game must be a GameConfig.", "game")
    if len(seats) < 2:
        raise BadInput("A hand needs at least two players dealt in.", "seats")
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        raise BadInput("Each seat may be dealt in only once.", "seats")
    if not is_int(button) or button < 1:
        raise BadInput("The button is a seat number.", "button")
    if blinds is None and button not in numbers:
        raise BadInput(f"The button (seat {button!r}) must be a seat dealt in.", "button")
    order = tuple(sorted(numbers))
    count = len(order)

    state = HandState.__new__(HandState)
    state.config = config
    state.button = button
    state.seat_order = order
    state.next_seat = {seat: next_after(seat, order) for seat in order}
    # The seat dealt in at or before the button's seat number (the button itself when dealt
    # in), last round from the button: later streets start left of it, whether or not the
    # button is dealt in (CR-BB.1).
    state.first_after_button = clockwise_from(button, order)[-1]
    state.stacks = {s.seat: s.stack for s in seats}
    state.street_wager = dict.fromkeys(order, 0)
    state.total_contributed = dict.fromkeys(order, 0)
    state.dead = dict.fromkeys(order, 0)
    state.folded = set()
    state.acted_level = dict.fromkeys(order, -1)
    state.street, state.street_index = STREETS[0], 0
    state.to_act = None
    state.pot = 0
    state.raises, state.capped = 0, False
    state.limit = config.structure is Structure.FIXED_LIMIT
    state.held, state.voided = [], []
    state.returned = {}

    stacks, contributed = state.stacks, state.total_contributed
    # Antes are dead money: in the pot, not part of anyone's wager on the street.
    if config.ante:
        for seat in order:
            paid = min(config.ante, stacks[seat])
            stacks[seat] -= paid
            contributed[seat] += paid
            state.pot += paid

    nxt = state.next_seat
    heads_up = count == 2
    sb_seat, bb_seat = _blind_seats(state, blinds)
    state.sb_seat, state.bb_seat = sb_seat, bb_seat
    if sb_seat is not None:
        _post(state, sb_seat, config.small_blind)
    _post(state, bb_seat, config.big_blind)
    if config.big_blind_ante:
        # CR-DM.2: dead money from the big blind for the table, after the blind: a big blind
        # who cannot cover both posts the blind first. CR-DM.1 (contract v2 "Dead money"): it
        # counts toward nobody's wager or pot level and is never returned as uncalled.
        _post_dead(state, bb_seat, config.big_blind_ante)
    # RRoP-4.2: a short big blind still makes the full big blind the bet to call.
    state.current_bet = state.bring_in = config.big_blind
    last_forced = bb_seat
    # Contract v2: the straddle seat is the first dealt in after the big blind; no straddle
    # heads-up or behind a dead small blind (CR-BB.2; fixed limit has none: ``GameConfig``).
    straddler = nxt[bb_seat]
    may_straddle = not heads_up and sb_seat is not None and straddler != sb_seat
    straddled = bool(config.straddle) and may_straddle and stacks[straddler] >= config.straddle
    if straddled:
        # RRoP-14.14: the seat left of the big blind "must post an amount twice the size of
        # the big blind": one who cannot post the whole straddle (after the ante) posts none,
        # and the big blind stays the bet (contract v2, "Straddle not posted").
        # RRoP-14.2: a straddle sets a new bring-in and is not treated as a raise. It acts
        # last preflop.
        last_forced = straddler
        _post(state, straddler, config.straddle)
        state.current_bet = state.bring_in = config.straddle
    # CR-BB.3: a player who posts a blind or the straddle makes up no missed blind; one who
    # could not post the straddle posted none, and makes up what they owe like anyone else.
    forced = {bb_seat, sb_seat, straddler if straddled else None}
    _make_posts(state, posts, forced)
    state.full_level = state.current_bet
    state.min_raise_increment = config.bet_size(0) if state.limit else state.bring_in
    state.live_count = count
    state.able_count = sum(1 for seat in order if stacks[seat] > 0)
    if state.limit and config.raise_cap == 0 and state.able_count >= 3:
        state.capped = True  # RRoP-BR.3 with no raises allowed: the blind bet is the cap
    pass_action(state, last_forced)
    return state


def _blind_seats(state: HandState, blinds: Blinds | None) -> tuple[int | None, int]:
    """The small blind's seat (None: dead) and the big blind's."""
    nxt = state.next_seat
    if blinds is None:
        # The blinds follow the button as at a game's first hand (CR-BB.7: heads-up the button
        # posts the small blind and acts first preflop).
        first = first_blinds(state.button, state.seat_order)
        return first.small, first.big
    # CR-BB.1: the button may be any seat, dealt in or not; the blinds are players.
    if blinds.big not in nxt:
        raise BadInput(
            f"The big blind (seat {blinds.big}) must be a seat dealt in.",
            "blinds.big",
            citations=(rule.DEAD_BUTTON,),
        )
    if blinds.small is not None and blinds.small not in nxt:
        raise BadInput(
            f"The small blind (seat {blinds.small}) must be a seat dealt in, or null for a"
            " dead small blind.",
            "blinds.small",
            citations=(rule.DEAD_BUTTON, rule.DEAD_SMALL_BLIND),
        )
    if blinds.small == blinds.big:
        raise BadInput(
            "The small and big blinds are two different seats.",
            "blinds.small",
            citations=(rule.DEAD_BUTTON,),
        )
    return blinds.small, blinds.big


def _make_posts(state: HandState, posts: Sequence[Post], forced: set[int | None]) -> None:
    """Posts after the blinds and the straddle (CR-BB.3): live first, then dead, each as far
    as the player's chips go (RRoP-TR.19: a player short of a forced bet gets action on what
    they have). A live post has the big blind's option: it is this street's wager and the
    player has not acted, so the action comes back to them unraised. A refused post cites
    CR-BB.3."""
    config = state.config
    cited = (rule.MISSED_BLINDS,)
    seen: set[int] = set()
    for index, post in enumerate(posts):
        field = f"posts.{index}"
        if post.seat not in state.next_seat:
            raise BadInput(
                f"Seat {post.seat} posts but is not dealt in.", f"{field}.seat", citations=cited
            )
        if post.seat in forced:
            raise BadInput(
                f"Seat {post.seat} posts a blind or the straddle already.",
                f"{field}.seat",
                citations=cited,
            )
        if post.seat in seen:
            raise BadInput(f"Seat {post.seat} posts twice.", f"{field}.seat", citations=cited)
        seen.add(post.seat)
        if post.live not in (0, config.big_blind):
            raise BadInput(
                f"A live post is the big blind ({config.big_blind}) or 0.",
                f"{field}.live",
                citations=cited,
            )
        if post.dead not in (0, config.small_blind):
            raise BadInput(
                f"A dead post is the small blind ({config.small_blind}) or 0.",
                f"{field}.dead",
                citations=cited,
            )
        if post.live:
            _post(state, post.seat, post.live)
        if post.dead:
            _post_dead(state, post.seat, post.dead)


def _post(state: HandState, seat: int, amount: int) -> None:
    paid = min(amount, state.stacks[seat])
    state.stacks[seat] -= paid
    state.street_wager[seat] += paid
    state.total_contributed[seat] += paid
    state.pot += paid


def _post_dead(state: HandState, seat: int, amount: int) -> None:
    """Dead money (CR-DM.1, contract v2): in the main pot, toward nobody's wager or pot
    level."""
    paid = min(amount, state.stacks[seat])
    state.stacks[seat] -= paid
    state.total_contributed[seat] += paid
    state.dead[seat] += paid
    state.pot += paid
