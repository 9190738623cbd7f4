"""A reason that goes on record (a void, a correction, a released offer, an undone elimination,
a reserved seat): the site's one reading of it.

Spaces and line breaks collapse to single spaces, and it must say something: an empty reason
is refused with the caller's own question ("Say why the hand is voided."), unless the reason
is ``optional`` (a released offer: then it is ""). At most ``REASON_MAX`` characters, one rule
everywhere: the shortest column a reason is kept in (a tournament's reinstatement and seat
reservation) holds 200, so no reason is accepted on one path and refused, or cut, on another.
A refusal is the caller's ``error`` type (the seat map's ``SeatRefused``...), keyed
``reason``: a plain ``ValidationError`` unless said.
"""

from typing import Any

from django.core.exceptions import ValidationError

REASON_MAX = 200


def clean_reason(
    reason: Any,
    missing: str = "Give a reason: it is recorded.",
    *,
    error: type[ValidationError] = ValidationError,
    optional: bool = False,
) -> str:
    text = " ".join(str(reason or "").split())
    if not text and not optional:
        raise error({"reason": missing})
    if len(text) > REASON_MAX:
        raise error({"reason": f"A reason is at most {REASON_MAX} characters ({len(text)} given)."})
    return text
