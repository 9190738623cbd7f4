"""Floor tasks. Each takes ids or plain values and calls one service."""

from celery import shared_task
from django.utils import timezone

from cardroom.celery import HEARTBEAT, PING, PRUNE_CHANGES
from cardroom.core import changes
from cardroom.core.health import record_worker_heartbeat


@shared_task(name=PING)
def ping(token: str) -> str:
    """Round trip through the broker: the health check and the worker test use it."""
    return f"pong:{token}"


@shared_task(name=HEARTBEAT, ignore_result=True)
def heartbeat() -> None:
    """Every few seconds (celery beat): say a worker is alive, for ``/healthz``."""
    record_worker_heartbeat()


@shared_task(name=PRUNE_CHANGES, ignore_result=True)
def prune_changes() -> int:
    """Every minute (celery beat): drop the change feed's changes older than it keeps."""
    return changes.prune(timezone.now())
