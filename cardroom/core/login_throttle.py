"""Log-in throttling: after repeated failed log-ins for one username from one address, or from
one address whatever the username, further attempts are refused (HTTP 429) for the rest of the
window without checking the password, so a guessing script learns nothing. A success clears its
username's count (not the address's: one good account must not buy a guesser more tries at the
others).

The username is counted per address: a stranger guessing a director's password from elsewhere
fills their own count, not the director's, so they cannot lock the director out.

Every log-in path goes through ``ThrottledModelBackend`` (the only authentication backend): an
attempt is counted *before* its password is checked, under a lock per address, so sixteen
guesses sent at once check five passwords, not sixteen. The views (``/login/`` and the admin's
``/admin/login/``) turn the backend's refusal into a 429 with ``Retry-After`` and a message on
the form.

Counts live in Django's cache (``CACHES``: the database cache, shared by every worker
process), one counter per username and address and one per address, whose window starts at its
first failure.
"""

import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from cardroom.core.client_address import client_address

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Counter:
    key: str
    limit: int

    @property
    def since_key(self) -> str:
        return f"{self.key}:since"


class LoginThrottle:
    def __init__(self, *, username: str, address: str) -> None:
        self.window = settings.CARDROOM_LOGIN_FAILURE_WINDOW
        self.address_value = address
        # The username's count is kept per address (a stranger's failures are their own).
        self.user = Counter(
            self._key("username", f"{username.strip().casefold()}\n{address}"),
            settings.CARDROOM_LOGIN_FAILURES_PER_USERNAME,
        )
        self.address = Counter(
            self._key("address", address), settings.CARDROOM_LOGIN_FAILURES_PER_ADDRESS
        )

    @staticmethod
    def _key(kind: str, value: str) -> str:
        # Hashed: any username is a safe cache key, and none is stored in the clear.
        return f"login-failures:{kind}:{hashlib.sha256(value.encode()).hexdigest()}"

    def retry_after(self) -> int | None:
        """Seconds until log-ins are allowed again, or None while they are."""
        waits = []
        for counter in (self.user, self.address):
            if (cache.get(counter.key) or 0) >= counter.limit:
                since = cache.get(counter.since_key, time.time())
                waits.append(math.ceil(since + self.window - time.time()))
        return max(1, *waits) if waits else None

    def take_attempt(self) -> int | None:
        """Before a password is checked: count the attempt as a failure and return None, or
        return the seconds to wait when no attempt is left (nothing counted). Atomic: the
        address's lock is held from the read to the write, so attempts sent at once cannot all
        read the same count."""
        with transaction.atomic():
            self._lock()
            wait = self.retry_after()
            if wait is None:
                self._count(+1)
        return wait

    def succeeded(self) -> None:
        """The password was right: the attempt was not a failure after all."""
        with transaction.atomic():
            self._lock()
            cache.delete_many([self.user.key, self.user.since_key])
            self._count(-1, counters=(self.address,))

    def _lock(self) -> None:
        # One lock per address covers both of its counters (the username's is per address
        # too). On PostgreSQL a transaction-level advisory lock; SQLite writes one at a time.
        if connection.vendor == "postgresql":
            digest = hashlib.sha256(self.address.key.encode()).digest()
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], signed=True)]
                )

    def _count(self, step: int, counters: tuple[Counter, ...] | None = None) -> None:
        now = time.time()
        for counter in counters or (self.user, self.address):
            # The window starts at the first failure; both keys expire together at its end.
            since = cache.get(counter.since_key)
            if since is None or since + self.window <= now:
                since, count = now, 0
            else:
                count = cache.get(counter.key) or 0
            remaining = max(1, math.ceil(since + self.window - now))
            count = max(0, count + step)
            cache.set_many({counter.key: count, counter.since_key: since}, remaining)


class ThrottledModelBackend(ModelBackend):
    """Django's backend, counting each attempt before it checks the password. A refused
    attempt raises ``PermissionDenied`` (no other backend is tried) and leaves the seconds to
    wait on the request (``login_refused``) for the view to answer 429."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None or password is None:
            return super().authenticate(request, username, password, **kwargs)
        address = client_address(request) if request is not None else ""
        throttle = LoginThrottle(username=username, address=address)
        wait = throttle.take_attempt()
        if wait is not None:
            logger.warning("Log-in refused: too many failures (address %s).", address)
            if request is not None:
                request.login_refused = wait  # type: ignore[attr-defined]
            raise PermissionDenied
        user = super().authenticate(request, username, password, **kwargs)
        if user is not None:
            throttle.succeeded()
        return user


def refusal_message(seconds: int) -> str:
    minutes = math.ceil(seconds / 60)
    return (
        "Too many failed log-ins. For your security, logging in is paused: "
        f"try again in {minutes} minute{'s' if minutes != 1 else ''}."
    )


class ThrottledLoginView(LoginView):
    """Django's log-in view, refusing attempts (429) after too many failures."""

    template_name = "cardroom/login.html"

    def throttle(self) -> LoginThrottle:
        return LoginThrottle(
            username=self.request.POST.get("username", ""), address=client_address(self.request)
        )

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Refused at once when the count is full (the backend would refuse it too).
        wait = self.throttle().retry_after()
        if wait is None:
            return super().post(request, *args, **kwargs)
        logger.warning("Log-in refused: too many failures (address %s).", client_address(request))
        return self.refused(wait)

    def refused(self, wait: int) -> HttpResponse:
        # An unbound form: a bound one would check the password when it shows its errors.
        username = self.request.POST.get("username")
        form = self.get_form_class()(self.request, initial={"username": username})
        context = self.get_context_data(form=form, refusal=refusal_message(wait))
        response = self.render_to_response(context, status=429)
        response["Retry-After"] = str(wait)
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        # Refused by the backend (attempts sent at once that the check above let through).
        wait = getattr(self.request, "login_refused", None)
        if wait is not None:
            return self.refused(wait)
        return super().form_invalid(form)


@login_not_required
def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's log-in page, throttled like ``/login/`` (its attempts go through the same
    backend): a refusal answers 429 with ``Retry-After`` and the message on the form."""
    response = admin.site.login(request)
    wait = getattr(request, "login_refused", None)
    if wait is None or not isinstance(response, TemplateResponse):
        return response
    form = (response.context_data or {}).get("form")
    if form is not None:
        form.errors.clear()
        form.add_error(None, refusal_message(wait))
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response
