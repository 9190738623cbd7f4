"""A JSON column's value as the database gives it back after a write, worked out without
reading it back: the answer to a write shows what any later read of the row shows.

The value goes through the column's own encoder and decoder (JSON's types: a tuple comes back
a list, a number's key a string). PostgreSQL's ``jsonb`` keeps no key order of its own
choosing: it stores each object's keys shorter first, and keys of one length in byte order
(PostgreSQL's manual, "JSON Types": "jsonb does not preserve ... the order of object keys";
the order is ``lengthCompareJsonbStringValue`` in ``jsonb_util.c``), the last of a repeated key
kept. SQLite keeps the text as written, so its keys stay in the order they were written.
"""

import json
from typing import Any

from django.db import connections
from django.db.models import Model


def _jsonb_order(value: Any) -> Any:
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: (len(key.encode()), key.encode()))
        return {key: _jsonb_order(value[key]) for key in keys}
    if isinstance(value, list):
        return [_jsonb_order(item) for item in value]
    return value


def as_read_back[M: Model](row: M, fields: tuple[str, ...]) -> M:
    """``row``'s JSON ``fields`` set to what ``row.refresh_from_db(fields=fields)`` would read,
    the row as just written by this transaction or one committed (no query)."""
    reordered = connections[row._state.db or "default"].vendor == "postgresql"
    for name in fields:
        field: Any = row._meta.get_field(name)  # a ``JSONField``: its encoder and decoder
        value = getattr(row, name)
        if value is not None:
            value = json.loads(json.dumps(value, cls=field.encoder), cls=field.decoder)
            if reordered:
                value = _jsonb_order(value)
        setattr(row, name, value)
    return row
