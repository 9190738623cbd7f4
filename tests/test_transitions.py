"""Declared state transitions (``cardroom/core/transitions.py``): a waitlist entry's status, a
tournament's status and its clock move only as their models declare. No code writes those
fields but ``move`` (a scan of the sources); every declared move is made by some service, and
every other pair of states is refused."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from cardroom.core.api_errors import Conflict
from cardroom.core.transitions import Transitions, move
from cardroom.waitlists.models import TRANSITIONS as ENTRY_TRANSITIONS
from cardroom.waitlists.models import EntryStatus, GameList, WaitlistEntry
from tournaments.models import CLOCK_TRANSITIONS, ClockState, Tournament, TournamentStatus
from tournaments.models import TRANSITIONS as TOURNAMENT_TRANSITIONS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cardroom", "tournaments", "rules")
#: The one module that writes a declared state field.
MOVER = "cardroom/core/transitions.py"
#: The enums of the declared fields: a write of one of their members is a declared write.
DECLARED = {"EntryStatus", "TournamentStatus", "ClockState"}
#: Fields only a declared model has: every write of one is a declared write.
DECLARED_ONLY = {"clock_state"}
#: Writes of another model's ``status`` from a variable (no enum to tell it by): where, whose.
OTHER_MODELS = {("cardroom/tables/services.py", "set_table_status"): "Table.status"}
#: Calls whose keywords write fields.
WRITING_CALLS = {"update", "create", "get_or_create", "bulk_create", "update_or_create"}


def _enums_in(node: ast.AST) -> set[str]:
    """The names ``X`` of every ``X.Y`` in an expression."""
    return {
        sub.value.id
        for sub in ast.walk(node)
        if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
    }


def _field_writes(tree: ast.AST) -> Iterator[tuple[str, ast.AST | None, int, str]]:
    """Every write of a ``status`` or ``clock_state``: (field, value or None, line, function)."""
    functions: list[tuple[int, int, str]] = [
        (f.lineno, f.end_lineno or f.lineno, f.name)
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
    ]

    def inside(line: int) -> str:
        found = [(start, name) for start, end, name in functions if start <= line <= end]
        return max(found)[1] if found else "<module>"

    fields = {"status", *DECLARED_ONLY}
    for node in ast.walk(tree):
        pairs: list[tuple[ast.AST, ast.AST | None]] = []
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs += zip(target.elts, node.value.elts, strict=False)
                elif isinstance(target, ast.Tuple):
                    pairs += [(elt, None) for elt in target.elts]
                else:
                    pairs.append((target, node.value))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            pairs.append((node.target, node.value))
        for target, value in pairs:
            if isinstance(target, ast.Attribute) and target.attr in fields:
                yield target.attr, value, node.lineno, inside(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            if name in WRITING_CALLS:
                for keyword in node.keywords:
                    if keyword.arg in fields:
                        yield keyword.arg, keyword.value, node.lineno, inside(node.lineno)
            if name == "setattr" and len(node.args) == 3:
                field = node.args[1]
                if isinstance(field, ast.Constant) and field.value in fields:
                    yield str(field.value), node.args[2], node.lineno, inside(node.lineno)


def undeclared_writes(path: str, source: str) -> list[str]:
    """The writes of a declared state field in ``source`` that do not go through ``move``."""
    found = []
    for field, value, line, function in _field_writes(ast.parse(source)):
        enums = _enums_in(value) if value is not None else set()
        if field in DECLARED_ONLY or enums & DECLARED:
            found.append(f"{path}:{line} ({function}) writes {field}")
        elif not enums and (path, function) not in OTHER_MODELS:
            found.append(f"{path}:{line} ({function}) writes {field} from a variable: whose?")
    return found


def test_the_scan_finds_every_kind_of_status_write() -> None:
    source = """
