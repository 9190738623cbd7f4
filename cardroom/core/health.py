"""Reachability of the services the app depends on, for ``/healthz`` and the load drills."""

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from kombu.connection import Connection

#: The cache key a worker's heartbeat task writes (its time), and how old it may be before
#: ``/healthz`` says no worker answers.
HEARTBEAT_KEY = "celery:worker-heartbeat"
WORKER_SILENCE_LIMIT = 60


def database_status() -> dict[str, Any]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; the reason is reported
        return {"ok": False, "vendor": connection.vendor, "error": exc.__class__.__name__}
    return {
        "ok": True,
        "vendor": connection.vendor,
        "ms": round((time.perf_counter() - started) * 1000, 2),
    }


def broker_status() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager", "detail": "no broker configured; tasks run in-process"}
    started = time.perf_counter()
    try:
        # A fresh connection, not the app's pool: the answer must be about the broker now.
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # kombu raises many kinds; each means "unreachable"
        return {"ok": False, "mode": "broker", "error": exc.__class__.__name__}
    return {"ok": True, "mode": "broker", "ms": round((time.perf_counter() - started) * 1000, 2)}


def record_worker_heartbeat() -> None:
    """A worker is alive now (the heartbeat task, sent by celery beat every 15 s)."""
    cache.set(HEARTBEAT_KEY, time.time(), timeout=None)


def worker_status() -> dict[str, Any]:
    """Whether a Celery worker (and its beat) answered within the last minute: without one,
    balancing checks wait and the clock's levels move on only when someone touches it."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager", "detail": "no broker configured; tasks run in-process"}
    try:
        beat = cache.get(HEARTBEAT_KEY)
    except Exception as exc:  # the cache lives in the database; "down" is reported there
        return {"ok": False, "mode": "broker", "error": exc.__class__.__name__}
    if beat is None:
        return {"ok": False, "mode": "broker", "error": "no worker has answered"}
    age = max(0.0, time.time() - beat)
    status: dict[str, Any] = {"ok": age <= WORKER_SILENCE_LIMIT, "mode": "broker"}
    status["last_heartbeat_s"] = round(age, 1)
    if not status["ok"]:
        status["error"] = f"no worker has answered for {int(age)} s"
    return status
