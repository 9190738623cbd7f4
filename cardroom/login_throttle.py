"""Log-in throttling: after repeated failed log-ins for one username, or from one address,
further attempts are refused for the rest of the window (HTTP 429) without checking the
password, so a guessing script learns nothing. A success clears the username's count (not the
address's: one good account must not buy a guesser more tries at the others).

Counts live in Django's cache (``CACHES``: the database cache, shared by every worker
process), one counter per username and per address whose window starts at its first failure.
"""

import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Counter:
    key: str
    limit: int

    @property
    def since_key(self) -> str:
        return f"{self.key}:since"


def client_address(request: HttpRequest) -> str:
    """The address the request came from. Behind the TLS proxy (``DJANGO_BEHIND_TLS_PROXY``)
    every request comes from the proxy, so take the address it appended to X-Forwarded-For
    (the last one: anything before it the client could have written)."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and forwarded.strip():
        return forwarded.split(",")[-1].strip()
    return str(request.META.get("REMOTE_ADDR", ""))


class LoginThrottle:
    def __init__(self, *, username: str, address: str) -> None:
        self.window = settings.CARDROOM_LOGIN_FAILURE_WINDOW
        self.user = Counter(
            self._key("username", username.strip().casefold()),
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

    def failed(self) -> None:
        now = time.time()
        for counter in (self.user, self.address):
            # The window starts at the first failure; both keys expire together at its end.
            # (Read then write, not an atomic increment: two guesses in the same instant may
            # count once, which costs a guesser's script nothing it could use.)
            since = cache.get(counter.since_key)
            if since is None or since + self.window <= now:
                since, count = now, 0
            else:
                count = cache.get(counter.key) or 0
            remaining = max(1, math.ceil(since + self.window - now))
            cache.set_many({counter.key: count + 1, counter.since_key: since}, remaining)

    def succeeded(self) -> None:
        cache.delete_many([self.user.key, self.user.since_key])


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
        wait = self.throttle().retry_after()
        if wait is None:
            return super().post(request, *args, **kwargs)
        logger.warning("Log-in refused: too many failures (address %s).", client_address(request))
        # An unbound form: a bound one would check the password when it shows its errors.
        form = self.get_form_class()(request, initial={"username": request.POST.get("username")})
        context = self.get_context_data(form=form, refusal=refusal_message(wait))
        response = self.render_to_response(context, status=429)
        response["Retry-After"] = str(wait)
        return response

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        self.throttle().succeeded()
        return super().form_valid(form)

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        # Only a guess counts (both fields given), not a form sent half empty.
        if form.data.get("username") and form.data.get("password"):
            self.throttle().failed()
        return super().form_invalid(form)
