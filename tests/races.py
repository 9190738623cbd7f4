"""Calls run at once, for the race tests of the seat map and the waitlists (PostgreSQL row
locks): each in its own thread, with its own database connection."""

import threading
from collections.abc import Callable
from typing import Any

from cardroom.api_errors import Conflict


def run_at_once(calls: dict[str, Callable[[], Any]]) -> dict[str, str]:
    """Start every call together and wait for all; each one's outcome: "won", or the code of
    the ``Conflict`` (409) it was refused with. Any other exception fails the test."""
    outcomes: dict[str, str] = {}

    def run(name: str, call: Callable[[], Any]) -> None:
        from django.db import connection

        try:
            call()
            outcomes[name] = "won"
        except Conflict as exc:
            outcomes[name] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in calls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
