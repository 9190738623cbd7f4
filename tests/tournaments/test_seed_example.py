"""The Illustrated Addendum's two-step "double-blind" process, step by step, through the services.

Seed text: "1) show players at the breaking table the new seat cards then scramble the cards face
down and form a stack; 2) the dealer then deals one playing card face up to each player. The seat
cards are then dealt out with the first seat card going to the player with the highest playing
card by suit showing."
"""

from collections import Counter
from typing import Any
from unittest import mock

import pytest

from rules.engine.cards import Card, Suit
from tests.tournaments.factories import make_tournament
from tournaments import director_seats, draw_services
from tournaments.draws.seat_draws import break_table
from tournaments.draws.seats import SeatRef
from tournaments.draws.seeds import SeededRandom, commitment_for
from tournaments.models import DrawKind, DrawStatus, MoveReason, SeatAssignment

pytestmark = pytest.mark.django_db

PLAYERS_AT_BREAKING_TABLE = 5


def seed_with_a_rank_tie() -> str:
    """A fixed seed whose deal gives two players cards of the same rank, so the suit decides
    (spades, hearts, diamonds, clubs). Found by trying fixed candidates in order."""
    seats = [SeatRef(1, s) for s in range(1, PLAYERS_AT_BREAKING_TABLE + 1)]
    for i in range(1000):
        seed = f"addendum-example-{i}"
        dealt = break_table(list(range(PLAYERS_AT_BREAKING_TABLE)), seats, SeededRandom(seed))
        ranks = Counter(card.rank for _, card in dealt.cards)
        if max(ranks.values()) > 1:
            return seed
    raise AssertionError("no candidate seed deals a rank tie")


def test_breaking_a_table_follows_the_addendum_step_by_step(director: Any) -> None:
    tournament = make_tournament(by=director, tables=3, entrants=15)  # 5, 5, 5
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    breaking = {
        a.entrant.number: a.seat
        for a in SeatAssignment.objects.filter(
            table__number=3, ended_at__isnull=True
        ).select_related("entrant")
    }
    assert len(breaking) == PLAYERS_AT_BREAKING_TABLE
    for number in (1, 2):
        # A button followed by a player: no open seat waits for the button to pass (10-A), so
        # every open seat may be shown. Five players round nine seats always have such a pair.
        seats = set(
            SeatAssignment.objects.filter(table__number=number, ended_at__isnull=True).values_list(
                "seat", flat=True
            )
        )
        button = next(s for s in sorted(seats) if s % 9 + 1 in seats)
        director_seats.set_button(
            table=tournament.tables.get(number=number), seat=button, by=director
        )
    seed = seed_with_a_rank_tie()

    # Before anything is shown: a secret seed is sealed and its commitment published.
    with mock.patch.object(draw_services, "new_seed", return_value=seed):
        draw = draw_services.commit_draw(
            tournament=tournament, kind=DrawKind.BREAK_TABLE, by=director, table=3
        )
    assert draw.status == DrawStatus.COMMITTED and draw.public_seed is None
    assert draw.commitment == commitment_for(seed, draw.inputs)

    # Step 1: the seat cards shown are open seats at the receiving tables, enough for everyone,
    # chosen so the receiving tables come out balanced.
    shown = [(s["table"], s["seat"]) for s in draw.inputs["input"]["receiving_seats"]]
    occupied = set(
        SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True).values_list(
            "table__number", "seat"
        )
    )
    assert len(shown) == PLAYERS_AT_BREAKING_TABLE
    assert all(table in (1, 2) and (table, seat) not in occupied for table, seat in shown)
    assert sorted(Counter(table for table, _ in shown).values()) == [2, 3]
    assert sorted(draw.inputs["input"]["players"]) == sorted(breaking)

    draw = draw_services.deal_draw(draw=draw, by=director)
    steps, result = draw.result["steps"], draw.result["result"]

    # ... then scrambled face down into a stack: the same cards, in a random order.
    assert sorted((s["table"], s["seat"]) for s in steps["shown"]) == sorted(shown)
    stack = [(s["table"], s["seat"]) for s in steps["stack"]]
    assert sorted(stack) == sorted(shown)

    # Step 2: one playing card face up to each player at the breaking table, no card twice.
    cards = {c["player"]: Card.parse(c["card"]) for c in steps["cards"]}
    assert sorted(cards) == sorted(breaking) and len(set(cards.values())) == len(cards)

    # The seat cards are dealt off the stack: the first to the highest card by suit, and on down.
    by_card = sorted(cards, key=lambda player: cards[player], reverse=True)
    assert [row["player"] for row in result] == by_card
    assert [(row["table"], row["seat"]) for row in result] == stack
    # Two cards of one rank: the suit decides, spades over hearts over diamonds over clubs.
    rank = next(r for r, n in Counter(c.rank for c in cards.values()).items() if n > 1)
    tied = [row["player"] for row in result if cards[row["player"]].rank == rank]
    suits = [cards[p].suit for p in tied]
    assert suits == sorted(suits, reverse=True) and len(suits) > 1
    assert [s.name for s in sorted(Suit, reverse=True)] == ["SPADES", "HEARTS", "DIAMONDS", "CLUBS"]

    # The result is where everyone now sits, recorded move by move with the card and the rules.
    for row in result:
        live = SeatAssignment.objects.get(entrant__number=row["player"], ended_at__isnull=True)
        assert (live.table.number, live.seat) == (row["table"], row["seat"])
        move = tournament.moves.get(entrant__number=row["player"], reason=MoveReason.BREAK_TABLE)
        assert (move.from_table, move.from_seat) == (3, breaking[row["player"]])
        assert move.note.startswith(f"Dealt the {row['card']}.") and move.draw_id == draw.pk
    rules = {c["rule"] for c in draw.citations}
    assert rules == {"TDA-10", "TDA-10-A", "TDA-10-Addendum"}
    assert {c["edition"] for c in draw.citations} == {"TDA 2024"}
    assert tournament.tables.get(number=3).status == "broken"

    # After the deal the seed is revealed and anyone can replay it.
    assert draw.public_seed == seed and draw_services.verify_draw(draw).ok
