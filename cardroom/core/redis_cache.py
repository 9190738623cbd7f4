"""The shared cache on Redis (``settings.CACHES["throttle"]``): Django's Redis backend, keeping
one Redis client a connection pool where Django's makes one for every call.

A client is cheap to keep (the pool holds the connections) and dear to make: its response
callbacks, some 170, are copied into a case-insensitive dict each time, a fifth of a room
display poll answered from the cache (``tournaments/clock/display.py``). Django's cache handler
gives each thread its own backend, so a kept client is never shared between threads.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class KeptClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's own pool for the call (kept for the backend's life: its id too); the stubs
        # do not declare the names.
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self.clients.get(id(pool))
        if client is None:
            client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            self.clients[id(pool)] = client
        return client


class KeptClientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = KeptClientRedisCacheClient
