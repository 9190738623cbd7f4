"""Where a page goes after a successful form post. Shared by every app's pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect


def redirect_to(request: HttpRequest, url: str) -> HttpResponse:
    """Navigate to ``url``: the whole page after an htmx post (``HX-Redirect``, so the history
    and the address stay right), a plain redirect after an ordinary one."""
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return redirect(url)
