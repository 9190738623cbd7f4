"""A database outage answers a clean 503, never a 500 with a stack trace."""

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

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
