"""Row locks, taken one way everywhere: a service that decides on rows as they are now locks
them here, for the rest of its transaction (``lock_row``, ``lock_rows``).

* One order. Rows of a model are locked by primary key, lowest first. Across models, every
  writer takes them in the floor's order: a tournament, then tables, then a waitlist, then its
  entries (then the rows a write touches under those: a must-move, a player, the room's
  settings). Two writers after the same rows queue for them instead of deadlocking.
* A bounded wait. On PostgreSQL each lock first sets ``lock_timeout`` for the rest of the
  transaction (``SET LOCAL``, through ``set_config``) to ``CARDROOM_LOCK_TIMEOUT_MS``
  (0: wait without limit). A write kept waiting longer by another one's lock is refused with
  ``RowsBusy`` (409 ``busy``, try again) instead of holding a worker until the proxy gives up.
  A later statement of the same transaction that waits too long fails with PostgreSQL's
  ``lock_not_available`` (SQLSTATE 55P03): ``api_errors`` answers it the same way, and the
  pages' middleware says so.
* Shared or exclusive. A write that decides on a parent row as it stands, without changing
  it, while others do the same beside it (a deal at one table of a tournament, a deal at
  another), holds the row shared (``share_row``); a write that changes what the row decides
  for all of them holds it exclusive (``queue_for`` then ``lock_row``). Shared holders never
  wait for each other; an exclusive holder waits for them all, and they for it. The two
  kinds meet first in the row's queue (``queue_for``, a transaction-level advisory lock):
  PostgreSQL grants those in order of request, so a shared request made while an exclusive
  one waits queues behind it. Row locks alone would not: a ``FOR SHARE`` on a row already
  held shared is granted at once, past a ``FOR UPDATE`` waiting there, which a steady stream
  of shared holders can keep waiting for seconds. A transaction never turns its shared hold
  into an exclusive one (two doing so at once would deadlock): it rolls back and starts again
  holding the row exclusive.
* SQLite has no row locks (``select_for_update`` does nothing there): its writers queue for
  the whole database file, and the queue and the shared hold are plain reads.
"""

import zlib
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import OperationalError, connections
from django.db.models import Model, QuerySet

from cardroom.core.api_errors import BUSY, Conflict, lock_not_available


class RowsBusy(Conflict):
    """Another write held the rows for longer than ``CARDROOM_LOCK_TIMEOUT_MS``: nothing was
    written, the same request may simply be sent again (409 ``busy``)."""

    def __init__(self, model: type[Model]) -> None:
        super().__init__(
            BUSY,
            f"Another change to this {model._meta.verbose_name} is being written right now:"
            " nothing was changed, try again in a moment.",
        )


def set_lock_timeout(using: str = "default") -> None:
    """Bound how long the rest of the transaction waits for a row lock (PostgreSQL only)."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            timeout = f"{int(settings.CARDROOM_LOCK_TIMEOUT_MS)}ms"
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [timeout])


def lock_rows[M: Model](rows: QuerySet[M] | type[M], pks: Iterable[Any] | None = None) -> list[M]:
    """The rows of ``rows`` (a model: all of them; ``pks``: those of them), locked until the
    transaction ends, taken in primary-key order, each as it is now. Only the model's own rows
    are locked, never those of a ``select_related`` join."""
    query = rows if isinstance(rows, QuerySet) else rows._default_manager.all()
    if pks is not None:
        query = query.filter(pk__in=sorted(set(pks)))
    set_lock_timeout(query.db)
    try:
        return list(query.select_for_update(of=("self",)).order_by("pk"))
    except OperationalError as exc:
        if lock_not_available(exc):
            raise RowsBusy(query.model) from exc
        raise


def lock_row[M: Model](rows: QuerySet[M] | type[M], pk: Any) -> M:
    """The row ``pk`` of ``rows`` (a model or a query), locked (``lock_rows``); the model's
    ``DoesNotExist`` when there is none."""
    query = rows if isinstance(rows, QuerySet) else rows._default_manager.all()
    found = lock_rows(query.filter(pk=pk))
    if not found:
        model: Any = query.model  # the stubs know no model's own DoesNotExist here
        raise model.DoesNotExist(f"No {model._meta.verbose_name} {pk}.")
    return found[0]


def queue_key(model: type[Model], pk: Any) -> tuple[int, int]:
    """The advisory lock's two 32-bit keys for ``model``'s row ``pk``: the model's label hashed,
    and the primary key (folded into 31 bits: two rows sharing a key only wait for each other)."""
    label = zlib.crc32(model._meta.label_lower.encode()) - 2**31
    return label, int(pk) % 2**31


def queue_for(model: type[Model], pk: Any, *, shared: bool, using: str = "default") -> None:
    """Take ``model``'s row ``pk``'s place in its queue until the transaction ends (PostgreSQL:
    ``pg_advisory_xact_lock``, ``_shared`` when ``shared``): requests are served in order, so a
    shared one never passes an exclusive one already waiting. ``RowsBusy`` after the bounded
    wait; nothing on SQLite."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    set_lock_timeout(using)
    function = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {function}(%s, %s)", queue_key(model, pk))
    except OperationalError as exc:
        if lock_not_available(exc):
            raise RowsBusy(model) from exc
        raise


def share_row[M: Model](model: type[M], pk: Any, *, using: str = "default") -> M:
    """The row ``pk`` of ``model``, held shared until the transaction ends: its place in the
    queue (``queue_for``), then ``SELECT ... FOR SHARE`` (Django's ``select_for_update`` has no
    shared mode), so any write of the row itself waits too. ``DoesNotExist`` when there is
    none; a plain read on SQLite."""
    connection = connections[using]
    manager = model._default_manager.db_manager(using)
    if connection.vendor != "postgresql":
        return manager.get(pk=pk)
    queue_for(model, pk, shared=True, using=using)
    # The ORM's own query for the row, with the shared lock Django's API cannot ask for.
    sql, params = manager.filter(pk=pk).query.sql_with_params()
    try:
        found = list(manager.raw(sql + " FOR SHARE", params))
    except OperationalError as exc:
        if lock_not_available(exc):
            raise RowsBusy(model) from exc
        raise
    if not found:
        missing: Any = model  # the stubs know no model's own DoesNotExist here
        raise missing.DoesNotExist(f"No {model._meta.verbose_name} {pk}.")
    return found[0]
