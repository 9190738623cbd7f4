"""Swagger UI for the API (``/api/docs/``), behind ``cardroom.core.public_api.ApiDocsPermission``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework import exceptions


class ApiDocsView(SpectacularSwaggerSplitView):
    """A page a person opens: a visitor who is not signed in is sent to log in (as on every
    page) rather than shown a 401 body."""

    def handle_exception(self, exc: Exception) -> Any:
        if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            return redirect_to_login(self.request.get_full_path())
        return super().handle_exception(exc)
