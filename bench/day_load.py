"""``make day``'s end-to-end load: the WSOP mix, scaled to the tables built, driven by one
asyncio loop (httpx's ``AsyncClient``) against the production stack for a bounded time.

- Each tournament table's dealer plays its hands through the API with its own token: the
  proposal, the deal, the actions the answers allow (``bench/day_play.py``), the award; one
  step every ``STEP`` seconds (700 / 75: the mix's 60 actions and 5 each of awards, deals and
  proposals a second at 700 tables, a dozen actions a hand). The cash tables' hands stay as
  built (dealt with typed stacks, which the seat map's award refuses). Before the load each
  dealt table's hand is moved on a random number of actions (``stagger``), so that hands end
  all through the run, as on a floor that has been playing for hours.
- Board viewers poll the public board every 5 s, floor dashboards (a floor manager's session)
  open the floor and poll it every 3 s with the cursor each answer gives, room displays poll
  their clock's state every 3 s: as many of each as the WSOP's 200, 10 and 6.7 a second, in
  proportion to the tables.

Every answer is checked (``bench.harness.expect``): a redirect, an error page, an answer
without its content, a refused connection or a timeout is an error, counted by status. A 409
is an error too: each table has one dealer, so a stale step is never the protocol at work.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.day_play import award_body, next_action
from bench.harness import WrongAnswer, expect, floor_poll_url, sized

#: Seconds between a dealer's steps at the WSOP pace; between a screen's polls.
STEP = 700 / 75
BOARD_EVERY, FLOOR_EVERY, DISPLAY_EVERY = 5.0, 3.0, 3.0
#: The WSOP's screen polls a second at 700 tables.
WSOP_SCREENS = {"board poll": 200.0, "floor poll": 10.0, "room display": 6.7}
FAMILIES = (
    "hand read", "desk action", "award", "proposal", "deal", "board poll", "floor page",
    "floor poll", "room display",
)  # fmt: skip


#: Requests in flight at once, at most: the client's connections. Thousands of devices each
#: awaiting a connection of httpx's pool make every release scan them all, and the load
#: generator, not the app, becomes the limit (a full day's first run: the client's one core
#: busy, connections opened but their requests not yet sent, so gunicorn's sync workers waited
#: in ``recv`` until their 30 s timeout). Devices past the limit wait in a plain FIFO queue, and
#: that wait is in their time: it is the wait a person would see.
IN_FLIGHT = 64


class Record:
    """Per family: the answered requests' milliseconds, and the errors by status."""

    def __init__(self) -> None:
        self.gate = asyncio.Semaphore(IN_FLIGHT)
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.first: dict[str, str] = {}

    async def ask(
        self, client: Any, family: str, method: str, url: str, *, statuses: tuple[int, ...] = (200,),
        contains: str | tuple[str, ...] = (), **kwargs: Any,
    ) -> str | None:  # fmt: skip
        """The answer's text when it is the one meant; None (an error counted) otherwise."""
        started = time.perf_counter()
        try:
            async with self.gate:
                response = await client.request(method, url, **kwargs)
            status, body = response.status_code, response.content
        except Exception as exc:  # any failure to answer is an error, counted
            status, body = 599, repr(exc).encode()
        ms = (time.perf_counter() - started) * 1000
        try:
            text = expect(f"{method} {url}", status, body, statuses=statuses, contains=contains)
        except WrongAnswer as wrong:
            self.errors[family][status] += 1
            self.first.setdefault(family, str(wrong)[:300])
            return None
        self.ms[family].append(ms)
        return text


