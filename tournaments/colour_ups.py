"""Colour-ups: the tournament's chip set (each denomination, its colour and the break it leaves
play at), the smallest chip that plays at each step of the structure (the desk's, for the
hands after a colour-up), the colour-up the room display announces, and the chip race run at
a table at the break, recorded with the counts it changed.

Rules applied (Cardroom's floor procedures, the CR book's CU section; they follow the practice
of TDA Rules 24 and 25, whose text is not in the bundled sources):

- CR-CU.1: each denomination divides the next larger (a colour-up exchanges a whole number of
  small chips for one larger, so every count stays a multiple of the smallest chip); a
  denomination leaves play only at a break, and never when a level from then on could not be
  paid (its small blind, big blind and ante multiples of the smallest chip left, refused with
  the level named); from the first hand after the break the smallest chip left is the smallest
  chip that plays (RRoP-BR.7).
- CR-CU.2: the colour-up is announced through the level before the break and the break.
- CR-CU.3, CR-CU.4: the race itself (``tournaments.draws.chip_race``), dealt from a seed kept
  with the record (the room table's stored seed, this tournament, table and break: a preview
  shows exactly the race that will be recorded, and asking again deals the same cards).

The race's result is written as a table count (``chip_counts.record_table_counts``: one
``ChipCount`` row a player, reason "Chip race at …") and a ``ChipRace`` row with the inputs, the
seed and the result, both in the tournament's audit chain. Locking: the tournament row first,
exclusive (``seating.lock_tournament``), as every count does; the desk's deal holds it shared,
so the race waits for a deal under way and a deal for the race; a player in a hand not yet
pushed keeps the count the hand was dealt with, so the race waits (``refuse_if_in_hand``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from cardroom.core.api_errors import Conflict, Refusal
from cardroom.core.numbers import grouped
from rules.engine.citations import CHIP_RACE, CHIP_SET, NOBODY_RACED_OUT
from tournaments.chip_counts import record_table_counts
from tournaments.clock.reading import ClockReading, level_names, read_clock
from tournaments.draws.chip_race import RaceResult, RaceSeat, race
from tournaments.draws.errors import DrawError
from tournaments.draws.seeds import SeededRandom
from tournaments.models import (
    ChipDenomination,
    ChipRace,
    ChipRaceMode,
    Level,
    SeatAssignment,
    Tournament,
    TournamentStatus,
    TournamentTable,
    TournamentTableStatus,
)
from tournaments.seating import lock_tournament, refuse_if_in_hand

#: The most denominations a chip set holds (a room stocks nine or ten).
MOST_CHIPS = 12
#: The largest chip value taken (a 1,000,000 plaque is the largest a room stocks).
LARGEST_CHIP = 10_000_000


class ChipSetRefused(Refusal):
    """A chip set the rules refuse (CR-CU.1): a form error on its field, 422
    ``chip_set_refused``."""

    code = "chip_set_refused"


class RaceRefused(Refusal):
    """A chip race that cannot be run now (not a colour-up break, counts that disagree): a form
    error, 422 ``race_refused``."""

    code = "race_refused"


# --- the chip set --------------------------------------------------------------------------


def chip_set(tournament: Tournament) -> list[ChipDenomination]:
    """The tournament's denominations, smallest first, each with the break it leaves at."""
    return list(tournament.chip_set.select_related("removed_at").order_by("value")[:MOST_CHIPS])


def plays_at(leaves: int | None, step: int) -> bool:
    """Does a chip leaving at the break numbered ``leaves`` (None: never) play at a step of the
    structure? A chip leaving at a break still plays in that break (it is raced then), and
    none after it."""
    return leaves is None or leaves >= step


def in_play(chips: Sequence[ChipDenomination], step: int) -> list[ChipDenomination]:
    """The chips in play at a step of the structure (``plays_at``)."""
    return [c for c in chips if plays_at(c.removed_at.number if c.removed_at else None, step)]


def smallest_chip(tournament: Tournament, step: int) -> int | None:
    """The smallest chip that plays at ``step`` (CR-CU.1), None when the tournament has no chip
    set: the desk then reads it from the level's blinds. The set is read as values (``in_play``
    on each denomination's value and the step of the break it leaves at): every deal asks."""
    chips = tournament.chip_set.order_by("value").values_list("value", "removed_at__number")
    return min(
        (value for value, leaves in chips[:MOST_CHIPS] if plays_at(leaves, step)),
        default=None,
    )


