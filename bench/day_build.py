"""The day ``make day`` measures, built through the project's own services, and its manifest.

``tables`` tables in play, each with a hand in progress (``bench_floor.build_room``: mostly
tournament tables, in tournaments of up to 100 tables whose entrants the draw service seats,
their clocks running; one cash table in fifty), ``entrants`` entrants in all: those beyond the
seats are on the alternate list (registered after the draw, waiting for a seat), not out. Then
the people the load needs, made with the ORM since the project has no service for them: a
director's API token for each table's dealer (the dealer's tablet), a floor manager whose
logged-in sessions the dashboards poll with, a room display's TV link for each tournament's
clock, and the public board (no log-in). Then ``ANALYZE``, as a day's autovacuum leaves it.

The manifest (JSON) is what the census (``bench/day_census.py``) and the load
(``bench/day_load.py``) read: the tables with their hands and dealers' tokens, the sessions,
the display and board addresses, the sizes and the build time.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from bench.bench_floor import SEATS, build_room

#: The users the day runs as: the dealers (directors, one a table), and the floor manager.
DEALER = "day-dealer-{}"
MANAGER = "day-floor-manager"
DIRECTOR = "day-director"


def person(username: str, role: Any) -> Any:
    """A user with one role (the ORM: the project has no service for staff accounts)."""
    from django.contrib.auth.models import Group, User

    user, _ = User.objects.get_or_create(username=username)
    user.groups.add(Group.objects.get_or_create(name=role.value)[0])
    return user


def session_key(user: Any) -> str:
    """A logged-in session of ``user``, made as a log-in makes it (the configured store)."""
    from django.conf import settings
    from django.test import Client

    browser = Client()
    browser.force_login(user)
    return str(browser.cookies[settings.SESSION_COOKIE_NAME].value)


def build(tables: int, entrants: int, sessions: int) -> dict[str, Any]:
    """The day: ``tables`` in play, ``entrants`` registered, ``sessions`` dashboard log-ins.
    Returns the manifest."""
    from django.db import connection
    from django.urls import reverse
    from rest_framework.authtoken.models import Token

    from cardroom.core.roles import Role
    from tournaments.clock.display import tv_link_token
    from tournaments.models import Tournament

    started = time.perf_counter()
    director = person(DIRECTOR, Role.DIRECTOR)
    manager = person(MANAGER, Role.FLOOR_MANAGER)
    cash = max(1, tables // 50)  # as build_room shares them out
    seated = SEATS * (tables - cash)
    hands = build_room(tables, director, manager, alternates=max(0, entrants - seated))
    room = []
    for hand in sorted(hands, key=lambda h: h.table.number):
        dealer = person(DEALER.format(hand.table.number), Role.DIRECTOR)
        room.append(
            {
                "number": hand.table.number,
                "table": hand.table.pk,
                "kind": hand.table.kind,
                "hand": hand.pk,
                "token": Token.objects.get_or_create(user=dealer)[0].key,
            }
        )
    displays = [
        reverse("tournaments:clock_state", args=[t.pk]) + f"?tv={tv_link_token(t)}"
        for t in Tournament.objects.order_by("pk")
    ]
    manifest = {
        "tables": tables,
        "entrants": entrants,
        "room": room,
        "director": DIRECTOR,
        "manager": MANAGER,
        "sessions": [session_key(manager) for _ in range(sessions)],
        "displays": displays,
        "board": reverse("cardroom:board_live"),
        "floor": reverse("cardroom:floor"),
    }
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    manifest["build_s"] = round(time.perf_counter() - started, 1)
    manifest["registered"] = census_of_entrants()
    return manifest


def census_of_entrants() -> dict[str, int]:
    """How many entrants are in each status, and how many are alternates: the day as built."""
    from django.db.models import Count

    from tournaments.models import Entrant

    counts = {
        row["status"]: row["n"]
        for row in Entrant.objects.values("status").annotate(n=Count("pk")).order_by()
    }
    counts["alternates"] = Entrant.objects.filter(alternate=True).count()
    return counts


def write(manifest: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(manifest, indent=1))


def read(path: Path) -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads(path.read_text())
    return manifest
