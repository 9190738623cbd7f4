"""/healthz reports database and broker reachability as JSON."""

import time
from collections.abc import Iterator
from unittest.mock import patch

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings

from cardroom.core.health import HEARTBEAT_KEY, record_worker_heartbeat
from cardroom.tasks import heartbeat


@pytest.mark.django_db
def test_health_is_public_and_reports_the_database(client: Client) -> None:
    record_worker_heartbeat()  # with a broker configured, a worker answered just now
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["status"] == "ok"


@pytest.mark.django_db
def test_a_broker_that_is_down_is_reported_but_the_app_stays_up(client: Client) -> None:
    # Nothing listens on port 1.
    with override_settings(
        CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0"
    ):
        response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["broker"]["ok"] is False


@pytest.mark.django_db
def test_health_only_answers_get(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


@pytest.fixture
def with_broker() -> Iterator[None]:
    """A broker configured (and reachable: the test patches its check), tasks not eager."""
    cache.delete(HEARTBEAT_KEY)
    with (
        override_settings(CELERY_TASK_ALWAYS_EAGER=False),
        patch("cardroom.views.broker_status", lambda: {"ok": True, "mode": "broker"}),
    ):
        yield
    cache.delete(HEARTBEAT_KEY)


@pytest.mark.django_db
def test_no_worker_heartbeat_is_degraded(client: Client, with_broker: None) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["worker"] == {"ok": False, "mode": "broker", "error": "no worker has answered"}


@pytest.mark.django_db
def test_a_recent_worker_heartbeat_is_ok(client: Client, with_broker: None) -> None:
    heartbeat()  # what a worker runs every 15 s, called here in-process
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["worker"]["ok"] is True
    assert 0 <= body["worker"]["last_heartbeat_s"] < 5


@pytest.mark.django_db
def test_a_heartbeat_older_than_a_minute_is_degraded(client: Client, with_broker: None) -> None:
    cache.set(HEARTBEAT_KEY, time.time() - 61, timeout=None)
    body = client.get("/healthz").json()
    assert body["status"] == "degraded"
    assert body["worker"]["ok"] is False
    assert "no worker has answered for 61 s" in body["worker"]["error"]


@pytest.mark.django_db
def test_without_a_broker_no_worker_is_needed(client: Client) -> None:
    body = client.get("/healthz").json()
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert body["worker"] == {
            "ok": True, "mode": "eager", "detail": "no broker configured; tasks run in-process"
        }  # fmt: skip
