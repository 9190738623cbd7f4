"""Floor tasks. Each takes ids or plain values and calls one service."""

from datetime import UTC, datetime

from celery import shared_task

from cardroom.waitlists import services as waitlists
from cardroom.waitlists.schedule import LAPSE_WAITLIST, LAPSE_WAITLISTS


@shared_task(name=LAPSE_WAITLIST, ignore_result=True)
def lapse_waitlist(list_id: int, at: float) -> int:
    """At a seat offer's or a call-in's deadline (``at``, a POSIX time): the list's timers
    move on, unless the sweep or a write came first."""
    return waitlists.lapse_on_time(list_id=list_id, at=datetime.fromtimestamp(at, tz=UTC))


@shared_task(name=LAPSE_WAITLISTS, ignore_result=True)
def lapse_waitlists() -> int:
    """Every few seconds (celery beat): offers and call-in deadlines that ran out move on (the
    safety net for a deadline's task lost with its worker)."""
    return waitlists.lapse_due()