def f(entry, tournament, t, status, Tournament):
    entry.status = EntryStatus.SEATED
    tournament.clock_state, tournament.level_number = ClockState.RUNNING, 1
    Tournament.objects.filter(pk=1).update(status=TournamentStatus.COMPLETE)
    setattr(entry, "status", EntryStatus.LAPSED)
    t.status = status
    t.status = TableStatus.OPEN
    Tournament.objects.filter(status=TournamentStatus.RUNNING)
"""
    assert len(undeclared_writes("x.py", source)) == 5


def test_every_status_write_goes_through_move() -> None:
    """No module writes a waitlist entry's status, a tournament's status or its clock state
    but ``move``; a write of some other ``status`` from a variable must say whose it is."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative == MOVER:
                continue
            found += undeclared_writes(relative, path.read_text())
    assert not found, "Write these through cardroom.core.transitions.move:\n" + "\n".join(found)


# --- every other pair is refused -------------------------------------------------------------


def _entry(status: str) -> WaitlistEntry:
    from cardroom.seats.models import Player

    entry = WaitlistEntry(player=Player(name="Leo Ray"), game_list=GameList(label="NLHE 1/2"))
    entry.status = status  # a row as read from the database, not a write
    return entry


def _tournament(field: str, state: str) -> Tournament:
    tournament = Tournament(name="Saturday Deepstack")
    setattr(tournament, field, state)  # a row as read from the database, not a write
    return tournament


MACHINES: dict[str, tuple[Transitions, list[str], Callable[[str], Any], str]] = {
    "entry": (ENTRY_TRANSITIONS, list(EntryStatus.values), _entry, "status"),
    "tournament": (
        TOURNAMENT_TRANSITIONS,
        list(TournamentStatus.values),
        lambda state: _tournament("status", state),
        "status",
    ),
    "clock": (
        CLOCK_TRANSITIONS,
        list(ClockState.values),
        lambda state: _tournament("clock_state", state),
        "clock_state",
    ),
}
ALL_PAIRS = [
    (machine, source, target)
    for machine, (_, states, _, _) in MACHINES.items()
    for source in states
    for target in states
]


@pytest.mark.parametrize(("machine", "source", "target"), ALL_PAIRS)
def test_a_move_is_made_only_when_declared(machine: str, source: str, target: str) -> None:
    declared, _states, make, field = MACHINES[machine]
    instance = make(source)
    if declared.allows(source, target):
        move(instance, target, field=field)
        assert getattr(instance, field) == target
        return
    with pytest.raises(Conflict) as refused:
        move(instance, target, field=field)
    assert refused.value.code == declared.conflict
    assert getattr(instance, field) == source  # nothing set


def test_every_declared_move_says_why_and_names_real_states() -> None:
    for declared, states, _make, _field in MACHINES.values():
        for source, target in declared.pairs():
            assert {source, target} <= set(states)
            assert declared.moves[source][target].strip()


# --- every declared move is made by a service --------------------------------------------------


def _waitlist_scenario(fm: Any, pair: tuple[str, str]) -> tuple[str, str]:
    """Drive the waitlists' services to make ``pair``; returns the entry's status just before
    the last service call and after it."""
    from cardroom.waitlists import services as waitlists
    from tests.cardroom.test_waitlist_offers import called_leo, nlhe
    from tests.factories import make_table

    source, target = pair
    W, C = EntryStatus.WAITING, EntryStatus.CALLED
    if source == W:
        table = make_table(number=1, by=fm, seats=9)
        game = nlhe(fm)
        call_in = target == EntryStatus.LAPSED
        source_kind = "call_in" if call_in else "floor"
        entry = waitlists.add_to_list(game_list=game, name="Leo Ray", source=source_kind, by=fm)
        before = WaitlistEntry.objects.get(pk=entry.pk).status
        if target == C:
            waitlists.call_player(entry=entry, table=table, seat=1, by=fm)
        elif target == EntryStatus.SEATED:
            waitlists.seat_from_list(entry=entry, table=table, seat=1, buy_in=None, by=fm)
        elif call_in:
            waitlists.lapse_due(timezone.now() + timedelta(hours=11))
        else:
            waitlists.remove_entry(entry=entry, reason="Went home", by=fm)
    else:
        game, one, _two, entry = called_leo(fm)
        before = WaitlistEntry.objects.get(pk=entry.pk).status
        if target == W:
            waitlists.release_offer(entry=entry, by=fm, reason="Seat given to a must-move")
        elif target == EntryStatus.SEATED:
            waitlists.seat_from_list(entry=entry, table=one, seat=9, buy_in=None, by=fm)
        elif target == EntryStatus.LAPSED:
            WaitlistEntry.objects.filter(pk=entry.pk).update(passes=1)  # a first miss before
            waitlists.lapse_due(entry.call_expires_at)
        else:
            waitlists.remove_entry(entry=entry, reason="Went home", by=fm)
    return before, WaitlistEntry.objects.get(pk=entry.pk).status


