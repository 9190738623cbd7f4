"""Calls run at once, for the race tests (PostgreSQL row locks): each call in its own thread,
with its own database connection, and the meeting that makes the race happen.

A race test first shows the race with the lock patched out (``unlocked``), then that the lock
prevents it. ``racing(lock)`` is the lock followed by a meeting of the threads: without the
lock both threads reach the meeting, so both have read the state before either writes; with
it the second waits in the lock until the first commits, and the first gives up waiting at the
meeting. ``in_threads`` and ``run_at_once`` run the calls and say how each ended."""

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError

from cardroom.core.api_errors import Conflict
from tournaments.draws.errors import DrawError
from tournaments.models import Tournament

#: How long a thread waits at the meeting when the lock is patched out: both threads always
#: get there, however long a loaded machine takes to start the second (a CI machine once took
#: over 2 s, and the second then read the first's write: the race did not happen).
UNLOCKED_WAIT = 30.0
#: With the lock the second thread never gets there before the first commits: the first gives
#: up after this long and goes on.
LOCKED_WAIT = 2.0
#: How long a thread waits for the others to start before its call.
START_WAIT = 30.0


def unlocked(tournament_id: int) -> Tournament:
    """The tournament row read without ``FOR UPDATE``: patched in for the lock, the race."""
    return Tournament.objects.get(pk=tournament_id)


def meeting_wait(lock: Callable[[int], Tournament]) -> float:
    """How long a thread waits at the meeting with ``lock`` in place."""
    return UNLOCKED_WAIT if lock is unlocked else LOCKED_WAIT


def then_meet[**P, T](
    call: Callable[P, T],
    *,
    parties: int = 2,
    timeout: float = LOCKED_WAIT,
    met: list[int] | None = None,
) -> Callable[P, T]:
    """``call``, then wait (at most ``timeout``) for the other threads to have made it too; a
    meeting that happened is counted in ``met``. The wait ends quietly when it times out."""
    barrier = threading.Barrier(parties)

    def wrapped(*args: P.args, **kwargs: P.kwargs) -> T:
        result = call(*args, **kwargs)
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(timeout=timeout)
            if met is not None:
                met.append(1)
        return result

    return wrapped


def racing(
    lock: Callable[[int], Tournament], *, then: Callable[[Tournament], object] | None = None
) -> Callable[[int], Tournament]:
    """``lock`` (the tournament row's lock, or ``unlocked``), then the meeting of two threads,
    to patch in for the service's ``lock_tournament``; ``then`` is given each row as it was
    read, before the meeting (the service may change the row afterwards)."""

    def read(tournament_id: int) -> Tournament:
        row = lock(tournament_id)
        if then is not None:
            then(row)
        return row

    return then_meet(read, timeout=meeting_wait(lock))


def in_threads(
    *jobs: Callable[[], str], refused: tuple[type[Exception], ...] = (DrawError, Conflict)
) -> list[str]:
    """Run the jobs in threads started together; each outcome, sorted: what the job says, the
    code of its refusal (one of ``refused``), or "refused" when the database refused its write
    (a constraint, or an audit chain refusing a fork: ``cardroom/core/audit.py``). Any other
    exception fails the test (its outcome is missing)."""
    outcomes: list[str] = []
    start = threading.Barrier(len(jobs))

    def run(job: Callable[[], str]) -> None:
        from django.db import connection

        try:
            start.wait(timeout=START_WAIT)
            outcomes.append(job())
        except refused as exc:
            outcomes.append(str(getattr(exc, "code", type(exc).__name__)))
        except IntegrityError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(outcomes)


def run_at_once(
    calls: dict[str, Callable[[], Any]], *, refused: tuple[type[Exception], ...] = (Conflict,)
) -> dict[str, str]:
    """Start every call together and wait for all; each one's outcome: "won", or how it was
    refused: the code of a ``Conflict`` (409), else the class of the refusal (one of
    ``refused``). Any other exception fails the test."""
    outcomes: dict[str, str] = {}

    def run(name: str, call: Callable[[], Any]) -> None:
        from django.db import connection

        try:
            call()
            outcomes[name] = "won"
        except refused as exc:
            outcomes[name] = exc.code if isinstance(exc, Conflict) else type(exc).__name__
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
