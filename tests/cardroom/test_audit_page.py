"""The floor manager's audit page: the last successful verification, the checkpoint's age, a
button that verifies now, bounded however many runs are on record."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from cardroom.core import audit, checkpoints
from cardroom.core.checkpoints import AuditCheck
from cardroom.screens.audit import RECENT, run_verification
from cardroom.seats.models import SeatEvent
from tests.test_audit_tampering import as_the_owner

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tasks_run_at_once() -> Iterator[None]:
    """Verify now runs on a worker when there is a broker: here, in the request (as in
    development), whatever the suite's broker."""
    from celery import current_app

    before = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True
    yield
    current_app.conf.task_always_eager = before


def test_with_a_worker_verify_now_says_it_is_queued(
    persona_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from celery import current_app

    from cardroom.celery import VERIFY_AUDIT

    sent: list[str] = []
    current_app.conf.task_always_eager = False  # a broker and a worker (the fixture restores it)
    monkeypatch.setattr(current_app.tasks[VERIFY_AUDIT], "delay", sent.append)
    page = persona_client("floor_manager").post(reverse("cardroom:audit_verify")).content.decode()
    assert sent == ["fm (floor page)"] or sent[0].endswith("(floor page)")
    assert "Verification queued for a worker" in page
    assert AuditCheck.objects.count() == 0


def test_before_anything_the_page_says_never_and_warns_of_the_development_key(
    persona_client: Any,
) -> None:
    page = persona_client("floor_manager").get(reverse("cardroom:audit")).content.decode()
    assert "Last successful verification" in page
    assert "<strong>Never</strong>" in page
    assert "None written yet" in page
    assert "signed with the development key" in page


def test_the_floor_links_to_the_page_for_floor_managers_only(persona_client: Any) -> None:
    link = f'href="{reverse("cardroom:audit")}"'
    assert link in persona_client("floor_manager").get(reverse("cardroom:floor")).content.decode()
    assert link not in persona_client("staff").get(reverse("cardroom:floor")).content.decode()


def test_verify_now_shows_the_run_and_the_checkpoint_it_held_against(
    persona_client: Any, floor_manager: Any
) -> None:
    from tests.factories import make_table

    make_table(number=5)
    line = checkpoints.write(force=True)
    assert line is not None
    client = persona_client("floor_manager")
    answer = client.post(reverse("cardroom:audit_verify"), headers={"HX-Request": "true"})
    assert answer.status_code == 200
    page = answer.content.decode()
    assert 'id="audit-status"' in page and "<html" not in page
    run = AuditCheck.objects.get()
    assert run.ok and run.checkpoint_seq == line.seq
    assert "Intact" in page and 'id="audit-broken"' not in page
    assert f"seq {line.seq}" in page
    assert "floor page" in run.by


def test_a_rewrite_shows_as_findings_on_the_page(persona_client: Any, floor_manager: Any) -> None:
    from cardroom.seats import services as players
    from tests.factories import make_table

    table = make_table(number=6)
    player = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    players.seat_player(table=table, player=player, seat=1, buy_in=100, by=floor_manager)
    checkpoints.write(force=True)
    with as_the_owner("cardroom_seatevent") as cursor:
        cursor.execute("UPDATE cardroom_seatevent SET stack = 5000 WHERE table_id = %s", [table.pk])
    client = persona_client("floor_manager")
    page = client.post(reverse("cardroom:audit_verify")).content.decode()
    # The row's hash; its stack not the one before plus its amount; the seat's stack not what
    # its log adds up to.
    run = AuditCheck.objects.get()
    assert not run.ok and run.finding_count == 3, run.findings
    assert "3 findings" in page
    assert 'id="audit-broken"' in page and "found 3 findings" in page
    assert "cardroom_seatevent row" in page and "contents changed" in page
    assert SeatEvent.objects.filter(table=table, stack=5000).exists()


def test_the_page_shows_a_bounded_number_of_runs(
    persona_client: Any, django_assert_max_num_queries: Any
) -> None:
    for _ in range(RECENT + 5):
        run_verification("beat")
    client = persona_client("floor_manager")
    with django_assert_max_num_queries(12):
        page = client.get(reverse("cardroom:audit")).content.decode()
    assert page.count('id="audit-run-') == RECENT


@pytest.mark.parametrize("persona", ["staff", "director", "cashier"])
def test_other_roles_may_not_verify(persona_client: Any, persona: str) -> None:
    assert persona_client(persona).post(reverse("cardroom:audit_verify")).status_code == 403
    assert AuditCheck.objects.count() == 0


def test_verify_now_needs_the_csrf_token(floor_manager: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(floor_manager)
    assert client.post(reverse("cardroom:audit_verify")).status_code == 403
    assert AuditCheck.objects.count() == 0


def test_the_signing_key_id_is_shown_never_the_secret(persona_client: Any) -> None:
    page = persona_client("floor_manager").get(reverse("cardroom:audit")).content.decode()
    key = audit.signing_key()
    assert key.id in page and key.secret.decode() not in page
