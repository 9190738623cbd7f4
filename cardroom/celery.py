"""The Celery app, configured from Django's settings (``CELERY_*``).

Run a worker with its beat (``celery -A cardroom worker -B``, or ``celery -A cardroom beat``
as one separate process beside any number of workers): the beat sends the periodic tasks below.
"""

import os

from celery import Celery

from cardroom.waitlists.schedule import LAPSE_WAITLISTS, WAITLIST_SWEEP_EVERY
from tournaments.scheduling import ADVANCE_CLOCKS, CLOCK_SWEEP_EVERY

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # each app's ``tasks`` module
app.autodiscover_tasks(["cardroom.waitlists"])  # a floor package's own

#: The registered name of ``cardroom.tasks.heartbeat``, and seconds between heartbeats. Every
#: task the beat sends is named by the constant its own package declares beside its task.
HEARTBEAT = "cardroom.heartbeat"
#: The registered name of ``cardroom.tasks.ping`` (the broker's round trip).
PING = "cardroom.ping"
HEARTBEAT_EVERY = 15.0

app.conf.beat_schedule = {
    # Each clock's tick is queued for its time, but a tick held by a worker that died stays
    # invisible until the broker's visibility timeout (3 h): the sweep moves on every running
    # clock whose level has ended (the tick is version-checked, so doing it twice is safe).
    "advance-clocks": {
        "task": ADVANCE_CLOCKS,
        "schedule": CLOCK_SWEEP_EVERY,
        "options": {"expires": CLOCK_SWEEP_EVERY},  # no backlog while no worker runs
    },
    # /healthz reports "degraded" when no worker has run this for a minute (cardroom/core/health.py).
    "heartbeat": {
        "task": HEARTBEAT,
        "schedule": HEARTBEAT_EVERY,
        "options": {"expires": HEARTBEAT_EVERY},
    },
    # Seat offers and call-in deadlines that ran out (the lists' reads only show them as ran
    # out; the writes that decide on a list run its timers first, under its locks).
    "lapse-waitlists": {
        "task": LAPSE_WAITLISTS,
        "schedule": WAITLIST_SWEEP_EVERY,
        "options": {"expires": WAITLIST_SWEEP_EVERY},
    },
}
