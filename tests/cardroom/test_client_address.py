"""One rule for a client's address, read by the log-in throttle and the public rate limits."""

import os
import subprocess
import sys
from typing import Any

import pytest
from django.test import RequestFactory

from cardroom.core.client_address import client_address


def address(forwarded: str | None, remote: str = "10.0.0.1") -> str:
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **meta))


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, None, "10.0.0.1"),
        (0, "198.51.100.9", "10.0.0.1"),  # no proxy trusted: the header is the client's own
        (1, None, "10.0.0.1"),
        (1, "198.51.100.9", "198.51.100.9"),
        (1, "1.2.3.4, 198.51.100.9", "198.51.100.9"),  # the client wrote 1.2.3.4 itself
        (2, "1.2.3.4, 198.51.100.9, 10.0.0.5", "198.51.100.9"),
        (3, "198.51.100.9", "198.51.100.9"),  # fewer hops than proxies: the leftmost
        (1, " , ", "10.0.0.1"),
    ],
)
def test_the_address_is_the_one_the_outermost_trusted_proxy_saw(
    settings: Any, proxies: int, forwarded: str | None, expected: str
) -> None:
    settings.CARDROOM_TRUSTED_PROXIES = proxies
    assert address(forwarded) == expected


def setting(**env: str) -> int:
    code = "from django.conf import settings; print(settings.CARDROOM_TRUSTED_PROXIES)"
    done = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "cardroom.settings", **env},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return int(done.stdout.strip())


def test_behind_the_tls_proxy_one_proxy_is_trusted_unless_said_otherwise() -> None:
    production = {
        "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": "x" * 60, "DJANGO_ALLOWED_HOSTS": "cardroom.example",
        "CARDROOM_AUDIT_KEY": "room-1:" + "r" * 40,
    }  # fmt: skip
    assert setting(**production) == 0
    assert setting(**production, DJANGO_BEHIND_TLS_PROXY="true") == 1
    assert setting(**production, DJANGO_BEHIND_TLS_PROXY="true", CARDROOM_TRUSTED_PROXIES="2") == 2
