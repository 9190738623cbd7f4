"""Calls run at once, for the race tests of the seat map and the waitlists (PostgreSQL row
locks): each in its own thread, with its own database connection."""

import threading
from collections.abc import Callable
from typing import Any

from cardroom.core.api_errors import Conflict


def run_at_once(
    calls: dict[str, Callable[[], Any]], *, refused: tuple[type[Exception], ...] = (Conflict,)
) -> dict[str, str]:
    """Start every call together and wait for all; each one's outcome: "won", or how it was
    refused: the code of a ``Conflict`` (409), else the class of the refusal (one of
    ``refused``). Any other exception fails the test."""
    outcomes: dict[str, str] = {}

    def run(name: str, call: Callable[[], Any]) -> None:
        from django.db import connection

        try:
            call()
            outcomes[name] = "won"
        except refused as exc:
            outcomes[name] = exc.code if isinstance(exc, Conflict) else type(exc).__name__
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
