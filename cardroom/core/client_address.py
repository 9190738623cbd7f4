"""Which address a request came from, for the log-in throttle and the public API's rate
limits: one rule for both.

``REMOTE_ADDR``, unless ``CARDROOM_TRUSTED_PROXIES`` proxies stand in front (a TLS proxy is
one: ``DJANGO_BEHIND_TLS_PROXY`` makes it the default). Then every request reaches Django from
the nearest proxy, and the client's address is the one the outermost trusted proxy appended to
``X-Forwarded-For``, counted from the right: anything left of it the client could have written
itself (the same reading as DRF's ``NUM_PROXIES``).
"""

from typing import Any

from django.conf import settings


def client_address(request: Any) -> str:
    meta = request.META
    remote = str(meta.get("REMOTE_ADDR", ""))
    proxies: int = settings.CARDROOM_TRUSTED_PROXIES
    forwarded = [part.strip() for part in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    forwarded = [part for part in forwarded if part]
    if proxies == 0 or not forwarded:
        return remote
    return forwarded[-min(proxies, len(forwarded))]
