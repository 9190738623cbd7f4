"""The Celery app, configured from Django's settings (``CELERY_*``).

Run a worker with its beat (``celery -A cardroom worker -B``, or ``celery -A cardroom beat``
as one separate process beside any number of workers): the beat sends the periodic tasks below.
"""

import os

# Before the project's imports: the deadlines they declare reach DRF, which reads Django's
# settings on import (gunicorn and the worker import this module before anything sets it).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

from celery import Celery

from cardroom.waitlists.schedule import OFFERS
from tournaments.scheduling import LEVEL_ENDS

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # each app's ``tasks`` module
app.autodiscover_tasks(["cardroom.waitlists"])  # a floor package's own

#: The registered name of ``cardroom.tasks.heartbeat``, and seconds between heartbeats. Every
#: task the beat sends is named by the constant its own package declares beside its task.
HEARTBEAT = "cardroom.heartbeat"
#: The registered name of ``cardroom.tasks.prune_changes``, and seconds between prunings.
PRUNE_CHANGES = "cardroom.prune_changes"
PRUNE_CHANGES_EVERY = 60.0
#: The registered name of ``cardroom.tasks.ping`` (the broker's round trip).
PING = "cardroom.ping"
HEARTBEAT_EVERY = 15.0

app.conf.beat_schedule = {
    # The deadlines' sweeps (cardroom/core/deadlines.py): each deadline's task is queued for
    # its time, but a task held by a worker that died stays invisible until the broker's
    # visibility timeout (3 h). Each sweep acts on every deadline passed (each re-checked under
    # its row lock, so doing it twice is safe): running clocks whose level has ended,
    "advance-clocks": LEVEL_ENDS.beat(),
    # and seat offers and call-in deadlines that ran out (the lists' reads only show them as
    # ran out; the writes that decide on a list act on its deadlines first, under its locks).
    "lapse-waitlists": OFFERS.beat(),
    # /healthz reports "degraded" when no worker has run this for a minute (cardroom/core/health.py).
    "heartbeat": {
        "task": HEARTBEAT,
        "schedule": HEARTBEAT_EVERY,
        "options": {"expires": HEARTBEAT_EVERY},
    },
    # The change feed keeps its changes ten minutes (cardroom/core/changes.py).
    "prune-changes": {
        "task": PRUNE_CHANGES,
        "schedule": PRUNE_CHANGES_EVERY,
        "options": {"expires": PRUNE_CHANGES_EVERY},
    },
}