def _level_label(level: Level, names: Mapping[int, str]) -> str:
    ante = f" ante {grouped(level.ante)}" if level.ante else ""
    name = names.get(level.number, f"Step {level.number}")
    return f"{name} ({grouped(level.small_blind)}/{grouped(level.big_blind)}{ante})"


def check_chip_set(chips: Sequence[ChipDenomination], levels: Sequence[Level]) -> None:
    """Refuse a chip set the floor could not play with (CR-CU.1): a value that does not divide
    the next larger, a removal at a step that is not a break, or a level
    whose blinds or ante cannot be paid with the chips in play then (the level named). A set
    is entered a chip at a time: steps with no chip in play yet are not checked (the desk reads
    the smallest chip from their blinds, and no race is run into nothing)."""
    values = sorted(c.value for c in chips)
    for smaller, larger in pairwise(values):
        if larger % smaller:
            raise ChipSetRefused(
                "value",
                f"{grouped(smaller)} does not divide {grouped(larger)}: a colour-up exchanges "
                f"a whole number of {grouped(smaller)} chips for one {grouped(larger)}.",
                CHIP_SET,
            )
    for chip in chips:
        if chip.removed_at is not None and not chip.removed_at.is_break:
            raise ChipSetRefused(
                "removed_at", f"Chips leave play only at a break, not at step "
                f"{chip.removed_at.number}.", CHIP_SET,
            )  # fmt: skip
    names = level_names(levels)
    for level in levels:
        left = in_play(chips, level.number)
        if level.is_break or not left:
            continue
        unit = min(c.value for c in left)
        if any(amount % unit for amount in (level.small_blind, level.big_blind, level.ante)):
            raise ChipSetRefused(
                "removed_at",
                f"{_level_label(level, names)} cannot be paid with the chips in play then "
                f"(the smallest is {grouped(unit)}): change the level or keep the smaller chip.",
                CHIP_SET,
            )


def _current_step(tournament: Tournament, levels: Sequence[Level]) -> int:
    reading = read_clock(tournament, levels)
    return reading.level.number if reading.level is not None else tournament.level_number


def _raced(tournament: Tournament, chip: ChipDenomination) -> bool:
    """Whether the chip has left play already: its break is behind the clock, or a table has
    raced it off."""
    if chip.removed_at is None:
        return False
    return ChipRace.objects.filter(tournament=tournament, level=chip.removed_at).exists()


def _editable(tournament: Tournament, levels: Sequence[Level], chip: ChipDenomination) -> None:
    step = _current_step(tournament, levels)
    if chip.removed_at is not None and (chip.removed_at.number < step or _raced(tournament, chip)):
        raise ChipSetRefused(
            "value", f"The {grouped(chip.value)} chips have left play: their record stays.",
            CHIP_SET,
        )  # fmt: skip


def save_chip(
    *, tournament: Tournament, value: int, colour: str, removed_at: int | None, by: User
) -> ChipDenomination:
    """Add a denomination to the chip set, or change its colour or the break it leaves at
    (``removed_at``: the break's step, None: it plays to the end), as CR-CU.1 allows. ``by``
    is the director (the view's role check)."""
    del by  # the chip set is the tournament's set-up, like its levels: no log of its own
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= LARGEST_CHIP:
        raise ChipSetRefused("value", f"A chip is worth 1 to {grouped(LARGEST_CHIP)}.")
    colour = " ".join(str(colour).split())
    if not colour or len(colour) > 30:
        raise ChipSetRefused("colour", "Name the chip's colour (at most 30 characters).")
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.status == TournamentStatus.COMPLETE:
            raise ChipSetRefused("value", f"{locked} is over: its chip set stays as it was.")
        levels = list(locked.levels.all())
        chips = chip_set(locked)
        current = next((c for c in chips if c.value == value), None)
        if current is None and len(chips) >= MOST_CHIPS:
            raise ChipSetRefused("value", f"A chip set has at most {MOST_CHIPS} denominations.")
        level = None
        if removed_at is not None:
            level = next((lv for lv in levels if lv.number == removed_at), None)
            if level is None:
                raise ChipSetRefused("removed_at", f"The structure has no step {removed_at}.")
            if level.number < _current_step(locked, levels):
                raise ChipSetRefused(
                    "removed_at", "That break is behind the clock: choose a break to come.",
                    CHIP_SET,
                )  # fmt: skip
        if current is not None:
            _editable(locked, levels, current)
            current.colour, current.removed_at = colour, level
        else:
            current = ChipDenomination(
                tournament=locked, value=value, colour=colour, removed_at=level
            )
            chips.append(current)
        check_chip_set(chips, levels)
        current.save()
        return current


