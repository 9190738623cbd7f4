"""Rows that every test of a module reads, built once for the module (Django's
``setUpTestData``, for pytest): a module fixture builds them in a transaction of its own and
rolls it back after the module's last test. Each test still runs in its own savepoint inside
that transaction (pytest-django's ``db``), rolled back when it ends, so every test starts from
the same rows and what one test writes the next never sees.

Only for modules whose database tests are all plain ``django_db``: a transactional test
(``transaction=True``, ``live_server``) commits and empties tables, which the open transaction
would either hide or lose.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def built_once_for_the_module[Built](
    django_db_blocker: Any, build: Callable[[], Built]
) -> Iterator[Built]:
    """``build()`` in a transaction that stays open until the ``with`` block ends, then is
    rolled back. Use it from a ``scope="module"`` fixture that asks for ``django_db_setup`` and
    ``django_db_blocker``; hand each test a copy of what it returns (``copy.deepcopy``) when the
    test may change the objects in memory."""
    from django.db import transaction

    with django_db_blocker.unblock():
        module = transaction.atomic()
        module.__enter__()
        try:
            built = build()
        except BaseException as error:
            module.__exit__(type(error), error, error.__traceback__)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            module.__exit__(None, None, None)
