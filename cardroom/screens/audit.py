"""The full audit verification, and the floor manager's page that shows it.

One verification for the command (``manage.py verify_audit``), the beat and the page's
button: every chain walked against the checkpoint file (``cardroom/core/checkpoints.py``),
every revealed draw and draw for the button replayed from its seed, every tournament's money
ledger added up, and the ordinary rows held against the records that decided them: every
hand, cash seat, waitlist entry, player, table and tournament entrant's count.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from cardroom.celery import VERIFY_AUDIT
from cardroom.core import audit, checkpoints
from cardroom.core.audit_keys import DEV_KEY_ID
from cardroom.core.checkpoints import AuditCheck
from cardroom.core.deadlines import tasks_run_in_process
from cardroom.core.request_types import AuthenticatedRequest
from cardroom.core.roles import Role, role_required
from cardroom.seats.player_checks import player_breaks
from cardroom.seats.seat_checks import seat_breaks
from cardroom.tables.hand_records import hand_breaks
from cardroom.tables.models import Hand
from cardroom.tables.table_checks import table_breaks
from cardroom.waitlists.entry_checks import entry_breaks
from rules.engine.button_draw import replay_button_draw
from tournaments.chip_checks import entrant_breaks
from tournaments.draw_services import verify_draw
from tournaments.models import Draw, DrawStatus
from tournaments.money.ledger import ledger_breaks


@dataclass
class Outcome:
    verification: checkpoints.Verification
    record: AuditCheck

    @property
    def findings(self) -> list[audit.Break]:
        return self.verification.findings


def _replays(using: str) -> list[audit.Break]:
    breaks = []
    for draw in Draw.objects.using(using).filter(status=DrawStatus.REVEALED).order_by("pk"):
        check = verify_draw(draw)
        if not check.ok:
            breaks.append(
                audit.Break(
                    Draw._meta.db_table,
                    draw.pk,
                    "the revealed draw does not replay from its seed: " + "; ".join(check.problems),
                )
            )
    # CR-BB.9: a draw for the button kept with a hand deals again from its seed to the same
    # cards and button (the hand's button may differ: the dealer may have corrected it).
    drawn = Hand.objects.using(using).exclude(button_draw={}).order_by("pk")
    for hand_id, record in drawn.values_list("pk", "button_draw").iterator():
        if not replay_button_draw(record):
            breaks.append(
                audit.Break(
                    Hand._meta.db_table,
                    hand_id,
                    "the draw for the button does not replay from its seed",
                )
            )
    return breaks


def run_verification(by: str, using: str = "default") -> Outcome:
    """Verify everything and keep a record of the run (who or what ran it)."""
    verification = checkpoints.verify(using=using)
    verification.findings += _replays(using)
    # Each tournament's money ledger: every line balances and moves only what its kind
    # moves, and the totals balance (its chain is walked with every other chain).
    verification.findings += ledger_breaks(using)
    # The mutable rows that hold what the chains decided: each hand against its signed deal,
    # award and void; each cash seat's stack against its seat events; each waitlist entry
    # against its events; each player's record and bar against its log; each table's settings
    # against its configuration history.
    verification.findings += hand_breaks(using) + seat_breaks(using) + entry_breaks(using)
    verification.findings += player_breaks(using) + table_breaks(using)
    # Each tournament entrant's count against its newest chip count, hand or ledger line.
    verification.findings += entrant_breaks(using)
    last = verification.held.last
    record = AuditCheck.objects.using(using).create(
        by=by[:150],
        ok=not verification.findings,
        streams=verification.streams,
        rows=verification.walk.rows,
        findings=[str(found) for found in verification.findings[: AuditCheck.FINDINGS_KEPT]],
        finding_count=len(verification.findings),
        checkpoint_seq=last.seq if last else None,
        checkpoint_at=last.when if last else None,
    )
    return Outcome(verification, record)


# --- the floor manager's page ---------------------------------------------------------------


@dataclass(frozen=True)
class Status:
    last_ok: AuditCheck | None
    recent: list[AuditCheck]
    checkpoint: checkpoints.Line | None
    checkpoint_age: str
    checkpoint_stale: bool
    key_id: str
    dev_key: bool
    path: str


#: A checkpoint older than this while rows keep coming is shown as a warning (the beat writes
#: one every minute something changed).
STALE_AFTER = 5 * 60
RECENT = 20


def status(now: datetime | None = None) -> Status:
    now = now or timezone.now()
    line = checkpoints.last_line()
    age = checkpoints.age_in_words(line.when, now) if line else ""
    stale = line is None or (now - line.when).total_seconds() > STALE_AFTER
    key = audit.signing_key()
    return Status(
        last_ok=AuditCheck.objects.filter(ok=True).first(),
        recent=list(AuditCheck.objects.all()[:RECENT]),
        checkpoint=line,
        checkpoint_age=age,
        checkpoint_stale=stale,
        key_id=key.id,
        dev_key=key.id == DEV_KEY_ID,
        path=str(settings.CARDROOM_AUDIT_CHECKPOINT_FILE),
    )


@require_GET
@role_required(Role.FLOOR_MANAGER)
def audit_page(request: AuthenticatedRequest) -> HttpResponse:
    context = {"status": status(), "queued": False}
    return render(request, "cardroom/audit.html", context)


@require_GET
@role_required(Role.FLOOR_MANAGER)
def audit_status(request: AuthenticatedRequest) -> HttpResponse:
    """The status alone, polled by the open page (a queued run shows when it is done)."""
    context = {"status": status(), "queued": request.GET.get("queued") == "1"}
    return render(request, "cardroom/audit.html#audit-status", context)


@require_POST
@role_required(Role.FLOOR_MANAGER)
def audit_verify(request: AuthenticatedRequest) -> HttpResponse:
    """Verify now: queued for a worker (at once where tasks run eagerly, as in development);
    the status shows the run when it is done."""
    current_app.tasks[VERIFY_AUDIT].delay(f"{request.user.get_username()} (floor page)")
    context = {"status": status(), "queued": not tasks_run_in_process()}
    template = "cardroom/audit.html#audit-status" if request.htmx else "cardroom/audit.html"
    return render(request, template, context)