def _tournament_scenario(director: Any, pair: tuple[str, str]) -> tuple[str, str]:
    from tests.tournaments.factories import lose_chips, make_tournament
    from tournaments import draw_services, eliminations
    from tournaments.models import Entrant, EntrantStatus, SeatAssignment

    source, target = pair
    final = TournamentStatus.FINAL_TABLE in (source, target)
    tournament = make_tournament(
        by=director, tables=2 if final else 1, entrants=10 if final else 2, seats_per_table=10
    )

    def status() -> str:
        return Tournament.objects.get(pk=tournament.pk).status

    def bust_all_but(left: int) -> None:
        while (
            Entrant.objects.filter(tournament=tournament)
            .exclude(status=EntrantStatus.ELIMINATED)
            .count()
            > left
        ):
            seat = SeatAssignment.objects.filter(tournament=tournament, ended_at=None).first()
            assert seat is not None
            eliminations.eliminate_player(entrant=lose_chips(seat.entrant), by=director)

    if source == TournamentStatus.REGISTERING:
        before = status()
        draw_services.draw_initial_seating(tournament=tournament, by=director)
        return before, status()
    draw_services.draw_initial_seating(tournament=tournament, by=director)
    if final:
        bust_all_but(9)
        if source == TournamentStatus.RUNNING:
            before = status()
            draw_services.redraw_final_table(tournament=tournament, by=director)
            return before, status()
        draw_services.redraw_final_table(tournament=tournament, by=director)
    if source != TournamentStatus.COMPLETE:
        bust_all_but(2)
        before = status()
        bust_all_but(1)
        return before, status()
    bust_all_but(1)
    last = Entrant.objects.filter(tournament=tournament, status=EntrantStatus.ELIMINATED)
    out = last.order_by("-eliminations__id").first()
    assert out is not None
    before = status()
    eliminations.reinstate_player(entrant=out, by=director, reason="Out clicked by mistake")
    return before, status()


