"""The project's URLs plus two views that fail, to see the 500 handler answer."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from cardroom.urls import handler404, handler500
from cardroom.urls import urlpatterns as project_urlpatterns

__all__ = ["handler404", "handler500", "urlpatterns"]


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("secret detail that must not leak")


urlpatterns = [
    path("boom/", boom),
    path("api/v1/boom/", boom),
    *project_urlpatterns,
]
