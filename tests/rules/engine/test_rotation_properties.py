"""Properties of ``plan_next_hand`` over random tables (CR-BB.1-7): the plan is always
dealable by ``posting.start_hand``; the blinds are players dealt in; a player sitting out is
never dealt in; the dead button gives every player the big blind once an orbit and nobody
twice in a row; debts accrue exactly for the players sitting out whom the blinds passed.

Pure: runs with ``-p no:django``."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine.config import GameConfig
from rules.engine.errors import BadInput
from rules.engine.posting import Blinds, start_hand
from rules.engine.rotation import Plan, Previous, SeatState, plan_next_hand
from rules.engine.state import Seat

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_SEAT = 10
Table = tuple[list[SeatState], Previous | None, str, str]


@st.composite
def tables(draw: st.DrawFn) -> Table:
    numbers = draw(st.lists(st.integers(1, MAX_SEAT), min_size=2, max_size=MAX_SEAT, unique=True))
    seats = [
        SeatState(
            n,
            active=draw(st.booleans()) or draw(st.booleans()),
            owes_big=draw(st.booleans()) and draw(st.booleans()),
            owes_small=draw(st.booleans()) and draw(st.booleans()),
            new=draw(st.booleans()) and draw(st.booleans()),
            waits=draw(st.booleans()) and draw(st.booleans()) and draw(st.booleans()),
        )
        for n in sorted(numbers)
    ]
    previous = None
    if draw(st.integers(0, 5)):
        big = draw(st.integers(1, MAX_SEAT))
        small = draw(st.none() | st.integers(1, MAX_SEAT))  # a dealer's correction: anything
        button = draw(st.integers(1, MAX_SEAT))
        previous = Previous(button, small, big)
    rule = draw(st.sampled_from(["dead", "moving"]))
    missed = draw(st.sampled_from(["post", "wait"]))
    return seats, previous, rule, missed


def clockwise_between(start: int, end: int, n: int) -> bool:
    """``n`` strictly between ``start`` and ``end`` going up the seat numbers and round."""
    if start < end:
        return start < n < end
    return n != start and (n > start or n < end)


def plan_for(
    seats: list[SeatState],
    previous: Previous | None,
    rule: str,
    missed: str,
    straddle: bool = False,
) -> Plan | None:
    try:
        return plan_next_hand(
            seats=seats,
            previous=previous,
            rule=rule,
            missed_blinds=missed,
            small_blind=50,
            big_blind=100,
            straddle=straddle,
        )
    except BadInput as error:
        assert sum(s.active for s in seats) < 2, error.message
        return None


@SETTINGS
@given(
    tables(), st.booleans(), st.lists(st.integers(1, 2000), min_size=MAX_SEAT, max_size=MAX_SEAT)
)
def test_the_plan_is_always_dealable(table: Table, straddle: bool, stacks: list[int]) -> None:
    seats, previous, rule, missed = table
    seats = [replace(s, stack=stacks[s.seat - 1]) for s in seats]
    plan = plan_for(seats, previous, rule, missed, straddle)
    if plan is None:
        return
    config = GameConfig.from_dict(
        {
            "structure": "no_limit",
            "small_blind": 50,
            "big_blind": 100,
            "straddle": 200 if straddle else 0,
        }
    )
    state = start_hand(
        config,
        plan.button,
        [Seat(n, stacks[n - 1]) for n in plan.dealt],
        Blinds(plan.small, plan.big),
        plan.posts,
    )
    assert state.bb_seat == plan.big and state.sb_seat == plan.small
    clean = [s for s in seats if s.active and not s.flagged]
    if previous is None or len(clean) < 2:
        return  # a new game: everyone dealt in, debts forgiven (CR-BB.6)
    # Nobody who owes, is new or waits is dealt in for nothing: they post a blind, the straddle
    # (only when they can cover it, RRoP-14.14) or what they owe (CR-BB.3).
    posted = {post.seat for post in plan.posts} | {plan.big, plan.small}
    if state.bring_in == 200:
        posted.add(state.next_seat[plan.big])
    assert set(plan.cleared) <= posted, (plan, stacks)


@SETTINGS
@given(tables())
def test_who_is_dealt_in_posts_and_waits(table: Table) -> None:
    seats, previous, rule, missed = table
    plan = plan_for(seats, previous, rule, missed)
    if plan is not None:
        check(plan, seats, rule, missed)


def check(plan: Plan, seats: list[SeatState], rule: str, missed: str) -> None:
    by_seat = {s.seat: s for s in seats}
    active = {s.seat for s in seats if s.active}
    assert plan.dealt == tuple(sorted(plan.dealt)) and len(plan.dealt) >= 2
    # Every player playing is dealt in or waits; nobody sitting out is either.
    assert set(plan.dealt) | set(plan.waiting) == active
    assert not set(plan.dealt) & set(plan.waiting)
    # The big blind is a player dealt in; the small blind too, or dead.
    assert plan.big in plan.dealt
    assert plan.small is None or plan.small in plan.dealt
    assert plan.small != plan.big
    if len(plan.dealt) == 2:
        assert plan.button == plan.small  # CR-BB.7
    # Posts come from players dealt in who owe or are new, never from a blind.
    for post in plan.posts:
        assert post.seat in plan.dealt and post.seat not in (plan.small, plan.big)
        state = by_seat[post.seat]
        assert post.live == (100 if state.owes_big or state.new else 0)
        assert post.dead == (50 if state.owes_small else 0)
        assert not state.waits and missed == "post"
    assert len({p.seat for p in plan.posts}) == len(plan.posts)
    # Whoever is dealt in owes nothing afterwards; a flagged player dealt in is cleared.
    for n in plan.dealt:
        assert plan.missed[n] == (False, False)
        assert (n in plan.cleared) == by_seat[n].flagged
    assert set(plan.missed) == set(by_seat)
    # The moving button is on a player dealt in.
    if rule == "moving":
        assert plan.button in plan.dealt
    assert plan.citations and all(c.startswith("CR-BB.") for c in plan.citations)


@SETTINGS
@given(tables())
def test_debts_accrue_exactly_for_the_players_sitting_out_whom_the_blinds_passed(
    table: Table,
) -> None:
    seats, previous, rule, missed = table
    plan = plan_for(seats, previous, rule, missed)
    if plan is None:
        return
    clean = [s for s in seats if s.active and not s.flagged]
    new_game = previous is None or len(clean) < 2
    for s in seats:
        before = (s.owes_big, s.owes_small)
        after = plan.missed[s.seat]
        if s.active or s.new or new_game:
            assert after in (before, (False, False))
            continue
        assert previous is not None
        big_passed = clockwise_between(previous.big, plan.big, s.seat)
        if rule == "dead":
            low = previous.small if previous.small is not None else previous.button
            small_passed = clockwise_between(low, previous.big, s.seat) or s.seat == previous.big
        else:
            low = previous.small if previous.small is not None else previous.button
            assert plan.small is not None
            # The small blind passes nobody when it stays, or goes back to the player before
            # a big blind that stopped at a waiting player (CR-BB.4).
            moved_on = plan.small != low and (
                low == plan.big or clockwise_between(low, plan.big, plan.small)
            )
            small_passed = moved_on and clockwise_between(low, plan.small, s.seat)
        assert after == (before[0] or big_passed, before[1] or big_passed or small_passed)


@SETTINGS
@given(
    st.lists(st.integers(1, MAX_SEAT), min_size=2, max_size=MAX_SEAT, unique=True),
    st.lists(st.integers(1, MAX_SEAT), max_size=4, unique=True),
    st.sampled_from(["dead", "moving"]),
)
def test_an_orbit_gives_every_player_the_big_blind_once(
    players: list[int], out: list[int], rule: str
) -> None:
    out = [n for n in out if n not in players]
    seats = [SeatState(n, True) for n in players] + [SeatState(n, False) for n in out]
    plan = plan_for(seats, None, rule, "post")
    assert plan is not None
    bigs = [plan.big]
    for _ in range(2 * len(players) - 1):
        plan = plan_for(seats, Previous(plan.button, plan.small, plan.big), rule, "post")
        assert plan is not None
        assert plan.dealt == tuple(sorted(players))
        bigs.append(plan.big)
        if rule == "moving":
            assert plan.button in players
    n = len(players)
    assert sorted(bigs[:n]) == sorted(players) and bigs[n:] == bigs[:n]
    assert all(a != b for a, b in pairwise(bigs))


@SETTINGS
@given(
    st.lists(st.integers(1, MAX_SEAT), min_size=3, max_size=MAX_SEAT, unique=True),
    st.lists(st.integers(0, 30), min_size=1, max_size=12),
    st.sampled_from(["dead", "moving"]),
)
def test_players_leaving_never_give_anyone_the_big_blind_twice_in_a_row(
    players: list[int], leaves: list[int], rule: str
) -> None:
    """Players are eliminated between hands (down to heads-up): the big blind still moves on
    every hand, the heads-up button posts the small blind (CR-BB.7)."""
    seats = [SeatState(n, True) for n in players]
    plan = plan_for(seats, None, rule, "post")
    assert plan is not None
    for leave in leaves:
        if len(seats) > 2 and leave < len(seats):
            seats = seats[:leave] + seats[leave + 1 :]
        previous = Previous(plan.button, plan.small, plan.big)
        nxt = plan_for(seats, previous, rule, "post")
        assert nxt is not None
        assert nxt.big != previous.big
        if len(seats) == 2:
            assert nxt.button == nxt.small
        plan = nxt


@SETTINGS
@given(tables())
def test_a_player_who_waits_takes_the_big_blind_when_it_reaches_them(table: Table) -> None:
    """Over hands with the same seats (those dealt in lose their flags), a player waiting is
    dealt in at the latest when the big blind reaches their seat, within a round."""
    seats, previous, rule, missed = table
    plan = plan_for(seats, previous, rule, missed)
    if plan is None:
        return
    for _ in range(MAX_SEAT + 2):
        if not plan.waiting:
            break
        dealt = set(plan.dealt)
        seats = [
            replace(s, owes_big=False, owes_small=False, new=False, waits=False)
            if s.seat in dealt
            else s
            for s in seats
        ]
        plan = plan_for(seats, Previous(plan.button, plan.small, plan.big), rule, missed)
        assert plan is not None
    assert plan.waiting == ()


def passed_waiting(plan: Plan, seats: list[SeatState], previous: Previous) -> list[int]:
    """Players playing and new, owing or waiting whose seats the big blind went past."""
    return [
        s.seat
        for s in seats
        if s.active and s.flagged and clockwise_between(previous.big, plan.big, s.seat)
    ]


@SETTINGS
@given(tables())
def test_the_big_blind_never_passes_a_player_waiting_for_it(table: Table) -> None:
    """CR-BB.4 (and CR-BB.1: the dead button's big blind passes no player at all): a player
    playing who waits for the big blind, owes or is new is never passed over by it; the first
    one after the last big blind takes it (the heads-up of CR-BB.7 included)."""
    seats, previous, rule, missed = table
    plan = plan_for(seats, previous, rule, missed)
    if plan is None or previous is None:
        return
    assert not [n for n in plan.waiting if clockwise_between(previous.big, plan.big, n)]
    clean = [s for s in seats if s.active and not s.flagged]
    if len(clean) >= 2:  # not a new game (CR-BB.6), where everyone is dealt in
        assert passed_waiting(plan, seats, previous) == []


@st.composite
def evenings(draw: st.DrawFn) -> tuple[str, str, list[list[tuple[str, int, bool]]]]:
    """A cash table over many hands: between hands players sit out, come back (choosing to
    wait or not), sit down new, or leave."""
    step = st.tuples(
        st.sampled_from(["out", "back", "sit", "leave", "none"]),
        st.integers(1, 7),
        st.booleans(),
    )
    hands = draw(st.lists(st.lists(step, max_size=3), min_size=1, max_size=25))
    return draw(st.sampled_from(["dead", "moving"])), draw(st.sampled_from(["post", "wait"])), hands


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings())
def test_an_evening_at_a_cash_table(
    evening: tuple[str, str, list[list[tuple[str, int, bool]]]],
) -> None:
    """The seat map as the desk keeps it (dealt players lose their flags, debts as the plan
    says): every plan holds, the big blind never stays on a player who has been playing, and
    the plan always deals with ``start_hand``."""
    rule, missed, hands = evening
    table = {n: SeatState(n, True) for n in (1, 3, 5)}
    previous: Previous | None = None
    config = GameConfig.from_dict({"structure": "no_limit", "small_blind": 50, "big_blind": 100})
    for changes in hands:
        for kind, seat, choice in changes:
            state = table.get(seat)
            if kind == "sit" and state is None:
                table[seat] = SeatState(seat, True, new=True, waits=choice)
            elif kind == "leave" and state is not None:
                del table[seat]
            elif kind == "out" and state is not None:
                table[seat] = replace(state, active=False)
            elif kind == "back" and state is not None and not state.active:
                table[seat] = replace(state, active=True, waits=choice)
        seats = sorted(table.values(), key=lambda s: s.seat)
        if sum(s.active for s in seats) < 2:
            continue
        plan = plan_next_hand(
            seats=seats, previous=previous, rule=rule, missed_blinds=missed,
            small_blind=50, big_blind=100,
        )  # fmt: skip
        check(plan, seats, rule, missed)
        clean = [s for s in seats if s.active and not s.flagged]
        if (
            previous is not None
            and len(clean) >= 2
            and previous.big in table
            and table[previous.big].active
        ):
            assert plan.big != previous.big
        if previous is not None and len(clean) >= 2:
            assert passed_waiting(plan, seats, previous) == []
            if rule == "moving" and plan.small is not None and plan.small == previous.small:
                # The small blind twice in a row only when the last big blind's player has
                # left, sat out or come back waiting: nobody between to take it (CR-BB.4, 7).
                assert previous.big not in {s.seat for s in clean}
        start_hand(
            config, plan.button, [Seat(n, 1000) for n in plan.dealt],
            Blinds(plan.small, plan.big), plan.posts,
        )  # fmt: skip
        for s in seats:
            big, small = plan.missed[s.seat]
            if s.seat in plan.dealt:
                table[s.seat] = replace(s, owes_big=False, owes_small=False, new=False, waits=False)
            else:
                table[s.seat] = replace(s, owes_big=big, owes_small=small)
        previous = Previous(plan.button, plan.small, plan.big)
