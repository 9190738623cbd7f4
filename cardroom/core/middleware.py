"""A database outage answers a clean 503, never a 500 with a stack trace; an API body over
its size limit answers 413 in the API's error shape before anything reads it."""

import logging
import re
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

from cardroom.core.numbers import grouped

logger = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("Database unavailable for %s: %s", request.path, exception)
        message = "The database is unavailable; try again in a moment."
        if request.path.startswith("/api/") or request.path == "/healthz":
            response: HttpResponse = JsonResponse(
                {"error": {"code": "service_unavailable", "message": message}}, status=503
            )
        else:
            html = render_to_string("cardroom/errors/503.html", {"message": message})
            response = HttpResponse(html, status=503)
        response["Retry-After"] = "5"
        return response


#: The betting endpoints (public, stateless): the contract caps their bodies at 256 KB.
_BETTING_PATH = re.compile(r"^/api/v1/(?:betting/|tables/[^/]+/betting/)")


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
