"""Cardroom settings: one file, every deploy-specific value read from the environment.

Defaults give a local run on SQLite with DEBUG on. ``DJANGO_DEBUG=false`` turns on the
production-grade settings (``manage.py check --deploy`` passes; a test runs it).
"""

import re
from pathlib import Path
from typing import Any

from django.utils.csp import CSP

from cardroom.core.audit_keys import read_keys as read_audit_keys
from cardroom.core.environment import (
    ImproperlyConfiguredEnv,
    database_from_url,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_str,
    env_time_zone,
    env_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DJANGO_DEBUG", True)

_DEV_SECRET_KEY = "dev-only-insecure-key-never-used-when-DJANGO_DEBUG-is-false"  # noqa: S105
SECRET_KEY = env_str("DJANGO_SECRET_KEY", _DEV_SECRET_KEY if DEBUG else None) or ""
if not SECRET_KEY:
    raise ImproperlyConfiguredEnv("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false.")
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfiguredEnv(
        "DJANGO_SECRET_KEY must not be the development key in production."
    )

# The audit chains' keys (cardroom/core/audit_keys.py): kept outside the database; the first
# signs, the rest verify rows signed before a rotation. Production refuses to start without one.
CARDROOM_AUDIT_KEYS = read_audit_keys(
    env_str("CARDROOM_AUDIT_KEY"), env_str("CARDROOM_AUDIT_KEY_FILE"), debug=DEBUG
)

# The audit checkpoints (cardroom/core/checkpoints.py): an append-only file the database cannot
# reach, written every minute something changed; optionally a copy (another disk, a share) and
# a syslog line per checkpoint (an address: /dev/log, or host:port over UDP).
CARDROOM_AUDIT_CHECKPOINT_FILE = env_str(
    "CARDROOM_AUDIT_CHECKPOINT_FILE", str(VAR_DIR / "audit-checkpoints.jsonl")
)
CARDROOM_AUDIT_CHECKPOINT_COPY = env_str("CARDROOM_AUDIT_CHECKPOINT_COPY", None)
CARDROOM_AUDIT_SYSLOG = env_str("CARDROOM_AUDIT_SYSLOG", None)
# A full verification of every chain against the checkpoints, by the beat (minutes).
CARDROOM_AUDIT_VERIFY_EVERY = env_int("CARDROOM_AUDIT_VERIFY_EVERY", 60, minimum=1)

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else []
)
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfiguredEnv("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is false.")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_filters",
    "cardroom",
    "rules",
    "tournaments",
]

