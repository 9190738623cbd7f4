"""What a desk write at a tournament table waits for, on PostgreSQL: a deal or an award holds the
tournament shared, so one at another table of the same tournament never waits for it; a seating
write (a balancing check) holds it exclusive, so a deal waits for it and it for a deal; a deal
asking after a seating write began waiting queues behind it; and awards that put players out,
made exclusive, give each bust its own place, however many run at once
(``tournaments/table_hands.py``, ``cardroom/core/locks.py``)."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.db import connection

from cardroom.core import audit
from cardroom.core.locks import RowsBusy
from cardroom.tables import services
from cardroom.tables.models import Hand
from tests.races import in_threads, then_meet
from tests.tournaments.factories import make_tournament
from tests.tournaments.test_table_hands import at, chips, play, room
from tournaments import balance_checks, eliminations, seating, table_hands
from tournaments.draw_services import draw_initial_seating
from tournaments.models import Entrant, EntrantStatus, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: How long a thread waits for another to get somewhere before the test fails.
WAIT = 30.0


def two_tables(director: Any) -> Tournament:
    """Sixteen players on two tables of eight, registration closed (busts get places)."""
    tournament = make_tournament(by=director, tables=2, entrants=16, seats_per_table=8)
    draw_initial_seating(tournament=tournament, by=director)
    eliminations.close_registration(tournament=tournament, by=director)
    return tournament


def folded_hand(tournament: Tournament, number: int, director: Any) -> Hand:
    """A hand at table ``number`` everyone folds to the big blind: pushed, nobody goes out."""
    hand = table_hands.deal_tournament_hand(table=room(tournament, number), by=director)
    return play(hand, director, {})


def all_in_hand(
    tournament: Tournament, number: int, director: Any
) -> tuple[Hand, Entrant, list[list[int]]]:
    """A hand at table ``number`` played to the showdown: a short stack (1,000) all in, called
    and beaten. The hand, the loser and the showdown's ranking."""
    proposal = table_hands.propose_tournament_hand(room(tournament, number))
    blinds = (proposal["blinds"]["small"], proposal["blinds"]["big"])
    short, caller = [e["seat"] for e in proposal["seats"] if e["seat"] not in blinds][:2]
    loser = at(tournament, short, number)
    Entrant.objects.filter(pk=loser.pk).update(chips=1_000)
    hand = table_hands.deal_tournament_hand(table=room(tournament, number), by=director)
    return play(hand, director, {short: "all_in", caller: "call"}), loser, [[caller], [short]]


def award(hand: Hand, director: Any, ranking: list[list[int]] | None = None) -> Callable[[], str]:
    showdown = {"ranking": ranking} if ranking is not None else None

    def push() -> str:
        table_hands.settle_tournament_hand(
            hand=hand, by=director, expected_seq=hand.seq, showdown=showdown
        )
        return "awarded"

    return push


def deal(tournament: Tournament, number: int, director: Any) -> Callable[[], str]:
    def start() -> str:
        table_hands.deal_tournament_hand(table=room(tournament, number), by=director)
        return "dealt"

    return start


def check(tournament: Tournament) -> Callable[[], str]:
    """A balancing check: a seating write, the tournament locked exclusive."""

    def look() -> str:
        balance_checks.check_balance(tournament_id=tournament.pk)
        return "checked"

    return look


def started(call: Callable[[], str], done: list[str]) -> threading.Thread:
    """``call`` in its own thread and connection; its outcome ("busy" when it gave up waiting
    for a lock) appended to ``done`` when it ends."""

    def run() -> None:
        try:
            done.append(call())
        except RowsBusy as exc:
            done.append(exc.code)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@contextmanager
