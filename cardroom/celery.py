"""The Celery app, configured from Django's settings (``CELERY_*``).

Run a worker with its beat (``celery -A cardroom worker -B``, or ``celery -A cardroom beat``
as one separate process beside any number of workers): the beat sends the periodic tasks below.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: Seconds between sweeps of the running clocks, and between worker heartbeats.
CLOCK_SWEEP_EVERY = 5.0
HEARTBEAT_EVERY = 15.0
#: Seconds between sweeps of the waitlists' timers (offers, call-ins).
WAITLIST_SWEEP_EVERY = 10.0

app.conf.beat_schedule = {
    # Each clock's tick is queued for its time, but a tick held by a worker that died stays
    # invisible until the broker's visibility timeout (3 h): the sweep moves on every running
    # clock whose level has ended (the tick is version-checked, so doing it twice is safe).
    "advance-clocks": {
        "task": "tournaments.advance_clocks",
        "schedule": CLOCK_SWEEP_EVERY,
        "options": {"expires": CLOCK_SWEEP_EVERY},  # no backlog while no worker runs
    },
    # /healthz reports "degraded" when no worker has run this for a minute (cardroom/core/health.py).
    "heartbeat": {
        "task": "cardroom.heartbeat",
        "schedule": HEARTBEAT_EVERY,
        "options": {"expires": HEARTBEAT_EVERY},
    },
    # Seat offers and call-in deadlines that ran out (the lists' reads only show them as ran
    # out; the writes that decide on a list run its timers first, under its locks).
    "lapse-waitlists": {
        "task": "cardroom.lapse_waitlists",
        "schedule": WAITLIST_SWEEP_EVERY,
        "options": {"expires": WAITLIST_SWEEP_EVERY},
    },
}
