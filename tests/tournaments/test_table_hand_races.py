"""Races at a tournament table, on PostgreSQL: the desk's settle (a bust) against a balancing
move, and two devices settling one hand. Exactly one wins; the other gets a 409 and nothing
of it is written."""

from typing import Any

import pytest

from cardroom.core import audit
from cardroom.tables import services
from cardroom.tables.models import Hand
from tests.races import in_threads
from tests.tournaments.factories import bust, make_tournament
from tests.tournaments.test_table_hands import at, chips, play, room
from tournaments import balance_checks, eliminations, table_hands
from tournaments.draw_services import draw_initial_seating
from tournaments.models import BalanceCheck, Entrant, EntrantStatus, SeatAssignment, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


Setup = tuple[Tournament, BalanceCheck, Hand, Entrant, Entrant, list[list[int]]]


def bust_due(director: Any) -> Setup:
    """Two tables 8 and 6 after two busts: a balancing move is due from the bigger table,
    where a hand is being played in which one player is all in and beaten."""
    tournament = make_tournament(by=director, tables=2, entrants=16, seats_per_table=9)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    for seat in sorted(chips(tournament, 2))[:2]:
        bust(entrant=at(tournament, seat, 2), by=director)
    check = balance_checks.check_balance(tournament_id=tournament.pk)
    mover = tournament.entrants.get(number=check.moves[0]["player"])
    proposal = table_hands.propose_tournament_hand(room(tournament, 1))
    others = [
        e["seat"]
        for e in proposal["seats"]
        if at(tournament, e["seat"]).pk != mover.pk
        and e["seat"] not in (proposal["blinds"]["small"], proposal["blinds"]["big"])
    ]
    short, caller = others[0], others[1]
    loser = at(tournament, short)
    Entrant.objects.filter(pk=loser.pk).update(chips=1_000)
    hand = table_hands.deal_tournament_hand(table=room(tournament, 1), by=director)
    hand = play(hand, director, {short: "all_in", caller: "call"})
    return tournament, check, hand, loser, mover, [[caller], [short]]


def test_a_bust_at_the_desk_racing_a_balancing_move_one_wins(director: Any) -> None:
    tournament, check, hand, loser, mover, ranking = bust_due(director)
    before = SeatAssignment.objects.get(entrant=mover, ended_at__isnull=True).table.number

    def settle() -> str:
        table_hands.settle_tournament_hand(
            hand=hand, by=director, expected_seq=hand.seq, showdown={"ranking": ranking}
        )
        return "settled"

    def move() -> str:
        balance_checks.apply_balance(check=check, by=director)
        return "moved"

    outcomes = in_threads(settle, move)
    # Either order the move loses: first, its player is still in the hand (in_hand); second,
    # the bust changed the seating its check was made on (stale_check).
    assert len(outcomes) == 2 and "settled" in outcomes
    (lost,) = [outcome for outcome in outcomes if outcome != "settled"]  # sorted: either place
    assert lost in ("in_hand", "stale_check")
    loser.refresh_from_db()
    assert (loser.status, loser.chips, loser.place) == (EntrantStatus.ELIMINATED, 0, 14)
    assert SeatAssignment.objects.get(entrant=mover, ended_at__isnull=True).table.number == before
    assert not tournament.moves.filter(entrant=mover, reason="balance").exists()
    assert audit.verify() == []


def test_two_devices_settling_one_hand_one_wins(director: Any) -> None:
    tournament, _, hand, loser, _, ranking = bust_due(director)
    total = sum(chips(tournament, 1).values())

    def settle() -> str:
        table_hands.settle_tournament_hand(
            hand=hand, by=director, expected_seq=hand.seq, showdown={"ranking": ranking}
        )
        return "settled"

    assert in_threads(settle, settle) == ["settled", "stale"]
    assert tournament.eliminations.filter(entrant=loser).count() == 1
    assert sum(chips(tournament, 1).values()) == total  # the pots pushed once
    assert services.engine_state(Hand.objects.get(pk=hand.pk)).street in ("showdown", "complete")
    assert audit.verify() == []
