"""One door to a table's next hand, whatever kind of table it is: a table where a
tournament is in play deals from the tournament (its level, its entrants and their chips,
``tournaments.table_hands``); any other table deals from its cash seat map
(``cardroom.seats.hands``). The desk and the API call these three and never choose themselves.

- ``propose(table)``: the next hand as the rules would deal it (button, blinds, posts, who
  waits, the stacks and names), each decision with its citation.
- ``deal(...)``: deal that proposal, or the dealer's correction of its button and blinds
  (a correction needs a reason and is recorded on the hand).
- ``settle(...)``: push the pots from the dealer's showdown; the stacks (or the entrants'
  chips, and any elimination) follow the award in the same transaction.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from cardroom.seats import hands as cash_hands
from cardroom.seats.models import TableSeat
from cardroom.tables.models import Hand, Table
from tournaments import table_hands
from tournaments.models import TournamentTable


def in_tournament(table: Table) -> bool:
    """A tournament is in play at the table: its hands are the tournament's."""
    return table_hands.tournament_table_for(table) is not None


def propose(table: Table) -> dict[str, Any]:
    """The next hand's proposal: ``{"button", "blinds": {"small", "big"}, "seats":
    [{"seat", "stack"}], "posts", "names", "waiting", "missed", "citations"}``."""
    return propose_at(table, table_hands.tournament_table_for(table))


def propose_at(
    table: Table, playing: TournamentTable | None, seated: list[TableSeat] | None = None
) -> dict[str, Any]:
    """``propose``, the tournament playing at the table looked up by the caller just now
    (``table_hands.tournament_table_for``; None: none plays there); ``seated``: a cash
    table's live seats (``players.live_seats``) when the caller has just read them."""
    if playing is not None:
        return table_hands.propose_tournament_hand(table, playing)
    return cash_hands.propose_next_hand(table, seated)


def deal(
    *,
    table: Table,
    by: User,
    button: int | None = None,
    small: int | None = None,
    big: int | None = None,
    reason: str = "",
    version: str = "",
    straddle: bool = True,
) -> Hand:
    """Deal the proposal (or the dealer's correction, with ``reason``; ``small`` 0 corrects
    to a dead small blind). With the proposal's ``version``, a seat map, seating or level
    changed since is a 409. Cash tables: ``straddle`` False when the player declines it
    (RRoP-14.14); a tournament table never straddles."""
    fields: dict[str, Any] = {
        "button": button, "small": small, "big": big, "reason": reason, "version": version,
    }  # fmt: skip
    # The deal reads the tournament itself again under its hold.
    playing = table_hands.tournament_table_for(table, with_tournament=False)
    if playing is not None:
        return table_hands.deal_tournament_hand(
            table=table, by=by, tournament_table=playing, **fields
        )
    return cash_hands.deal_next_hand(table=table, by=by, straddle=straddle, **fields)


def settle(*, hand: Hand, by: User, expected_seq: int, showdown: dict[str, Any] | None) -> Hand:
    """Award the hand from the showdown; stacks (or the entrants' chips and eliminations)
    follow in the same transaction."""
    # The award reads the tournament itself again under its hold.
    playing = table_hands.tournament_table_for(hand.table, with_tournament=False)
    if playing is not None:
        return table_hands.settle_tournament_hand(
            hand=hand, by=by, expected_seq=expected_seq, showdown=showdown,
            tournament_table=playing,
        )  # fmt: skip
    return cash_hands.settle_cash_hand(
        hand=hand, by=by, expected_seq=expected_seq, showdown=showdown
    )
