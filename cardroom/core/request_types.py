"""What the middleware guarantees a view, as types for mypy (django-stubs' documented pattern).

``HtmxMiddleware`` gives every request ``request.htmx``; ``LoginRequiredMiddleware`` lets only
signed-in users reach a view that is not ``@login_not_required``, and DRF's authentication
plus a role permission does the same for the API views that write. Annotating such a view's
request with these classes states that, instead of narrowing ``request.user`` in each view.
"""

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails
from rest_framework.request import Request


class HtmxRequest(HttpRequest):
    """Any request through ``HtmxMiddleware``."""

    htmx: HtmxDetails


class AuthenticatedRequest(HtmxRequest):
    """A page request behind ``LoginRequiredMiddleware``: the user is signed in."""

    user: User


class AuthenticatedApiRequest(Request):
    """An API request that passed authentication and a role permission."""

    user: User


def staff_user(request: HttpRequest) -> User:
    """The signed-in user of an admin request (the admin site lets only staff in): for the
    services' ``by``, which records who did it."""
    if not isinstance(request.user, User):
        raise PermissionDenied
    return request.user
