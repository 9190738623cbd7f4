"""Two directors running the chip race at one table at once, on PostgreSQL with real threads.
The tournament row's lock (taken first, as every count and the desk's deal take it) serves
them one after the other: the second is told the table has raced (409). Without it both read
"not raced yet" and the second is stopped only by the database's one race a table a break (an
IntegrityError, a 500 at the page), after dealing its own cards."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from cardroom.core import audit
from tests.races import in_threads, racing, unlocked
from tests.tournaments.test_colour_ups import (
    BREAK,
    COUNTS,
    at_step,
    event,
    set_counts,
    with_chip_set,
)
from tournaments import colour_ups
from tournaments.models import ChipCount, ChipRace, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def two_races(director: Any, lock: Callable[[int], Tournament]) -> list[str]:
    tournament = event(director)
    with_chip_set(tournament, director)
    at_step(tournament, BREAK)
    set_counts(tournament, COUNTS)
    table = tournament.tables.get()

    def run() -> str:
        colour_ups.run_chip_race(table=table, by=director)
        return "raced"

    with mock.patch.object(colour_ups, "lock_tournament", racing(lock)):
        return in_threads(run, run)


def test_without_the_lock_both_directors_deal_the_race(director: Any) -> None:
    # The second is refused only by the unique constraint, as an error, not an answer.
    assert two_races(director, unlocked) == ["raced", "refused"]
    assert ChipRace.objects.count() == 1


def test_with_the_lock_the_second_director_is_told_the_table_has_raced(director: Any) -> None:
    from tournaments.seating import lock_tournament

    assert two_races(director, lock_tournament) == ["already_raced", "raced"]
    assert ChipRace.objects.count() == 1
    assert ChipCount.objects.count() == len(COUNTS)  # one count a player, written once
    assert audit.verify() == []
