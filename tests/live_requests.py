"""Real HTTP requests to the test's own live server (for races between two devices)."""

import json
import urllib.error
import urllib.request
from typing import Any


def post_json(
    url: str, token: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    """POST ``body`` with a token; the status and the decoded JSON answer (None if empty)."""
    request = urllib.request.Request(  # noqa: S310 - the test's own live server
        url,
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            "Authorization": f"Token {token}",
            **(headers or {}),
        },
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            raw = response.read()
            return int(response.status), json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return int(error.code), json.loads(raw) if raw else None
