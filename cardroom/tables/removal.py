"""Removing a table set up by mistake: refused while anything is on record at it (players,
hands, rulings, seat events, lists, a tournament), naming what holds it; the table is closed
or broken instead."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db import models, transaction
from django.db.models import ForeignObjectRel, ProtectedError

from cardroom.core import audit, checkpoints
from cardroom.core.api_errors import Conflict
from cardroom.core.locks import lock_row
from cardroom.seats.models import TableSeat
from cardroom.tables.models import HandRecord, Table


class TableHasHistory(Conflict):
    """A table with players, hands, rulings, seat events, lists or a tournament on record is
    never deleted (HTTP 409, naming what holds it): it is closed or broken instead."""

    def __init__(self, table: Table, holding: str) -> None:
        message = f"{table} {holding}: close or break it instead."
        super().__init__("table_has_history", message)


def table_holds(table: Table) -> str:
    """What keeps a table from being deleted, in words ("has 4 players seated and 37 hands, 2
    rulings on record and is in tournament X"), or "": the players seated now, then every
    record that points at the table and is kept (each protected relation counted, the
    tournaments named). Its own configuration history goes with it."""
    has = []
    if seated := table.seated.filter(left_at=None).count():
        has.append(f"{seated} player{'s' if seated > 1 else ''} seated")
    kept: list[str] = []
    tournaments: set[str] = set()
    for relation in Table._meta.get_fields(include_hidden=True):
        if not isinstance(relation, ForeignObjectRel) or relation.on_delete is not models.PROTECT:
            continue
        model: Any = relation.related_model
        if model in (TableSeat, HandRecord):  # its seat events, its hands, say it all
            continue
        rows = model._default_manager.filter(**{relation.field.name: table})
        if not (count := rows.count()):
            continue
        meta = model._meta
        if any(f.name == "tournament" and not f.null for f in meta.fields):
            tournaments.update(str(row.tournament) for row in rows.select_related("tournament"))
        else:
            kept.append(f"{count} {meta.verbose_name if count == 1 else meta.verbose_name_plural}")
    if kept:
        has.append(", ".join(kept) + " on record")
    words = f"has {' and '.join(has)}" if has else ""
    if tournaments:
        words += f"{' and ' if words else ''}is in tournament {', '.join(sorted(tournaments))}"
    return words


def _own_streams(table: Table) -> list[str]:
    """The audit streams named by the table itself (its configuration history)."""
    names = []
    for label, chain in audit.CHAINS.items():
        model: Any = apps.get_model(label)
        if chain.stream == "table_id" and model._base_manager.filter(table_id=table.pk).exists():
            names.append(audit.stream_key(label, table.pk))
    return names


def delete_table(*, table: Table) -> None:
    """Remove a table set up by mistake. A table with anything on record keeps it: refused
    (``TableHasHistory``), close or break it instead."""
    with transaction.atomic():
        locked = lock_row(Table, table.pk)
        if holding := table_holds(locked):
            raise TableHasHistory(locked, holding)
        # The one deletion of audit rows: a table with nothing on record takes its own
        # configuration history (a whole stream of its own) with it. The checkpoint file says
        # so once this commits, so that verify_audit does not name the stream as vanished.
        checkpoints.remove_on_commit(_own_streams(locked))
        try:
            with audit.maintenance():
                locked.delete()
        except ProtectedError as exc:  # a record ``table_holds`` does not know yet
            raise TableHasHistory(locked, f"has {len(exc.protected_objects)} records") from exc
