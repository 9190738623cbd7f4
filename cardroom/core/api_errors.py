"""One JSON error shape for every API failure: ``{"error": {"code", "message", ...}}``.

Every API error is mapped here, by DRF's exception handler, and nowhere else: views and
services raise, this answers. Besides DRF's own exceptions:

* ``IllegalAction`` (the engine refuses an action): 422 with its code and the rules applied;
* ``DrawError`` (the seating rules refuse): 422 with the rules and the rulebook's edition, or
  409 for the codes meaning someone changed the seating first (``SEATING_CONFLICTS``);
* ``Conflict`` (a write made stale by another change, e.g. a hand's ``seq``): 409;
* PostgreSQL's ``lock_not_available`` (SQLSTATE 55P03: a write waited for another one's row
  lock longer than ``CARDROOM_LOCK_TIMEOUT_MS``, ``cardroom/core/locks.py``): 409 ``busy``;
* a ``Refusal`` (a well-formed request the rules or the state refuse, with its own code as a
  class attribute, e.g. ``hand_voided``, ``idempotency_key_reused``): 422 with it, the fields
  and the rules cited;
* any other Django ``ValidationError``: 400 ``bad_request`` with the fields;
* ``Http404``/``PermissionDenied``, and numbers no column holds: 404, 403, 400.
"""

import math
from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rules.engine.errors import IllegalAction
from tournaments.draws.errors import DrawError

_CODES = {
    status.HTTP_400_BAD_REQUEST: "bad_request",
    status.HTTP_401_UNAUTHORIZED: "not_authenticated",
    status.HTTP_403_FORBIDDEN: "permission_denied",
    status.HTTP_404_NOT_FOUND: "not_found",
    status.HTTP_405_METHOD_NOT_ALLOWED: "method_not_allowed",
    status.HTTP_406_NOT_ACCEPTABLE: "not_acceptable",
    status.HTTP_409_CONFLICT: "conflict",
    status.HTTP_413_REQUEST_ENTITY_TOO_LARGE: "payload_too_large",
    status.HTTP_415_UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
    status.HTTP_422_UNPROCESSABLE_ENTITY: "unprocessable",
    status.HTTP_429_TOO_MANY_REQUESTS: "throttled",
}


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


class Conflict(Exception):
    """Someone else changed it first (another device entered an action): 409, look again.
    ``extra`` goes into the error body (e.g. ``seq``, where the hand is now)."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra


class Refusal(DjangoValidationError):
    """A well-formed request the rules or the state refuse: a ``ValidationError`` keyed by
    field, so a form shows each message on its field, carrying the rules it applies
    (``citations``); the API answers 422 with the class's ``code``. ``Refusal("buy_in", "At
    most 500 chips.", "RRoP-14.16")`` refuses one field; a dict of fields refuses several (a
    list of messages: none in particular)."""

    code = "refused"

    def __init__(
        self, fields: str | dict[str, Any] | list[str], message: str = "", *citations: str
    ) -> None:
        super().__init__({fields: message} if isinstance(fields, str) else fields)
        self.citations: tuple[str, ...] = citations


#: The code of a write refused because another one held its rows too long (try again).
BUSY = "busy"
BUSY_MESSAGE = "Another change is being written to the same rows: nothing was changed, try again."


def lock_not_available(exc: BaseException) -> bool:
    """PostgreSQL gave up waiting for a lock (``lock_timeout``, SQLSTATE 55P03)."""
    cause = exc.__cause__
    sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    return isinstance(exc, OperationalError) and sqlstate == "55P03"


#: Seating refusals that mean "someone else changed the seating first" (or a hand being played
#: at the desk still holds the player: ``in_hand``; the player to put out still holds chips,
#: which go somewhere first: ``chips_left``): 409, look again.
SEATING_CONFLICTS = frozenset({"stale_draw", "stale_check", "seat_taken", "in_hand", "chips_left"})


def refusal(exc: Exception) -> Response | None:
    """The answer to a refusal raised by a service or the rules, or None if ``exc`` is not one."""
    if isinstance(exc, IllegalAction):
        body = error_body(exc.code, exc.message, citations=list(exc.citations))
        return Response(body, status=422)
    if isinstance(exc, DrawError):
        body = error_body(exc.code, exc.message, citations=list(exc.citations), edition=exc.edition)
        return Response(body, status=409 if exc.code in SEATING_CONFLICTS else 422)
    if isinstance(exc, Conflict):
        return Response(error_body(exc.code, exc.message, **exc.extra), status=409)
    if lock_not_available(exc):
        return Response(error_body(BUSY, BUSY_MESSAGE), status=409)
    if isinstance(exc, Refusal):
        fields = (
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
        body = error_body(
            str(type(exc).code), exc.messages[0], fields=fields, citations=list(exc.citations)
        )
        return Response(body, status=422)
    return None


def _flatten(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {key: _flatten(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_flatten(item) for item in detail]
    return str(detail)


def _first_message(fields: Any) -> str:
    if isinstance(fields, dict):
        for key, value in fields.items():
            inner = _first_message(value)
            return inner if key in {"non_field_errors", "__all__"} else f"{key}: {inner}"
    if isinstance(fields, list) and fields:
        return _first_message(fields[0])
    return str(fields)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if (refused := refusal(exc)) is not None:
        return refused
    if isinstance(exc, OverflowError | DataError):
        # A number no database column can hold (an id of 40 digits): bad input, not a crash.
        return Response(
            error_body("bad_request", "A number in the request is out of range."), status=400
        )
    if isinstance(exc, DjangoValidationError):
        fields = (
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
        exc = exceptions.ValidationError(fields)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        # A refusal that says who may do it ("A ruling at Table 21, a tournament table, needs
        # a tournament director.") keeps its words; a bare one gets DRF's.
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = _CODES.get(response.status_code, "error")
    if isinstance(exc, exceptions.ValidationError):
        fields = _flatten(exc.detail)
        if not isinstance(fields, dict):
            fields = {"non_field_errors": fields}
        response.data = error_body(code, _first_message(fields), fields=fields)
    elif isinstance(exc, exceptions.ParseError):
        response.data = error_body("bad_request", f"Malformed request body: {exc.detail}")
    elif isinstance(exc, exceptions.Throttled):
        # DRF has set Retry-After; the body says it too, for clients that read only bodies.
        # DRF's Throttled.__init__ sets ``wait``; its stubs do not declare the attribute.
        wait = max(1, math.ceil(exc.wait or 1))  # type: ignore[attr-defined]
        response["Retry-After"] = str(wait)
        response.data = error_body(
            code, f"Too many requests: try again in {wait} s.", retry_after=wait
        )
    else:
        detail = getattr(exc, "detail", str(exc))
        response.data = error_body(code, str(detail))
    return response
