"""/healthz reports database and broker reachability as JSON."""

import pytest
from django.test import Client, override_settings


@pytest.mark.django_db
def test_health_is_public_and_reports_the_database(client: Client) -> None:
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
