"""Reachability of the services the app depends on, for ``/healthz`` and the load drills."""

import time
from typing import Any

from django.conf import settings
from django.db import connection
from kombu import Connection


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
