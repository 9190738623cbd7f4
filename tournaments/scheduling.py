"""Queueing the tournament tasks, by name, from the services that need them.

The tasks (``tournaments.tasks``) call the services; the services never import the tasks. They
queue them here by their registered names, after the transaction commits, through the Celery
app in use (``cardroom.celery``); a level's end is a ``cardroom.core.deadlines.Deadline``
(``LEVEL_ENDS``), queued for its time. ``tournaments.apps`` imports the tasks module when Django
starts, so the names are registered in every process, the eager one included.
"""

from __future__ import annotations

from celery import current_app

from cardroom.core.deadlines import Deadline

#: The registered names of the tasks (``tournaments.tasks`` registers each under its name here).
CHECK_BALANCE = "tournaments.check_balance"
ADVANCE_CLOCK = "tournaments.advance_clock"
ADVANCE_CLOCKS = "tournaments.advance_clocks"
#: Seconds between the beat's sweeps of the running clocks (``cardroom/celery.py``).
CLOCK_SWEEP_EVERY = 5.0
#: A level's end (``cardroom/core/deadlines.py``): its tick queued for its time, version-checked,
#: and the sweep of the running clocks.
LEVEL_ENDS = Deadline(task=ADVANCE_CLOCK, sweep=ADVANCE_CLOCKS, every=CLOCK_SWEEP_EVERY)


def queue_balance_check(tournament_id: int) -> None:
    """After the transaction commits: check what balancing needs now."""
    current_app.tasks[CHECK_BALANCE].delay_on_commit(tournament_id)
