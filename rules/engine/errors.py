"""The two ways the engine says no: an illegal action (HTTP 422) and malformed input (400), and
the check every input makes of a count (``is_int``)."""


class IllegalAction(Exception):
    """An action the rules forbid: a contract code, a plain-English message, the rules applied."""

    def __init__(self, code: str, message: str, *citations: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.citations: tuple[str, ...] = citations


class BadInput(ValueError):
    """Input the engine cannot even read as a hand: a bad config, seat list or action.
    ``citations``: the rules a refusal applies, when one does (a post that is not one)."""

    def __init__(
        self, message: str, field: str | None = None, *, citations: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.citations = citations


def is_int(value: object) -> bool:
    """An integer count, a chip amount or a seat number: ``True`` is an ``int`` to Python, not a
    count to the engine."""
    return isinstance(value, int) and not isinstance(value, bool)
