"""The API's one pagination: limit/offset with bounds, so a huge number in the query string is
clamped instead of overflowing the database's integers (SQLite raises OverflowError past 2^63,
PostgreSQL past its bigint) into a 500."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import LimitOffsetPagination


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    #: The most rows one page answers; a larger ``limit`` is read as this.
    max_limit = 1000
    #: The furthest a page may start; a larger ``offset`` is read as this (an empty page).
    max_offset = 2**31 - 1

    def get_offset(self, request: Any) -> int:
        return min(super().get_offset(request), self.max_offset)
