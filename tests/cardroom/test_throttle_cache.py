"""The public API's rate limits count in Redis when the deployment has one (the Celery broker's
URL), with no database query for the count; the database cache remains the fallback."""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parents[2]
#: A Redis database of this test's own, on the server the broker tests need (marker ``redis``).
REDIS = os.environ.get("CARDROOM_TEST_THROTTLE_REDIS", "redis://127.0.0.1:6379/4")

HAND = {
    "game": {"structure": "no_limit", "small_blind": 1, "big_blind": 2},
    "button": 1,
    "seats": [{"seat": 1, "stack": 100}, {"seat": 2, "stack": 100}],
    "actions": [],
}


def redis_cache(location: str) -> dict[str, Any]:
    return {
        "BACKEND": "cardroom.core.redis_cache.KeptClientRedisCache",
        "LOCATION": location,
        "KEY_PREFIX": "cardroom-throttle-test",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }


def test_a_redis_broker_gives_the_limits_a_redis_cache() -> None:
    script = (
        "from django.conf import settings; c = settings.CACHES; "
        "print(c['throttle']['BACKEND'], c['throttle']['LOCATION'], c['default']['BACKEND'])"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("CELERY_")}
    env["DJANGO_SETTINGS_MODULE"] = "cardroom.settings"
    env["CELERY_BROKER_URL"] = "redis://127.0.0.1:6379/9"
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {script}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True,
    ).stdout.split()  # fmt: skip
    assert out == [
        "cardroom.core.redis_cache.KeptClientRedisCache",
        "redis://127.0.0.1:6379/9",
        "django.core.cache.backends.db.DatabaseCache",  # the log-in throttle's, unchanged
    ]


@pytest.mark.redis
@pytest.mark.django_db
def test_over_redis_the_limit_holds_without_a_database_query(settings: Any) -> None:
    settings.CACHES = {**settings.CACHES, "throttle": redis_cache(REDIS)}
    settings.CARDROOM_THROTTLE_RATES = {"betting": "2/min", "rulebook": None}
    from django.core.cache import caches

    caches["throttle"].clear()
    client = APIClient(REMOTE_ADDR="203.0.113.21")
    with CaptureQueriesContext(connection) as queries:
        answers = [
            client.post("/api/v1/betting/evaluate", HAND, format="json").status_code
            for _ in range(3)
        ]
    assert answers == [200, 200, 429]
    assert not [q for q in queries.captured_queries if "cardroom_cache" in q["sql"]]
    assert any(b"betting" in key for key in caches["throttle"]._cache.get_client().keys("*"))
    caches["throttle"].clear()


@pytest.mark.django_db
def test_an_unreachable_redis_lets_the_request_through(settings: Any) -> None:
    settings.CACHES = {**settings.CACHES, "throttle": redis_cache("redis://127.0.0.1:1/0")}
    settings.CARDROOM_THROTTLE_RATES = {"betting": "1/min", "rulebook": None}
    client = APIClient(REMOTE_ADDR="203.0.113.22")
    for _ in range(2):
        assert client.post("/api/v1/betting/evaluate", HAND, format="json").status_code == 200


def test_the_redis_cache_keeps_its_client_between_calls() -> None:
    """Django's backend makes a Redis client every call (its callbacks copied each time); ours
    keeps one a connection pool: a room display poll answered from the cache pays for none."""
    from cardroom.core.redis_cache import KeptClientRedisCache

    cache = KeptClientRedisCache(REDIS, redis_cache(REDIS))
    client = cache._cache.get_client("a")
    assert cache._cache.get_client("b") is client
    assert cache._cache.get_client("c", write=True) is client  # one server: one pool
