"""Floor tasks. Each takes ids or plain values and calls one service."""

from celery import shared_task
from django.utils import timezone

from cardroom.celery import AUDIT_CHECKPOINT, HEARTBEAT, PING, PRUNE_CHANGES, VERIFY_AUDIT
from cardroom.core import changes, checkpoints
from cardroom.core.health import record_worker_heartbeat
from cardroom.screens.audit import run_verification


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


@shared_task(name=AUDIT_CHECKPOINT, ignore_result=True)
def audit_checkpoint() -> int | None:
    """Every minute (celery beat): write the audit chains' heads to the checkpoint file, if
    anything changed (``cardroom/core/checkpoints.py``). Its sequence number, or None."""
    line = checkpoints.write()
    return line.seq if line else None


@shared_task(name=VERIFY_AUDIT, ignore_result=True)
def verify_audit_logs(by: str = "beat") -> bool:
    """Every ``CARDROOM_AUDIT_VERIFY_EVERY`` minutes (celery beat), and from the floor page's
    button: verify every audit log against the checkpoints; the floor page shows the run."""
    return run_verification(by).record.ok
