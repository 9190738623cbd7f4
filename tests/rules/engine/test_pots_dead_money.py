"""Dead money (a big-blind ante, the dead part of a posted missed blind) in ``build_pots``.

Contract v2, "Dead money": it lies in the main pot and is won by whoever is eligible for it. These
rows pin who that is when no pot was built from the contributions (nothing put in, or nobody
live), a gap the mutation run showed (docs/mutation.md).
"""

from __future__ import annotations

from rules.engine.pots import Pot, build_pots


def test_dead_money_joins_the_main_pot() -> None:
    pots = build_pots({1: 500, 2: 300, 3: 500}, folded=(), all_in={2}, dead=100)
    assert pots == [Pot(1000, (1, 2, 3)), Pot(400, (1, 3))]


def test_dead_money_alone_goes_to_the_players_still_in() -> None:
    assert build_pots({1: 0, 2: 0, 3: 0}, folded={2}, dead=100) == [Pot(100, (1, 3))]


def test_dead_money_alone_with_nobody_live_names_every_seat() -> None:
    assert build_pots({3: 0, 1: 0}, folded={1, 3}, dead=100) == [Pot(100, (1, 3))]


def test_no_dead_money_and_nothing_in_is_no_pot() -> None:
    assert build_pots({1: 0, 2: 0}, folded=(), dead=0) == []
