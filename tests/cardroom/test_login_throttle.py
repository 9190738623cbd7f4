"""Log-in throttling: too many failures for a username or from an address are refused (429)
for the rest of the window, without checking the password; a success clears the username."""

import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.test import Client

from cardroom.core.login_throttle import LoginThrottle
from tests.factories import TEST_PASSWORD, make_user

pytestmark = pytest.mark.django_db

WINDOW = 15 * 60


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def log_in(client: Client, username: str, password: str, **extra: Any) -> Any:
    return client.post("/login/", {"username": username, "password": password}, **extra)


def fail(client: Client, username: str, times: int, **extra: Any) -> None:
    for _ in range(times):
        response = log_in(client, username, "not-the-password", **extra)
        assert response.status_code == 200
        assert "correct username and password" in response.text


def test_five_failures_refuse_even_the_right_password(staff: Any) -> None:
    client = Client()
    fail(client, "staffer", 5)
    response = log_in(client, "staffer", TEST_PASSWORD)
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.text
    assert "try again in 15 minutes" in response.text
    assert 0 < int(response["Retry-After"]) <= WINDOW
    assert 'value="staffer"' in response.text  # the form is shown again, filled in
    assert "_auth_user_id" not in client.session


def test_a_refused_attempt_does_not_check_the_password(
    staff: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client()
    fail(client, "staffer", 5)
    checked = []
    monkeypatch.setattr(
        "django.contrib.auth.forms.authenticate", lambda *a, **kw: checked.append(kw)
    )
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 429
    assert checked == []


def test_four_failures_still_let_the_player_in(staff: Any) -> None:
    client = Client()
    fail(client, "staffer", 4)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 302


def test_the_username_counts_whatever_its_capitals(staff: Any) -> None:
    client = Client()
    fail(client, "STAFFER", 3)
    fail(client, "Staffer", 2)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 429


def test_another_username_is_not_locked_out(staff: Any, director: Any) -> None:
    client = Client()
    fail(client, "staffer", 5)
    assert log_in(client, "td", TEST_PASSWORD).status_code == 302


def set_clock(monkeypatch: pytest.MonkeyPatch, now: float) -> None:
    """Move the clock the throttle and the database cache's expiry both read."""
    monkeypatch.setattr(time, "time", lambda: now)
    monkeypatch.setattr(
        "django.core.cache.backends.db.tz_now", lambda: datetime.fromtimestamp(now, tz=UTC)
    )


def test_log_ins_work_again_after_the_window(staff: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    fail(client, "staffer", 5)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 429
    start = time.time()
    set_clock(monkeypatch, start + WINDOW - 60)
    response = log_in(client, "staffer", TEST_PASSWORD)
    assert response.status_code == 429
    assert "try again in 1 minute." in response.text
    set_clock(monkeypatch, start + WINDOW + 1)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 302


def test_a_success_resets_the_username_count(staff: Any) -> None:
    client = Client()
    fail(client, "staffer", 4)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 302
    client.logout()
    fail(client, "staffer", 4)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 302


def test_twenty_failures_from_one_address_refuse_every_username(staff: Any) -> None:
    client = Client()
    for n in range(20):
        fail(client, f"guess-{n}", 1)  # never five for one name
    response = log_in(client, "staffer", TEST_PASSWORD)
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.text
    other = Client(REMOTE_ADDR="10.0.0.2")
    assert log_in(other, "staffer", TEST_PASSWORD).status_code == 302


def test_a_success_does_not_reset_the_address_count(staff: Any, director: Any) -> None:
    client = Client()
    for n in range(19):
        fail(client, f"guess-{n}", 1)
    assert log_in(client, "td", TEST_PASSWORD).status_code == 302
    client.logout()
    fail(client, "guess-19", 1)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 429


def test_behind_the_tls_proxy_the_address_is_the_one_the_proxy_saw(
    staff: Any, settings: Any
) -> None:
    settings.CARDROOM_TRUSTED_PROXIES = 1  # DJANGO_BEHIND_TLS_PROXY's default
    client = Client()  # every request reaches Django from the proxy, 127.0.0.1
    for n in range(20):
        # The client may write its own X-Forwarded-For; the proxy appends the real address.
        fail(client, f"guess-{n}", 1, HTTP_X_FORWARDED_FOR=f"1.2.3.{n}, 203.0.113.9")
    blocked = log_in(client, "staffer", TEST_PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert blocked.status_code == 429
    elsewhere = log_in(client, "staffer", TEST_PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert elsewhere.status_code == 302


def test_a_half_empty_form_is_not_counted_as_a_guess(staff: Any) -> None:
    client = Client()
    for _ in range(6):
        assert log_in(client, "staffer", "").status_code == 200
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 302


def test_the_window_runs_from_the_first_failure_not_the_last(
    staff: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client()
    start = time.time()
    set_clock(monkeypatch, start)
    fail(client, "staffer", 4)
    set_clock(monkeypatch, start + 10 * 60)
    fail(client, "staffer", 1)
    set_clock(monkeypatch, start + 14 * 60)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 429
    set_clock(monkeypatch, start + WINDOW + 1)
    assert log_in(client, "staffer", TEST_PASSWORD).status_code == 302


def test_counts_are_shared_by_every_worker_process(staff: Any) -> None:
    """The counts live in the database cache, not in one process's memory: a cache handle
    opened afresh (as another gunicorn worker would) sees the failures."""
    fail(Client(), "staffer", 5)
    other_worker = caches.create_connection("default")
    assert isinstance(other_worker, DatabaseCache)
    key = LoginThrottle(username="staffer", address="127.0.0.1").user.key
    assert list(other_worker.get_many([key]).values()) == [5]


def test_a_strangers_failures_from_elsewhere_do_not_lock_the_user_out(director: Any) -> None:
    stranger = Client(REMOTE_ADDR="198.51.100.23")
    fail(stranger, "td", 5)
    assert log_in(stranger, "td", TEST_PASSWORD).status_code == 429  # the stranger is refused
    assert log_in(Client(), "td", TEST_PASSWORD).status_code == 302  # the director is not


def test_the_admin_log_in_is_throttled(db: None) -> None:
    make_user(username="root", role=None, superuser=True)
    client = Client()
    for _ in range(5):
        wrong = client.post("/admin/login/", {"username": "root", "password": "guess"})
        assert wrong.status_code == 200
        assert "correct username and password" in wrong.text
    refused = client.post("/admin/login/", {"username": "root", "password": TEST_PASSWORD})
    assert refused.status_code == 429
    assert "Too many failed log-ins" in refused.text
    assert 0 < int(refused["Retry-After"]) <= WINDOW
    assert "_auth_user_id" not in client.session
    # The two log-in pages share one count: the app's is refused too.
    assert log_in(client, "root", TEST_PASSWORD).status_code == 429
    # The admin's failures count against the address like the app's.
    assert (
        Client(REMOTE_ADDR="10.0.0.2")
        .post("/admin/login/", {"username": "root", "password": TEST_PASSWORD})
        .status_code
        == 302
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sixteen_guesses_at_once_check_five_passwords(live_server: Any, director: Any) -> None:
    barrier, statuses = threading.Barrier(16), []

    def guess() -> None:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        page = opener.open(f"{live_server.url}/login/", timeout=20).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token
        body = urllib.parse.urlencode(
            {"username": "td", "password": "guess", "csrfmiddlewaretoken": token.group(1)}
        ).encode()
        barrier.wait()
        try:
            with opener.open(f"{live_server.url}/login/", body, timeout=20) as answer:
                statuses.append(answer.status)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)

    threads = [threading.Thread(target=guess) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Each 200 is a password checked and found wrong; the rest were refused unchecked.
    assert sorted(statuses) == [200] * 5 + [429] * 11, statuses
