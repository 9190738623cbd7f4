"""Queueing the tournament tasks, by name, from the services that need them.

The tasks (``tournaments.tasks``) call the services; the services never import the tasks. They
queue them here by their registered names, after the transaction commits, through the Celery
app in use (``cardroom.celery``). ``tournaments.apps`` imports the tasks module when Django
starts, so the names are registered in every process, the eager one included.
"""

from __future__ import annotations

from datetime import datetime

from celery import current_app

#: The registered names of the tasks (``tournaments.tasks`` registers each under its name here).
CHECK_BALANCE = "tournaments.check_balance"
ADVANCE_CLOCK = "tournaments.advance_clock"
ADVANCE_CLOCKS = "tournaments.advance_clocks"
#: Seconds between the beat's sweeps of the running clocks (``cardroom/celery.py``).
CLOCK_SWEEP_EVERY = 5.0


def tasks_run_in_process() -> bool:
    """Without a broker, tasks run in-process at once (and cannot wait for a time)."""
    return bool(current_app.conf.task_always_eager)


def queue_balance_check(tournament_id: int) -> None:
    """After the transaction commits: check what balancing needs now."""
    current_app.tasks[CHECK_BALANCE].delay_on_commit(tournament_id)


def queue_clock_tick(tournament_id: int, version: int, due: datetime) -> None:
    """After the transaction commits: move the clock on at ``due`` unless it changed since."""
    current_app.tasks[ADVANCE_CLOCK].apply_async_on_commit(args=(tournament_id, version), eta=due)
