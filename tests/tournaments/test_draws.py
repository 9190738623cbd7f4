"""Seat draws, one behaviour at a time: cards, random seating, open seats, the double-blind
break, balancing and when tables break. Pure Python: runs with ``-p no:django``."""

import json
import random
import subprocess
import sys
from collections.abc import MutableSequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rules.engine.cards import Card
from tournaments.draws.balancing import BalancePolicy, Game, SeatedPlayer, balance, tables_to_halt
from tournaments.draws.breaks import (
    default_break_order,
    seat_cards_for_break,
    tables_needed,
    tables_to_break,
    when_to_break,
)
from tournaments.draws.errors import (
    BALANCING,
    BALANCING_FLOP,
    BREAKING_TABLES,
    CITATIONS,
    DOUBLE_BLIND,
    EDITION,
    DrawError,
)
from tournaments.draws.positions import hands_until_big_blind, seats_between_button_and_small_blind
from tournaments.draws.replay import replay, verify
from tournaments.draws.seat_draws import break_table, draw_into_open_seats, initial_seating
from tournaments.draws.seats import SeatRef
from tournaments.draws.seeds import SeededRandom, new_seed, seed_commitment

ROOT = Path(__file__).resolve().parents[2]


def nine_seats(*tables: int) -> dict[int, list[int]]:
    return {table: list(range(1, 10)) for table in tables}


def seated(prefix: str, seats: list[int], recent: tuple[int, ...] = ()) -> list[SeatedPlayer]:
    return [SeatedPlayer(f"{prefix}{s}", s, recently_moved=s in recent) for s in seats]


