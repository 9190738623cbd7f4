"""A NUL byte is never part of anything typed at the floor: refused (400) wherever it appears
in a request's address, its query string or its form fields, before any view sees it.

PostgreSQL cannot store or even compare a text holding NUL (``ValueError: A string literal
cannot contain NUL``): ``/rulebook/TDA-45%00/``, ``/rulings/cite/add/?id=%00`` and the ruling
form's citation field each reached a query with one and answered 500. Django's form
``CharField`` refuses NUL, but paths, query parameters and the fields views read directly do
not pass through one; this is the one place that covers them all. JSON bodies are the API
serializers' to check (DRF's ``CharField`` refuses NUL too).
"""

from collections.abc import Callable, Iterable
from typing import cast

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
MESSAGE = "The request holds a NUL byte (%00), which no address, parameter or field may contain."


def holds_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path or _any_nul(request.GET.lists()):
        return True
    content_type = cast(str, request.content_type)  # WSGIRequest always sets it
    if request.method != "POST" or not content_type.startswith(FORM_TYPES):
        return False
    try:
        fields = request.POST
    except (RequestDataTooBig, TooManyFieldsSent):
        return False  # the view's own reading refuses it (Django's 400)
    return _any_nul(fields.lists())


def _any_nul(lists: Iterable[tuple[str, list[str]]]) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values) for key, values in lists)


class NulByteMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not holds_nul(request):
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse({"error": {"code": "bad_request", "message": MESSAGE}}, status=400)
        html = render_to_string("cardroom/errors/400.html", {"message": MESSAGE})
        return HttpResponse(html, status=400)
