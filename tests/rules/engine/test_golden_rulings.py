"""Golden texts: every ruling's exact explanation, citations and refusal message, frozen.

The chip reader's seed rows (``test_chips.ROWS`` and ``ILLEGAL``), one row per branch of the
reader that those rows do not reach, malformed input, and the engine's refusals of bets and
raises over played hands are each run and compared, field for field, with
``golden/rulings.json``. The texts were generated from the engine and read one by one against
the seeds (``/work/shared/seeds/``) before being frozen; when a wording changes on purpose,
regenerate with ``.venv/bin/python -m tests.rules.engine.test_golden_rulings`` and review the
diff of the JSON file like any other change of behaviour.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from rules.engine.award import Board, Showdown, award_hand, parse_showdown
from rules.engine.chips import Physical, interpret
from rules.engine.errors import BadInput, IllegalAction
from rules.engine.posting import Blinds
from rules.engine.pots import Pot
from rules.engine.state import Action, ActionKind, Seat, replay, snapshot
from tests.rules.engine import test_chips as seeds
from tests.rules.engine.hands import action, game, seats
from tests.rules.engine.test_chips import did, table

GOLDEN = Path(__file__).with_name("golden") / "rulings.json"

Case = Callable[[], Any]


def _reading(facing: Any, physical: Physical) -> Case:
    return lambda: interpret(facing, physical).to_dict()


CASES: dict[str, Case] = {
    f"seed:{row.id}": _reading(row.facing, row.physical) for row in seeds.ROWS
}
CASES |= {f"refused:{row[0]}": _reading(row[2], row[3]) for row in seeds.ILLEGAL}

UTG_1100, FL, BB_600 = seeds.UTG_1100, seeds.FL_TURN_BET_20, seeds.BB_FACING_600
# Branches of the reader the seed rows do not reach (or reach with one wording only).
BRANCHES: dict[str, tuple[Any, Physical]] = {
    "pl-single-chip-over-pot-is-pot-bet": (table("pot_limit", bring_in=100, pot=300), did(1000)),
    "pl-spoken-bet-over-pot-reduced": (seeds.PLO_10500, did(said="bet", to=20_000)),
    "fl-spoken-raise-over-one-bet": (FL, did(said="raise", to=100)),
    "fl-spoken-raise-short-of-one-bet": (FL, did(said="raise", to=25)),
    "nl-spoken-raise-short-brought-up": (UTG_1100, did(said="raise", to=1200)),
    "nl-spoken-raise-over-stack-all-in": (table(bet=100, stack=900), did(said="raise", to=5000)),
    "dead-small-chips-on-a-bet": (table(min_chip=25), did(100, 5, 5)),
    "dead-small-chips-and-change": (table(bet=100, min_chip=25), did(500, 5)),
    "only-dead-chips-no-bet-is-check": (table(min_chip=25), did(5)),
    "only-dead-chips-facing-bet-owes-call": (table(bet=100, min_chip=25), did(5)),
    "prior-pulled-back-new-chips-alone": (BB_600, did(1000, prior=(25, 25), pulled_back=True)),
    "prior-some-pulled-back-judged-together": (
        BB_600,
        did(500, 100, prior=(25,), pulled_back="some"),
    ),
    "prior-unlisted-left-alone-counts": (BB_600, did(500, 100)),
    "silent-call-of-every-chip-all-in": (table(bet=1000, stack=600), did(500, 100)),
    "silent-removable-chip-but-no-raise-open": (
        table(bet=100, increment=100, may_raise=False),
        did(100, 100),
    ),
    "fl-bet-and-a-half-held-to-raise": (FL, did(20, 5, 5)),
    "fl-short-of-bet-and-a-half-call": (FL, did(20, 5)),
    "silent-bet-not-open": (table(may_raise=False, stack=0), did(100)),
    "silent-multi-chip-bet": (table(bring_in=100), did(100, 100, 25)),
    "spoken-check-chips-go-back": (table(), did(100, said="check")),
    "spoken-call-with-change": (UTG_1100, did(1000, 1000, said="call")),
    "spoken-call-short-brought-up": (UTG_1100, did(500, said="call")),
    "spoken-call-nothing-to-call": (table(), did(said="call")),
    "spoken-all-in-no-chips-behind-no-bet": (table(stack=0), did(said="all_in")),
    "spoken-all-in-not-beyond-bet-is-call": (table(bet=1000, stack=600), did(said="all_in")),
    "spoken-all-in-small-chips-behind": (
        table(stack=110, bring_in=100, min_chip=25),
        did(said="all_in"),
    ),
    "spoken-all-in-no-playing-chip-no-bet": (
        table(stack=20, bring_in=100, min_chip=25),
        did(said="all_in"),
    ),
    "spoken-all-in-no-playing-chip-facing-bet": (
        table(bet=100, stack=120, bring_in=100, min_chip=25),
        did(said="all_in"),
    ),
    "spoken-all-in-not-reopened": (
        table(bet=200, wager=125, increment=100, may_raise=False),
        did(said="all_in"),
    ),
    "spoken-raise-no-chips-beyond-call": (table(bet=1000, stack=500), did(said="raise")),
    "spoken-raise-chips-match-amount": (UTG_1100, did(1000, 700, said="raise", to=1700)),
    "spoken-raise-chips-differ-from-amount": (UTG_1100, did(1000, 1000, said="raise", to=1700)),
    "spoken-raise-single-chip-largest-allowed": (UTG_1100, did(5000, said="raise")),
    "spoken-bet-facing-bet-counts-as-raise": (UTG_1100, did(1000, 1000, said="bet")),
    "spoken-raise-no-bet-counts-as-bet": (table(), did(100, 100, said="raise")),
    "spoken-bet-single-chip-no-bet": (table(), did(500, said="bet")),
    "bb-option-single-chip-with-blind-in-front": (
        table(bet=100, wager=100, bring_in=100),
        did(500),
    ),
    "spoken-raise-chips-exactly-the-bet": (UTG_1100, did(1000, 100, said="raise")),
    "bb-option-one-chip-some-pulled-back": (
        table(bet=100, wager=100, bring_in=100),
        did(500, prior=(50,), pulled_back="some"),
    ),
    "prior-exactly-the-bet-judged-together": (
        table(bet=700, wager=100, increment=600, bring_in=100),
        did(500, prior=(500, 200)),
    ),
    "spoken-all-in-not-beyond-bet-chips-over": (
        table(bet=1000, stack=600),
        did(500, 500, said="all_in"),
    ),
    "nothing-done-no-bet-is-check": (table(), did()),
    "bad-prior-fewer-than-wager": (table(bet=600, wager=100), did(1000, prior=(25,))),
    "bad-partly-pulled-back-unlisted": (table(bet=600, wager=100), did(1000, pulled_back="some")),
}  # fmt: skip
CASES |= {f"branch:{key}": _reading(*value) for key, value in BRANCHES.items()}

MALFORMED_PHYSICAL: dict[str, Any] = {
    "not-an-object": [1000],
    "negative-chip": {"chips": [-5]},
    "chips-not-a-list": {"chips": 100},
    "prior-zero": {"chips": [100], "prior_chips": [0]},
    "pulled-back-half": {"chips": [100], "pulled_back": "half"},
    "verbal-unknown-word": {"chips": [100], "verbal": "shove"},
    "verbal-a-number": {"chips": [100], "verbal": 3},
    "verbal-amount-with-call": {"chips": [100], "verbal": {"action": "call", "to": 100}},
    "verbal-amount-missing": {"chips": [100], "verbal": {"action": "raise"}},
    "verbal-amount-zero": {"chips": [100], "verbal": {"action": "raise", "to": 0}},
}
CASES |= {
    f"physical:{key}": partial(Physical.from_dict, body) for key, body in MALFORMED_PHYSICAL.items()
}
BUILT_PHYSICAL: dict[str, dict[str, Any]] = {
    "chip-zero": {"chips": (0,)},
    "prior-not-a-list": {"chips": (100,), "prior_chips": 25},
    "pulled-back-one": {"chips": (100,), "pulled_back": 1},
    "verbal-unknown-word": {"chips": (100,), "verbal": "shove"},
    "amount-with-call": {"chips": (100,), "verbal": "call", "verbal_to": 100},
    "amount-zero": {"chips": (100,), "verbal": "bet", "verbal_to": 0},
}
CASES |= {
    f"physical-built:{key}": partial(Physical, **fields) for key, fields in BUILT_PHYSICAL.items()
}
FACING_CHANGES: dict[str, dict[str, Any]] = {
    "structure": {"structure": "spread_limit"},
    "stack-negative": {"stack": -1},
    "min-chip-zero": {"min_chip": 0},
    "call-wrong": {"call": 50},
    "call-a-bool": {"current_bet": 1, "call": True, "min_to": 1200, "max_to": 1200},
    "max-to-missing": {"max_to": None},
    "min-to-below-bet": {"min_to": 100},
    "max-to-over-stack": {"max_to": 10**9},
    "min-to-not-whole": {"min_to": 1700.5},
}


def _facing(changes: dict[str, Any]) -> Case:
    fields = {name: getattr(UTG_1100, name) for name in type(UTG_1100).__slots__}
    return lambda: type(UTG_1100)(**{**fields, **changes})


CASES |= {f"facing:{key}": _facing(changes) for key, changes in FACING_CHANGES.items()}

NL, PL, FL_GAME = game(), game("pot_limit"), game("fixed_limit", 5, 10)
# Played hands whose last action the engine refuses: (config, button, stacks, actions).
HANDS: dict[str, tuple[Any, int, Any, list[str]]] = {
    "nl-raise-short-of-full-raise": (NL, 1, [10_000] * 3, ["1 raise 150"]),
    "nl-bet-short-of-bring-in": (NL, 1, [10_000] * 3, ["1 call", "2 call", "3 check", "2 bet 50"]),
    "nl-short-stack-only-all-in": (NL, 1, [150, 10_000, 10_000], ["1 raise 120"]),
    "nl-raise-over-stack": (NL, 1, [150, 10_000, 10_000], ["1 raise 160"]),
    "nl-raise-facing-short-all-in": (
        NL, 1, [350, 10_000, 10_000, 10_000], ["4 raise 300", "1 all_in", "2 raise 400"]
    ),
    "nl-not-reopened": (
        NL, 1, [400, 10_000, 10_000, 10_000],
        ["4 raise 300", "1 all_in", "2 fold", "3 call", "4 raise 1000"],
    ),
    "nl-nobody-can-call": (NL, 1, [500, 10_000, 10_000], ["1 all_in", "2 fold", "3 raise 2000"]),
    "nl-no-chips-beyond-call": (NL, 1, [10_000, 10_000, 800], ["1 raise 1000", "2 fold", "3 raise 900"]),
    "nl-straddle-raise-short": (game(straddle=200), 1, [10_000] * 4, ["1 raise 300"]),
    "nl-short-big-blind-raise-short": (NL, 1, [10_000, 10_000, 60], ["1 raise 100"]),
    "pl-raise-over-pot": (PL, 1, [10_000] * 3, ["1 raise 10000"]),
    "pl-bet-over-stack": (PL, 1, [10_000, 200, 10_000], ["1 call", "2 raise 5000"]),
    "fl-raise-not-one-bet": (FL_GAME, 1, [1_000] * 3, ["1 raise 30"]),
    "fl-raise-over-one-bet": (FL_GAME, 1, [1_000] * 3, ["1 raise 40"]),
    "fl-short-all-in-then-raise-short": (
        FL_GAME, 1, [1_000, 1_000, 1_000, 14], ["4 all_in", "1 raise 15"]
    ),
    "fl-capped": (
        FL_GAME, 1, [1_000] * 4, ["4 raise 20", "1 raise 30", "2 raise 40", "3 raise 50"]
    ),
    "fl-not-reopened": (
        FL_GAME, 1, [1_000, 1_000, 1_000, 24], ["4 call", "1 call", "2 call", "3 check",
        "2 bet 10", "3 call", "4 all_in", "1 call", "2 raise 24"]
    ),
    "pl-sb-as-big-raise-over-pot": (
        game("pot_limit", 50, 100, pot_limit_small_blind_as_big=True), 1, [10_000] * 3,
        ["1 raise 10000"],
    ),
    "pl-short-small-blind-raise-over-pot": (PL, 1, [10_000, 30, 10_000], ["1 raise 10000"]),
    "pl-short-blind-raise-over-pot": (PL, 1, [10_000, 10_000, 60], ["1 raise 10000"]),
    "fl-bet-short-on-the-flop": (
        FL_GAME, 1, [1_000] * 3, ["1 call", "2 call", "3 check", "2 bet 5"]
    ),
    "nl-bet-over-stack-on-the-flop": (
        NL, 1, [10_000] * 3, ["1 call", "2 call", "3 check", "2 bet 20000"]
    ),
    "nl-min-raise-then-short-reraise": (
        NL, 1, [10_000] * 4, ["4 raise 200", "1 raise 250"]
    ),
    "check-facing-bet": (NL, 1, [10_000] * 3, ["1 check"]),
    "not-your-turn": (NL, 1, [10_000] * 3, ["2 call"]),
    "hand-over": (NL, 1, [10_000] * 3, ["1 fold", "2 fold", "3 check"]),
}  # fmt: skip


def _hand(config: Any, button: int, stacks: Any, actions: list[str] | list[Action]) -> Case:
    def run() -> dict[str, Any]:
        steps = [step if isinstance(step, Action) else action(step) for step in actions]
        _state, error = replay(config, button, seats(stacks), steps)
        assert error is not None, "every action was accepted"
        index, illegal = error
        return {"refused_action": index, **_refusal(illegal)}

    return run


CASES |= {f"hand:{key}": _hand(*value) for key, value in HANDS.items()}


def _held(actions: list[Action]) -> Case:
    return _hand(NL, 1, [10_000] * 4, actions)


CASES |= {
    "hand:held-twice": _held(
        [Action(2, ActionKind.CALL, out_of_turn=True), Action(2, ActionKind.FOLD, out_of_turn=True)]
    ),
    "hand:held-by-a-folded-seat": _held(
        [Action(4, ActionKind.FOLD), Action(4, ActionKind.CALL, out_of_turn=True)]
    ),
}

# The contract's 200 body of a hand whose betting is over (and one mid-hand): after the last
# street nothing is left to match, and the increment is the next street's opening one.
SNAPSHOTS: dict[str, tuple[Any, int, Any, list[str]]] = {
    "nl-complete-by-folds": (NL, 1, [10_000] * 3, ["1 raise 300", "2 fold", "3 fold"]),
    "nl-all-in-preflop-to-showdown": (NL, 1, [10_000, 10_000, 500], ["1 raise 600", "2 fold", "3 call"]),
    "fl-checked-down-to-showdown": (
        FL_GAME, 1, [1_000] * 3,
        ["1 call", "2 call", "3 check", *["2 check", "3 check", "1 check"] * 3],
    ),
    "fl-custom-bets-at-the-deal": (game("fixed_limit", 5, 10, small_bet=20, big_bet=40), 1,
        [1_000] * 3, []),
    "nl-mid-hand-after-a-raise": (NL, 1, [10_000] * 3, ["1 raise 300"]),
}  # fmt: skip


def _snapshot(config: Any, button: int, stacks: Any, actions: list[str]) -> Case:
    def run() -> dict[str, Any]:
        state, error = replay(config, button, seats(stacks), [action(a) for a in actions])
        assert error is None, error
        return snapshot(state)

    return run


CASES |= {f"snapshot:{key}": _snapshot(*value) for key, value in SNAPSHOTS.items()}

CASES["hand:held-after-the-hand-is-over"] = _held(
    [Action(4, ActionKind.FOLD), Action(1, ActionKind.FOLD), Action(2, ActionKind.FOLD),
     Action(3, ActionKind.CALL, out_of_turn=True)]
)  # fmt: skip
CASES["hand:blinds-on-one-seat"] = lambda: replay(
    NL, 1, seats([10_000] * 3), [], Blinds(small=2, big=2)
)
CASES["hand:dead-small-blind-on-a-seat"] = lambda: replay(
    NL, 1, seats([10_000] * 3), [], Blinds(small=4, big=3)
)

ACTION_BODIES: dict[str, Any] = {
    "seat-a-string": {"seat": "3", "action": "call"},
    "seat-a-bool": {"seat": True, "action": "call"},
    "to-a-string": {"seat": 1, "action": "raise", "to": "700"},
    "unknown-word": {"seat": 1, "action": "shove"},
    "word-a-number": {"seat": 1, "action": 3},
    "out-of-turn-a-string": {"seat": 1, "action": "call", "out_of_turn": "yes"},
}
CASES |= {f"action:{key}": partial(Action.from_dict, body) for key, body in ACTION_BODIES.items()}
CASES["action-built:seat-a-string"] = lambda: Action("3", ActionKind.CALL)  # type: ignore[arg-type]

SHOWDOWNS: dict[str, Any] = {
    "missing": None,
    "not-an-object": [[1]],
    "ranking-not-a-list": {"ranking": 1},
    "more-groups-than-players": {"ranking": [[1], [2], [3], [1]]},
    "empty-group": {"ranking": [[1], []]},
    "group-larger-than-the-table": {"ranking": [[1, 2, 3, 1]]},
    "seat-ranked-twice": {"ranking": [[1], [1]]},
    "seat-not-dealt-in": {"ranking": [[1, 2], [3], [4]]},
    "seat-not-a-number": {"ranking": [["x"]]},
    "ranking-unlike-first-board": {
        "ranking": [[1], [2]],
        "boards": [{"ranking": [[2], [1]]}, {"ranking": [[1], [2]]}],
    },
    "low-ranking-not-a-list": {"ranking": [[1]], "low_ranking": 1},
    "boards-not-two": {"ranking": [[1]], "boards": [{"ranking": [[1]]}]},
}
CASES |= {
    f"showdown:{key}": partial(parse_showdown, raw, dealt=(1, 2, 3))
    for key, raw in SHOWDOWNS.items()
}
# The award body: a main pot and a side pot won by one player, chips returned to another.
CASES["award:body-one-winner"] = lambda: award_hand(
    pots=[Pot(300, (1, 2, 3)), Pot(200, (1, 2))],
    showdown=Showdown((Board(((2,), (1,), (3,))),)),
    button=1,
    stacks={1: 0, 2: 0, 3: 900},
    returned={1: 0, 3: 100},
    min_chip=1,
)
CASES["award:body-split-odd-chip"] = lambda: award_hand(
    pots=[Pot(301, (1, 2, 3))],
    showdown=Showdown((Board(((3, 2), (1,))),)),
    button=1,
    stacks={1: 0, 2: 0, 3: 0},
    returned={},
    min_chip=1,
)


def _closed_by_the_blinds() -> dict[str, Any]:
    # Heads-up, both blinds all-in for their whole stacks: the big blind's 50 beyond the small
    # blind's 50 is uncalled and goes back (the blinds alone closed the betting).
    seats = [Seat(1, 50), Seat(2, 100)]
    state, error = replay(NL, 1, seats, [])
    assert error is None
    returns = state.returned
    return {"street": state.street, "returned": [[seat, n] for seat, n in sorted(returns.items())]}


CASES["award:closing-returns-blinds-all-in"] = _closed_by_the_blinds


def _refusal(error: IllegalAction) -> dict[str, Any]:
    return {"illegal": error.code, "message": error.message, "citations": list(error.citations)}


def _outcome(case: Case) -> dict[str, Any]:
    try:
        result = case()
    except IllegalAction as error:
        return _refusal(error)
    except BadInput as error:
        return {"bad_input": error.field, "message": error.message}
    if not isinstance(result, dict):
        return {"accepted": repr(result)}  # input that should be refused is in the diff
    return result if "refused_action" in result else {"ruling": result}


def _golden() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return loaded


def test_the_golden_file_covers_exactly_the_cases() -> None:
    assert sorted(_golden()) == sorted(CASES)


@pytest.mark.parametrize("key", sorted(CASES))
def test_ruling_text_is_the_golden_one(key: str) -> None:
    expected = _golden().get(key)
    assert _outcome(CASES[key]) == expected, key


def main() -> None:
    """Regenerate the golden file (then review its diff against the seeds)."""
    result = {key: _outcome(case) for key, case in sorted(CASES.items())}
    GOLDEN.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(result)} cases written to {GOLDEN}")


if __name__ == "__main__":
    main()
