"""The 50% standard at its edge, with odd and even increments (TDA-43, TDA-45; a bet and a
half in limit, RRoP-BR.14).

Chips are whole, so "half the increment or more" over the call is reached by the call plus
``ceil(increment / 2)``: an increment of 5 needs 3 over the call (2 is short of 2.5), an
increment of 4 needs 2. Each case pushes several chips that still leave the call when the
smallest is taken away (TDA-45), so the 50% standard is what decides.
"""

from __future__ import annotations

import pytest

from rules.engine import citations as rule
from rules.engine.chips import Physical, interpret
from tests.rules.engine.test_chips import did, table

# No limit, facing a bet of 100 (nothing in front yet), chips of 1 play.
CASES = [
    # odd increment 5: half is 2.5, so 3 over the call is the least that reaches it
    (5, did(100, 1, 1), ("call", 100, 2)),
    (5, did(100, 1, 1, 1), ("raise", 105, 0)),  # reached, short of a full raise: held to 105
    (5, did(100, 1, 1, 1, 1), ("raise", 105, 0)),
    (5, did(100, 5, 1), ("raise", 106, 0)),  # a full raise and more stands as counted
    # even increment 4: half is exactly 2
    (4, did(100, 1), ("call", 100, 1)),
    (4, did(100, 1, 1), ("raise", 104, 0)),
    # increment 1: half a chip rounds up to one whole chip
    (1, did(100, 1), ("raise", 101, 0)),
    # a large odd increment: 301 needs 151 over the call, 150 is short
    (301, did(100, 100, 25, 25), ("call", 100, 150)),
    (301, did(100, 100, 25, 25, 1), ("raise", 401, 0)),
]


@pytest.mark.parametrize(("increment", "physical", "expected"), CASES)
def test_no_limit_half_an_increment_over_the_call(
    increment: int, physical: Physical, expected: tuple[str, int, int]
) -> None:
    facing = table(bet=100, increment=increment, bring_in=increment)
    result = interpret(facing, physical)
    assert (result.action, result.to, result.returned) == expected, result.explanation
    assert rule.TDA_RAISE_AMOUNTS in result.citations
    threshold = 100 + (increment + 1) // 2
    assert f"over the call is {threshold}" in result.explanation


@pytest.mark.parametrize(
    ("physical", "expected"),
    [
        (did(5, 1, 1), ("call", 5, 2)),  # 7: short of 5 + 3
        (did(5, 1, 1, 1), ("raise", 10, 0)),  # 8: a bet and a half reached, the raise is 10
    ],
)
def test_fixed_limit_a_bet_and_a_half_with_an_odd_bet(
    physical: Physical, expected: tuple[str, int, int]
) -> None:
    facing = table("fixed_limit", bet=5, increment=5, bring_in=5, fixed_to=10)
    result = interpret(facing, physical)
    assert (result.action, result.to, result.returned) == expected, result.explanation
    assert rule.FULL_BET_AND_HALF in result.citations
    assert "half a 5 bet over the call is 8" in result.explanation
