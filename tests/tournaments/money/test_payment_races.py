"""Payments racing, on PostgreSQL with real threads: two cashiers taking one player's last
allowed rebuy, and a rebuy against the clock passing the last rebuy level. The tournament row's
lock (taken first by every payment, as by the clock) serves them one after the other; without it
both cashiers read the count of rebuys before either writes, and the player gets one too many."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from tests.races import in_threads, racing, unlocked
from tests.tournaments.money.test_payments import player, priced
from tournaments.clock import services as clock
from tournaments.models import ClockEvent, Tournament
from tournaments.money import payments
from tournaments.money.models import MoveKind

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def last_rebuy(director: Any, cashier: Any, lock: Callable[[int], Tournament]) -> list[str]:
    """Two cashiers take the last of a player's two rebuys (one already made)."""
    tournament = priced(director, rebuy_at_most=10**9)
    ana = player(tournament, 2)
    payments.take_rebuy(entrant=ana, method="cash", by=director)

    def rebuy(by: Any) -> Callable[[], str]:
        def job() -> str:
            payments.take_rebuy(entrant=ana, method="cash", by=by)
            return "won"

        return job

    with mock.patch.object(payments, "lock_tournament", racing(lock)):
        return in_threads(rebuy(director), rebuy(cashier))


@pytest.fixture
def cashier() -> Any:
    from cardroom.core.roles import Role
    from tests.factories import make_user

    return make_user(username="cage", role=Role.CASHIER)


def test_without_the_lock_two_cashiers_sell_one_rebuy_too_many(director: Any, cashier: Any) -> None:
    outcomes = last_rebuy(director, cashier, unlocked)
    # Both read one rebuy made: each takes "the last one". The audit chain may refuse the
    # second line as a fork of the first; either way, the limit did not decide it.
    assert outcomes in (["won", "won"], ["refused", "won"])


def test_two_cashiers_taking_the_last_rebuy_one_is_taken_one_refused(
    director: Any, cashier: Any
) -> None:
    outcomes = last_rebuy(director, cashier, payments.lock_tournament)
    assert outcomes == ["rebuy_limit", "won"]
    ana = Tournament.objects.get().entrants.get(number=2)
    assert ana.money.filter(kind=MoveKind.REBUY).count() == 2
    assert ana.chips == 20_000 + 2 * 20_000


def test_a_rebuy_racing_the_end_of_its_window_is_taken_before_or_refused_after(
    director: Any,
) -> None:
    tournament = priced(director, rebuy_last_level=1)
    ana = player(tournament, 2)

    def rebuy() -> str:
        payments.take_rebuy(entrant=ana, method="cash", by=director)
        return "rebuy taken"

    def advance() -> str:
        clock.advance_level(tournament=tournament, by=director)
        return "level advanced"

    outcomes = in_threads(rebuy, advance)
    line = ana.money.filter(kind=MoveKind.REBUY).first()
    advanced = ClockEvent.objects.get(tournament=tournament, action="advance")
    assert "level advanced" in outcomes
    if line is None:  # the level passed first: the rebuy is refused, nothing written
        assert outcomes == ["level advanced", "rebuy_closed"]
        ana.refresh_from_db()
        assert ana.chips == 20_000
    else:  # the rebuy was taken in level 1, before the clock moved on
        assert outcomes == ["level advanced", "rebuy taken"]
        assert line.at <= advanced.at
    assert Tournament.objects.get(pk=tournament.pk).level_number == 2
