"""How ``make day``'s dealers play a hand, read from the betting snapshot an answer carries
(``rules.engine.state.snapshot``: ``to_act``, ``options``, ``pots``), for the census and the
load alike: about a dozen actions a hand, as the mix's 60 actions to 5 hands a second.

Preflop most players fold (never the last two: the hand goes on); after the flop the first
to act bets now and then and the others call or fold, or everyone checks. An answer with nobody to
act is over: awarded from a showdown (the first live seat wins, ties none), or with no showdown
when everyone else folded.
"""

from __future__ import annotations

import random
from typing import Any

#: Preflop, the share of players facing a bet who fold; after it, the share of first actions
#: that bet, and of players facing a bet who fold.
FOLDS = 0.8
BETS = 0.3
FOLDS_TO_A_BET = 0.3


def live_seats(betting: dict[str, Any]) -> list[int]:
    """The seats still in the hand: every seat a pot is open to."""
    seats: set[int] = set()
    for pot in betting.get("pots") or ():
        seats.update(pot["eligible"])
    return sorted(seats)


def next_action(betting: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The next action (seat, action, amount) the snapshot allows; None when nobody is to
    act (the hand is at its showdown, or over)."""
    options, seat = betting.get("options"), betting.get("to_act")
    if not options or seat is None:
        return None
    raise_ = options.get("raise")
    facing_a_bet = options["fold"] and options["call"]
    if betting["street"] == "preflop":
        folds = facing_a_bet and len(live_seats(betting)) > 2 and rng.random() < FOLDS
    else:
        if options["check"] and raise_ and rng.random() < BETS:
            return {"seat": seat, "action": "bet", "to": raise_["min_to"]}
        folds = facing_a_bet and rng.random() < FOLDS_TO_A_BET
    if folds:
        return {"seat": seat, "action": "fold"}
    return {"seat": seat, "action": "check" if options["check"] else "call"}


def award_body(seq: int, betting: dict[str, Any], hand_number: int) -> dict[str, Any]:
    """The award of a hand nobody is to act in: its showdown (the winner taking turns hand by
    hand, so that no stack runs dry), or none when everyone else folded."""
    body: dict[str, Any] = {"expected_seq": seq}
    live = live_seats(betting)
    if betting["street"] != "complete" and len(live) > 1:
        winner = live[hand_number % len(live)]
        body["showdown"] = {"ranking": [[winner], [s for s in live if s != winner]]}
    return body
