"""Floor tasks. Each takes ids or plain values and calls one service."""

from celery import shared_task


@shared_task(name="cardroom.ping")
def ping(token: str) -> str:
    """Round trip through the broker: the health check and the worker test use it."""
    return f"pong:{token}"