def delete_chip(*, tournament: Tournament, value: int, by: User) -> None:
    """Take a denomination out of the chip set (one that has not left play yet)."""
    del by
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        levels = list(locked.levels.all())
        chips = chip_set(locked)
        chip = next((c for c in chips if c.value == value), None)
        if chip is None:
            raise ChipSetRefused("value", f"The chip set has no {grouped(value)} chip.")
        _editable(locked, levels, chip)
        check_chip_set([c for c in chips if c.pk != chip.pk], levels)
        chip.delete()


# --- the announcement ----------------------------------------------------------------------


def chips_named(chips: Sequence[ChipDenomination]) -> str:
    """ "25 chips (green)", "25 chips (green) and 100 chips (black)"."""
    named = [f"{grouped(c.value)} chips ({c.colour})" for c in chips]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def announcement(tournament: Tournament, reading: ClockReading) -> str:
    """What the room display says of a colour-up (CR-CU.2): through the level before the break
    and the break itself, "Colour-up at this break: 25 chips (green) leave play"; else ""."""
    level = reading.level
    if level is None:
        return ""
    colour_break = level if level.is_break else reading.next_level
    if colour_break is None or not colour_break.is_break:
        return ""
    leaving = [c for c in chip_set(tournament) if c.removed_at_id == colour_break.pk]
    if not leaving:
        return ""
    return f"Colour-up at this break: {chips_named(leaving)} leave play"


# --- the race ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceSetup:
    """A table's race as the clock and the chip set make it: the break, the chips leaving,
    the unit they are raced into, the players seated there (seat order) and the seed."""

    table: TournamentTable
    level: Level
    level_name: str
    leaving: tuple[ChipDenomination, ...]
    unit: int
    seated: tuple[SeatAssignment, ...]
    seed: str

    @property
    def leaving_values(self) -> tuple[int, ...]:
        return tuple(c.value for c in self.leaving)


def race_seed(table: TournamentTable, level: Level) -> str:
    """The seed the race at this table and break is dealt from: a hash of the room table's
    stored seed with the tournament, the table and the break, so every preview deals the same
    cards (no dealing again for a better race), and the record's seed, shown with the result,
    tells nothing of the room table's own seed (which draws its buttons)."""
    text = f"{table.table.button_seed}:chip race {table.tournament_id}/{table.number}/{level.pk}"
    return hashlib.sha256(text.encode()).hexdigest()


def race_setup(table: TournamentTable, now: datetime | None = None) -> RaceSetup:
    """The race at ``table`` now, or ``RaceRefused`` saying why there is none."""
    tournament = table.tournament
    if table.status != TournamentTableStatus.ACTIVE:
        raise RaceRefused("table", f"{table} is not in play.")
    levels = list(tournament.levels.all())
    reading = read_clock(tournament, levels, now)
    level = reading.level
    if level is None or not level.is_break:
        at = reading.level_name or "no level"
        raise RaceRefused(
            "table", f"Chips are raced off at a break; the clock is at {at}.", CHIP_SET
        )
    chips = chip_set(tournament)
    leaving = tuple(c for c in chips if c.removed_at_id == level.pk)
    if not leaving:
        raise RaceRefused("table", "No chips leave play at this break.", CHIP_SET)
    left = in_play(chips, level.number + 1)
    if not left:
        raise RaceRefused(
            "table", "No chip of the set stays in play after this break: add the larger ones.",
            CHIP_SET,
        )  # fmt: skip
    unit = min(c.value for c in left)
    seated = tuple(
        SeatAssignment.objects.filter(table=table, ended_at__isnull=True)
        .select_related("entrant")
        .order_by("seat")
    )
    if not seated:
        raise RaceRefused("table", f"Nobody is seated at {table}.")
    return RaceSetup(
        table=table, level=level, level_name=reading.level_name, leaving=leaving, unit=unit,
        seated=seated, seed=race_seed(table, level),
    )  # fmt: skip


