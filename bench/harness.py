"""What every benchmark shares: the check on each answer it times, and the quick mode.

A benchmark that times a redirect to the log-in page, an error page or a refusal measures
nothing the floor does, and says so only in a figure nobody reads. So every request a benchmark
times goes through ``expect``: the status it means to measure and a piece of the content only
the right answer has (a table card, the poller, the pots). Anything else stops the benchmark
with a message naming the request, what came back and what was expected (``WrongAnswer``, which
``make bench`` prints, failing the run). A benchmark with no request (the pure engines) checks
what it timed with ``expect_that``.

Quick mode (``BENCH_QUICK=1``, or ``--quick`` on ``bench/run.py`` and the scripts that take
arguments): small sizes and few iterations, every code path of the full run, in seconds. The
figures mean little; the checks mean as much as in a full run. ``tests/test_benchmarks.py``
runs every benchmark this way, so none can rot unnoticed.
"""

from __future__ import annotations

import gc
import os
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path
from typing import Any

QUICK_VARIABLE = "BENCH_QUICK"


class WrongAnswer(AssertionError):
    """A benchmark got an answer other than the one it times."""


def quick() -> bool:
    """Whether this run is the quick one (``BENCH_QUICK=1``)."""
    value = os.environ.get(QUICK_VARIABLE, "").strip()
    if value not in ("", "0", "1"):
        raise WrongAnswer(f"{QUICK_VARIABLE}={value!r}: use 1 (quick) or 0 (the full run)")
    return value == "1"


def set_quick() -> None:
    """Quick mode for this process and the ones it starts (``--quick``)."""
    os.environ[QUICK_VARIABLE] = "1"


def sized[T](full: T, small: T) -> T:
    """``full`` in a full run, ``small`` in quick mode."""
    return small if quick() else full


def _text(body: bytes | str) -> str:
    return body.decode("utf-8", "replace") if isinstance(body, bytes) else body


def expect(
    what: str,
    status: int,
    body: bytes | str,
    *,
    statuses: Iterable[int] = (200,),
    contains: str | Iterable[str] = (),
) -> str:
    """The answer's text when its status is one of ``statuses`` and it contains every piece of
    ``contains``; ``WrongAnswer`` otherwise, naming ``what`` was asked (``GET /floor/``)."""
    text = _text(body)
    allowed = tuple(statuses)
    pieces = (contains,) if isinstance(contains, str) else tuple(contains)
    if status not in allowed:
        wanted = " or ".join(map(str, allowed))
        raise WrongAnswer(f"{what} answered {status}, not {wanted}: {text[:400]!r}")
    missing = [piece for piece in pieces if piece not in text]
    if missing:
        raise WrongAnswer(
            f"{what} answered {status} without {', '.join(map(repr, missing))}: {text[:400]!r}"
        )
    return text


def expect_response(
    what: str,
    response: object,
    *,
    statuses: Iterable[int] = (200,),
    contains: str | Iterable[str] = (),
) -> str:
    """``expect`` for a Django test client's response (its ``status_code`` and ``content``)."""
    status = getattr(response, "status_code", None)
    content = getattr(response, "content", None)
    if not isinstance(status, int) or not isinstance(content, bytes):
        raise WrongAnswer(f"{what}: not a response: {response!r}")
    return expect(what, status, content, statuses=statuses, contains=contains)


def expect_that(what: str, holds: bool, detail: object = "") -> None:
    """For what a benchmark times without a request: ``WrongAnswer`` unless ``holds``."""
    if not holds:
        raise WrongAnswer(f"{what}: {detail}" if detail != "" else what)


def floor_poll_url(html: bytes | str) -> str:
    """The poll the floor page (then each of its polls' answers) tells the browser to make:
    ``#poller``'s hx-get, with the page's filter and its cursor. ``WrongAnswer`` without one."""
    text = _text(html)
    found = re.search(r'<div id="poller"[^>]*\shx-get="([^"]+)"', text)
    if found is None:
        raise WrongAnswer(f"the answer has no #poller to poll with: {text[:400]!r}")
    return unescape(found.group(1))


class Counter:
    """Counts the queries run inside ``counting()`` (an execute wrapper: nearly free)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)

    @contextmanager
    def counting(self) -> Iterator[None]:
        from django.db import connection

        self.count = 0
        with connection.execute_wrapper(self):
            yield


def backend_cpu_ms() -> float | None:
    """The CPU milliseconds the PostgreSQL backend serving this process's connection has used
    so far, read from ``/proc`` (the server on this machine); None on SQLite, whose work runs
    in this thread and is in its own CPU, or when the backend's ``/proc`` cannot be read.

    ``/proc/<pid>/schedstat``'s first field is the time on a CPU in nanoseconds; without it,
    ``/proc/<pid>/stat``'s utime + stime, in clock ticks (10 ms): a request's work is a
    fraction of a tick there, so only a batch's total divided by its requests means anything,
    which is how ``Measured`` reports it either way."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e6
    except (OSError, IndexError, ValueError):
        pass
    try:
        # The command may hold spaces and parentheses: the fields after its last ")".
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


class Measured:
    """Per family: each timed request's queries and CPU milliseconds (this thread's CPU, after
    a garbage collection, so that one request does not pay for another's garbage) and, on
    PostgreSQL, the CPU its database backend spent on the family's requests, all of them
    together (``backend_cpu_ms``): ``backend_ms[family]`` over ``len(cpu_ms[family])``."""

    def __init__(self) -> None:
        self.queries: dict[str, list[int]] = defaultdict(list)
        self.cpu_ms: dict[str, list[float]] = defaultdict(list)
        self.backend_ms: dict[str, float] = defaultdict(float)
        self.counter = Counter()

    def timed(self, family: str, request: Callable[[], Any]) -> Any:
        gc.collect()
        backend = backend_cpu_ms()
        with self.counter.counting():
            started = time.thread_time()
            response = request()
            cpu = (time.thread_time() - started) * 1000
        if backend is not None and (after := backend_cpu_ms()) is not None:
            self.backend_ms[family] += after - backend
        self.queries[family].append(self.counter.count)
        self.cpu_ms[family].append(cpu)
        return response

    def backend_per_request(self, family: str) -> float | None:
        """The database backend's CPU milliseconds per request of ``family`` (PostgreSQL)."""
        if family not in self.backend_ms or not self.cpu_ms[family]:
            return None
        return self.backend_ms[family] / len(self.cpu_ms[family])

    def clear(self) -> None:
        """Forget what was measured (after the warm-up)."""
        self.queries.clear()
        self.cpu_ms.clear()
        self.backend_ms.clear()
