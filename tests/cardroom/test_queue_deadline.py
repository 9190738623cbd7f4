"""A request that waited in the proxy's queue longer than its client waits is answered 503 at
once, before any query; a fresh one, an unstamped one or one from an untrusted client is
served as always."""

import time
from typing import Any

import pytest
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st

from cardroom.core.middleware import queued_since

pytestmark = pytest.mark.django_db

BEHIND_A_PROXY = override_settings(CARDROOM_TRUSTED_PROXIES=1, CARDROOM_QUEUE_DEADLINE_MS=10_000)


def stamp(seconds_ago: float) -> str:
    return f"t={time.time() - seconds_ago:.3f}"


@BEHIND_A_PROXY
def test_a_request_queued_past_the_deadline_is_dropped_before_any_query(
    client: Any, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        answer = client.get("/board/live/", headers={"X-Request-Start": stamp(30)})
    assert answer.status_code == 503
    assert answer["Retry-After"] == "2"
    assert b"too busy" in answer.content


@BEHIND_A_PROXY
def test_the_api_answers_its_error_shape(client: Any) -> None:
    answer = client.get("/api/v1/rules/", headers={"X-Request-Start": stamp(11)})
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "service_unavailable"


@BEHIND_A_PROXY
@pytest.mark.parametrize("header", [1.0, -5.0, "t=²³", "garbage", "t=1.2.3", ""])
def test_a_fresh_future_or_unreadable_stamp_is_served(client: Any, header: float | str) -> None:
    if isinstance(header, float):
        header = stamp(header)  # now, not when the tests were collected
    answer = client.get("/healthz", headers={"X-Request-Start": header})
    assert answer.status_code in (200, 503) and b"too busy" not in answer.content


@override_settings(CARDROOM_TRUSTED_PROXIES=0, CARDROOM_QUEUE_DEADLINE_MS=10_000)
def test_without_a_trusted_proxy_the_header_is_the_clients_and_ignored(client: Any) -> None:
    answer = client.get("/healthz", headers={"X-Request-Start": stamp(60)})
    assert b"too busy" not in answer.content


@override_settings(CARDROOM_TRUSTED_PROXIES=1, CARDROOM_QUEUE_DEADLINE_MS=0)
def test_a_deadline_of_zero_turns_it_off(client: Any) -> None:
    answer = client.get("/healthz", headers={"X-Request-Start": stamp(600)})
    assert b"too busy" not in answer.content


def test_the_stamps_nginx_and_others_write_are_read() -> None:
    assert queued_since("t=1700000000.123") == pytest.approx(1700000000.123)
    assert queued_since("1700000000123") == pytest.approx(1700000000.123)
    assert queued_since("t=1700000000123456") == pytest.approx(1700000000.123456)
    for bad in ["", "t=", "t=abc", "t=١٢٣", "t=1.x", "t=-5", "9" * 30]:
        assert queued_since(bad) is None


@given(st.text(max_size=40))
def test_no_header_makes_it_raise(header: str) -> None:
    result = queued_since(header)
    assert result is None or result >= 0