def _race_seats(
    setup: RaceSetup, odd_chips: Mapping[int, Mapping[int, int]] | None
) -> list[RaceSeat]:
    if odd_chips is not None:
        numbers = {a.entrant.number for a in setup.seated}
        if set(odd_chips) != numbers:
            raise RaceRefused("odd_chips", "Give the chips leaving play for every player.")
    return [
        RaceSeat(
            seat=a.seat,
            chips=a.entrant.chips,
            odd_chips=None if odd_chips is None else dict(odd_chips[a.entrant.number]),
        )
        for a in setup.seated
    ]


def compute_race(
    setup: RaceSetup, odd_chips: Mapping[int, Mapping[int, int]] | None = None
) -> RaceResult:
    """The race the setup deals (CR-CU.3, CR-CU.4): odd chips from the counts (``None``: each
    count modulo the unit, when the dealer does not count colours) or as the dealer counted
    them per player (entry number -> {value: chips}), which must agree with the counts."""
    try:
        return race(
            _race_seats(setup, odd_chips), setup.leaving_values, setup.unit,
            SeededRandom(setup.seed),
        )  # fmt: skip
    except DrawError as exc:
        raise RaceRefused("odd_chips", exc.message, *exc.citations) from exc


def result_record(setup: RaceSetup, result: RaceResult) -> dict[str, Any]:
    """The race's result as recorded: each seat's row names its player (entry number and
    name as registered), so the record reads alone after players move or bust."""
    data = result.to_dict()
    players = {a.seat: a.entrant for a in setup.seated}
    for row in data["seats"]:
        row.update(entry=players[row["seat"]].number, name=players[row["seat"]].name)
    return data


def run_chip_race(
    *,
    table: TournamentTable,
    by: User,
    odd_chips: Mapping[int, Mapping[int, int]] | None = None,
) -> ChipRace:
    """Run the race at a table at its colour-up break and record it: every player's new count
    (``ChipCount`` rows, reason "Chip race at …") and the ``ChipRace`` with its seed, so it
    replays. Refused away from a colour-up break, twice at one table and break (409), and while
    a player there is in a hand not yet pushed (409 ``in_hand``)."""
    with transaction.atomic():
        locked = lock_tournament(table.tournament_id)
        if locked.status == TournamentStatus.COMPLETE:
            raise RaceRefused("table", f"{locked} is over.")
        current = TournamentTable.objects.select_related("table").get(pk=table.pk)
        current.tournament = locked
        setup = race_setup(current)
        if ChipRace.objects.filter(table=current, level=setup.level).exists():
            raise Conflict("already_raced", f"The chips at {current} are raced already.")
        refuse_if_in_hand(locked, [a.entrant_id for a in setup.seated], doing="run the chip race")
        result = compute_race(setup, odd_chips)
        after = {s.seat: s.chips_after for s in result.seats}
        values = " and ".join(grouped(v) for v in setup.leaving_values)
        record_table_counts(
            tournament=locked,
            table_number=current.number,
            counts={a.entrant.number: after[a.seat] for a in setup.seated},
            reason=f"Chip race at the break (step {setup.level.number}): {values} leave play, "
            f"raced into {grouped(setup.unit)} ({CHIP_RACE}, {NOBODY_RACED_OUT})",
            by=by,
        )
        return ChipRace.objects.create(
            tournament=locked, table=current, level=setup.level,
            level_number=setup.level.number, leaving=list(setup.leaving_values),
            unit=setup.unit,
            mode=ChipRaceMode.COUNTS if odd_chips is None else ChipRaceMode.ENTERED,
            odd_chips={
                str(number): {str(v): n for v, n in chips.items()}
                for number, chips in (odd_chips or {}).items()
            },
            seed=setup.seed, result=result_record(setup, result), by=by,
        )  # fmt: skip


def races_at(tournament: Tournament, level: Level) -> dict[int, ChipRace]:
    """The races recorded at a break, by the tournament table's id."""
    return {r.table_id: r for r in ChipRace.objects.filter(tournament=tournament, level=level)}
