"""The Celery app, configured from Django's settings (``CELERY_*``).

Run a worker with its beat (``celery -A cardroom worker -B``, or ``celery -A cardroom beat``
as one separate process beside any number of workers): the beat sends the periodic tasks below.
"""

import os

# Before the project's imports: the deadlines they declare reach DRF, which reads Django's
# settings on import (gunicorn and the worker import this module before anything sets it).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")

from celery import Celery
from django.conf import settings

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
#: The registered names of ``cardroom.tasks.audit_checkpoint`` (every minute) and
#: ``cardroom.tasks.verify_audit_logs`` (``CARDROOM_AUDIT_VERIFY_EVERY`` minutes).
AUDIT_CHECKPOINT = "cardroom.audit_checkpoint"
AUDIT_CHECKPOINT_EVERY = 60.0
VERIFY_AUDIT = "cardroom.verify_audit"

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
    # The audit chains' heads to the checkpoint file, every minute something changed, and a
    # full verification against it (cardroom/core/checkpoints.py); the floor page shows both.
    "audit-checkpoint": {
        "task": AUDIT_CHECKPOINT,
        "schedule": AUDIT_CHECKPOINT_EVERY,
        "options": {"expires": AUDIT_CHECKPOINT_EVERY},
    },
    "verify-audit": {
        "task": VERIFY_AUDIT,
        "schedule": 60.0 * settings.CARDROOM_AUDIT_VERIFY_EVERY,
        "options": {"expires": 60.0 * settings.CARDROOM_AUDIT_VERIFY_EVERY},
    },
}
