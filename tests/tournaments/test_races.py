"""Two directors at once, on PostgreSQL: the tournament row lock serializes seating changes,
and the live-seat constraint would stop a double-booked seat even without it."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from cardroom.core import audit
from tests.races import in_threads, racing, unlocked
from tests.tournaments.factories import lose_chips, make_tournament
from tournaments import draw_services, eliminations, seating, setup
from tournaments.models import Draw, DrawKind, SeatAssignment, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def one_open_seat(director: Any) -> tuple[Tournament, list[Draw]]:
    """Three-seat table, two seated, two late entries each with a committed draw."""
    tournament = make_tournament(by=director, tables=1, entrants=2, seats_per_table=3)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    late = setup.register_entrants(tournament=tournament, names=["Ann", "Bo"], by=director)
    committed = [
        draw_services.commit_draw(
            tournament=tournament, kind=DrawKind.LATE_ENTRY, by=director, entrants=[entrant]
        )
        for entrant in late
    ]
    return tournament, committed


def race_deals(
    committed: list[Draw], director: Any, lock: Callable[[int], Tournament]
) -> tuple[list[int], list[str]]:
    """Deal both draws at once; report the seating version each saw, and how each ended."""
    seen: list[int] = []

    def deal(draw: Draw) -> Callable[[], str]:
        return lambda: draw_services.deal_draw(draw=draw, by=director).status

    with mock.patch.object(
        draw_services,
        "lock_tournament",
        racing(lock, then=lambda row: seen.append(row.seating_version)),
    ):
        outcomes = in_threads(*(deal(draw) for draw in committed))
    return sorted(seen), outcomes


def test_without_the_lock_both_see_the_open_seat_and_only_the_constraint_stops_a_double_booking(
    director: Any,
) -> None:
    tournament, committed = one_open_seat(director)
    version = Tournament.objects.get(pk=tournament.pk).seating_version
    seen, outcomes = race_deals(committed, director, unlocked)
    assert seen == [version, version]  # the race happens: both read the seating as committed
    assert outcomes == ["revealed", "seat_taken"]
    assert SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True).count() == 3


def test_with_the_lock_the_second_draw_waits_and_sees_the_seat_taken(director: Any) -> None:
    tournament, committed = one_open_seat(director)
    version = Tournament.objects.get(pk=tournament.pk).seating_version
    seen, outcomes = race_deals(committed, director, seating.lock_tournament)
    assert seen == [version, version + 1]  # the second read only after the first committed
    assert outcomes == ["revealed", "stale_draw"]
    live = SeatAssignment.objects.filter(tournament=tournament, ended_at__isnull=True)
    assert live.count() == 3 and len({a.seat for a in live}) == 3


def race_eliminations(director: Any, lock: Callable[[int], Tournament]) -> list[str]:
    tournament = make_tournament(by=director, tables=2, entrants=12)
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)  # places are fixed at once

    def bust(number: int) -> Callable[[], str]:
        entrant = lose_chips(tournament.entrants.get(number=number))  # the desk took them
        return lambda: str(eliminations.eliminate_player(entrant=entrant, by=director).place)

    with mock.patch.object(eliminations, "lock_tournament", racing(lock)):
        return in_threads(bust(1), bust(2))


def test_without_the_lock_two_busts_at_once_take_the_same_place_or_one_is_refused(
    director: Any,
) -> None:
    """Both read twelve players left. The second write either records the same place (the
    first committed before it read the log) or, reading the same head of the audit chain, is
    refused by the database (one row per ``prev_hash`` in a stream): never a forked chain."""
    assert race_eliminations(director, unlocked) in (["12", "12"], ["12", "refused"])
    assert audit.verify() == []


def test_with_the_lock_two_busts_at_once_finish_twelfth_and_eleventh(director: Any) -> None:
    assert race_eliminations(director, seating.lock_tournament) == ["11", "12"]
