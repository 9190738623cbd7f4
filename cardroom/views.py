"""Floor pages. Thin views: role check, form, one service call, render."""

from typing import Any

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_safe

from cardroom.core.health import broker_status, database_status, worker_status
from cardroom.core.roles import (
    refusal_context,
)


@require_GET
@never_cache
@login_not_required
def healthz(request: HttpRequest) -> JsonResponse:
    """Database, broker and worker. 503 only when the database is down: without Redis or a
    worker the pages and the betting API keep working, so the app is degraded, not down."""
    database, broker, worker = database_status(), broker_status(), worker_status()
    healthy = database["ok"] and broker["ok"] and worker["ok"]
    status = "ok" if healthy else ("degraded" if database["ok"] else "down")
    return JsonResponse(
        {"status": status, "database": database, "broker": broker, "worker": worker},
        status=200 if database["ok"] else 503,
    )


@require_safe
@login_not_required
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: send them to the SVG icon."""
    return redirect(static("favicon.svg"))


def error_403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 403, refusal_context(exception))


def error_404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 404)


def error_500(request: HttpRequest) -> HttpResponse:
    return _error(request, 500)


def _error(
    request: HttpRequest, status: int, context: dict[str, Any] | None = None
) -> HttpResponse:
    if request.path.startswith("/api/"):
        messages = {403: "Your role does not allow this.", 404: "Not found.", 500: "Server error."}
        codes = {403: "permission_denied", 404: "not_found", 500: "server_error"}
        return JsonResponse(
            {"error": {"code": codes[status], "message": messages[status]}}, status=status
        )
    return render(request, f"cardroom/errors/{status}.html", context, status=status)
