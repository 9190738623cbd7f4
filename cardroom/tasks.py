"""Floor tasks. Each takes ids or plain values and calls one service."""

from celery import shared_task

from cardroom.celery import HEARTBEAT, PING
from cardroom.core.health import record_worker_heartbeat


@shared_task(name=PING)
def ping(token: str) -> str:
    """Round trip through the broker: the health check and the worker test use it."""
    return f"pong:{token}"


@shared_task(name=HEARTBEAT, ignore_result=True)
def heartbeat() -> None:
    """Every few seconds (celery beat): say a worker is alive, for ``/healthz``."""
    record_worker_heartbeat()