async def dealer(
    record: Record, client: Any, table: dict[str, Any], stop: float, step: float
) -> None:
    """One table's dealer: plays hands at the table's pace until ``stop``."""
    rng = random.Random(table["number"])
    headers = {"Authorization": f"Token {table['token']}"}
    hand = table["hand"]
    await asyncio.sleep(rng.uniform(0, step))
    text = await record.ask(
        client, "hand read", "GET", f"/api/v1/hands/{hand}/", headers=headers, contains='"seq":'
    )
    if text is None:
        return
    answer = json.loads(text)
    played = 0
    while time.perf_counter() < stop:
        started = time.perf_counter()
        entry = next_action(answer["betting"], rng)
        if entry is not None:
            text = await record.ask(
                client, "desk action", "POST", f"/api/v1/hands/{hand}/actions/",
                json={"expected_seq": answer["seq"], **entry}, headers=headers,
                statuses=(201,), contains='"betting":',
            )  # fmt: skip
        else:
            text = await next_hand(record, client, table, answer, played, headers)
            played += 1
        if text is None:
            return  # this table's dealer stops at its first wrong answer (counted)
        answer = json.loads(text)
        hand = answer["id"]
        await asyncio.sleep(
            max(0.0, step * rng.uniform(0.8, 1.2) - (time.perf_counter() - started))
        )


async def next_hand(
    record: Record, client: Any, table: dict[str, Any], answer: dict[str, Any], played: int,
    headers: dict[str, str],
) -> str | None:  # fmt: skip
    """The award of a hand nobody is to act in, then the next hand's proposal and deal: the
    new hand's answer."""
    body = award_body(answer["seq"], answer["betting"], played)
    url = f"/api/v1/hands/{answer['id']}/award/"
    if await record.ask(client, "award", "POST", url, json=body, headers=headers,
                        contains='"awarded_at":"') is None:  # fmt: skip
        return None
    url = f"/api/v1/tables/{table['table']}/next-hand/"
    text = await record.ask(client, "proposal", "GET", url, headers=headers, contains='"version":')
    if text is None:
        return None
    version = json.loads(text)["version"]
    return await record.ask(
        client, "deal", "POST", url, json={"version": version}, headers=headers,
        statuses=(201,), contains='"betting":',
    )  # fmt: skip


async def screen(
    record: Record, client: Any, family: str, url: str, every: float, stop: float,
    contains: str, headers: dict[str, str] | None = None,
) -> None:  # fmt: skip
    """A board or a room display polling ``url`` every ``every`` seconds."""
    rng = random.Random()
    await asyncio.sleep(rng.uniform(0, every))
    while time.perf_counter() < stop:
        started = time.perf_counter()
        await record.ask(client, family, "GET", url, headers=headers, contains=contains)
        await asyncio.sleep(
            max(0.0, every * rng.uniform(0.9, 1.1) - (time.perf_counter() - started))
        )


async def dashboard(
    record: Record, client: Any, floor: str, session: str, every: float, stop: float
) -> None:
    """A floor dashboard: the page, then its polls with the cursor each answer gives (the page
    again after a wrong answer, as a person would reload it)."""
    cookies = {"Cookie": f"sessionid={session}"}
    poll: str | None = None
    await asyncio.sleep(random.uniform(0, every))
    while time.perf_counter() < stop:
        started = time.perf_counter()
        if poll is None:
            text = await record.ask(
                client, "floor page", "GET", floor, headers=cookies,
                contains=('id="poller"', "table-card"),
            )  # fmt: skip
        else:
            text = await record.ask(
                client, "floor poll", "GET", poll, headers={**cookies, "HX-Request": "true"},
                contains='id="poller"',
            )  # fmt: skip
        poll = floor_poll_url(text) if text is not None else None
        await asyncio.sleep(
            max(0.0, every * random.uniform(0.9, 1.1) - (time.perf_counter() - started))
        )


def devices(manifest: dict[str, Any]) -> dict[str, int]:
    """How many boards, dashboards and displays: the WSOP's rates in proportion to the
    tables, at their intervals (at least one of each)."""
    scale = manifest["tables"] / 700
    return {
        family: max(1, round(rate * scale * every))
        for (family, rate), every in zip(
            WSOP_SCREENS.items(), (BOARD_EVERY, FLOOR_EVERY, DISPLAY_EVERY), strict=True
        )
    }