def _clock_scenario(director: Any, pair: tuple[str, str]) -> tuple[str, str]:
    from tests.tournaments.factories import lose_chips, make_tournament
    from tournaments.clock import services as clock
    from tournaments.clock import structure
    from tournaments.tasks import advance_clocks

    ends = ClockState.ENDED in pair
    tournament = make_tournament(by=director, tables=1, entrants=2 if ends else 0)
    if ends:
        from tournaments.draw_services import draw_initial_seating

        draw_initial_seating(tournament=tournament, by=director)

    def state() -> str:
        return Tournament.objects.get(pk=tournament.pk).clock_state

    def bust() -> Any:
        """The heads-up bust: the tournament is complete and its clock ends."""
        from tournaments import eliminations
        from tournaments.models import SeatAssignment

        seat = SeatAssignment.objects.filter(tournament=tournament, ended_at=None).first()
        assert seat is not None
        eliminations.eliminate_player(entrant=lose_chips(seat.entrant), by=director)
        return seat.entrant

    def reinstate() -> None:
        """The last bust undone: the clock waits paused where it stopped."""
        from tournaments import eliminations
        from tournaments.models import Entrant, EntrantStatus

        out = Entrant.objects.get(tournament=tournament, status=EntrantStatus.ELIMINATED)
        eliminations.reinstate_player(entrant=out, by=director, reason="Out clicked by mistake")

    def run_out() -> None:
        total = sum((level.duration for level in tournament.levels.all()), timedelta(0))
        Tournament.objects.filter(pk=tournament.pk).update(
            level_started_at=timezone.now() - total - timedelta(seconds=1)
        )
        advance_clocks()

    steps: dict[tuple[str, str], list[Callable[[], Any]]] = {
        (ClockState.STOPPED, ClockState.RUNNING): [],
        (ClockState.RUNNING, ClockState.PAUSED): [],
        (ClockState.PAUSED, ClockState.RUNNING): [
            lambda: clock.pause_clock(tournament=tournament, by=director)
        ],
        (ClockState.RUNNING, ClockState.FINISHED): [],
        (ClockState.FINISHED, ClockState.PAUSED): [run_out],
        (ClockState.FINISHED, ClockState.RUNNING): [run_out],
        (ClockState.STOPPED, ClockState.ENDED): [],
        (ClockState.RUNNING, ClockState.ENDED): [],
        (ClockState.PAUSED, ClockState.ENDED): [
            lambda: clock.pause_clock(tournament=tournament, by=director)
        ],
        (ClockState.FINISHED, ClockState.ENDED): [run_out],
        (ClockState.ENDED, ClockState.PAUSED): [bust],
    }
    last: dict[tuple[str, str], Callable[[], Any]] = {
        (ClockState.STOPPED, ClockState.RUNNING): lambda: clock.start_clock(
            tournament=tournament, by=director
        ),
        (ClockState.RUNNING, ClockState.PAUSED): lambda: clock.pause_clock(
            tournament=tournament, by=director
        ),
        (ClockState.PAUSED, ClockState.RUNNING): lambda: clock.resume_clock(
            tournament=tournament, by=director
        ),
        (ClockState.RUNNING, ClockState.FINISHED): run_out,
        (ClockState.FINISHED, ClockState.PAUSED): lambda: clock.advance_level(
            tournament=tournament, by=director, back=True
        ),
        (ClockState.FINISHED, ClockState.RUNNING): lambda: structure.add_levels(
            tournament=tournament, by=director, count=1, reason="Players left"
        ),
        (ClockState.STOPPED, ClockState.ENDED): bust,
        (ClockState.RUNNING, ClockState.ENDED): bust,
        (ClockState.PAUSED, ClockState.ENDED): bust,
        (ClockState.FINISHED, ClockState.ENDED): bust,
        (ClockState.ENDED, ClockState.PAUSED): reinstate,
    }
    if pair[0] != ClockState.STOPPED:
        clock.start_clock(tournament=tournament, by=director)
    for step in steps[pair]:
        step()
    before = state()
    last[pair]()
    return before, state()


SCENARIOS: dict[str, Callable[[Any, tuple[str, str]], tuple[str, str]]] = {
    "entry": _waitlist_scenario,
    "tournament": _tournament_scenario,
    "clock": _clock_scenario,
}
DECLARED_PAIRS = [
    (machine, source, target)
    for machine, (declared, _, _, _) in MACHINES.items()
    for source, target in declared.pairs()
]


@pytest.mark.django_db
@pytest.mark.parametrize(("machine", "source", "target"), DECLARED_PAIRS)
def test_every_declared_move_is_made_by_a_service(
    machine: str, source: str, target: str, floor_manager: Any, director: Any
) -> None:
    person = floor_manager if machine == "entry" else director
    assert SCENARIOS[machine](person, (source, target)) == (source, target)
