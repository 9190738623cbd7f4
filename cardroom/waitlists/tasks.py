"""Floor tasks. Each takes ids or plain values and calls one service."""

from celery import shared_task

from cardroom.waitlists import services as waitlists
from cardroom.waitlists.schedule import LAPSE_WAITLISTS


@shared_task(name=LAPSE_WAITLISTS, ignore_result=True)
def lapse_waitlists() -> int:
    """Every few seconds (celery beat): offers and call-in deadlines that ran out move on."""
    return waitlists.lapse_due()
