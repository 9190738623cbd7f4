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
* SQLite has no row locks (``select_for_update`` does nothing there): its writers queue for
  the whole database file.
"""

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
