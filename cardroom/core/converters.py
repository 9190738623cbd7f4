"""URL converters. ``<id:pk>`` is ``<int:pk>`` bounded to what a database id can hold, so an
absurd id in a URL is a 404, never an overflow inside the database driver (a 500)."""

import re
from typing import Any

from django.urls import register_converter
from django.urls.converters import IntConverter


class IdConverter(IntConverter):
    regex = "[0-9]{1,18}"


register_converter(IdConverter, "id")


def typed_id(value: Any) -> int | None:
    """A number as typed into a query string or a form (valid or not): None unless it is one
    a database id can hold, so junk finds nothing instead of failing in the query (a 500)."""
    text = "" if value is None else str(value).strip()
    return int(text) if re.fullmatch(IdConverter.regex, text) else None
