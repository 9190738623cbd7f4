"""A database outage answers a clean 503, never a 500 with a stack trace, and so does a write
that waited too long for another one's row lock (``cardroom/core/locks.py``) where no view
answered it; an API body over its size limit answers 413 in the API's error shape before
anything reads it."""

import logging
import re
import time
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from cardroom.core.api_errors import BUSY, BUSY_MESSAGE, lock_not_available
from cardroom.core.locks import RowsBusy
from cardroom.core.numbers import grouped

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RowsBusy) or lock_not_available(exception):
            # Rows held by another write past the lock timeout: the API's 409 ``busy`` (DRF's
            # views answer it in ``api_errors``); a page says so and asks to try again (503, so
            # htmx shows its notice rather than swapping this page into a fragment).
            logger.warning("Lock wait timed out for %s: %s", request.path, exception)
            message = exception.message if isinstance(exception, RowsBusy) else BUSY_MESSAGE
            return self.answer(request, BUSY, message, api_status=409, retry_after=1)
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("Database unavailable for %s: %s", request.path, exception)
        message = "The database is unavailable; try again in a moment."
        return self.answer(request, "service_unavailable", message, api_status=503, retry_after=5)

    @staticmethod
    def answer(
        request: HttpRequest, code: str, message: str, *, api_status: int, retry_after: int
    ) -> HttpResponse:
        """The API's error shape with ``api_status``; a page: the 503 page saying ``message``."""
        if request.path.startswith("/api/") or request.path == "/healthz":
            response: HttpResponse = JsonResponse(
                {"error": {"code": code, "message": message}}, status=api_status
            )
        else:
            html = render_to_string("cardroom/errors/503.html", {"message": message})
            response = HttpResponse(html, status=503)
        response["Retry-After"] = str(retry_after)
        return response


#: The betting endpoints (public, stateless): the contract caps their bodies at 256 KB; the
#: public deal calculator, as stateless, has the same cap.
_BETTING_PATH = re.compile(r"^/api/v1/(?:betting/|tables/[^/]+/betting/|deals/)")


def body_limit(path: str) -> int | None:
    """The most bytes a request body to ``path`` may have; None where no API limit applies
    (pages keep Django's own ``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""
    if _BETTING_PATH.match(path):
        return int(settings.CARDROOM_BETTING_MAX_BODY)
    if path.startswith("/api/"):
        return int(settings.CARDROOM_API_MAX_BODY)
    return None


class BodySizeLimitMiddleware:
    """413 ``payload_too_large`` for an API body over its limit, judged by ``Content-Length``
    before a byte is read. Django reads at most ``Content-Length`` bytes (a body without one
    is read as empty), so no body is ever read unbounded."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = body_limit(request.path_info)
        if limit is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0  # Django reads an unreadable length as no body at all
            if length > limit:
                return JsonResponse(
                    {
                        "error": {
                            "code": "payload_too_large",
                            "message": f"The body is {grouped(length)} bytes; at most {grouped(limit)} here.",
                        }
                    },
                    status=413,
                )
        return self.get_response(request)


# --- overload: a request its client has given up on ---------------------------------------------


def queued_since(header: str) -> float | None:
    """The moment (Unix seconds) a proxy received the request, from ``X-Request-Start``:
    ``t=<seconds>.<milliseconds>`` as nginx's ``$msec`` writes it, or whole milliseconds or
    microseconds; None for anything else (ASCII digits only)."""
    value = header.strip().removeprefix("t=")
    whole, dot, fraction = value.partition(".")
    if not (whole.isascii() and whole.isdigit()) or (
        dot and not (fraction.isascii() and fraction.isdigit())
    ):
        return None
    if len(whole) > 20:
        return None
    seconds = float(f"{whole}.{fraction or 0}")
    if seconds > 1e14:  # microseconds
        return seconds / 1e6
    if seconds > 1e11:  # milliseconds
        return seconds / 1e3
    return seconds


class QueueDeadlineMiddleware:
    """Under overload a request can wait in the queue in front of the workers for longer than
    its client waits for an answer (a poll's browser has moved on, a phone has given up): work
    done on it is wasted, and delays every request behind it. A request the proxy stamped
    (``X-Request-Start``, trusted only with ``CARDROOM_TRUSTED_PROXIES``) longer ago than
    ``CARDROOM_QUEUE_DEADLINE_MS`` is answered 503 at once, before a session, a user or a
    query is read; the client's next poll is served fresh. A deadline of 0 turns it off."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        deadline_ms: int = settings.CARDROOM_QUEUE_DEADLINE_MS
        header = request.META.get("HTTP_X_REQUEST_START")
        if header and deadline_ms and settings.CARDROOM_TRUSTED_PROXIES:
            since = queued_since(str(header))
            if since is not None and (time.time() - since) * 1000 > deadline_ms:
                return self.dropped(request)
        return self.get_response(request)

    @staticmethod
    def dropped(request: HttpRequest) -> HttpResponse:
        message = "The room's server was too busy to answer in time; try again."
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse(
                {"error": {"code": "service_unavailable", "message": message}}, status=503
            )
        else:
            response = HttpResponse(message, status=503, content_type="text/plain")
        response["Retry-After"] = "2"
        return response
