"""The chip reader: every worked example of the seeds as a data row, then each branch.

A row is (id, source, what the player faces, what they did, expected action/to/returned, a rule
the ruling must cite). ``table()`` builds the ``Facing`` the engine's options would give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import pytest

from rules.engine import citations as rule
from rules.engine.chips import Facing, Interpretation, Physical, interpret
from rules.engine.errors import BadInput, IllegalAction


def table(
    structure: str = "no_limit",
    *,
    bet: int = 0,
    wager: int = 0,
    stack: int = 100_000,
    increment: int | None = None,
    bring_in: int = 100,
    pot: int = 0,
    fixed_to: int | None = None,
    min_chip: int = 1,
    may_raise: bool = True,
) -> Facing:
    """What ``legal_options`` would give the player to act.

    ``bet`` is the current bet, ``pot`` (pot limit) every chip in the middle and on the table
    before the actor's call, ``fixed_to`` (fixed limit) the one legal bet/raise total.
    """
    increment = bring_in if increment is None else increment
    owed = bet - wager
    call = None if owed <= 0 else min(owed, stack)
    all_in = wager + stack
    min_to: int | None = None
    max_to: int | None = None
    if may_raise and all_in > bet:
        if structure == "fixed_limit":
            assert fixed_to is not None
            min_to = max_to = fixed_to
        else:
            min_to = bring_in if bet == 0 else bet + increment
            max_to = bet + pot + max(owed, 0) if structure == "pot_limit" else all_in
        if all_in < min_to:
            min_to = max_to = all_in
        max_to = min(max_to, all_in)
    return Facing(
        structure=structure,
        current_bet=bet,
        wager=wager,
        stack=stack,
        call=call,
        min_to=min_to,
        max_to=max_to,
        min_raise_increment=increment,
        bring_in=bring_in,
        min_chip=min_chip,
    )


def did(
    *chips: int,
    prior: tuple[int, ...] = (),
    pulled_back: bool | Literal["some"] = False,
    said: str | None = None,
    to: int | None = None,
) -> Physical:
    return Physical(chips, prior, pulled_back, said, to)


@dataclass(frozen=True)
class Row:
    id: str
    source: str
    facing: Facing
    physical: Physical
    expected: tuple[str, int, int]  # action, to, returned
    cites: str


# TDA-46 situations 1, 3, 4: THE 25-50, the big blind posted two 25s, the button raised to 600.
BB_FACING_600 = table(bet=600, wager=50, increment=550, bring_in=50, min_chip=25)
# TDA-46 situation 2: THE 50-100, the big blind posted one 1k chip, a raise to 700.
BB_1K_FACING_700 = table(bet=700, wager=100, increment=600, bring_in=100, min_chip=25)
# TDA-45 examples 1-B to 3: blinds 250-500, UTG raised to 1100 (a raise of 600).
UTG_1100 = table(bet=1100, increment=600, bring_in=500)
# TDA-45 example 4: a 1400 opener post-flop.
OPEN_1400 = table(bet=1400, increment=1400, bring_in=500)
# RRoP pot-limit preamble: pot 100, a bet of 50.
PL_POT_100_BET_50 = table("pot_limit", bet=50, increment=50, bring_in=10, pot=150)
# PLO 500-1000 post-flop with 10,500 in the pot (seed: the dealer's pot count).
PLO_10500 = table("pot_limit", bring_in=1000, pot=10_500)
# Fixed limit 10-20 on the turn (one bet is 20).
FL_TURN_BET_20 = table("fixed_limit", bet=20, increment=20, bring_in=10, fixed_to=40, min_chip=5)

ROWS = [
    # --- TDA-45: multiple-chip betting ----------------------------------------------------
    Row("tda45-1a-two-1000s-call-1200", "TDA-45 Example 1-A",
        table(bet=1200, increment=1200, bring_in=200), did(1000, 1000),
        ("call", 1200, 800), rule.TDA_MULTIPLE_CHIPS),
    Row("tda45-1b-500-and-1000-call-1100", "TDA-45 Example 1-B",
        UTG_1100, did(500, 1000), ("call", 1100, 400), rule.TDA_MULTIPLE_CHIPS),
    Row("tda45-2-1000-and-five-100s-raise-to-1700", "TDA-45 Example 2",
        UTG_1100, did(1000, 100, 100, 100, 100, 100), ("raise", 1700, 0), rule.TDA_RAISE_AMOUNTS),
    Row("tda45-3-1000-and-three-100s-call-200-back", "TDA-45 Example 3",
        UTG_1100, did(1000, 100, 100, 100), ("call", 1100, 200), rule.TDA_RAISE_AMOUNTS),
    Row("tda45-4a-chips-behind-min-raise-to-2800", "TDA-45 Example 4-A",
        OPEN_1400, did(1000, 500, 500, 500), ("raise", 2800, 0), rule.TDA_MULTIPLE_CHIPS),
    Row("tda45-4b-chips-behind-call-600-back", "TDA-45 Example 4-B",
        OPEN_1400, did(1000, 500, 500), ("call", 1400, 600), rule.TDA_RAISE_AMOUNTS),
    Row("tda45-4a-last-chips-all-in-2500", "TDA-45 Example 4-A, NOTE (last chips)",
        table(bet=1400, increment=1400, bring_in=500, stack=2500), did(1000, 500, 500, 500),
        ("all_in", 2500, 0), rule.TDA_MULTIPLE_CHIPS),
    Row("tda45-4b-last-chips-all-in-2000", "TDA-45 Example 4-B, NOTE (last chips)",
        table(bet=1400, increment=1400, bring_in=500, stack=2000), did(1000, 500, 500),
        ("all_in", 2000, 0), rule.TDA_MULTIPLE_CHIPS),
    Row("tda45-4a-every-chip-needed-last-chips-is-a-call", "TDA-45 Example 4 A)",
        table(bet=1200, increment=1200, bring_in=200, stack=2000), did(1000, 1000),
        ("call", 1200, 800), rule.TDA_MULTIPLE_CHIPS),
    # --- TDA-46: chips already in front ---------------------------------------------------
    Row("tda46-s1-1-overchip-onto-25s-call", "TDA-46 Situation 1.1",
        BB_FACING_600, did(1000, prior=(25, 25)), ("call", 600, 450), rule.TDA_PRIOR_CHIPS),
    Row("tda46-s1-2a-two-500s-onto-25s-call", "TDA-46 Situation 1.2a",
        BB_FACING_600, did(500, 500, prior=(25, 25)), ("call", 600, 450), rule.TDA_PRIOR_CHIPS),
    Row("tda46-s1-2b-100-and-500-onto-25s-call", "TDA-46 Situation 1.2b",
        BB_FACING_600, did(100, 500, prior=(25, 25)), ("call", 600, 50), rule.TDA_PRIOR_CHIPS),
    Row("tda46-s1-3-1000-and-500-onto-25s-raise-1550", "TDA-46 Situation 1.3",
        BB_FACING_600, did(1000, 500, prior=(25, 25)), ("raise", 1550, 0),
        rule.TDA_MULTIPLE_CHIPS),
    Row("tda46-s2-1k-covers-add-500-raise-1500", "TDA-46 Situation 2",
        BB_1K_FACING_700, did(500, prior=(1000,)), ("raise", 1500, 0), rule.TDA_PRIOR_CHIPS),
    Row("tda46-s2-1k-covers-add-100-held-to-1300", "TDA-46 Situation 2",
        BB_1K_FACING_700, did(100, prior=(1000,)), ("raise", 1300, 0), rule.TDA_PRIOR_CHIPS),
    Row("tda46-s2-1k-covers-said-call-300-back", "TDA-46 Situation 2 (with a spoken call)",
        BB_1K_FACING_700, did(prior=(1000,), said="call"), ("call", 700, 300),
        rule.VERBAL_BINDING),
    Row("tda46-s3-1-pulled-back-overchip-call", "TDA-46 Situation 3.1",
        BB_FACING_600, did(1000, prior=(25, 25), pulled_back=True), ("call", 600, 400),
        rule.TDA_PRIOR_CHIPS),
    Row("tda46-s3-2-pulled-back-two-500s-call", "TDA-46 Situation 3.2",
        BB_FACING_600, did(500, 500, prior=(25, 25), pulled_back=True), ("call", 600, 400),
        rule.TDA_MULTIPLE_CHIPS),
    Row("tda46-s3-2-pulled-back-1000-and-500-raise", "TDA-46 Situation 3.2",
        BB_FACING_600, did(1000, 500, prior=(25, 25), pulled_back=True), ("raise", 1500, 0),
        rule.TDA_MULTIPLE_CHIPS),
    Row("tda46-s3-2-pulled-back-500-and-100-exact-call", "TDA-46 Situation 3.2",
        BB_FACING_600, did(500, 100, prior=(25, 25), pulled_back=True), ("call", 600, 0),
        rule.TDA_MULTIPLE_CHIPS),
    Row("tda46-s4-one-25-left-add-1000-held-to-min-raise", "TDA-46 Situation 4",
        BB_FACING_600, did(1000, prior=(25,), pulled_back="some"), ("raise", 1150, 0),
        rule.TDA_PRIOR_CHIPS),
    Row("tda46-s4-one-25-left-add-500-100-call-25-back", "TDA-46 Situation 4",
        BB_FACING_600, did(500, 100, prior=(25,), pulled_back="some"), ("call", 600, 25),
        rule.TDA_PRIOR_CHIPS),
    Row("tda46-s4-one-25-left-add-500-short-call", "TDA-46 Situation 4",
        BB_FACING_600, did(500, prior=(25,), pulled_back="some"), ("call", 600, 0),
        rule.TDA_MULTIPLE_CHIPS),
    Row("tda46-s5-all-chips-pushed-forward-all-in", "TDA-46 Situation 5",
        table(bet=600, wager=50, increment=550, bring_in=50, min_chip=25, stack=1450),
        did(1000, 100, 100, 100, 100, 25, 25, prior=(25, 25)), ("all_in", 1500, 0),
        rule.TDA_MULTIPLE_CHIPS),
    # --- TDA-43: the largest prior full bet or raise; the 50% standard --------------------
    Row("tda43-1-d-says-raise-min-5600", "TDA-43 Example 1",
        table(bet=3600, increment=2000, bring_in=200), did(said="raise"), ("raise", 5600, 0),
        rule.VERBAL_BINDING),
    Row("tda43-2-b-says-raise-with-200-brought-to-250", "TDA-43 Example 2",
        table(bet=150, increment=100, bring_in=100), did(100, 100, said="raise"),
        ("raise", 250, 0), rule.NL_RAISE_BROUGHT_UP),
    Row("tda43-3-two-500s-over-300-raise-to-1000", "TDA-43 Example 3",
        table(bet=300, increment=300, bring_in=200), did(500, 500), ("raise", 1000, 0),
        rule.TDA_RAISE_AMOUNTS),
    Row("tda43-3-c-says-raise-with-1500-brought-to-1700", "TDA-43 Example 3",
        table(bet=1000, increment=700, bring_in=200), did(1000, 500, said="raise"),
        ("raise", 1700, 0), rule.NL_RAISE_BROUGHT_UP),
    Row("tda43-4a-700-over-500-held-to-800", "TDA-43 Example 4-A",
        table(bet=500, increment=300, bring_in=50), did(500, 100, 100), ("raise", 800, 0),
        rule.TDA_RAISE_AMOUNTS),
    Row("tda43-4b-700-over-500-is-a-call", "TDA-43 Example 4-B",
        table(bet=500, increment=450, bring_in=50), did(500, 100, 100), ("call", 500, 200),
        rule.TDA_RAISE_AMOUNTS),
    # --- TDA-47: re-opening the betting ---------------------------------------------------
    Row("tda47-1a-c-not-reopened-chips-are-a-call", "TDA-47 Example 1-A",
        table(bet=200, wager=125, increment=100, may_raise=False), did(25, 25, 25, 25),
        ("call", 200, 25), rule.TDA_REOPENING),
    Row("tda47-1a-c-single-100-is-a-call", "TDA-47 Example 1-A",
        table(bet=200, wager=125, increment=100, may_raise=False), did(100),
        ("call", 200, 25), rule.SINGLE_CHIP_CALL),
    Row("tda47-1b-c-reopened-says-raise-min-400", "TDA-47 Example 1-B",
        table(bet=300, wager=125, increment=100), did(said="raise"), ("raise", 400, 0),
        rule.VERBAL_BINDING),
    Row("tda47-3a-a-not-reopened-5000-chip-call", "TDA-47 Example 3-A",
        table(bet=7500, wager=4000, increment=4000, bring_in=4000, may_raise=False),
        did(5000), ("call", 7500, 1500), rule.SINGLE_CHIP_CALL),
    Row("tda47-3b-a-reopened-says-raise-min-15500", "TDA-47 Example 3-B",
        table(bet=11_500, wager=4000, increment=4000, bring_in=4000), did(said="raise"),
        ("raise", 15_500, 0), rule.VERBAL_BINDING),
    # --- TDA-40: verbal and chips; undercalls ---------------------------------------------
    Row("tda40-1-forty-two-thousand-over-a-5k-chip", "TDA-40 Example 1",
        table(bring_in=2000), did(5000, said="bet", to=42_000), ("bet", 42_000, 0),
        rule.NL_VERBAL_OVER_CHIPS),
    Row("tda51-1-2000-into-8000-full-call", "TDA undercall Example 1 (TD's discretion: a call)",
        table(bet=8000, increment=6000, bring_in=2000), did(2000), ("call", 8000, 0),
        rule.BRING_UP_SHORT_WAGER),
    Row("tda51-2-undercall-of-opening-bet-full-call", "TDA undercall Example 2",
        table(bet=8000, increment=8000, bring_in=2000), did(1000, 1000), ("call", 8000, 0),
        rule.BRING_UP_SHORT_WAGER),
    Row("tda51-3-says-call-calls-8000", "TDA undercall Example 3",
        table(bet=8000, increment=6000, bring_in=2000), did(said="call"), ("call", 8000, 0),
        rule.VERBAL_BINDING),
    # --- pot limit --------------------------------------------------------------------------
    Row("pl-dealer-count-9500-bet-stands", "TDA pot-count Example 1",
        PLO_10500, did(5000, 1000, 1000, 1000, 1000, 500), ("bet", 9500, 0),
        rule.TDA_VERBAL_AND_CHIPS),
    Row("pl-pot-declared-10500-stands-over-9500", "TDA pot-count Example 2",
        PLO_10500, did(5000, 1000, 1000, 1000, 1000, 500, said="bet", to=10_500),
        ("bet", 10_500, 0), rule.NL_VERBAL_OVER_CHIPS),
    Row("pl-11500-overbet-reduced-to-10500", "TDA pot-count Example 3",
        PLO_10500, did(5000, 5000, 1000, 500), ("bet", 10_500, 1000), rule.PL_OVERSIZE_REDUCED),
    Row("pl-preamble-raise-to-250-allowed", "RRoP-14 preamble (pot 100, bet 50: to 250)",
        PL_POT_100_BET_50, did(100, 100, 50, said="raise", to=250), ("raise", 250, 0),
        rule.VERBAL_BINDING),
    Row("pl-preamble-300-in-chips-reduced-to-250", "RRoP-PL.1 with the RRoP-14 preamble",
        PL_POT_100_BET_50, did(100, 100, 100), ("raise", 250, 50), rule.PL_OVERSIZE_REDUCED),
    Row("pl-preamble-says-raise-to-400-reduced-to-250", "RRoP-PL.1",
        PL_POT_100_BET_50, did(said="raise", to=400), ("raise", 250, 0),
        rule.PL_OVERSIZE_REDUCED),
    Row("pl6-single-chip-bigger-than-pot-is-pot-bet", "RRoP-PL.6",
        table("pot_limit", bring_in=10, pot=100), did(500), ("bet", 100, 400),
        rule.PL_SINGLE_CHIP_OVER_POT),
    Row("pl5-sb-as-big-raise-to-50-reduced-to-40", "RRoP-PL.5 (blinds 5-10: open to 40)",
        table("pot_limit", bet=10, increment=10, bring_in=10, pot=20), did(said="raise", to=50),
        ("raise", 40, 0), rule.PL_OVERSIZE_REDUCED),
    Row("pl5-strict-raise-to-40-reduced-to-35", "RRoP-PL.5 (tournament: 3.5 big blinds)",
        table("pot_limit", bet=10, increment=10, bring_in=10, pot=15), did(said="raise", to=40),
        ("raise", 35, 0), rule.PL_OVERSIZE_REDUCED),
    Row("pl5-raise-to-25-in-range", "RRoP-PL.5 (any amount from 20 to 40)",
        table("pot_limit", bet=10, increment=10, bring_in=10, pot=20), did(said="raise", to=25),
        ("raise", 25, 0), rule.VERBAL_BINDING),
    # --- Robert's Rules: betting and raising (limit) ---------------------------------------
    Row("br15-25000-chip-on-6000-bet-is-a-call", "RRoP-BR.15 (3.000-6.000 game)",
        table("fixed_limit", bet=6000, increment=6000, bring_in=3000, fixed_to=12_000),
        did(25_000), ("call", 6000, 19_000), rule.SINGLE_CHIP_CALL),
    Row("br14-bet-and-a-half-is-a-raise", "RRoP-BR.14",
        FL_TURN_BET_20, did(10, 10, 10), ("raise", 40, 0), rule.FULL_BET_AND_HALF),
    Row("br14-less-than-half-a-bet-over-is-a-call", "RRoP-BR.14",
        FL_TURN_BET_20, did(10, 10, 5), ("call", 20, 5), rule.FULL_BET_AND_HALF),
    Row("br14-single-big-chip-not-a-raise", "RRoP-BR.14 (not a single chip of greater value)",
        FL_TURN_BET_20, did(100), ("call", 20, 80), rule.SINGLE_CHIP_CALL),
    Row("br5-raising-15000-all-in-to-35000", "RRoP-BR.5 (20.000 round, 15.000 all-in)",
        table("fixed_limit", bet=15_000, increment=20_000, bring_in=10_000, fixed_to=35_000),
        did(20_000, 10_000, 5000, said="raise"), ("raise", 35_000, 0), rule.VERBAL_BINDING),
    Row("br16-lower-limit-on-upper-round-brought-up", "RRoP-BR.16",
        table("fixed_limit", bring_in=10, increment=20, fixed_to=20, min_chip=5), did(10),
        ("bet", 20, 0), rule.BRING_UP_SHORT_WAGER),
    Row("br16-below-bring-in-brought-up", "RRoP-BR.16 / RRoP-14.2",
        table(bring_in=100, min_chip=25), did(25, 25), ("bet", 100, 0),
        rule.BRING_UP_SHORT_WAGER),
    Row("br16-below-bring-in-all-in-stands", "RRoP-BR.16 (other than going all-in)",
        table(bring_in=100, min_chip=25, stack=50), did(25, 25), ("all_in", 50, 0),
        rule.TDA_VERBAL_AND_CHIPS),
    Row("br7-5s-do-not-play-with-a-100", "RRoP-BR.7",
        table(bring_in=50, min_chip=25), did(100, 5, 5), ("bet", 100, 10), rule.SMALLEST_CHIP),
    Row("br7-5s-do-not-play-even-in-quantity", "RRoP-BR.7 (not even in quantity)",
        table(bring_in=50, min_chip=25), did(5, 5, 5, 5, 5, 5, 5, 5, 5, 5), ("check", 0, 50),
        rule.SMALLEST_CHIP),
    Row("br7-short-call-with-5s-they-go-back", "RRoP-BR.7",
        table(bet=50, bring_in=50, min_chip=25), did(25, 5, 5, 5, 5, 5), ("call", 50, 25),
        rule.SMALLEST_CHIP),
    Row("br8-says-check-with-nothing-to-call", "RRoP-BR.8",
        table(bring_in=100), did(said="check"), ("check", 0, 0), rule.VERBAL_BINDING),
    # --- Robert's Rules: no limit and pot limit --------------------------------------------
    Row("r14-8-raise-to-1700-over-1500-in-chips", "RRoP-14.8",
        table(bet=1000, increment=700, bring_in=200), did(1000, 500, said="raise", to=1700),
        ("raise", 1700, 0), rule.NL_VERBAL_OVER_CHIPS),
    Row("r14-10-500-chip-said-four-hundred", "RRoP-14.10 example (the bettor)",
        table(bring_in=100), did(500, said="bet", to=400), ("bet", 400, 100),
        rule.NL_VERBAL_OVER_CHIPS),
    Row("r14-10-100-chip-said-call-owes-400", "RRoP-14.10 example (the caller)",
        table(bet=400, increment=400, bring_in=100), did(100, said="call"), ("call", 400, 0),
        rule.BRING_UP_SHORT_WAGER),
    Row("r14-11-single-chip-bet-full-value", "RRoP-14.11",
        table(bring_in=100), did(500), ("bet", 500, 0), rule.NL_SINGLE_CHIP),
    Row("r14-11-single-chip-facing-bet-call", "RRoP-14.11",
        table(bet=200, increment=200, bring_in=100), did(500), ("call", 200, 300),
        rule.NL_SINGLE_CHIP),
    Row("r14-11-single-chip-with-raise-declared", "RRoP-14.11 (unless a raise is declared)",
        table(bet=200, increment=200, bring_in=100), did(500, said="raise"), ("raise", 500, 0),
        rule.NL_SINGLE_CHIP),
    Row("r14-11-big-blind-forced-bet-call", "RRoP-14.11 (the forced bet of the big blind)",
        table(bet=200, increment=200, bring_in=200), did(1000), ("call", 200, 800),
        rule.NL_SINGLE_CHIP),
    Row("r14-12-raise-short-brought-up-no-more", "RRoP-14.12",
        table(bet=100, increment=100, bring_in=100), did(100, 50, said="raise"),
        ("raise", 200, 0), rule.NL_RAISE_BROUGHT_UP),
    Row("r14-12-too-much-to-call-is-not-a-raise", "RRoP-14.12 (too much put in to call)",
        table(bet=100, increment=100, bring_in=100), did(100, 25), ("call", 100, 25),
        rule.TDA_RAISE_AMOUNTS),
    Row("r14-4-no-completing-raise-to-240", "RRoP-14.4 (bet 100, all-in 140)",
        table(bet=140, increment=100, bring_in=100), did(100, 100, said="raise"),
        ("raise", 240, 0), rule.NL_RAISE_BROUGHT_UP),
    Row("r4-2-all-in-20-single-100-is-a-call", "RRoP-4.2 (minimum bet 100, all-in for 20)",
        table(bet=20, increment=100, bring_in=100), did(100), ("call", 20, 80),
        rule.SINGLE_CHIP_CALL),
    Row("r4-2-all-in-20-chips-to-120-raise", "RRoP-4.2 (raise to at least 120)",
        table(bet=20, increment=100, bring_in=100), did(100, 20), ("raise", 120, 0),
        rule.TDA_RAISE_AMOUNTS),
    # --- Poker Betting Help (Robert's Rules worked hand) -----------------------------------
    Row("help-seat3-two-500s-raise-to-1000", "Betting Help: pre-flop, Seat 3",
        table(bet=400, increment=400, bring_in=400), did(500, 500), ("raise", 1000, 0),
        rule.TDA_RAISE_AMOUNTS),
    Row("help-seat4-1000-chip-calls-1000", "Betting Help: pre-flop, Seat 4",
        table(bet=1000, increment=600, bring_in=400), did(1000), ("call", 1000, 0),
        rule.SINGLE_CHIP_CALL),
    Row("help-seat1-small-blind-adds-800", "Betting Help: pre-flop, Seat 1 (small blind)",
        table(bet=1000, wager=200, increment=600, bring_in=400), did(500, 100, 100, 100),
        ("call", 1000, 0), rule.TDA_MULTIPLE_CHIPS),
    Row("help-flop-seat2-bets-500", "Betting Help: flop, Seat 2",
        table(bring_in=400), did(500), ("bet", 500, 0), rule.NL_SINGLE_CHIP),
    Row("help-flop-seat3-raises-to-1200", "Betting Help: flop, Seat 3",
        table(bet=500, increment=500, bring_in=400), did(1000, 100, 100), ("raise", 1200, 0),
        rule.TDA_RAISE_AMOUNTS),
    Row("help-s1-bet-of-8-brought-up-to-10", "Betting Help: Situation 1",
        table(bring_in=10), did(5, 1, 1, 1), ("bet", 10, 0), rule.BRING_UP_SHORT_WAGER),
    Row("help-s2-says-raise-min-40", "Betting Help: Situation 2 (Seat 4)",
        table(bet=25, increment=15, bring_in=10), did(said="raise"), ("raise", 40, 0),
        rule.VERBAL_BINDING),
    Row("help-s2-35-in-chips-held-to-40", "Betting Help: Situation 2 (Seat 4)",
        table(bet=25, increment=15, bring_in=10), did(25, 10), ("raise", 40, 0),
        rule.TDA_RAISE_AMOUNTS),
    Row("help-s3-raise-to-150-brought-up-to-175", "Betting Help: Situation 3 (Seat 5)",
        table(bet=100, increment=75, bring_in=10), did(said="raise", to=150),
        ("raise", 175, 0), rule.NL_RAISE_BROUGHT_UP),
    Row("help-s4-seat4-not-reopened-25-chip-call", "Betting Help: Situation 4 (Seat 4)",
        table(bet=26, wager=20, increment=10, bring_in=10, may_raise=False), did(25),
        ("call", 26, 19), rule.SINGLE_CHIP_CALL),
    Row("help-s6-seat4-reopened-min-42", "Betting Help: Situation 6 (Seat 4)",
        table(bet=31, wager=20, increment=11, bring_in=10), did(said="raise"),
        ("raise", 42, 0), rule.VERBAL_BINDING),
]  # fmt: skip


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_seed_examples(row: Row) -> None:
    result = interpret(row.facing, row.physical)
    assert (result.action, result.to, result.returned) == row.expected, (
        row.source,
        result.explanation,
    )
    assert row.cites in result.citations, (row.source, result.citations)
    assert_well_formed(result)


def assert_well_formed(result: Interpretation) -> None:
    """Citations are rulebook ids, each named in a plain-English explanation."""
    assert result.citations and set(result.citations) <= rule.ALL
    assert len(set(result.citations)) == len(result.citations)
    assert result.explanation.endswith(".")
    for citation in result.citations:
        assert citation in result.explanation


ILLEGAL = [
    ("br8-check-facing-a-bet", "RRoP-BR.8 / RRoP-BR.6", table(bet=200, bring_in=200),
     did(said="check"), "cannot_check"),
    ("nothing-done-facing-a-bet", "RRoP-BR.6", table(bet=200, bring_in=200), did(),
     "cannot_check"),
    ("tda47-1a-c-says-raise-not-reopened", "TDA-47 Example 1-A",
     table(bet=200, wager=125, increment=100, may_raise=False), did(said="raise"),
     "raise_not_allowed"),
    ("help-s4-seat4-says-raise-not-reopened", "Betting Help: Situation 4",
     table(bet=26, wager=20, increment=10, bring_in=10, may_raise=False),
     did(said="raise", to=36), "raise_not_allowed"),
    ("tda47-3a-says-all-in-not-reopened", "TDA-47 Example 3-A",
     table(bet=7500, wager=4000, increment=4000, bring_in=4000, may_raise=False),
     did(said="all_in"), "raise_not_allowed"),
    ("fl-capped-says-raise", "RRoP-BR.3",
     table("fixed_limit", bet=80, increment=20, bring_in=10, may_raise=False),
     did(said="raise"), "raise_not_allowed"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("facing", "physical", "code"),
    [row[2:] for row in ILLEGAL],
    ids=[row[0] for row in ILLEGAL],
)
def test_what_cannot_be_taken_is_refused_with_the_contract_code(
    facing: Facing, physical: Physical, code: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        interpret(facing, physical)
    assert caught.value.code == code
    assert caught.value.message and set(caught.value.citations) <= rule.ALL
    assert caught.value.citations


# --- branches ------------------------------------------------------------------------------


def test_nothing_done_with_nothing_to_call_is_a_check() -> None:
    result = interpret(table(bring_in=100), did())
    assert (result.action, result.to, result.returned) == ("check", 0, 0)
    assert_well_formed(result)


def test_the_big_blind_checks_its_option_by_doing_nothing() -> None:
    result = interpret(table(bet=200, wager=200, bring_in=200), did())
    assert (result.action, result.to, result.returned) == ("check", 200, 0)


def test_the_big_blinds_single_chip_on_its_option_raises_by_the_chip() -> None:
    result = interpret(table(bet=200, wager=200, bring_in=200), did(500))
    assert (result.action, result.to, result.returned) == ("raise", 700, 0)
    assert rule.NL_SINGLE_CHIP in result.citations


def test_the_big_blinds_chips_on_its_option_with_the_blind_listed() -> None:
    result = interpret(table(bet=200, wager=200, bring_in=200), did(100, 100, prior=(200,)))
    assert (result.action, result.to) == ("raise", 400)


def test_a_bet_is_refused_when_nobody_could_call_it() -> None:
    facing = table(bet=200, wager=200, bring_in=200, may_raise=False)
    with pytest.raises(IllegalAction) as caught:
        interpret(facing, did(500))
    assert caught.value.code == "raise_not_allowed"
    assert "Check." in caught.value.message


def test_verbal_check_gives_the_chips_back() -> None:
    result = interpret(table(bring_in=100), did(500, said="check"))
    assert (result.action, result.to, result.returned) == ("check", 0, 500)


def test_verbal_call_with_nothing_to_call_is_a_check() -> None:
    result = interpret(table(bet=200, wager=200, bring_in=200), did(said="call"))
    assert (result.action, result.to, result.returned) == ("check", 200, 0)


def test_verbal_call_with_too_many_chips_is_a_call_with_change() -> None:
    result = interpret(table(bet=600, increment=400, bring_in=200), did(1000, 500, said="call"))
    assert (result.action, result.to, result.returned) == ("call", 600, 900)
    assert rule.NL_VERBAL_OVER_CHIPS in result.citations


def test_a_call_of_every_chip_is_a_call_not_an_all_in() -> None:
    facing = table(bet=600, increment=400, bring_in=200, stack=600)
    for physical in (did(500, 100), did(said="call"), did(said="all_in"), did(1000)):
        result = interpret(facing, physical)
        assert (result.action, result.to) == ("call", 600), physical
        assert "all-in" in result.explanation


def test_a_short_stack_calling_all_in_for_less() -> None:
    facing = table(bet=1000, increment=800, bring_in=200, stack=300)
    assert facing.call == 300 and facing.min_to is None
    result = interpret(facing, did(100, 100, 100))
    assert (result.action, result.to, result.returned) == ("call", 300, 0)
    result = interpret(facing, did(said="all_in"))
    assert (result.action, result.to) == ("call", 300)


def test_verbal_all_in_puts_every_chip_in() -> None:
    facing = table(bet=200, increment=200, bring_in=200, stack=5000)
    result = interpret(facing, did(100, said="all_in"))
    assert (result.action, result.to, result.returned) == ("all_in", 5000, 0)


def test_verbal_all_in_in_pot_limit_is_reduced_to_the_pot() -> None:
    result = interpret(PL_POT_100_BET_50, did(said="all_in"))
    assert (result.action, result.to) == ("raise", 250)
    assert rule.PL_OVERSIZE_REDUCED in result.citations


def test_a_spoken_amount_over_the_stack_is_all_in() -> None:
    facing = table(bet=200, increment=200, bring_in=200, stack=3000)
    result = interpret(facing, did(said="raise", to=9000))
    assert (result.action, result.to) == ("all_in", 3000)
    assert rule.PL_MAX_BET in result.citations


def test_a_spoken_amount_below_the_minimum_but_all_in_stands() -> None:
    facing = table(bet=200, increment=200, bring_in=200, stack=300)
    assert (facing.min_to, facing.max_to) == (300, 300)
    result = interpret(facing, did(said="raise", to=250))
    assert (result.action, result.to) == ("all_in", 300)


def test_bet_said_facing_a_bet_counts_as_a_raise() -> None:
    result = interpret(table(bet=200, increment=200, bring_in=200), did(said="bet", to=600))
    assert (result.action, result.to) == ("raise", 600)
    assert "counts as a raise" in result.explanation


def test_raise_said_with_no_bet_counts_as_a_bet() -> None:
    result = interpret(table(bring_in=200), did(300, said="raise"))
    assert (result.action, result.to) == ("bet", 300)


def test_fixed_limit_spoken_amounts_are_exactly_one_bet() -> None:
    assert interpret(FL_TURN_BET_20, did(said="raise", to=100)).to == 40
    assert interpret(FL_TURN_BET_20, did(said="raise", to=25)).to == 40
    silent = interpret(table("fixed_limit", bring_in=10, fixed_to=20), did(25, 25))
    assert (silent.action, silent.to, silent.returned) == ("bet", 20, 30)


def test_a_player_whose_last_chips_could_lose_one_but_may_not_raise_calls() -> None:
    facing = table(bet=200, wager=125, increment=100, stack=300, may_raise=False)
    result = interpret(facing, did(100, 100, 100, 25, 25, 25))
    assert (result.action, result.to, result.returned) == ("call", 200, 300)


def test_last_chips_in_pot_limit_are_all_in_only_up_to_the_pot() -> None:
    facing = table("pot_limit", bet=50, increment=50, bring_in=10, pot=150, stack=400)
    result = interpret(facing, did(100, 100, 100, 100))
    assert (result.action, result.to, result.returned) == ("raise", 250, 150)
    assert rule.PL_OVERSIZE_REDUCED in result.citations


def test_facing_a_bet_with_only_chips_too_small_to_play_still_owes_the_call() -> None:
    result = interpret(table(bet=50, bring_in=50, min_chip=25), did(5, 5))
    assert (result.action, result.to, result.returned) == ("call", 50, 10)


def test_unlisted_prior_chips_are_the_wager_left_in_front() -> None:
    facing = table(bet=600, wager=50, increment=550, bring_in=50)
    assert interpret(facing, did(1000)).returned == 450
    assert interpret(facing, did(1000, prior=(25, 25))).returned == 450
    assert interpret(facing, did(1000, pulled_back=True)).returned == 400


def test_prior_chips_fewer_than_the_wager_are_bad_input() -> None:
    with pytest.raises(BadInput) as caught:
        interpret(BB_FACING_600, did(1000, prior=(25,)))
    assert caught.value.field == "physical.prior_chips"


def test_partly_pulled_back_needs_the_chips_left_listed() -> None:
    with pytest.raises(BadInput):
        interpret(BB_FACING_600, did(1000, pulled_back="some"))


def test_a_partly_pulled_back_blind_and_nothing_added_facing_a_bet_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        interpret(BB_FACING_600, did(prior=(25,), pulled_back="some"))
    assert caught.value.code == "cannot_check"


def test_to_dict_is_the_contract_body() -> None:
    body = interpret(UTG_1100, did(1000, 100, 100, 100)).to_dict()
    assert set(body) == {"action", "to", "returned", "explanation", "citations"}
    assert isinstance(body["citations"], list)
    assert (body["action"], body["to"], body["returned"]) == ("call", 1100, 200)


# --- parsing the contract's "physical" ------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"chips": [1000, 500, 500]}, Physical((1000, 500, 500))),
        ({}, Physical(())),
        (
            {"chips": [1000], "prior_chips": [25, 25], "pulled_back": "some", "verbal": "call"},
            Physical((1000,), (25, 25), "some", "call"),
        ),
        (
            {"chips": [500], "verbal": {"action": "raise", "to": 1700}, "pulled_back": True},
            Physical((500,), (), True, "raise", 1700),
        ),
        ({"chips": [], "verbal": None, "extra": "ignored"}, Physical(())),
    ],
)
def test_physical_from_dict(body: dict[str, Any], expected: Physical) -> None:
    assert Physical.from_dict(body) == expected


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ([1000], "physical"),
        ({"chips": [-5]}, "physical.chips"),
        ({"chips": [0]}, "physical.chips"),
        ({"chips": ["a"]}, "physical.chips"),
        ({"chips": [1.5]}, "physical.chips"),
        ({"chips": [True]}, "physical.chips"),
        ({"chips": 100}, "physical.chips"),
        ({"chips": None}, "physical.chips"),
        ({"chips": [100], "prior_chips": [0]}, "physical.prior_chips"),
        ({"chips": [100], "pulled_back": "half"}, "physical.pulled_back"),
        ({"chips": [100], "pulled_back": 1}, "physical.pulled_back"),
        ({"chips": [100], "verbal": "shove"}, "physical.verbal"),
        ({"chips": [100], "verbal": 3}, "physical.verbal"),
        ({"chips": [100], "verbal": {"action": "call", "to": 100}}, "physical.verbal"),
        ({"chips": [100], "verbal": {"action": "raise"}}, "physical.verbal"),
        ({"chips": [100], "verbal": {"action": "raise", "to": 0}}, "physical.verbal"),
        ({"chips": [100], "verbal": {"action": "bet", "to": "700"}}, "physical.verbal"),
    ],
)
def test_malformed_physical_is_bad_input(body: Any, field: str) -> None:
    with pytest.raises(BadInput) as caught:
        Physical.from_dict(body)
    assert caught.value.field == field
    assert caught.value.message


def test_physical_takes_lists_and_checks_itself() -> None:
    assert Physical([100, 25]).chips == (100, 25)  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        Physical((100,), verbal="call", verbal_to=100)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"structure": "spread_limit"}, "structure"),
        ({"stack": -1}, "stack"),
        ({"min_chip": 0}, "min_chip"),
        ({"call": 50}, "call"),
        ({"max_to": None}, "min_to"),
        ({"min_to": 100}, "min_to"),
        ({"max_to": 10**9}, "min_to"),
    ],
)
def test_an_inconsistent_facing_is_bad_input(changes: dict[str, Any], field: str) -> None:
    fields = {name: getattr(UTG_1100, name) for name in Facing.__slots__}
    with pytest.raises(BadInput) as caught:
        Facing(**{**fields, **changes})
    assert caught.value.field == field