MIDDLEWARE = [
    # Before anything else: a request queued longer than its client waits is not worked on.
    "cardroom.core.middleware.QueueDeadlineMiddleware",
    # First: an API body over its limit is refused (413, JSON) before anything reads it.
    "cardroom.core.middleware.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A NUL byte in an address, a parameter or a form field: 400 before any view (and query).
    "cardroom.core.nul_bytes.NulByteMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "cardroom.core.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "cardroom.urls"
WSGI_APPLICATION = "cardroom.wsgi.application"
ASGI_APPLICATION = "cardroom.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cardroom.core.roles.roles_context",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(
        "DATABASE_URL",
        env_str("DATABASE_URL", "sqlite:///var/cardroom.sqlite3") or "",
        base_dir=BASE_DIR,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded default lives in a git-ignored folder that a fresh clone does not have yet.
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The database cache (table made by migration cardroom 0006): every worker process sees the
# same log-in throttle counts, on SQLite and PostgreSQL alike, with no extra service to run.
CACHES: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "cardroom_cache",
    }
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"
# Failed log-ins allowed per username and per address within the window (seconds); more are
# refused until the window ends (cardroom/core/login_throttle.py).
CARDROOM_LOGIN_FAILURES_PER_USERNAME = 5
CARDROOM_LOGIN_FAILURES_PER_ADDRESS = 20
CARDROOM_LOGIN_FAILURE_WINDOW = 15 * 60
# Every log-in (the app's page, the admin's) counts its attempt before checking the password.
AUTHENTICATION_BACKENDS = ["cardroom.core.login_throttle.ThrottledModelBackend"]

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_time_zone("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes and WhiteNoise reads; a folder of its own per stack when several
# run from one checkout at once (bench/stack.py), so that no run deletes another's files.
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", None) or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

WHITENOISE_USE_FINDERS = DEBUG

# Celery: without a broker, tasks run eagerly in-process (the embedded default);
# with CELERY_BROKER_URL they go to a real worker over Redis.
CELERY_BROKER_URL = env_url("CELERY_BROKER_URL", None, ("redis", "rediss", "amqp", "amqps"))
CELERY_RESULT_BACKEND = env_url(
    "CELERY_RESULT_BACKEND", CELERY_BROKER_URL, ("redis", "rediss", "rpc", "db+postgresql")
)
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
# The queue the web processes send tasks to and the workers take them from: several
# deployments (or the test suite's parallel workers) can share one Redis, each on its own.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "celery") or "celery"
# The public API's rate limits count in the broker's Redis when there is one (a round trip
# instead of a database write on every public request; cardroom/core/public_api.py). The log-in
# throttle stays on the database cache, whose advisory lock makes its counts exact.
if CELERY_BROKER_URL and CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CACHES["throttle"] = {
        # Django's, keeping its Redis clients (cardroom/core/redis_cache.py).
        "BACKEND": "cardroom.core.redis_cache.KeptClientRedisCache",
        "LOCATION": CELERY_BROKER_URL,
        "KEY_PREFIX": "cardroom-throttle",
        # An unreachable Redis costs a request half a second at most, then is let through.
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a task killed with its worker runs again on the next one
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # How long a task taken by a worker that then died stays invisible before it is redelivered
    # (Redis). Must exceed the longest ETA a worker holds: the clock's ticks are due within a level.
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3 * 3600, minimum=1),
}
CELERY_TIMEZONE = TIME_ZONE

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous API call gets 401 with WWW-Authenticate, not a bare 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # The API speaks JSON only: one body format to validate, document and fuzz.
    # ... refusing integers beyond 2^53 - 1, which JSON clients cannot hold exactly (400).
    "DEFAULT_PARSER_CLASSES": ["cardroom.core.parsers.SafeJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "cardroom.core.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "cardroom.core.api_errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Cardroom API",
    "DESCRIPTION": "Tables, betting rules, rulebook, rulings and tournaments of a poker cardroom.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Public only while CARDROOM_PUBLIC_API_DOCS is on; otherwise the floor's roles.
    "SERVE_PERMISSIONS": ["cardroom.core.public_api.ApiDocsPermission"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Deep links put a link inside each operation's toggle button: a control inside a
    # control, which screen readers cannot reach (axe: nested-interactive). Swagger's syntax
    # colours fall below WCAG AA contrast on its dark code samples: plain text reads.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "syntaxHighlight": False},
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "BettingActionEnum": "rules.betting.ACTIONS",
        "ReadActionEnum": "rules.betting.VERBALS",
        "BettingStructureEnum": "cardroom.tables.choices.Structure",
        "GameVariantEnum": "cardroom.tables.choices.Variant",
        "TournamentAnteTypeEnum": "tournaments.models.TournamentAnte",
        "StructureCodeEnum": [(code, code) for code in ("no_limit", "pot_limit", "fixed_limit")],
    },
}

# The public betting API (contract: no log-in while this is on) and the public rulebook.
CARDROOM_PUBLIC_BETTING_API = env_bool("CARDROOM_PUBLIC_BETTING_API", True)
CARDROOM_PUBLIC_RULEBOOK = env_bool("CARDROOM_PUBLIC_RULEBOOK", True)
# The API's schema and Swagger UI: off, they need a log-in with a role like every other page.
CARDROOM_PUBLIC_API_DOCS = env_bool("CARDROOM_PUBLIC_API_DOCS", False)

# Bounds on every API request. Bodies: 256 KB for the betting endpoints (the contract), 1 MB
# for the rest of the API; larger ones are a 413 before they are read.
CARDROOM_BETTING_MAX_BODY = 262_144
CARDROOM_API_MAX_BODY = env_int(
    "CARDROOM_API_MAX_BODY", 1_048_576, minimum=CARDROOM_BETTING_MAX_BODY
)


# Requests per client (its user, else its address) to the public endpoints, counted in the
# shared cache; over the rate is a 429 with Retry-After (cardroom/core/public_api.py).
def _env_rate(name: str, default: str) -> str:
    """A DRF rate, ``<requests>/<sec|min|hour|day>``, or a message naming the variable."""
    value = env_str(name, default) or default
    if not re.fullmatch(r"[1-9][0-9]{0,8}/(s|sec|second|m|min|minute|h|hour|d|day)", value):
        raise ImproperlyConfiguredEnv(f"{name}={value!r} is not a rate such as 600/min.")
    return value


CARDROOM_THROTTLE_RATES = {
    "betting": _env_rate("CARDROOM_THROTTLE_BETTING", "600/min"),
    "rulebook": _env_rate("CARDROOM_THROTTLE_RULEBOOK", "600/min"),
    "deals": _env_rate("CARDROOM_THROTTLE_DEALS", "120/min"),
    # The podium's kiosk (one address for the whole room): a person adding themselves takes
    # longer than 5 s, a script does not.
    "kiosk": _env_rate("CARDROOM_THROTTLE_KIOSK", "12/min"),
    # Posts the kiosk refused (no game picked, a name already on the list) count apart, under
    # a higher cap: a fumbling player does not lock the tablet, a script still gets 429s.
    "kiosk_refused": _env_rate("CARDROOM_THROTTLE_KIOSK_REFUSED", "60/min"),
}


# House policy on the cash game's waitlists: how many names one list holds, and the whole room
# (every open list together). A list longer than the room can call in a night only hides the
# players who will be called; the kiosk adds names without a log-in. Over either cap an add is
# refused with the policy in words (cardroom/waitlists/services.py, 409 ``list_full``).
CARDROOM_WAITLIST_MAX_PER_LIST = env_int("CARDROOM_WAITLIST_MAX_PER_LIST", 500, minimum=1)
CARDROOM_WAITLIST_MAX_IN_ROOM = env_int("CARDROOM_WAITLIST_MAX_IN_ROOM", 5000, minimum=1)
# Players shown per list on the floor's page and per list in the API's lists (the rest page by
# page, or found by name); names per list on the public board.
CARDROOM_WAITLIST_PAGE_ROWS = 50

# How long a write waits for another one's row lock on PostgreSQL before it is refused (409
# ``busy``, try again) rather than hanging: cardroom/core/locks.py. 0 waits without limit.
CARDROOM_LOCK_TIMEOUT_MS = env_int("CARDROOM_LOCK_TIMEOUT_MS", 5000, minimum=0)

# The room's name, as printed at the head of a ruling record.
CARDROOM_NAME = env_str("CARDROOM_NAME", "Cardroom") or "Cardroom"

# The room's currency (ISO 4217 code) and its minor units: every amount of money is an integer
# in the minor unit (cents for the dollar; the won has none). The units default to the code's
# (tournaments/money/models.py MINOR_UNITS; 2 for a code not listed).
CARDROOM_CURRENCY = (env_str("CARDROOM_CURRENCY", "USD") or "USD").upper()
CARDROOM_CURRENCY_MINOR_UNITS = env_int("CARDROOM_CURRENCY_MINOR_UNITS", -1, minimum=-1)

# Content Security Policy (Django's own middleware): no inline script anywhere.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# A client's address for the log-in throttle and the rate limits (cardroom/core/client_address.py):
# REMOTE_ADDR, or the one this many trusted proxies in front put in X-Forwarded-For (never a
# header the client could forge). The TLS proxy is one proxy.
CARDROOM_TRUSTED_PROXIES = env_int(
    "CARDROOM_TRUSTED_PROXIES",
    1 if not DEBUG and env_bool("DJANGO_BEHIND_TLS_PROXY", False) else 0,
    minimum=0,
)
# Behind a trusted proxy that stamps X-Request-Start (nginx: proxy_set_header X-Request-Start
# "t=${msec}"), a request that waited longer than this in the queue is answered 503 at once
# (cardroom/core/middleware.py); 0: never.
CARDROOM_QUEUE_DEADLINE_MS = env_int("CARDROOM_QUEUE_DEADLINE_MS", 10_000, minimum=0)


def _no_traceback_below_500(record: Any) -> bool:
    """A refusal (a 403 for want of a role, a 404) is logged as its one line, "Forbidden
    (Permission denied): /path", without the traceback of the exception that made it: in the
    server's log a traceback reads as an error, and a 4xx is the app working. 5xx keep theirs."""
    if getattr(record, "status_code", 500) < 500:
        record.exc_info = None
        record.exc_text = None
    return True


_LOG_LEVEL = env_choice(
    "DJANGO_LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "no_traceback_below_500": {
            "()": "django.utils.log.CallbackFilter",
            "callback": _no_traceback_below_500,
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["no_traceback_below_500"]}
    },
    "root": {"handlers": ["console"], "level": _LOG_LEVEL},
    # Django's default config gives the ``django`` logger a console handler of its own under
    # DEBUG (``make run``): every 403 printed its traceback there, then the line again at the
    # root. Its records go to the one console above, through the same filter.
    "loggers": {"django": {"handlers": ["console"], "level": _LOG_LEVEL, "propagate": False}},
}
if CARDROOM_AUDIT_SYSLOG:
    _host, _colon, _port = CARDROOM_AUDIT_SYSLOG.rpartition(":")
    _address: Any = (
        (_host, int(_port))
        if _colon and _port.isascii() and _port.isdigit()
        else CARDROOM_AUDIT_SYSLOG
    )
    LOGGING["handlers"]["audit_syslog"] = {  # type: ignore[index]
        "class": "logging.handlers.SysLogHandler",
        "address": _address,
        "facility": "auth",
    }
    LOGGING["loggers"]["cardroom.audit.checkpoints"] = {  # type: ignore[index]
        "handlers": ["console", "audit_syslog"],
        "level": "INFO",
        "propagate": False,
    }
