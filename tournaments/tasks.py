"""Tournament tasks: each takes ids and calls one service.

Queued after the transaction that needs them commits (``delay_on_commit``; the clock's tick
with ``apply_async_on_commit`` for its time). Without a broker they run in-process; with one, a
worker runs them (``acks_late``: a tick or check lost with its worker runs again, and both are
safe to repeat). A tick lost all the same (its worker killed: the broker hands it back only
after the visibility timeout) is made up by ``advance_clocks``, which celery beat sends every
few seconds.
"""

from celery import shared_task
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from tournaments import balance_checks
from tournaments.clock import services as clock
from tournaments.models import ClockState, Level, Tournament
from tournaments.scheduling import ADVANCE_CLOCK, ADVANCE_CLOCKS, CHECK_BALANCE


@shared_task(name=CHECK_BALANCE)
def check_balance(tournament_id: int) -> int:
    """After an elimination or a draw: what balancing needs now. Returns the check's id."""
    return balance_checks.check_balance(tournament_id=tournament_id).pk


@shared_task(name=ADVANCE_CLOCK)
def advance_clock(tournament_id: int, version: int) -> int | None:
    """When a level's time runs out: move the clock on (ignored if the clock changed since)."""
    tournament = clock.tick_clock(tournament_id=tournament_id, version=version)
    return tournament.level_number if tournament is not None else None


@shared_task(name=ADVANCE_CLOCKS, ignore_result=True)
def advance_clocks() -> list[int]:
    """Every few seconds: move on every running clock whose level has ended (its tick lost
    with a worker, or late). Each through the version-checked tick, so a clock changed in the
    meantime, or moved on by its own tick, is left alone. Returns the tournaments moved on."""
    now = timezone.now()
    duration = Level.objects.filter(
        tournament=OuterRef("pk"), number=OuterRef("level_number")
    ).values("duration")[:1]
    running = (
        Tournament.objects.filter(clock_state=ClockState.RUNNING, level_started_at__isnull=False)
        .annotate(duration=Subquery(duration))
        .values_list("pk", "clock_version", "level_started_at", "level_elapsed", "duration")
    )
    moved = []
    for pk, version, started, elapsed, length in running:
        if length is not None and started + length - elapsed <= now:
            ticked = clock.tick_clock(tournament_id=pk, version=version)
            if ticked is not None and ticked.clock_version != version:
                moved.append(pk)
    return moved
