"""The audit chains' keys: secrets kept outside the database (``cardroom/core/audit.py``).

Every audit row's hash is an HMAC-SHA256 under one of these keys, and carries the key's id,
so a room can rotate its key: the new key signs new rows, the old one stays listed to check
the rows it signed. Someone who can write to the database but does not hold the key cannot
recompute a hash that verifies.

A key is given as ``id:secret``:

* ``CARDROOM_AUDIT_KEY``: one or more, separated by commas;
* ``CARDROOM_AUDIT_KEY_FILE``: a file readable only by the app, one per line (``#`` starts a
  comment).

The first key listed signs; the others only verify. An id is 1 to 16 letters, digits, ``.``,
``_`` or ``-``; a secret is at least 32 characters. With ``DJANGO_DEBUG`` on and no key given,
the development key (id ``dev-insecure``, a secret printed in this file) is used; production
settings refuse to start without a key of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cardroom.core.environment import ImproperlyConfiguredEnv

DEV_KEY_ID = "dev-insecure"
_DEV_SECRET = "cardroom-development-audit-key-not-a-secret-never-in-production"  # noqa: S105

KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,16}")
MIN_SECRET = 32


@dataclass(frozen=True)
class AuditKey:
    id: str
    secret: bytes

    def __repr__(self) -> str:  # never print the secret in a traceback or a log
        return f"AuditKey({self.id!r})"


def parse_keys(text: str, source: str) -> tuple[AuditKey, ...]:
    """``id:secret`` entries, one a line or separated by commas; the first signs."""
    keys: list[AuditKey] = []
    seen: set[str] = set()
    for raw in re.split(r"[,\n]", text):
        entry = raw.split("#", 1)[0].strip() if source.endswith("_FILE") else raw.strip()
        if not entry:
            continue
        key_id, colon, secret = entry.partition(":")
        key_id, secret = key_id.strip(), secret.strip()
        if not colon or not KEY_ID.fullmatch(key_id):
            raise ImproperlyConfiguredEnv(
                f"{source}: each key is id:secret, the id 1 to 16 letters, digits, '.', '_' or '-'."
            )
        if len(secret) < MIN_SECRET:
            raise ImproperlyConfiguredEnv(
                f"{source}: the secret of key {key_id!r} is shorter than {MIN_SECRET} characters."
            )
        if key_id in seen:
            raise ImproperlyConfiguredEnv(f"{source}: key id {key_id!r} is listed twice.")
        seen.add(key_id)
        keys.append(AuditKey(key_id, secret.encode()))
    if not keys:
        raise ImproperlyConfiguredEnv(f"{source} holds no key.")
    return tuple(keys)


def read_keys(value: str | None, file_name: str | None, *, debug: bool) -> tuple[AuditKey, ...]:
    """The settings' ``CARDROOM_AUDIT_KEYS`` from the environment's two variables."""
    if value and file_name:
        raise ImproperlyConfiguredEnv(
            "Set CARDROOM_AUDIT_KEY or CARDROOM_AUDIT_KEY_FILE, not both."
        )
    if file_name:
        try:
            text = Path(file_name).read_text(encoding="utf-8")
        except OSError as error:
            raise ImproperlyConfiguredEnv(
                f"CARDROOM_AUDIT_KEY_FILE={file_name!r} cannot be read: {error.strerror}."
            ) from None
        keys = parse_keys(text, "CARDROOM_AUDIT_KEY_FILE")
    elif value:
        keys = parse_keys(value, "CARDROOM_AUDIT_KEY")
    elif debug:
        keys = (AuditKey(DEV_KEY_ID, _DEV_SECRET.encode()),)
    else:
        raise ImproperlyConfiguredEnv(
            "CARDROOM_AUDIT_KEY or CARDROOM_AUDIT_KEY_FILE must be set when DJANGO_DEBUG is "
            "false: the audit logs are signed with a key kept outside the database."
        )
    if not debug and any(key.id == DEV_KEY_ID for key in keys):
        raise ImproperlyConfiguredEnv(
            f"The audit key id {DEV_KEY_ID!r} is the development key's: not in production."
        )
    return keys
