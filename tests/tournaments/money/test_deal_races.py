"""Recording a deal racing, on PostgreSQL with real threads: the same deal recorded twice at
once (two devices, one double tap) makes one Deal and one ledger line; the other is a 409. With
the tournament row's lock the second waits and finds the deal; without it, the database's
``one_deal_a_tournament`` refuses the second, still a 409, never a 500."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from tests.races import racing, run_at_once, unlocked
from tests.tournaments.test_table_hands import one_table
from tournaments.models import Tournament
from tournaments.money import deals
from tournaments.money.models import Deal, MoneyMove, MoveKind

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def twice_at_once(director: Any, lock: Callable[[int], Tournament]) -> dict[str, str]:
    tournament = one_table(director, players=3)
    agreed = list(tournament.entrants.values_list("pk", flat=True))

    def record() -> None:
        deals.record_deal(
            tournament=tournament, method="icm", prizes=[500, 300, 200], play_for=0,
            agreed=agreed, by=director,
        )  # fmt: skip

    with mock.patch.object(deals, "lock_tournament", racing(lock)):
        return run_at_once({"first": record, "second": record})


@pytest.mark.parametrize("lock", [deals.lock_tournament, unlocked], ids=["locked", "unlocked"])
def test_the_same_deal_recorded_twice_at_once_is_one_deal(
    director: Any, lock: Callable[[int], Tournament]
) -> None:
    outcomes = twice_at_once(director, lock)
    assert sorted(outcomes.values()) == ["deal_recorded", "won"]
    assert Deal.objects.count() == 1
    assert MoneyMove.objects.filter(kind=MoveKind.DEAL).count() == 1
