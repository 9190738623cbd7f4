"""A write kept waiting by another one's row lock (PostgreSQL) longer than
``CARDROOM_LOCK_TIMEOUT_MS`` is refused, nothing written, instead of holding its worker for as
long as the other write lasts: the service raises ``RowsBusy``, the API answers 409 ``busy``,
a page says to try again (``cardroom/core/locks.py``)."""

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection, transaction
from django.urls import reverse

from cardroom.core.api_errors import lock_not_available
from cardroom.core.locks import RowsBusy, lock_row, set_lock_timeout
from cardroom.tables import services
from cardroom.tables.models import Table
from tests.factories import make_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@contextmanager
def held(table: Table) -> Iterator[None]:
    """Another write holding the table's row, in its own thread and connection, until the
    block ends."""
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                lock_row(Table, table.pk)
                taken.set()
                done.wait(timeout=30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(timeout=10)
    try:
        yield
    finally:
        done.set()
        holder.join()


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[str]]:
    outcome: list[str] = []

    def run() -> None:
        try:
            call()
            outcome.append("won")
        except RowsBusy as exc:
            outcome.append(exc.code)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def test_without_a_timeout_the_second_writer_waits_as_long_as_the_first(
    floor_manager: Any, settings: Any
) -> None:
    settings.CARDROOM_LOCK_TIMEOUT_MS = 0  # no limit: what the timeout prevents
    table = make_table(number=1, by=floor_manager)
    with held(table):
        edit = lambda: services.update_table(table=table, by=floor_manager, name="Feature")  # noqa: E731
        writer, outcome = in_thread(edit)
        writer.join(timeout=1.5)
        assert writer.is_alive()  # still waiting, its worker held
    writer.join(timeout=10)
    assert outcome == ["won"] and Table.objects.get().name == "Feature"


def test_a_writer_waiting_past_the_timeout_is_refused_and_writes_nothing(
    floor_manager: Any, settings: Any
) -> None:
    settings.CARDROOM_LOCK_TIMEOUT_MS = 300
    table = make_table(number=1, by=floor_manager)
    with held(table):
        started = time.monotonic()
        with pytest.raises(RowsBusy) as refused:
            services.update_table(table=table, by=floor_manager, name="Feature")
        waited = time.monotonic() - started
    assert refused.value.code == "busy" and 0.25 <= waited < 3
    assert "try again" in refused.value.message
    assert Table.objects.get().name != "Feature"
    # Once the other write is over, the same request goes through.
    services.update_table(table=table, by=floor_manager, name="Feature")
    assert Table.objects.get().name == "Feature"


def test_the_api_answers_409_busy(api_client_for: Any, floor_manager: Any, settings: Any) -> None:
    settings.CARDROOM_LOCK_TIMEOUT_MS = 300
    table = make_table(number=1, by=floor_manager)
    client = api_client_for("floor_manager")
    with held(table):
        answer = client.patch(f"/api/v1/tables/{table.pk}/", {"name": "Feature"}, format="json")
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "busy"
    assert Table.objects.get().name != "Feature"


def test_a_page_says_to_try_again(persona_client: Any, floor_manager: Any, settings: Any) -> None:
    settings.CARDROOM_LOCK_TIMEOUT_MS = 300
    table = make_table(number=1, by=floor_manager)
    page = persona_client("floor_manager")
    with held(table):
        answer = page.post(reverse("cardroom:table_status", args=[1]), {"status": "closed"})
    assert answer.status_code == 503 and answer["Retry-After"] == "1"
    assert "try again in a moment" in answer.content.decode()
    assert Table.objects.get().status == "open"


def test_any_statement_waiting_past_the_timeout_is_known_for_what_it_is(
    floor_manager: Any, settings: Any
) -> None:
    """After a lock the whole transaction waits at most the timeout: a plain UPDATE behind
    another write fails with PostgreSQL's ``lock_not_available``, which ``api_errors`` and
    the pages answer as the helper's own refusal."""
    settings.CARDROOM_LOCK_TIMEOUT_MS = 300
    table = make_table(number=1, by=floor_manager)
    with held(table), pytest.raises(OperationalError) as failed, transaction.atomic():
        set_lock_timeout()
        Table.objects.filter(pk=table.pk).update(name="Feature")
    assert lock_not_available(failed.value)