async def drive(manifest: dict[str, Any], base: str, seconds: float) -> Record:
    import httpx

    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line a request
    record = Record()
    stop = time.perf_counter() + seconds
    step = sized(STEP, 0.05)  # quick: hands played through in seconds
    every = sized(1.0, 0.2)  # quick: every screen polls often enough to be timed
    counts = devices(manifest)
    limits = httpx.Limits(max_connections=IN_FLIGHT, max_keepalive_connections=IN_FLIGHT)
    async with httpx.AsyncClient(base_url=base, timeout=10, limits=limits) as client:
        tasks = [
            dealer(record, client, table, stop, step)
            for table in manifest["room"]
            if table["kind"] == "tournament"
        ]
        tasks += [
            screen(record, client, "board poll", manifest["board"], BOARD_EVERY * every, stop,
                   "Bench floor 1")
            for _ in range(counts["board poll"])
        ]  # fmt: skip
        sessions = manifest["sessions"]
        tasks += [
            dashboard(record, client, manifest["floor"], sessions[n % len(sessions)],
                      FLOOR_EVERY * every, stop)
            for n in range(counts["floor poll"])
        ]  # fmt: skip
        displays = manifest["displays"]
        tasks += [
            screen(record, client, "room display", displays[n % len(displays)],
                   DISPLAY_EVERY * every, stop, '"server_now"')
            for n in range(counts["room display"])
        ]  # fmt: skip
        await asyncio.gather(*tasks)
    return record


# -- the processes' CPU, from /proc


def ticks(pid: int, reaped: bool = False) -> int:
    """A process's user + system CPU ticks (and its reaped children's, with ``reaped``: a
    master's workers and a postmaster's backends that have exited); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return sum(int(f) for f in fields[11 : 15 if reaped else 13])


def postgres_ticks() -> int:
    """The CPU ticks of every postgres process now running, and of those the postmaster has
    reaped (its children's ticks: the backends that exited)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    total += ticks(int(entry.name), reaped=True)
            except OSError:
                continue
    return total


def cpu_ticks(groups: dict[str, list[int]]) -> dict[str, int]:
    """CPU ticks per group of processes (each with its children, live or reaped), and of
    PostgreSQL (``postgres_ticks``)."""
    from bench.stack import children

    totals = {}
    for name, pids in groups.items():
        total = 0
        for pid in pids:
            total += ticks(pid, reaped=True) + sum(ticks(c, reaped=True) for c in children(pid))
        totals[name] = total
    totals["postgres"] = postgres_ticks()
    return totals


def stagger(manifest: dict[str, Any], seed: int = 3) -> None:
    """Each dealt table's hand moved on by a random number of actions (by the service, before
    the load), so that hands end all through the run, as on a floor that has been playing for
    hours, and not all together a dozen steps in."""
    from django.contrib.auth.models import User

    from bench.day_census import act_untimed

    director = User.objects.get(username=manifest["director"])
    rng = random.Random(seed)
    for table in manifest["room"]:
        if table["kind"] == "tournament":
            for _ in range(rng.randrange(14)):
                if not act_untimed(table["hand"], director, rng):
                    break


def report(record: Record, seconds: float, wall: float, cpu: dict[str, float]) -> tuple[str, bool]:
    """The load's table and whether it was clean (every family answered, no error): the
    rates over the ``seconds`` the devices were started for, the cores over the ``wall``
    seconds the processes were measured."""
    lines = [
        f"{'family':<14}{'count':>7}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}  errors",
    ]
    clean = True
    for family in FAMILIES:
        times = sorted(record.ms[family])
        errors = dict(record.errors[family])
        clean = clean and bool(times) and not errors
        if times:
            q = statistics.quantiles(times, n=100) if len(times) > 1 else [times[0]] * 99
            figures = f"{q[49]:>9.1f}{q[94]:>9.1f}{q[98]:>9.1f}"
        else:
            figures = f"{'-':>9}{'-':>9}{'-':>9}"
        lines.append(
            f"{family:<14}{len(times):>7}{len(times) / seconds:>8.2f}{figures}  "
            + (", ".join(f"{n}×{s}" for s, n in sorted(errors.items())) or "0")
        )
    for family, first in record.first.items():
        lines.append(f"!! {family}: the first wrong answer: {first}")
    lines.append(
        "CPU seconds over the run: "
        + ", ".join(
            f"{name} {value:.1f} s ({value / wall:.2f} cores)" for name, value in cpu.items()
        )
        + f"; total {sum(cpu.values()) / wall:.2f} cores"
    )
    return "\n".join(lines), clean