def json_round_trip(record: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(json.dumps(record))
    return result


class ScriptedRandom(random.Random):
    """Shuffles into the orders a test dictates: each scripted list becomes the front of the next
    shuffled list, the rest keeping their order. Lets a test replay a dealer's exact cards."""

    def __init__(self, *script: list[Any]) -> None:
        super().__init__(0)
        self.script = list(script)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        front = self.script.pop(0)
        assert all(item in x for item in front), "scripted items must be in the list shuffled"
        x[:] = front + [item for item in x if item not in front]


# --- The engine knows nothing of Django ---------------------------------------------------------


DRAWS = ROOT / "tournaments" / "draws"


def test_importing_every_draws_module_loads_no_django() -> None:
    modules = sorted(f"tournaments.draws.{path.stem}" for path in DRAWS.glob("*.py"))
    assert "tournaments.draws.balancing" in modules and "tournaments.draws.seeds" in modules
    code = (
        f"import sys, {', '.join(modules)}; "
        "loaded = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
        "assert not loaded, loaded"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_the_draws_package_init_stays_empty() -> None:
    assert (DRAWS / "__init__.py").read_text() == ""


def test_every_citation_carries_the_2024_edition() -> None:
    assert EDITION == "TDA 2024"
    assert {BREAKING_TABLES, BALANCING, BALANCING_FLOP} <= CITATIONS
    record = initial_seating(["a"], {1: [1]}, SeededRandom(1)).to_dict()
    assert record["citations"] == [{"rule": "TDA-7", "edition": "TDA 2024"}]
    with pytest.raises(DrawError) as caught:
        initial_seating(["a", "b"], {1: [1]}, SeededRandom(1))
    assert caught.value.code == "not_enough_seats"
    assert caught.value.citations == ("TDA-7",)
    assert caught.value.edition == "TDA 2024"


# A draw made before the seat draws dealt the engine's cards (rules.engine.cards), computed by
# the code of then: the same seed deals the same cards, so a record on file still replays.
def test_a_table_break_on_record_deals_the_same_cards_from_its_seed() -> None:
    receiving = [SeatRef(1, 2), SeatRef(1, 5), SeatRef(2, 3), SeatRef(2, 7), SeatRef(3, 1)]
    drawn = break_table(["ann", "bo", "cy", "di"], receiving, SeededRandom("break on record"))
    record = drawn.to_dict()
    assert record["steps"]["cards"] == [
        {"player": "ann", "card": "6d"},
        {"player": "bo", "card": "3c"},
        {"player": "cy", "card": "As"},
        {"player": "di", "card": "4c"},
    ]
    assert record["result"] == [
        {"player": "cy", "card": "As", "table": 1, "seat": 2},
        {"player": "ann", "card": "6d", "table": 2, "seat": 3},
        {"player": "di", "card": "4c", "table": 2, "seat": 7},
        {"player": "bo", "card": "3c", "table": 3, "seat": 1},
    ]
    assert verify(record)


@pytest.mark.parametrize(("table", "seat"), [(0, 1), (1, 0), (-1, 3), (True, 1), (1, 2.0)])
def test_seats_and_tables_are_numbered_from_one(table: Any, seat: Any) -> None:
    with pytest.raises(DrawError, match="numbered from 1"):
        SeatRef(table, seat)


# --- Seeds ---------------------------------------------------------------------------------------


def test_a_seed_commits_by_its_sha256_and_new_seeds_differ() -> None:
    assert seed_commitment("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    assert new_seed() != new_seed()
    assert len(new_seed()) == 64


@pytest.mark.parametrize("seed", [None, 1.5, True, b"x"])
def test_a_seed_is_a_string_or_an_integer(seed: Any) -> None:
    with pytest.raises(DrawError, match="seed"):
        SeededRandom(seed)


# --- Initial seating (TDA 7) ---------------------------------------------------------------------


def test_initial_seating_fills_tables_as_evenly_as_possible() -> None:
    entrants = [f"p{i}" for i in range(20)]
    draw = initial_seating(entrants, nine_seats(1, 2, 3), SeededRandom("even"))
    assert sorted(draw.table_counts().values()) == [6, 7, 7]
    assert sorted(draw.seating) == sorted(entrants)
    assert len(set(draw.seating.values())) == 20


def test_a_small_table_is_filled_and_the_rest_stay_even() -> None:
    tables = {1: [1, 2], 2: list(range(1, 10)), 3: list(range(1, 10))}
    draw = initial_seating(list(range(1, 17)), tables, SeededRandom(5))
    assert draw.table_counts() == {1: 2, 2: 7, 3: 7}


def test_only_the_seats_given_are_drawn_so_a_reserved_seat_stays_free() -> None:
    tables = {1: [1, 2, 3, 5, 6], 2: [2, 4, 6, 8]}  # table 1 seat 4 reserved (TDA 9)
    for seed in range(30):
        draw = initial_seating(["a", "b", "c", "d", "e", "f"], tables, SeededRandom(seed))
        assert all(seat.seat in tables[seat.table] for seat in draw.seating.values())


def test_the_shuffled_order_takes_the_seat_cards_in_table_and_seat_order() -> None:
    draw = initial_seating(["a", "b", "c", "d"], nine_seats(1, 2), SeededRandom("order"))
    assert list(draw.pool) == sorted(draw.pool)
    assert [a.player for a in draw.assignments] == list(draw.order)
    assert [a.seat for a in draw.assignments] == list(draw.pool)
    record = draw.to_dict()
    assert record["steps"]["order"] == list(draw.order)


def test_initial_seating_refuses_more_entrants_than_seats() -> None:
    with pytest.raises(DrawError, match="11 entrants but only 10 seats at 2 tables"):
        initial_seating(list(range(11)), {1: range(1, 6), 2: range(1, 6)}, SeededRandom(1))


@pytest.mark.parametrize(
    ("entrants", "message"),
    [(["a", "a"], "appears twice"), (["a", ""], "empty"), ([True], "string or an integer")],
)
def test_initial_seating_refuses_bad_entrants(entrants: list[Any], message: str) -> None:
    with pytest.raises(DrawError, match=message):
        initial_seating(entrants, nine_seats(1), SeededRandom(1))


def test_a_seat_listed_twice_is_refused() -> None:
    with pytest.raises(DrawError, match="listed twice"):
        initial_seating(["a"], {1: [1, 1]}, SeededRandom(1))


def test_the_same_seed_gives_the_same_draw_and_another_seed_another() -> None:
    entrants = [f"p{i}" for i in range(30)]
    first = initial_seating(entrants, nine_seats(1, 2, 3, 4), SeededRandom("s1"))
    again = initial_seating(entrants, nine_seats(1, 2, 3, 4), SeededRandom("s1"))
    other = initial_seating(entrants, nine_seats(1, 2, 3, 4), SeededRandom("s2"))
    assert first == again
    assert first.to_dict() == again.to_dict()
    assert first.seating != other.seating


def test_a_record_is_json_and_replays_to_itself() -> None:
    draw = initial_seating(["ann", 7, "bob"], nine_seats(3, 4), SeededRandom("replay"))
    record = json_round_trip(draw.to_dict())
    assert record == draw.to_dict()
    assert record["seed"] == "replay"
    assert record["seed_sha256"] == seed_commitment("replay")
    assert replay(record) == draw
    assert verify(record)


@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param(
            lambda r: r["result"][0].update(seat=r["result"][0]["seat"] % 9 + 1), id="seat"
        ),
        pytest.param(lambda r: r["steps"]["order"].reverse(), id="order"),
        pytest.param(lambda r: r.update(seed="other"), id="seed"),
        pytest.param(lambda r: r.update(seed_sha256="0" * 64), id="commitment"),
        pytest.param(lambda r: r["input"]["entrants"].pop(), id="entrants"),
        pytest.param(lambda r: r.update(algorithm="v0"), id="algorithm"),
        pytest.param(lambda r: r.pop("input"), id="malformed"),
    ],
)
def test_verify_detects_a_tampered_record(tamper: Any) -> None:
    record = json_round_trip(
        initial_seating(["a", "b", "c"], nine_seats(1, 2), SeededRandom(9)).to_dict()
    )
    assert verify(record)
    tamper(record)
    assert not verify(record)


def test_a_draw_without_a_recorded_seed_cannot_replay() -> None:
    record = initial_seating(["a"], nine_seats(1), random.Random(1)).to_dict()
    assert record["seed"] is None
    with pytest.raises(DrawError, match="without a recorded seed"):
        replay(record)
    assert not verify(record)


# --- Late entries, alternates, re-entries (TDA 8-A) ---------------------------------------------


def test_late_entries_never_get_a_forbidden_seat() -> None:
    open_seats = [SeatRef(1, 3), SeatRef(1, 4), SeatRef(2, 7), SeatRef(2, 8)]
    forbidden = {SeatRef(1, 4), SeatRef(2, 8)}  # between the small blind and the button
    for seed in range(40):
        draw = draw_into_open_seats(["x", "y"], open_seats, SeededRandom(seed), forbidden)
        assert set(draw.seating.values()) == {SeatRef(1, 3), SeatRef(2, 7)}
        assert draw.to_dict()["citations"][0]["rule"] == "TDA-8-A"


def test_late_entries_refuse_when_forbidden_seats_leave_too_few() -> None:
    with pytest.raises(DrawError, match="3 players to seat but only 2 open seats") as caught:
        draw_into_open_seats(
            ["x", "y", "z"],
            [SeatRef(1, 1), SeatRef(1, 2), SeatRef(1, 3)],
            SeededRandom(1),
            {SeatRef(1, 2)},
        )
    assert caught.value.citations == ("TDA-8-A",)


def test_with_table_counts_late_entries_go_to_the_shortest_tables() -> None:
    open_seats = [SeatRef(t, s) for t in (1, 2, 3) for s in range(5, 10)]
    counts = {1: 4, 2: 6, 3: 4}
    tables_taken = set()
    for seed in range(20):
        two = draw_into_open_seats(["x", "y"], open_seats, SeededRandom(seed), seated=counts)
        assert sorted(seat.table for seat in two.seating.values()) == [1, 3]
        three = draw_into_open_seats(["x", "y", "z"], open_seats, SeededRandom(seed), seated=counts)
        tables = sorted(seat.table for seat in three.seating.values())
        assert 2 not in tables
        tables_taken.add(tuple(tables))
    # Which of the two equally short tables takes the third player is drawn.
    assert tables_taken == {(1, 1, 3), (1, 3, 3)}


def test_an_open_seat_draw_replays_from_its_record() -> None:
    draw = draw_into_open_seats(
        ["late"],
        [SeatRef(1, 2), SeatRef(2, 2)],
        SeededRandom("late"),
        {SeatRef(2, 2)},
        seated={1: 8, 2: 8},
    )
    record = json_round_trip(draw.to_dict())
    assert verify(record)
    assert replay(record) == draw
    record["steps"]["pool"] = [{"table": 2, "seat": 2}]
    assert not verify(record)


# --- Breaking a table: the Illustrated Addendum's double-blind draw (TDA 10) --------------------


@dataclass(frozen=True)
class BreakExample:
    id: str
    source: str
    players: list[str]
    seat_cards: list[SeatRef]
    scrambled: list[SeatRef]
    dealt: list[str]
    expected: dict[str, SeatRef]
    citation: str


ADDENDUM = (
    "TDA 2024 Illustrated Addendum, Rule 10: 1) show players at the breaking table the new seat "
    "cards then scramble the cards face down and form a stack; 2) the dealer then deals one "
    "playing card face up to each player. The seat cards are then dealt out with the first seat "
    "card going to the player with the highest playing card by suit showing."
)

BREAK_EXAMPLES = [
    BreakExample(
        id="addendum-two-kings-two-nines",
        source=ADDENDUM,
        players=["Ann", "Bob", "Cat", "Dan"],
        seat_cards=[SeatRef(1, 4), SeatRef(2, 8), SeatRef(3, 2), SeatRef(3, 9)],
        scrambled=[SeatRef(3, 2), SeatRef(1, 4), SeatRef(3, 9), SeatRef(2, 8)],
        dealt=["9c", "Kh", "Ks", "9d"],
        # Ks beats Kh by suit, 9d beats 9c: Cat, Bob, Dan, Ann take the stack from the top.
        expected={
            "Cat": SeatRef(3, 2),
            "Bob": SeatRef(1, 4),
            "Dan": SeatRef(3, 9),
            "Ann": SeatRef(2, 8),
        },
        citation=DOUBLE_BLIND,
    ),
    BreakExample(
        id="addendum-spare-seat-card-stays-in-the-stack",
        source=ADDENDUM,
        players=["Eve", "Fay"],
        seat_cards=[SeatRef(4, 1), SeatRef(5, 5), SeatRef(6, 3)],
        scrambled=[SeatRef(6, 3), SeatRef(4, 1), SeatRef(5, 5)],
        dealt=["2s", "Ac"],
        expected={"Fay": SeatRef(6, 3), "Eve": SeatRef(4, 1)},
        citation=DOUBLE_BLIND,
    ),
]


@pytest.mark.parametrize("example", BREAK_EXAMPLES, ids=[e.id for e in BREAK_EXAMPLES])
def test_the_addendum_double_blind_process_step_by_step(example: BreakExample) -> None:
    rng = ScriptedRandom(example.scrambled, [Card.parse(c) for c in example.dealt])
    draw = break_table(example.players, example.seat_cards, rng, breaking_table=9)
    # Step 1: the seat cards are shown, then scrambled face down into a stack.
    assert draw.shown == tuple(sorted(example.seat_cards))
    assert draw.stack == tuple(example.scrambled)
    # Step 2: one playing card face up to each player, in dealing order.
    assert [(p, str(c)) for p, c in draw.cards] == list(
        zip(example.players, example.dealt, strict=True)
    )
    # The seat cards go out from the top of the stack, highest card by suit first.
    assert draw.seating == example.expected
    assert [a.seat for a in draw.assignments] == example.scrambled[: len(example.players)]
    assert draw.unused == tuple(example.scrambled[len(example.players) :])
    record = draw.to_dict()
    assert {"rule": example.citation, "edition": "TDA 2024"} in record["citations"]
    assert record["steps"]["cards"] == [
        {"player": p, "card": c} for p, c in zip(example.players, example.dealt, strict=True)
    ]


def test_a_seeded_break_deals_the_top_seat_card_to_the_highest_card() -> None:
    players = [f"p{i}" for i in range(9)]
    seats = [SeatRef(t, s) for t in (1, 2, 3) for s in (2, 5, 8)]
    draw = break_table(players, seats, SeededRandom("break"), breaking_table=4)
    cards = [a.card for a in draw.assignments]
    assert cards == sorted(cards, reverse=True)
    assert [a.seat for a in draw.assignments] == list(draw.stack)
    assert dict(draw.cards) == {a.player: a.card for a in draw.assignments}
    assert len({c for _, c in draw.cards}) == 9
    record = json_round_trip(draw.to_dict())
    assert verify(record)
    record["steps"]["cards"][0]["card"] = "As"
    assert not verify(record)


def test_breaking_needs_as_many_open_seats_as_players() -> None:
    with pytest.raises(DrawError, match="3 players at the breaking table but only 2") as caught:
        break_table(["a", "b", "c"], [SeatRef(1, 1), SeatRef(2, 1)], SeededRandom(1))
    assert isinstance(caught.value, ValueError)
    assert caught.value.code == "not_enough_seats"
    assert caught.value.citations == ("TDA-10", "TDA-10-A")


def test_forbidden_seat_cards_are_not_shown_and_count_against_the_room() -> None:
    seats = [SeatRef(1, 1), SeatRef(1, 2), SeatRef(2, 6)]
    draw = break_table(["a", "b"], seats, SeededRandom(2), {SeatRef(1, 2)})
    assert draw.shown == (SeatRef(1, 1), SeatRef(2, 6))
    assert set(draw.seating.values()) == {SeatRef(1, 1), SeatRef(2, 6)}
    with pytest.raises(DrawError, match="only 1 open seats"):
        break_table(["a", "b"], seats, SeededRandom(2), {SeatRef(1, 2), SeatRef(2, 6)})


def test_the_breaking_table_cannot_receive_its_own_players() -> None:
    with pytest.raises(DrawError, match="Table 3 is breaking"):
        break_table(["a"], [SeatRef(3, 1), SeatRef(2, 1)], SeededRandom(1), breaking_table=3)


def test_a_seat_card_listed_twice_is_refused() -> None:
    with pytest.raises(DrawError, match="appears twice"):
        break_table(["a"], [SeatRef(1, 1), SeatRef(1, 1)], SeededRandom(1))


# --- Positions at a table ------------------------------------------------------------------------


def test_hands_until_the_big_blind_counts_from_the_button() -> None:
    seats = list(range(1, 10))
    occupied = [1, 2, 4, 5, 6]  # button 1: small blind 2, big blind 4
    assert hands_until_big_blind(seats, occupied, 1, 4) == 0
    assert hands_until_big_blind(seats, occupied, 1, 5) == 1
    assert hands_until_big_blind(seats, occupied, 1, 1) == 3
    assert hands_until_big_blind(seats, occupied, 1, 2) == 4  # the small blind waits longest
    with pytest.raises(DrawError):
        hands_until_big_blind(seats, occupied, 1, 3)


def test_the_seats_between_button_and_small_blind_are_found() -> None:
    found = seats_between_button_and_small_blind(7, range(1, 10), [1, 2, 5, 6], 2)
    assert found == {SeatRef(7, 3), SeatRef(7, 4)}
    # A dead button in an empty seat: the seats after it up to the small blind.
    assert seats_between_button_and_small_blind(7, range(1, 10), [5, 6], 9) == {
        SeatRef(7, 1),
        SeatRef(7, 2),
        SeatRef(7, 3),
        SeatRef(7, 4),
    }


# --- Balancing (TDA 11) --------------------------------------------------------------------------


def test_flop_balancing_moves_big_blind_next_to_the_worst_position_possibly_the_big_blind() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", [1, 2, 4, 5, 6])}
    # Table 1: button 5, so 6 is small blind and 7 big blind. Table 2: button 1, small blind 2;
    # seat 3 between the small and big blind makes a newcomer the big blind at once.
    moves = balance(tables, seats=9, buttons={1: 5, 2: 1})
    assert [(m.player, m.from_seat, m.to_seat) for m in moves] == [
        ("a7", SeatRef(1, 7), SeatRef(2, 3)),
        ("a8", SeatRef(1, 8), SeatRef(2, 7)),
    ]
    assert moves[0].citations == ("TDA-11", "TDA-11-A", "TDA-11-C")
    assert "0 hands to the big blind" in moves[0].reason
    record = moves[0].to_dict()
    assert record["from"] == {"table": 1, "seat": 7}
    assert {"rule": "TDA-11-A", "edition": "TDA 2024"} in record["citations"]
    assert json_round_trip(record) == record


def test_flop_balancing_never_seats_the_mover_in_the_small_blind() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", [4, 5, 6, 7, 8])}
    # Table 2: button 2; seat 3 would make the newcomer the small blind. Seats 9 and 1 come
    # round to the big blind equally soon; the first clockwise is taken.
    [move, _] = balance(tables, seats=9, buttons={1: 1, 2: 2})
    assert move.to_seat == SeatRef(2, 9)
    assert move.player == "a3"


def test_when_only_seats_before_the_small_blind_are_open_the_mover_waits_there() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", [1, 2, 3, 4, 5, 6, 7])}
    [move] = balance(tables, seats=9, buttons={1: 1, 2: 7})
    assert move.to_seat in {SeatRef(2, 8), SeatRef(2, 9)}


def test_balanced_tables_need_no_moves() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", list(range(1, 9)))}
    assert balance(tables, seats=9, buttons={1: 1, 2: 1}) == []
    tables[2] = seated("b", list(range(1, 8)))
    assert balance(tables, seats=9, buttons={1: 1, 2: 1}, max_difference=2) == []
    assert len(balance(tables, seats=9, buttons={1: 1, 2: 1})) == 1


def test_the_published_balancing_order_decides_between_equally_full_tables() -> None:
    tables = {
        1: seated("a", list(range(1, 10))),
        2: seated("b", list(range(1, 10))),
        3: seated("c", list(range(1, 8))),
    }
    buttons = {1: 1, 2: 1, 3: 1}
    [move] = balance(tables, seats=9, buttons=buttons)
    assert move.from_seat.table == 1
    [move] = balance(tables, seats=9, buttons=buttons, balancing_order=[2, 1, 3])
    assert move.from_seat.table == 2


def test_a_player_moved_recently_is_not_moved_while_another_candidate_exists() -> None:
    buttons = {1: 1, 2: 1, 3: 1}  # big blind next is seat 3 at tables 1 and 2
    tables = {
        1: seated("a", list(range(1, 10)), recent=(3,)),
        2: seated("b", list(range(1, 10))),
        3: seated("c", list(range(1, 8))),
    }
    [move] = balance(tables, seats=9, buttons=buttons)
    assert move.player == "b3"
    tables[2] = seated("b", list(range(1, 10)), recent=(3,))
    [move] = balance(tables, seats=9, buttons=buttons)
    assert move.player == "a4"  # next in line for the big blind
    everyone = {t: seated(p, list(range(1, 10)), recent=tuple(range(1, 10))) for t, p in [(1, "a")]}
    everyone[2] = seated("b", list(range(1, 8)))
    [move] = balance(everyone, seats=9, buttons={1: 1, 2: 1})
    assert move.player == "a3"  # nobody else: the rule's own choice


def test_a_forbidden_seat_is_never_filled_by_balancing() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", [1, 2, 4, 5, 6])}
    moves = balance(tables, seats=9, buttons={1: 5, 2: 1}, forbidden={SeatRef(2, 3)})
    assert SeatRef(2, 3) not in {m.to_seat for m in moves}


def test_stud_balancing_fills_the_last_seat_opened_by_position() -> None:
    tables = {1: seated("a", list(range(1, 9))), 2: seated("b", [1, 2, 3, 4, 6])}
    # Seat 8 opened before seat 5 at table 2; stud fills the last one opened, seat 5, with the
    # player in seat 5 at the long table.
    [move] = balance(tables, seats=8, game=Game.STUD, last_opened={2: [7, 8, 5]})
    assert (move.player, move.to_seat) == ("a5", SeatRef(2, 5))
    assert move.citations == ("TDA-11", "TDA-11-B", "TDA-11-C")
    tables[1] = seated("a", [1, 2, 3, 4, 6, 7, 8, 9], recent=())
    [move] = balance(tables, seats=9, game=Game.STUD, last_opened={2: [5]})
    assert move.player == "a6"  # seat 5 empty at the long table: the next seat clockwise


def test_stud_without_a_known_opening_order_fills_the_lowest_open_seat() -> None:
    tables = {1: seated("a", list(range(1, 9))), 2: seated("b", [2, 3, 4, 6, 7])}
    [move] = balance(tables, seats=8, game=Game.STUD)
    assert move.to_seat == SeatRef(2, 1)
    assert move.player == "a1"


def test_mixed_games_balance_by_the_flop_rule_around_the_frozen_button() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", [1, 2, 4, 5, 6])}
    moves = balance(tables, seats=9, buttons={1: 5, 2: 1}, game=Game.MIXED)
    assert moves[0].to_seat == SeatRef(2, 3)
    assert moves[0].citations == ("TDA-11", "TDA-11-B", "TDA-11-C")


def test_keep_position_pairs_the_player_with_the_seat_of_the_same_place_in_the_orbit() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", list(range(1, 8)))}
    buttons = {1: 9, 2: 3}
    # Table 2, button 3: seat 8 would be 3 hands from the big blind, 3/8 of the orbit. Table 1,
    # button 9: seat 5 is 3 hands from it (3/9), the closest. The TDA rule moves seat 2 instead.
    [move] = balance(tables, seats=9, buttons=buttons, policy=BalancePolicy.KEEP_POSITION)
    assert (move.player, move.to_seat) == ("a5", SeatRef(2, 8))
    assert move.citations == ("TDA-11", "TDA-11-C")
    [move] = balance(tables, seats=9, buttons=buttons)
    assert (move.player, move.to_seat) == ("a2", SeatRef(2, 8))


def test_flop_balancing_needs_the_buttons() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", [1])}
    with pytest.raises(DrawError, match="need the button") as caught:
        balance(tables, seats=9, buttons={1: 1})
    assert caught.value.citations == ("TDA-11-A",)


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ({1: [SeatedPlayer("a", 1), SeatedPlayer("b", 1)]}, "Two players"),
        ({1: [SeatedPlayer("a", 1)], 2: [SeatedPlayer("a", 2)]}, "seated twice"),
        ({1: [SeatedPlayer("a", 10)]}, "no seat 10"),
    ],
)
def test_balancing_refuses_an_impossible_room(
    tables: dict[int, list[SeatedPlayer]], message: str
) -> None:
    with pytest.raises(DrawError, match=message):
        balance(tables, seats=9, buttons={1: 1, 2: 1})


