"""Keyword-only factories for tournaments, built through the services like the pages do."""

from typing import Any

from django.contrib.auth.models import User

from cardroom.core.roles import Role
from cardroom.tables.choices import TableKind
from cardroom.tables.models import Table, TableChange
from cardroom.tables.services import created
from tests.factories import make_user
from tournaments.eliminations import eliminate_player
from tournaments.models import Elimination, Entrant, Tournament
from tournaments.setup import create_tournament, register_entrants

LEVELS: list[dict[str, Any]] = [
    {"small_blind": 100, "big_blind": 200, "ante": 0, "minutes": 20},
    {"small_blind": 200, "big_blind": 400, "ante": 0, "minutes": 20},
    {"small_blind": 300, "big_blind": 600, "ante": 600, "minutes": 20},
]


def make_room_tables(*, count: int, first: int = 101, seats: int = 9) -> list[Table]:
    """Room tables set aside for tournaments (bulk: the bench makes a thousand of them), each
    with its "created" change as the services log it (``verify_audit`` holds a table to it)."""
    made = Table.objects.bulk_create(
        Table(
            number=first + i,
            kind=TableKind.TOURNAMENT,
            status="open",
            seats=seats,
            small_blind=1,
            big_blind=2,
        )
        for i in range(count)
    )
    by = User.objects.filter(username="factory").first() or make_user(
        username="factory", role=Role.FLOOR_MANAGER
    )
    TableChange.objects.bulk_create(
        TableChange(table=table, changed_by=by, action="created", changes=created(table))
        for table in made
    )
    return made


def make_tournament(
    *,
    by: User,
    tables: int = 3,
    entrants: int = 0,
    seats_per_table: int = 9,
    first_table: int = 101,
    **settings: Any,
) -> Tournament:
    """A tournament on fresh room tables, with ``entrants`` players registered (Player 1…)."""
    settings.setdefault("levels", LEVELS)
    tournament = create_tournament(
        by=by,
        name=settings.pop("name", "Saturday Deepstack"),
        tables=make_room_tables(count=tables, first=first_table, seats=max(9, seats_per_table)),
        seats_per_table=seats_per_table,
        **settings,
    )
    if entrants:
        register_entrants(
            tournament=tournament, names=[f"Player {i}" for i in range(1, entrants + 1)], by=by
        )
    return tournament


def lose_chips(entrant: Entrant) -> Entrant:
    """The player's count as the desk leaves it when a hand takes their last chips (the award
    writes the count the same way): 0, so the director may put them out."""
    Entrant.objects.filter(pk=entrant.pk).update(chips=0)
    entrant.chips = 0
    return entrant


def bust(*, entrant: Entrant, by: User) -> Elimination:
    """A player out after the hand that took their last chips: the count 0, then put out (a
    player still holding chips is refused, ``eliminations.ChipsLeft``)."""
    return eliminate_player(entrant=lose_chips(entrant), by=by)