def stopped_inside(module: Any, name: str, call: Callable[[], str]) -> Iterator[list[str]]:
    """``call`` run in its own thread and stopped, its locks held, just after ``module.name``
    (patched for that thread alone) returns, until the block ends; then its outcome."""
    real = getattr(module, name)
    inside, release = threading.Event(), threading.Event()
    done: list[str] = []
    holders: list[threading.Thread] = []

    def pausing(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        if threading.current_thread() in holders:
            inside.set()
            release.wait(timeout=WAIT)
        return result

    with mock.patch.object(module, name, pausing):
        holders.append(started(call, done))
        assert inside.wait(timeout=WAIT), done
        try:
            yield done
        finally:
            release.set()
            holders[0].join()


def waiting_for_locks() -> int:
    """How many transactions wait for a lock now: a tournament's queue (``locks.queue_for``),
    or a row another holds."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted")
        (count,) = cursor.fetchone()
    return int(count)


@pytest.mark.parametrize("held_by", ["deal", "award"])
def test_a_deal_and_an_award_go_on_while_another_table_of_the_tournament_deals_or_awards(
    director: Any, settings: Any, held_by: str
) -> None:
    """A deal or an award at table 2, stopped with its locks held: the deal and the award at
    table 1 go through meanwhile (were they to wait, the lock timeout would refuse them)."""
    settings.CARDROOM_LOCK_TIMEOUT_MS = 2000
    tournament = two_tables(director)
    pushed = folded_hand(tournament, 1, director)
    if held_by == "deal":
        held = stopped_inside(services, "start_hand", deal(tournament, 2, director))
    else:
        other_hand = folded_hand(tournament, 2, director)
        held = stopped_inside(services, "award_hand", award(other_hand, director))
    with held as other:
        assert award(pushed, director)() == "awarded"
        assert deal(tournament, 1, director)() == "dealt"
        assert other == []  # table 2's write still holds its locks
    assert other == [{"deal": "dealt", "award": "awarded"}[held_by]]
    assert Hand.objects.filter(table__in=[room(tournament, 1), room(tournament, 2)]).count() == 3
    assert audit.verify() == []


def test_a_deal_waits_for_a_balancing_check_and_a_check_for_a_deal(
    director: Any, settings: Any
) -> None:
    settings.CARDROOM_LOCK_TIMEOUT_MS = 300
    tournament = two_tables(director)
    with stopped_inside(balance_checks, "load_seating", check(tournament)) as checking:
        assert in_threads(deal(tournament, 1, director)) == ["busy"]
        assert checking == []
    with stopped_inside(services, "start_hand", deal(tournament, 1, director)) as dealing:
        done: list[str] = []
        started(check(tournament), done).join()
        assert done == ["busy"]
        assert dealing == []
    assert (checking, dealing) == (["checked"], ["dealt"])


def test_a_deal_asking_after_a_seating_write_began_waiting_queues_behind_it(
    director: Any, settings: Any
) -> None:
    """Table 1 deals (held shared); a balancing check waits for it; table 2's deal, asked for
    after, waits behind the check instead of joining table 1's shared hold, so a stream of
    deals never keeps a seating write waiting."""
    settings.CARDROOM_LOCK_TIMEOUT_MS = 0  # wait as long as it takes
    tournament = two_tables(director)
    order: list[str] = []
    with stopped_inside(services, "start_hand", deal(tournament, 1, director)):
        checking = started(check(tournament), order)
        assert poll(lambda: waiting_for_locks() == 1), order
        dealing = started(deal(tournament, 2, director), order)
        assert poll(lambda: waiting_for_locks() == 2 or bool(order)), order
        assert order == []  # table 2's deal is waiting too, not done
    checking.join(timeout=WAIT)
    dealing.join(timeout=WAIT)
    assert order == ["checked", "dealt"]


def poll(condition: Callable[[], bool]) -> bool:
    """``condition`` checked every 20 ms until it holds (True) or ``WAIT`` passes (False)."""
    ticks = threading.Event()
    for _ in range(int(WAIT / 0.02)):
        if condition():
            return True
        ticks.wait(0.02)
    return False


def test_two_awards_putting_players_out_at_two_tables_at_once_give_two_places(
    director: Any,
) -> None:
    """Both awards hold the tournament shared at once (they meet there), each finds a player
    out, and each is made again with the tournament exclusive: one after the other, no
    deadlock, sixteenth and fifteenth, the chips pushed once."""
    tournament = two_tables(director)
    first, loser_1, ranking_1 = all_in_hand(tournament, 1, director)
    second, loser_2, ranking_2 = all_in_hand(tournament, 2, director)
    total = sum(chips(tournament, 1).values()) + sum(chips(tournament, 2).values())
    met: list[int] = []
    meeting = then_meet(seating.share_tournament, met=met)
    with mock.patch.object(table_hands, "share_tournament", meeting):
        outcomes = in_threads(award(first, director, ranking_1), award(second, director, ranking_2))
    assert outcomes == ["awarded", "awarded"]
    assert met == [1, 1]  # both held the tournament shared at the same time
    places = sorted(Entrant.objects.get(pk=e.pk).place for e in (loser_1, loser_2))
    assert places == [15, 16]
    for loser in (loser_1, loser_2):
        assert Entrant.objects.get(pk=loser.pk).status == EntrantStatus.ELIMINATED
    assert tournament.eliminations.count() == 2
    assert sum(chips(tournament, 1).values()) + sum(chips(tournament, 2).values()) == total
    assert audit.verify() == []


def test_an_award_putting_a_player_out_racing_a_deal_at_another_table(director: Any) -> None:
    """The award and the deal hold the tournament shared at once; the award, finding a player
    out, is made again exclusive once the deal has committed: both stand."""
    tournament = two_tables(director)
    hand, loser, ranking = all_in_hand(tournament, 1, director)
    met: list[int] = []
    meeting = then_meet(seating.share_tournament, met=met)
    with mock.patch.object(table_hands, "share_tournament", meeting):
        outcomes = in_threads(award(hand, director, ranking), deal(tournament, 2, director))
    assert outcomes == ["awarded", "dealt"]
    assert met == [1, 1]
    loser.refresh_from_db()
    assert (loser.status, loser.place, loser.chips) == (EntrantStatus.ELIMINATED, 16, 0)
    assert Hand.objects.filter(table=room(tournament, 2)).count() == 1
    assert audit.verify() == []
