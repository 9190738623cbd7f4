"""Awarding pots (rules/engine/award.py): the seeds' worked examples as data rows, the
contract's readings, and properties (no chip created or lost; an odd unit goes to a tied
player eligible for the pot)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import citations as rule
from rules.engine.award import (
    Board,
    Showdown,
    award_pots,
    check_showdown,
    halves,
    parse_showdown,
)
from rules.engine.config import GameConfig
from rules.engine.errors import BadInput
from rules.engine.pots import Pot
from rules.engine.state import Action, Seat, pots, replay

NINE = tuple(range(1, 10))


def board(ranking: list[list[int]], low: list[list[int]] | None = None) -> Board:
    return Board(tuple(map(tuple, ranking)), None if low is None else tuple(map(tuple, low)))


def shares(
    pot_list: list[tuple[int, tuple[int, ...]]], boards: list[Board] | None, **kw: Any
) -> list[dict[int, int]]:
    awarded, _ = award_pots(
        pots=[Pot(amount, eligible) for amount, eligible in pot_list],
        showdown=None if boards is None else Showdown(tuple(boards)),
        button=kw.get("button", 1),
        seat_order=kw.get("seat_order", NINE),
        min_chip=kw.get("min_chip", 1),
    )
    return [pot.awards for pot in awarded]


# (id, source, input, expected, citation). Seats A and B of the examples are seats 2 and 5.
SEED_ROWS: list[tuple[str, str, dict[str, Any], list[dict[int, int]], str]] = [
    (
        "tda-20-example-1-omaha-hi-lo-66-chips",
        "003 Illustrated Addendum, TDA-20 Example 1: two players win both high and low, 66 chips",
        {"pots": [(66, (2, 5))], "boards": [board([[2, 5]], [[2, 5]])]},
        [{2: 33, 5: 33}],  # never 34 and 32
        rule.HIGH_LOW,
    ),
    (
        "tda-20-example-2-stud-hi-lo-66-chips",
        "003 Illustrated Addendum, TDA-20 Example 2: stud high-low, both halves tied, 66 chips",
        {"pots": [(66, (2, 5))], "boards": [board([[5, 2]], [[2, 5]])], "button": 9},
        [{2: 33, 5: 33}],
        rule.HIGH_LOW,
    ),
    (
        "tda-20-f-identical-hands-split-evenly",
        "003 Illustrated Addendum, TDA-20 F: identical hands split as evenly as possible",
        {"pots": [(66, (3, 7))], "boards": [board([[3, 7], [1]])]},
        [{3: 33, 7: 33}],
        rule.SPLIT_EVENLY,
    ),
    (
        "rrop-ti-5a-odd-chip-first-clockwise-from-button",
        "004 Poker Betting Help, Ties 5(a): the first hand clockwise from the button",
        {"pots": [(101, (2, 8))], "boards": [board([[2, 8]])], "button": 5},
        [{8: 51, 2: 50}],
        rule.ODD_CHIP,
    ),
    (
        "rrop-ti-5a-odd-chip-button-is-last",
        "004 Poker Betting Help, Ties 5(a): the button itself is the last clockwise",
        {"pots": [(101, (5, 6))], "boards": [board([[5, 6]])], "button": 5},
        [{6: 51, 5: 50}],
        rule.ODD_CHIP,
    ),
    (
        "rrop-ti-5d-pots-split-separately",
        "004 Poker Betting Help, Ties 5(d): side pots and the main pot split as separate pots",
        # Mixed together, 301 + 101 = 402 would split 201/201; apart each pot has an odd chip.
        {"pots": [(301, (2, 4, 6)), (101, (2, 4))], "boards": [board([[2, 4], [6]])]},
        [{2: 151, 4: 150}, {2: 51, 4: 50}],
        rule.SEPARATE_POTS,
    ),
]


@pytest.mark.parametrize(
    ("source", "given_", "expected", "citation"),
    [pytest.param(*row[1:], id=row[0]) for row in SEED_ROWS],
)
def test_seed_examples(
    source: str, given_: dict[str, Any], expected: list[dict[int, int]], citation: str
) -> None:
    assert citation in rule.ALL
    extra = {k: given_[k] for k in ("button", "min_chip") if k in given_}
    awarded, cited = award_pots(
        pots=[Pot(amount, eligible) for amount, eligible in given_["pots"]],
        showdown=Showdown(tuple(given_["boards"])),
        button=extra.get("button", 1),
        seat_order=NINE,
        min_chip=extra.get("min_chip", 1),
    )
    assert [pot.awards for pot in awarded] == expected, source
    assert citation in cited


# The contract's readings, as rows: (id, pots, boards, keywords, expected).
READINGS: list[tuple[str, list[Any], list[Board] | None, dict[str, Any], list[dict[int, int]]]] = [
    ("one-winner", [(900, (1, 3, 4))], [board([[3], [1, 4]])], {}, [{3: 900}]),
    (
        "ranking-names-players-not-eligible",
        [(900, (1, 3, 4)), (400, (1, 4))],
        [board([[3], [1, 4]])],
        {},
        [{3: 900}, {1: 200, 4: 200}],
    ),
    ("complete-last-player-wins", [(250, (1,))], None, {}, [{1: 250}]),
    (
        "units-of-the-smallest-chip-remainder-with-the-first",
        [(180, (2, 3, 4))],
        [board([[2, 3, 4]])],
        {"min_chip": 25, "button": 3},
        # 7 units of 25 and 5 loose: 2 units each, the odd unit and the 5 to seat 4.
        [{4: 80, 2: 50, 3: 50}],
    ),
    (
        "dead-button-counts-from-its-seat-number",
        [(101, (2, 6))],
        [board([[2, 6]])],
        {"button": 4, "seat_order": (2, 6, 8)},
        [{6: 51, 2: 50}],
    ),
    (
        "high-low-high-half-takes-the-odd-chip",
        [(101, (1, 2))],
        [board([[1], [2]], [[2], [1]])],
        {},
        [{1: 51, 2: 50}],
    ),
    (
        "high-low-no-qualifying-low-all-to-high",
        [(101, (1, 2))],
        [board([[2], [1]], [])],
        {},
        [{2: 101}],
    ),
    (
        "high-low-scoop",
        [(101, (1, 2))],
        [board([[2], [1]], [[2], [1]])],
        {},
        [{2: 101}],
    ),
    (
        "high-low-low-tied-high-alone",
        [(100, (1, 2, 3))],
        [board([[1], [2, 3]], [[2, 3], [1]])],
        {"button": 1},
        # 50 high to seat 1; 50 low split 25/25.
        [{1: 50, 2: 25, 3: 25}],
    ),
    (
        "high-low-low-only-from-eligible-players",
        [(300, (1, 2, 3)), (200, (1, 2))],
        [board([[1], [2], [3]], [[3], [2]])],
        {},
        [{1: 150, 3: 150}, {1: 100, 2: 100}],
    ),
    (
        "run-it-twice-first-board-takes-the-odd-chip",
        [(101, (1, 2))],
        [board([[2], [1]]), board([[1], [2]])],
        {},
        [{2: 51, 1: 50}],
    ),
    (
        "run-it-twice-same-winner-both-boards",
        [(101, (1, 2))],
        [board([[1], [2]]), board([[1], [2]])],
        {},
        [{1: 101}],
    ),
    (
        "run-it-twice-high-low-each-board-half-halved",
        [(103, (1, 2))],
        [board([[1], [2]], [[2]]), board([[2], [1]], [[1]])],
        {},
        # Board 1 gets 52 (26 high to 1, 26 low to 2); board 2 gets 51 (26 high to 2, 25 low
        # to 1).
        [{1: 51, 2: 52}],
    ),
]


@pytest.mark.parametrize(
    ("pot_list", "boards", "keywords", "expected"),
    [pytest.param(*row[1:], id=row[0]) for row in READINGS],
)
def test_contract_readings(
    pot_list: list[Any],
    boards: list[Board] | None,
    keywords: dict[str, Any],
    expected: list[dict[int, int]],
) -> None:
    assert shares(pot_list, boards, **keywords) == expected


def test_halves_give_the_first_half_the_odd_unit_and_the_loose_chips() -> None:
    assert halves(66, 1) == (33, 33)
    assert halves(67, 1) == (34, 33)
    assert halves(180, 25) == (105, 75)  # 7 units and 5 loose: 4 units + 5, 3 units


def test_rule_citations_are_in_the_rulebook() -> None:
    for citation in (rule.ODD_CHIP, rule.SEPARATE_POTS, rule.SPLIT_EVENLY, rule.HIGH_LOW):
        assert citation in rule.ALL
    _, cited = award_pots(
        pots=[Pot(301, (2, 4, 6)), Pot(101, (2, 4))],
        showdown=Showdown((board([[2, 4], [6]], []), board([[6], [2, 4]]))),
        button=1,
        seat_order=NINE,
        min_chip=1,
    )
    assert set(cited) == {
        rule.SEPARATE_POTS,
        rule.NL_RUN_IT_TWICE,
        rule.HIGH_LOW,
        rule.SPLIT_EVENLY,
        rule.ODD_CHIP,
    }


# --- reading and checking the showdown --------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (None, "showdown"),
        ([], "showdown"),
        ({}, "showdown.ranking"),
        ({"ranking": [[1], [1]]}, "showdown.ranking.1.0"),
        ({"ranking": [[1], [11]]}, "showdown.ranking.1.0"),
        ({"ranking": [[1], []]}, "showdown.ranking.1"),
        ({"ranking": [[1], [True]]}, "showdown.ranking.1.0"),
        ({"ranking": [1, 2]}, "showdown.ranking.0"),
        ({"ranking": [[1, 2]], "low_ranking": [[2, 2]]}, "showdown.low_ranking.0.1"),
        ({"boards": []}, "showdown.boards"),
        ({"boards": [{"ranking": [[1]]}] * 3}, "showdown.boards"),
        ({"boards": [{"ranking": [[1]]}, {}]}, "showdown.boards.1.ranking"),
        ({"boards": [{"ranking": [[1]]}, 7]}, "showdown.boards.1"),
        (
            {"ranking": [[2]], "boards": [{"ranking": [[1]]}, {"ranking": [[1]]}]},
            "showdown.ranking",
        ),
        (
            {"low_ranking": [[2]], "boards": [{"ranking": [[1]]}, {"ranking": [[1]]}]},
            "showdown.low_ranking",
        ),
    ],
)
def test_a_showdown_of_the_wrong_form_names_its_field(raw: Any, field: str) -> None:
    with pytest.raises(BadInput) as refused:
        parse_showdown(raw, dealt=(1, 2, 3))
    assert refused.value.field == field


def test_a_top_level_ranking_equal_to_the_first_board_is_accepted() -> None:
    raw = {"ranking": [[2, 1]], "boards": [{"ranking": [[1, 2]]}, {"ranking": [[2], [1]]}]}
    assert parse_showdown(raw, dealt=(1, 2)).boards[1] == board([[2], [1]])


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"ranking": [[1], [2], [3]]}, "showdown.ranking.2.0"),  # 3 folded
        ({"ranking": [[1]]}, "showdown.ranking"),  # 2 left out
        ({"ranking": [[1], [2]], "low_ranking": [[3]]}, "showdown.low_ranking.0.0"),
        (
            {"boards": [{"ranking": [[1], [2]]}, {"ranking": [[2]]}]},
            "showdown.boards.1.ranking",
        ),
    ],
)
def test_a_ranking_must_name_exactly_the_players_still_in(raw: Any, field: str) -> None:
    showdown = parse_showdown(raw, dealt=(1, 2, 3))
    with pytest.raises(BadInput) as refused:
        check_showdown(showdown, live=(1, 2))
    assert refused.value.field == field


def test_a_low_ranking_may_leave_out_players_with_no_qualifying_low() -> None:
    check_showdown(
        parse_showdown({"ranking": [[1], [2]], "low_ranking": []}, dealt=(1, 2)), live=(1, 2)
    )


# --- uncalled chips ---------------------------------------------------------------------------


def _returns(stacks: dict[int, int], button: int, actions: list[Action], **game: int) -> Any:
    config = GameConfig.from_dict(
        {"structure": "no_limit", "small_blind": 50, "big_blind": 100, **game}
    )
    seats = [Seat(seat=s, stack=c) for s, c in stacks.items()]
    state, error = replay(config, button, seats, actions)
    assert error is None and state.to_act is None
    return state.returned


def test_an_uncalled_raise_is_returned_to_its_owner() -> None:
    actions = [Action(1, "raise", 400), Action(2, "fold"), Action(3, "fold")]  # type: ignore[arg-type]
    assert _returns({1: 1000, 2: 1000, 3: 1000}, 1, actions) == {1: 300}


def test_the_uncalled_part_of_a_bigger_all_in_is_returned() -> None:
    actions = [Action(1, "all_in"), Action(2, "call"), Action(3, "fold")]  # type: ignore[arg-type]
    assert _returns({1: 5000, 2: 1000, 3: 1000}, 1, actions) == {1: 4000}


def test_forced_bets_alone_can_close_the_betting_with_a_return() -> None:
    # Heads-up, the button posts the small blind of 50; the big blind has only 30.
    assert _returns({1: 1000, 2: 30}, 1, []) == {1: 20}
    # The button is all-in for 40; the big blind posted 100 and gets 60 back.
    assert _returns({1: 40, 2: 3000}, 1, []) == {2: 60}


def test_a_called_hand_returns_nothing() -> None:
    actions = [Action(1, "call"), Action(2, "call"), Action(3, "check")]  # type: ignore[arg-type]
    for _ in range(3):
        actions += [Action(2, "check"), Action(3, "check"), Action(1, "check")]  # type: ignore[arg-type]
    assert _returns({1: 1000, 2: 1000, 3: 1000}, 1, actions) == {}


# --- properties -------------------------------------------------------------------------------


@st.composite
def showdown_hands(draw: st.DrawFn) -> tuple[list[Pot], Showdown | None, int, tuple[int, ...], int]:
    seat_order = tuple(sorted(draw(st.sets(st.integers(1, 12), min_size=2, max_size=9))))
    button = draw(st.integers(1, 12))
    live = draw(st.lists(st.sampled_from(seat_order), min_size=1, unique=True))
    min_chip = draw(st.sampled_from([1, 1, 5, 25, 100]))
    pot_list = []
    for _ in range(draw(st.integers(1, 4))):
        eligible = draw(st.lists(st.sampled_from(live), min_size=1, unique=True))
        pot_list.append(Pot(draw(st.integers(0, 10**7)), tuple(sorted(eligible))))

    def ranking() -> tuple[tuple[int, ...], ...]:
        order = draw(st.permutations(live))
        cuts = sorted(draw(st.sets(st.integers(1, max(1, len(order) - 1)))))
        groups, start = [], 0
        for cut in [*cuts, len(order)]:
            if cut > start:
                groups.append(tuple(order[start:cut]))
                start = cut
        return tuple(groups)

    def one_board() -> Board:
        low = None
        if draw(st.booleans()):
            qualifying = draw(st.lists(st.sampled_from(live), unique=True))
            low = tuple((seat,) for seat in qualifying)
        return Board(ranking(), low)

    boards = draw(st.sampled_from([0, 1, 2]))
    if boards == 0:
        return pot_list[:1], None, button, seat_order, min_chip
    return (
        pot_list,
        Showdown(tuple(one_board() for _ in range(boards))),
        button,
        seat_order,
        min_chip,
    )


@given(showdown_hands())
def test_awards_sum_to_each_pot_and_go_to_eligible_players(case: Any) -> None:
    pot_list, showdown, button, seat_order, min_chip = case
    if showdown is None:  # complete: the pots have one eligible player
        pot_list = [Pot(pot_list[0].amount, pot_list[0].eligible[:1])]
    awarded, cited = award_pots(
        pots=pot_list, showdown=showdown, button=button, seat_order=seat_order, min_chip=min_chip
    )
    assert set(cited) <= rule.ALL
    for pot in awarded:
        assert sum(pot.awards.values()) == pot.pot.amount
        assert set(pot.awards) <= set(pot.pot.eligible)
        assert all(amount >= 0 for amount in pot.awards.values())


@given(
    st.integers(0, 10**9),
    st.sets(st.integers(1, 12), min_size=1, max_size=9),
    st.integers(1, 12),
    st.sampled_from([1, 5, 25]),
)
def test_an_odd_unit_goes_to_the_first_tied_players_clockwise(
    amount: int, tied: set[int], button: int, min_chip: int
) -> None:
    winners = tuple(sorted(tied))
    (awards,) = shares(
        [(amount, winners)],
        [board([list(winners)])],
        button=button,
        seat_order=tuple(range(1, 13)),
        min_chip=min_chip,
    )
    clockwise = [s for s in winners if s > button] + [s for s in winners if s <= button]
    base = amount // min_chip // len(winners) * min_chip
    extra = [awards[s] - base for s in clockwise]
    # Only tied players get chips; whole extra units run down the clockwise order, the loose
    # chips (smaller than a unit) with the first.
    assert set(awards) == set(winners)
    assert extra == sorted(extra, reverse=True)
    assert all(
        e - (amount % min_chip if i == 0 else 0) in (0, min_chip) for i, e in enumerate(extra)
    )


HAND_STACKS = st.dictionaries(st.integers(1, 9), st.integers(1, 5000), min_size=2, max_size=6)
KINDS = st.sampled_from(["fold", "call", "all_in", "raise"])


@given(HAND_STACKS, st.lists(st.tuples(KINDS, st.integers(0, 4000)), max_size=40), st.data())
def test_no_chip_is_created_or_lost_in_a_played_hand(
    stacks: dict[int, int], moves: list[tuple[str, int]], data: st.DataObject
) -> None:
    config = GameConfig.from_dict({"structure": "no_limit", "small_blind": 50, "big_blind": 100})
    seats = [Seat(seat=s, stack=c) for s, c in sorted(stacks.items())]
    button = data.draw(st.sampled_from(sorted(stacks)))
    state, _ = replay(config, button, seats, [])
    actions: list[Action] = []
    for kind, to in moves:
        if state.to_act is None:
            break
        action = Action(state.to_act, kind, to)  # type: ignore[arg-type]
        trial, error = replay(config, button, seats, [*actions, action])
        if error is None:
            actions.append(action)
            state = trial
    while state.to_act is not None:  # check or call it down
        actions.append(Action(state.to_act, "call"))  # type: ignore[arg-type]
        state, error = replay(config, button, seats, actions)
        assert error is None
    live = [s for s in state.seat_order if s not in state.folded]
    order = data.draw(st.permutations(live))
    showdown = (
        None if state.street == "complete" else Showdown((Board(tuple((s,) for s in order)),))
    )
    returned = state.returned
    awarded, _ = award_pots(
        pots=pots(state), showdown=showdown, button=button, seat_order=state.seat_order, min_chip=1
    )
    won = sum(sum(pot.awards.values()) for pot in awarded)
    # Awards sum to the pots; pots plus the returned chips are every chip that went in.
    assert won == sum(pot.amount for pot in pots(state)) == state.pot
    assert won + sum(state.stacks.values()) == sum(stacks.values())
    # A return is the excess over the next largest contribution: after it, the two match.
    put_in = {s: stacks[s] - state.stacks[s] for s in stacks}
    for seat, amount in returned.items():
        assert amount > 0
        assert put_in[seat] == max(put_in[o] for o in stacks if o != seat)
