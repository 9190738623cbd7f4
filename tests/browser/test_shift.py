"""A shift in the browser on the production stack (gunicorn, PostgreSQL, a Celery worker over
Redis): six pages open at once for two rounds (about three minutes), and every change reaches
every page that shows it within one poll. The scenario is ``tests/browser/shift.py``;
``make soak`` runs the same one for an hour."""

import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bench import stack
from tests.browser.shift import Record, Shift, seed

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

SECONDS = 90
LEVEL_SECONDS = 15


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def production_stack(transactional_db: None) -> Iterator[str]:
    """gunicorn (2 workers) and a Celery worker on this test's database; yields the base URL."""
    from django.db import connection

    from cardroom.celery import app as celery_app

    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    url = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = stack.production_env("shift-test", DATABASE_URL=url)
    stack.collectstatic(env)
    celery_app.control.purge()  # ticks other tests queued for tournaments long gone
    port = int(os.environ.get("CARDROOM_SHIFT_PORT") or free_port())
    with stack.running(env, port):
        yield f"http://127.0.0.1:{port}"


def test_a_shift_shows_every_change_on_every_open_page(browser: Any, production_stack: str) -> None:
    record = Record()
    shift = Shift(browser, production_stack, seed(level_seconds=LEVEL_SECONDS), record)
    shift.open()
    try:
        shift.sample_memory()
        deadline = time.monotonic() + SECONDS
        while record.counts["rounds"] < 2 or time.monotonic() < deadline:
            shift.round(LEVEL_SECONDS)
        if shift.levels_seen == 0:
            shift.check_clock(wait_for_change=LEVEL_SECONDS + 1)
        shift.sample_memory()
    finally:
        shift.close()
        print("\n".join(record.report()))  # shown when the test fails

    assert record.errors == []
    assert record.counts["hands played"] >= 4
    assert record.counts["rulings"] >= 2
    assert record.counts["eliminations"] >= 2
    assert record.counts["tables broken"] + record.counts["balancing moves applied"] >= 1
    assert shift.levels_seen >= 1
    # Polling sends a fixed-size request: the hundredth poll's URL is as long as the first's.
    for page in ("floor", "clock", "room display"):
        lengths = record.poll_urls[page]
        assert len(lengths) >= 5, f"{page}: only {len(lengths)} polls"
        assert max(lengths) == lengths[0], f"{page}: poll URL grew {lengths[0]} -> {max(lengths)}"
