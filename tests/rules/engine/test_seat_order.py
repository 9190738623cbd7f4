"""Going round a table (``rules.engine.seat_order``): the order the deal goes round from a seat,
the next seat after one, and a game's first hand's button and blinds from its button (CR-BB.7
heads-up, CR-BB.1 a dead button). One function each for the whole project: the rotation, the
deal, the odd chip, the desk, the tournament tables and the seat draws all call them, and a
scan of the sources fails when a module goes round the table by hand again.

Pure: runs with ``-p no:django``."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.config import GameConfig, Structure
from rules.engine.errors import BadInput
from rules.engine.hand import Seat
from rules.engine.posting import start_hand
from rules.engine.rotation import SeatState, plan_next_hand
from rules.engine.seat_order import FirstBlinds, clockwise_from, first_blinds, next_after

ROOT = Path(__file__).resolve().parents[3]

seat_sets = st.sets(st.integers(1, 10), min_size=2, max_size=10).map(sorted)


@pytest.mark.parametrize(
    ("seat", "seats", "order"),
    [
        (3, [1, 3, 5, 8], [5, 8, 1, 3]),  # the seat itself last
        (4, [1, 3, 5, 8], [5, 8, 1, 3]),  # a seat nobody is in (a dead button)
        (8, [8, 5, 1, 3], [1, 3, 5, 8]),  # after the highest seat, round to the lowest
        (0, [2, 1], [1, 2]),
    ],
)
def test_the_deal_goes_round_by_rising_seat_numbers_from_the_seat_after(
    seat: int, seats: list[int], order: list[int]
) -> None:
    assert clockwise_from(seat, seats) == order
    assert next_after(seat, seats) == order[0]


def test_the_only_seat_is_next_after_itself_and_no_seat_is_refused() -> None:
    assert next_after(4, [4]) == 4
    with pytest.raises(BadInput):
        next_after(4, [])


FIRST_HANDS = [
    # id, button, seats, (button, small, big): CR-BB.7's heads-up and the blinds after a button
    ("three-or-more", 4, [1, 4, 6, 9], (4, 6, 9)),
    ("wraps-round", 9, [1, 4, 6, 9], (9, 1, 4)),
    ("dead-button", 5, [1, 4, 6, 9], (5, 6, 9)),  # CR-BB.1: the button stays on the empty seat
    ("heads-up", 3, [3, 8], (3, 3, 8)),  # CR-BB.7: the button posts the small blind
    ("heads-up-other", 8, [3, 8], (8, 8, 3)),
    ("heads-up-empty-seat", 5, [3, 8], (3, 3, 8)),  # back to the player before the empty seat
    ("heads-up-empty-wraps", 1, [3, 8], (8, 8, 3)),
]


@pytest.mark.parametrize(
    ("case", "button", "seats", "expected"), FIRST_HANDS, ids=[c[0] for c in FIRST_HANDS]
)
def test_a_first_hands_blinds_follow_the_button(
    case: str, button: int, seats: list[int], expected: tuple[int, int, int]
) -> None:
    assert first_blinds(button, seats) == FirstBlinds(*expected)


def test_a_first_hand_needs_two_players() -> None:
    with pytest.raises(BadInput):
        first_blinds(1, [1])


@given(seats=seat_sets, seed=st.text(max_size=8))
def test_the_rotation_places_a_new_games_blinds_by_the_same_function(
    seats: list[int], seed: str
) -> None:
    plan = plan_next_hand(
        seats=[SeatState(n, active=True) for n in seats],
        previous=None,
        rule="dead",
        missed_blinds="post",
        small_blind=1,
        big_blind=2,
        draw=random.Random(seed),
    )
    assert plan.draw is not None
    first = first_blinds(plan.draw.button, seats)
    assert (plan.button, plan.small, plan.big) == (first.button, first.small, first.big)


@given(seats=seat_sets, data=st.data())
def test_a_hand_dealt_without_blinds_posts_them_after_its_button_the_same_way(
    seats: list[int], data: st.DataObject
) -> None:
    button = data.draw(st.sampled_from(seats))
    config = GameConfig(structure=Structure.NO_LIMIT, small_blind=1, big_blind=2)
    state = start_hand(config, button, [Seat(n, 100) for n in seats])
    first = first_blinds(button, seats)
    assert (state.sb_seat, state.bb_seat) == (first.small, first.big)
    assert state.next_seat == {n: next_after(n, seats) for n in seats}


#: Going round the table by hand: the seats after one joined to the seats up to it
#: (``[s for s in seats if s > button] + [s for s in seats if s <= button]``), the next seat by
#: its index (``order[(order.index(big) + 1) % len(order)]``), or the first later seat with a
#: fallback to the lowest (``later[0] if later else dealt[0]``, ``min(later) if later else``),
#: or the last earlier one with a fallback to the highest (``before[-1] if before else``).
BY_HAND = re.compile(
    r"if\s+\w+\s*>=?\s*[\w.]+\s*\]\s*\+\s*\["
    r"|\.index\([^()]*\)\s*\+\s*1\)\s*%\s*len\("
    r"|\b(\w+)\[(-?[01])\]\s+if\s+\1\s+else\s+\w+\[\2\]"
    r"|\bmin\((\w+)\)\s+if\s+\3\s+else\s+min\("
)


def test_the_check_finds_the_ways_the_table_was_gone_round_by_hand() -> None:
    for text in (
        "after = [s for s in seats if s > button] + [s for s in seats if s <= button]",
        "return [s for s in numbers if s >= seat] + [\n    s for s in numbers if s < seat\n]",
        "seat = dealt[(dealt.index(big) + 1) % len(dealt)]",
        'self.initial.setdefault("button", later[0] if later else dealt[0])',
        "return min(later) if later else min(among)",
        "state.first_after_button = before[-1] if before else order[-1]",
    ):
        assert BY_HAND.search(text), text
    for text in (
        "return (order.index(seat) - 1) % len(order)",  # a count of hands, not an order
        "table = free[0] if free else None",
        "seat = recent_openings[0] if recent_openings else min(open_seats)",
    ):
        assert not BY_HAND.search(text), text


def test_no_module_but_the_seat_order_goes_round_the_table_by_hand() -> None:
    found = [
        str(path.relative_to(ROOT))
        for folder in ("cardroom", "rules", "tournaments")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "migrations" not in path.parts
        and path != ROOT / "rules" / "engine" / "seat_order.py"
        and BY_HAND.search(path.read_text())
    ]
    assert found == [], "Go round the table with rules.engine.seat_order"
