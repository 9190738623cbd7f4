"""Tournament tasks: each takes ids and calls one service.

Queued after the transaction that needs them commits (``delay_on_commit``; the clock's tick
with ``apply_async_on_commit`` for its time). Without a broker they run in-process; with one, a
worker runs them (``acks_late``: a tick or check lost with its worker runs again, and both are
safe to repeat).
"""

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.check_balance")
def check_balance(tournament_id: int) -> int:
    """After an elimination or a draw: what balancing needs now. Returns the check's id."""
    return services.check_balance(tournament_id=tournament_id).pk


@shared_task(name="tournaments.advance_clock")
def advance_clock(tournament_id: int, version: int) -> int | None:
    """When a level's time runs out: move the clock on (ignored if the clock changed since)."""
    tournament = services.tick_clock(tournament_id=tournament_id, version=version)
    return tournament.level_number if tournament is not None else None
