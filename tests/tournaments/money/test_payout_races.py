"""Two cashiers paying one player at once, on PostgreSQL with real threads: one PAYOUT line,
the other answered 409 "already paid". With the tournament row's lock patched out both read
"not paid yet" and both write: the database's ``one_prize_a_player`` (and the ledger's chain)
refuse the second, which the service answers 409 as well, never a 500."""

from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

from cardroom.core.roles import Role
from tests.factories import make_user
from tests.races import meeting_wait, run_at_once, then_meet, unlocked
from tests.tournaments.factories import bust
from tests.tournaments.money.test_payouts_service import priced, seated
from tournaments.models import Tournament
from tournaments.money import payouts
from tournaments.money.models import Method, MoneyMove, MoveKind

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def two_cashiers_pay(director: Any, lock: Callable[[int], Tournament]) -> dict[str, str]:
    tournament = priced(director, entrants=2, tables=1, places_fixed=1)
    payouts.save_table(tournament=tournament, by=director)
    winner, loser = seated(tournament)
    bust(entrant=loser, by=director)
    one = make_user(username="cage-1", role=Role.CASHIER)
    two = make_user(username="cage-2", role=Role.CASHIER)
    # Both have read "not paid yet" before either writes (with the real lock the second waits
    # for the first's commit at the lock, the meeting is given up, and it reads "paid").
    prize_of_then_wait = then_meet(payouts.prize_of, timeout=meeting_wait(lock))

    with (
        mock.patch.object(payouts, "lock_tournament", lock),
        mock.patch.object(payouts, "prize_of", prize_of_then_wait),
    ):
        return run_at_once(
            {
                "one": lambda: payouts.pay_prize(entrant=winner, method=Method.CASH, by=one),
                "two": lambda: payouts.pay_prize(entrant=winner, method=Method.CASH, by=two),
            }
        )


def test_without_the_lock_both_read_unpaid_and_the_database_refuses_the_second(
    director: Any,
) -> None:
    outcomes = two_cashiers_pay(director, unlocked)
    assert sorted(outcomes.values()) == ["already_paid", "won"]
    assert MoneyMove.objects.filter(kind=MoveKind.PAYOUT).count() == 1


def test_two_cashiers_paying_one_player_write_one_line_and_the_other_is_told(
    director: Any,
) -> None:
    outcomes = two_cashiers_pay(director, payouts.lock_tournament)
    assert sorted(outcomes.values()) == ["already_paid", "won"]
    line = MoneyMove.objects.get(kind=MoveKind.PAYOUT)
    assert line.player_out == line.pool * -1 == 20_000