def test_a_table_three_short_of_the_fullest_halts() -> None:
    tables = {
        1: seated("a", list(range(1, 10))),
        2: seated("b", list(range(1, 7))),
        3: seated("c", list(range(1, 8))),
    }
    assert tables_to_halt(tables) == [2]
    assert tables_to_halt({}) == []


# --- When tables break (TDA 10, 11-C, RP-9) ------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seats", "final", "tables"),
    [
        (0, 9, None, 0),
        (9, 9, None, 1),
        (10, 9, None, 2),
        (18, 9, None, 2),
        (19, 9, None, 3),
        (10_000, 9, None, 1112),
        (10, 10, 9, 2),  # RP-9: two tables of five ...
        (9, 10, 9, 1),  # ... make a 9-handed final table
        (8, 8, 7, 2),  # two tables of four ...
        (7, 8, 7, 1),  # ... a 7-handed one
    ],
)
def test_tables_needed(players: int, seats: int, final: int | None, tables: int) -> None:
    assert tables_needed(players, seats, final) == tables


def test_when_to_break_names_the_player_count_that_breaks_the_next_table() -> None:
    assert when_to_break(5, 9) == 36
    assert when_to_break(3, 9) == 18
    assert when_to_break(2, 10, 9) == 9
    assert when_to_break(1, 9) == 0
    for tables in range(2, 20):
        at = when_to_break(tables, 9)
        assert tables_needed(at, 9) == tables - 1
        assert tables_needed(at + 1, 9) == tables


