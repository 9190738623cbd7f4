"""What of the API the public reaches, and how often.

The API's own description (``/api/schema/``, ``/api/docs/``) is public only while
``CARDROOM_PUBLIC_API_DOCS`` is on; otherwise it is for the floor's roles, like every page that
is not the rulebook, ``/healthz`` or the betting API (README, Roles).

Per-client rate limits on the public endpoints (the betting API and the rulebook API):

DRF's scoped throttle over a cache every web process shares, so two gunicorn workers (or two
machines) count one client's requests together: Redis when the deployment has it (the
``throttle`` cache, set from the Celery broker's URL: a round trip of well under a millisecond),
else the database cache table (a write per public request). A
client is its user when signed in, else its address (``cardroom.core.client_address``: the same
address the log-in throttle counts). Over the rate the answer is 429
``throttled`` in the API's error shape, with ``Retry-After``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.db import DatabaseCache
from django.db import DatabaseError, connection, transaction
from redis.exceptions import RedisError
from rest_framework.permissions import BasePermission
from rest_framework.throttling import ScopedRateThrottle

from cardroom.core.client_address import client_address
from cardroom.core.roles import can_read

logger = logging.getLogger(__name__)
#: The cache the limits count in, when settings define it (else the default cache).
THROTTLE_CACHE = "throttle"


class PublicRateThrottle(ScopedRateThrottle):
    """``throttle_scope`` on the view names the rate in ``CARDROOM_THROTTLE_RATES``, read at
    each request (so a deployment's or a test's setting takes effect at once)."""

    def get_rate(self) -> str | None:
        rates: Mapping[str, str | None] = settings.CARDROOM_THROTTLE_RATES
        return rates.get(self.scope) if self.scope is not None else None

    def get_rate_for(self, view: Any) -> str | None:
        scope = getattr(view, self.scope_attr, None)
        return settings.CARDROOM_THROTTLE_RATES.get(scope) if scope else None

    def get_ident(self, request: Any) -> str:
        return client_address(request)

    @property
    def cache(self) -> BaseCache:  # type: ignore[override]  # DRF's attribute, read per request
        return caches[THROTTLE_CACHE if THROTTLE_CACHE in settings.CACHES else "default"]

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.get_rate_for(view) is None:
            return True  # no limit for this scope: no cache read or write either
        if not isinstance(self.cache, DatabaseCache):
            try:
                return bool(super().allow_request(request, view))
            except RedisError:
                logger.warning("Rate limit not checked (Redis is unavailable): %s", request.path)
                return True
        try:
            with transaction.atomic():
                if connection.vendor == "postgresql":
                    # A count may be lost in a crash, harmlessly: don't wait for the disk to
                    # commit it (the wait was most of the public endpoints' time).
                    with connection.cursor() as cursor:
                        cursor.execute("SET LOCAL synchronous_commit TO OFF")
                return bool(super().allow_request(request, view))
        except DatabaseError:
            # The betting API needs no database: a cache outage must not take it down with it.
            logger.warning("Rate limit not checked (the cache is unavailable): %s", request.path)
            return True


class ApiDocsPermission(BasePermission):
    message = "The API's documentation needs a role on the floor."

    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(settings.CARDROOM_PUBLIC_API_DOCS) or can_read(request.user)


class _Scope:
    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope


class CountedThrottle(PublicRateThrottle):
    """A limit checked before the request and counted after it, once its outcome is known: the
    kiosk counts the names it accepted under one scope and the posts it refused under another
    with a higher cap (a player fumbling the form does not lock the podium's tablet; a script
    hammering it still gets 429s)."""

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.view, self.key = _Scope(scope), None

    def check(self, request: Any) -> float | None:
        """None when the request may go on, else the seconds to wait."""
        if self.allow_request(request, self.view):
            return None
        return float(self.wait() or 60)

    def throttle_success(self) -> bool:
        return True  # counted by ``count`` once the request's outcome is known

    def count(self) -> None:
        if self.key is None or self.rate is None:
            return  # no limit for this scope
        try:
            _, duration = self.parse_rate(self.rate)
            self.history.insert(0, self.now)
            self.cache.set(self.key, self.history, duration)
        except (DatabaseError, RedisError):
            logger.warning("Rate limit not counted (the cache is unavailable): %s", self.key)
