"""How much the request sweeps send (the hostile values, the generated API requests), by run.

- ``make fuzz`` (``CARDROOM_FULL_SWEEPS=1``): everything, as every persona.
- ``make test``: a fixed share, as each role the sweep's docstring names.
- CI's run on its second database (``CARDROOM_DATABASE_TESTS_ONLY=1``, tests/conftest.py): that
  share as the one persona that reaches every view, the superuser. What a database can change in
  a sweep is how its requests' reads and writes fare (a column's bound, a NUL byte, a search);
  which role is refused where is the same SQL on both and was swept in the first run. On SQLite
  the role-by-role sweeps were half of that run's time.
"""

import os

FULL = bool(os.environ.get("CARDROOM_FULL_SWEEPS"))
SECOND_DATABASE = bool(os.environ.get("CARDROOM_DATABASE_TESTS_ONLY")) and not FULL


def personas(*names: str) -> tuple[str, ...]:
    """``names`` (the run's own choice), or the superuser alone on CI's second database."""
    return ("superuser",) if SECOND_DATABASE else names