@pytest.mark.parametrize(("seats", "final"), [(1, None), (9, 10), (9, 1)])
def test_table_sizes_are_checked(seats: int, final: int | None) -> None:
    with pytest.raises(DrawError):
        tables_needed(5, seats, final)


def test_tables_break_in_the_published_order() -> None:
    order = default_break_order([1, 2, 3, 4, 5])
    assert order == (5, 4, 3, 2, 1)
    assert tables_to_break(37, [1, 2, 3, 4, 5], 9, order) == []
    assert tables_to_break(36, [1, 2, 3, 4, 5], 9, order) == [5]
    assert tables_to_break(27, [1, 2, 3, 4, 5], 9, [2, 4]) == [2, 4]
    assert tables_to_break(20, [1, 3], 9, [3, 1]) == []
    assert tables_to_break(9, [1, 3], 9, [3, 1]) == [3]
    with pytest.raises(DrawError, match="twice"):
        tables_to_break(9, [1, 3], 9, [3, 3])


def test_seat_cards_for_a_break_fill_the_shortest_tables_first() -> None:
    tables = {
        1: seated("a", [1, 2, 3, 4, 5, 6]),
        2: seated("b", [1, 2, 3, 4, 5, 6, 7, 8]),
        3: seated("c", [2, 3, 4, 5, 6, 7, 8]),
        4: seated("d", [1, 2, 3]),
    }
    cards = seat_cards_for_break(tables, seats=9, breaking_table=4)
    # Three movers: table 1 (6) gets two, reaching 8, table 3 (7) gets one; the lowest open seats.
    assert cards == [SeatRef(1, 7), SeatRef(1, 8), SeatRef(3, 1)]
    cards = seat_cards_for_break(tables, seats=9, breaking_table=4, forbidden={SeatRef(1, 7)})
    assert cards == [SeatRef(1, 8), SeatRef(1, 9), SeatRef(3, 1)]
    draw = break_table(["d1", "d2", "d3"], cards, SeededRandom("b"), breaking_table=4)
    assert set(draw.seating.values()) == set(cards)


def test_seat_cards_for_a_break_refuse_when_the_room_is_full() -> None:
    tables = {1: seated("a", list(range(1, 10))), 2: seated("b", [1, 2])}
    with pytest.raises(DrawError, match="only 0 open seats"):
        seat_cards_for_break(tables, seats=9, breaking_table=2)
    with pytest.raises(DrawError, match="not in play"):
        seat_cards_for_break(tables, seats=9, breaking_table=7)
