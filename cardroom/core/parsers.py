"""The API's one body parser (``SafeJSONParser``): JSON whose top is an object, nested no deeper
than ``MAX_DEPTH``, with no integer a JSON client cannot hold exactly.

- Python's decoder recurses once per level: a body of 1,500 brackets raised ``RecursionError``
  (a 500) on every JSON endpoint, and a few hundred levels would still reach the serializers'
  own recursion. No request of the contract nests more than four levels (a hand's seats and
  their actions), so 64 is generous.
- Every endpoint takes an object: a list, a string or a number at the top is refused here,
  once, rather than by each view (``clock/``, ``hand-for-hand/`` and ``tables/{n}/button/``
  answered 500 to ``[1]``).
- Integers beyond 2^53 - 1 are refused: a JavaScript client reads them as a different number;
  a 5,000-digit one is refused before Python converts it (its own limit
  is 4,300 digits, a ``ValueError`` deep in a view).

Each refusal is a 400 ``bad_request`` in the API's error shape: a ``ParseError``, or for a
number a client cannot hold a ``ValidationError`` whose ``fields`` names it by dotted path.

``whole_number`` is the site's one reader of a number typed as text (a form field, a query
parameter, a JSON key, a cursor): ASCII digits only. ``str.isdigit`` says yes to "²", to the
Arabic-Indic "٣" and to the full-width "\uff11", which ``int`` refuses ("²", a ``ValueError``:
a 500 wherever a view trusted ``isdigit``) or reads as 3 and 1; and to 5,000 digits, past
Python's own 4,300-digit limit.
"""

import codecs
import json
import math
from typing import Any

from django.conf import settings
from django.utils.text import format_lazy
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

from cardroom.core.numbers import grouped_lazy

MAX_DEPTH = 64
#: The largest integer a JSON client (an IEEE double) holds exactly: Number.MAX_SAFE_INTEGER.
MAX_SAFE_INTEGER = 2**53 - 1


class BodyRefused(ParseError):
    pass


#: Integers this long are refused while decoding, before Python converts them; shorter ones
#: beyond 2^53 - 1 are decoded so that the refusal can name their field (below).
_MAX_DIGITS = 40
_UNSAFE = format_lazy(
    "Integers beyond ±{} (2^53 − 1) are refused: JSON clients cannot hold them exactly.",
    grouped_lazy(MAX_SAFE_INTEGER),
)


def _safe_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise BodyRefused(_UNSAFE)
    return int(text)


def unsafe_number(data: Any) -> str | None:
    """The dotted path (``seats.2.stack``) of the first number a JSON client cannot hold
    exactly: an integer beyond 2^53 - 1, or a float too large for a double (``1e400`` decodes
    as infinity). None when there is none. Iterative, like ``nesting_depth``."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER:
            return path or "body"
        if isinstance(value, float) and not math.isfinite(value):
            return path or "body"
        if isinstance(value, dict):
            stack.extend((f"{path}.{key}" if path else str(key), v) for key, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{path}.{i}" if path else str(i), v) for i, v in enumerate(value))
    return None


def whole_number(text: object, digits: int = 9) -> int | None:
    """``text`` as a whole number of at most ``digits`` ASCII digits (spaces around it are
    dropped), else None: no sign, no "²", no Arabic-Indic or full-width digits, no "1_000"."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= digits else None


def _no_constant(name: str) -> Any:
    raise BodyRefused(f"{name} is not a JSON number.")


def nesting_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deep the containers of a decoded body go (stops counting once past ``limit``)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > limit:
            break
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest if isinstance(value, dict | list) else 0


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", str: "a string", list: "a list"}.get(type(value), "a number")


class SafeJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream)
            data = json.load(text, parse_int=_safe_int, parse_constant=_no_constant)
        except RecursionError:
            raise BodyRefused(f"JSON nested deeper than {MAX_DEPTH} levels.") from None
        except BodyRefused:
            raise
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if not isinstance(data, dict):
            raise BodyRefused(f"The body must be a JSON object, not {_kind(data)}.")
        if nesting_depth(data) > MAX_DEPTH:
            raise BodyRefused(f"JSON nested deeper than {MAX_DEPTH} levels.")
        path = unsafe_number(data)
        if path is not None:
            # A 400 bad_request whose `fields` names the number, as the betting contract asks.
            raise ValidationError({path: [_UNSAFE]})
        return data
