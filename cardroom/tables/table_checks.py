"""The tables held against their configuration history, for ``verify_audit``: a table's
settings (``Table``, an ordinary row the desk deals from: its blinds, buy-ins, game, seats,
status) are what its history (``TableChange``, append-only and chained per table) last set
them to. Blinds raised or a buy-in cap lifted with one ``UPDATE`` is a break.

What the services write (``cardroom/tables/services.py``): making a table ("created", by
``create_table`` and ``create_tournament_tables``) logs every setting the floor sets, each as
``[None, value]``; an edit ("updated") logs each setting it changed as ``[old, new]``; opening
and closing (the status's own action) log ``status``. So each setting a table's history names
holds the newest value logged for it, and a table with no history was not made by them.

Not held: a setting no row of the history names (one added to the table after it was made
and never changed since), and what no service logs (``button_seed``, checked with each hand's
draw for the button; the bookkeeping times)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import Any

from cardroom.core import audit
from cardroom.tables.models import Table, TableChange

#: The settings a history may name: the table's own columns (a name it does not hold, from
#: before a setting was renamed or dropped, is history only).
SETTINGS = tuple(
    field.attname
    for field in Table._meta.concrete_fields
    if not field.primary_key and field.attname not in {"created_at", "updated_at"}
)


def logged(value: Any) -> Any:
    """A setting as its history logs it (JSON: a number, a string, true or false, null)."""
    return value if isinstance(value, bool | int | str | type(None)) else str(value)


def table_breaks(using: str = "default") -> list[audit.Break]:
    """Each table held against the newest value its history logs for each setting. Tables
    and history are read a row at a time, side by side in table order, never all at once."""
    tables = Table.objects.using(using).order_by("pk").values("pk", *SETTINGS).iterator()
    histories: Iterator[Any] = groupby(
        TableChange._base_manager.using(using)
        .order_by("table_id", "pk")
        .values("table_id", "changes")
        .iterator(),
        key=itemgetter("table_id"),
    )
    breaks: list[audit.Break] = []
    where = Table._meta.db_table
    history = next(histories, None)
    for table in tables:
        while history is not None and history[0] < table["pk"]:
            history = next(histories, None)  # a history of no table: the foreign key refuses it
        if history is None or history[0] != table["pk"]:
            breaks.append(audit.Break(where, table["pk"], "a table with no history"))
            continue
        newest: dict[str, Any] = {}
        for row in history[1]:
            for name, change in (row["changes"] or {}).items():
                if name in SETTINGS and isinstance(change, list) and len(change) == 2:
                    newest[name] = change[1]
        found = [
            f"{name} {logged(table[name])!r}, its history {value!r}"
            for name, value in sorted(newest.items())
            if logged(table[name]) != value or type(logged(table[name])) is not type(value)
        ]
        if found:
            breaks.append(
                audit.Break(
                    where, table["pk"], "differs from its history's newest: " + "; ".join(found)
                )
            )
    return breaks
