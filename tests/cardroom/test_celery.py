"""Celery: eager in the embedded default, a real worker over Redis when a broker is set."""

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings

from cardroom.celery import app as celery_app
from cardroom.tasks import ping


def test_tasks_run_in_process_only_without_a_broker() -> None:
    assert settings.CELERY_TASK_ALWAYS_EAGER is (settings.CELERY_BROKER_URL is None)
    assert celery_app.conf.task_always_eager is settings.CELERY_TASK_ALWAYS_EAGER
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert ping.delay("eager").get(timeout=5) == "pong:eager"


@pytest.mark.redis
def test_a_real_worker_runs_the_task_over_the_broker() -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    with start_worker(celery_app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
        result = ping.delay("worker")
        assert result.get(timeout=20) == "pong:worker"
        assert result.successful()
