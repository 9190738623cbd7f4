"""Deadlines: the one way the floor acts on a time running out (a clock's level, a seat
offer, a call-in's check-in time), whoever comes first.

* **Its task, at its time.** The write that sets a deadline queues the deadline's task for
  that time, after its transaction commits (``Deadline.queue``: an ETA task carrying what it
  is for and a version).
* **The sweep, the safety net.** The beat sends the deadline's sweep every few seconds
  (``Deadline.beat``, read by ``cardroom/celery.py``): a task held by a worker that died
  comes back only after the broker's visibility timeout (hours), and the sweep acts on every
  deadline passed meanwhile.
* **The next write that needs it.** A write that decides on rows a deadline holds acts on it
  first, once, in its own transaction and under its own locks (``due_first``), so it decides
  on the rows as the deadline left them.

Whichever comes first acts; each re-checks under the row lock that the deadline is still the
one it was queued for and still passed (a version number, or the deadline itself), so the
others find nothing left to do: doing it twice is harmless. Reads never act: they show what
ran out as ran out. Without a broker, tasks run in-process at once and cannot wait for a
time: nothing is queued (nor is there a beat); the next write acts.

The task names are constants the owning package declares beside its ``Deadline``
(``tournaments/scheduling.py``, ``cardroom/waitlists/schedule.py``); the tasks are in its
``tasks`` module and call one service."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from celery import current_app
from django.core.exceptions import ValidationError
from django.db import transaction

from cardroom.core.api_errors import Conflict


def tasks_run_in_process() -> bool:
    """Without a broker, tasks run in-process at once (and cannot wait for a time)."""
    return bool(current_app.conf.task_always_eager)


@dataclass(frozen=True)
class Deadline:
    """A kind of deadline: the registered names of its task (one deadline, at its time) and
    of its sweep (every deadline passed), and the seconds between sweeps."""

    task: str
    sweep: str
    every: float

    def queue(self, *args: Any, at: datetime) -> None:
        """After the transaction commits: run the task with ``args`` at ``at``."""
        if tasks_run_in_process():
            return
        current_app.tasks[self.task].apply_async_on_commit(args=args, eta=at)

    def beat(self) -> dict[str, Any]:
        """The beat's entry for the sweep. It expires after one period: no backlog of sweeps
        while no worker runs."""
        return {"task": self.sweep, "schedule": self.every, "options": {"expires": self.every}}


@contextmanager
def due_first(act: Callable[[], object]) -> Iterator[None]:
    """A write that needs the deadlines it decides on acted on first: one transaction, in
    which ``act()`` acts on what is due (taking the locks the write takes, in the same
    order), then the write's body runs in a savepoint. A refusal of the write (a
    ``ValidationError``, a ``Conflict``) undoes only the write: what ran out stays recorded,
    and the refusal can say so. ``act`` must itself re-check under its locks (a deadline's task
    or the sweep may have come first)."""
    refused: ValidationError | Conflict
    with transaction.atomic():
        act()
        try:
            with transaction.atomic():
                yield
        except (ValidationError, Conflict) as exc:
            refused = exc
        else:
            return
    raise refused
