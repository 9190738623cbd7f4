"""Replaying a draw record from its seed, and verifying it. Pure Python."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tournaments.draws.errors import ALGORITHM, DrawError
from tournaments.draws.seat_draws import (
    BreakDraw,
    InitialDraw,
    OpenSeatDraw,
    break_table,
    draw_into_open_seats,
    initial_seating,
)
from tournaments.draws.seats import Record, SeatRef
from tournaments.draws.seeds import SeededRandom, canonical_json, commitment_for

# --- Replaying a record ----------------------------------------------------------------------


type Draw = InitialDraw | OpenSeatDraw | BreakDraw


def replay(record: Mapping[str, Any]) -> Draw:
    """Re-run a draw from its record's seed and inputs (the recorded steps and result are not
    read). Raises :class:`DrawError` for an unknown kind or algorithm or a record with no seed."""
    kind = record.get("kind")
    if record.get("algorithm") != ALGORITHM:
        raise DrawError("unknown_algorithm", f"Cannot replay a {record.get('algorithm')!r} draw.")
    seed = record.get("seed")
    if seed is None:
        raise DrawError("no_seed", "This draw was made without a recorded seed; it cannot replay.")
    rng = SeededRandom(seed)
    data = record["input"]
    if kind == "initial_seating":
        tables = {entry["table"]: entry["seats"] for entry in data["tables"]}
        return initial_seating(data["entrants"], tables, rng)
    if kind == "open_seats":
        seated = data["seated"]
        return draw_into_open_seats(
            data["entrants"],
            [SeatRef.from_dict(seat) for seat in data["open_seats"]],
            rng,
            frozenset(SeatRef.from_dict(seat) for seat in data["forbidden"]),
            seated=None if seated is None else {e["table"]: e["players"] for e in seated},
        )
    if kind == "break_table":
        return break_table(
            data["players"],
            [SeatRef.from_dict(seat) for seat in data["receiving_seats"]],
            rng,
            frozenset(SeatRef.from_dict(seat) for seat in data["forbidden"]),
            breaking_table=data["breaking_table"],
        )
    raise DrawError("unknown_kind", f"No draw of kind {kind!r}.")


def _replayed(record: Mapping[str, Any]) -> Record | str:
    """The replayed record, or why the record does not replay."""
    try:
        return replay(record).to_dict()
    except (DrawError, KeyError, TypeError, AttributeError) as exc:
        return f"The recorded inputs do not replay: {exc}"


def verify(record: Mapping[str, Any]) -> bool:
    """True when replaying the record from its seed gives exactly the record: same inputs, same
    random steps, same seats. Any edit to a recorded step or seat, or to the seed, shows."""
    replayed = _replayed(record)
    return not isinstance(replayed, str) and replayed == dict(record)


@dataclass(frozen=True)
class Verification:
    ok: bool
    commitment_matches: bool
    replay_matches: bool
    problems: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "commitment_matches": self.commitment_matches,
            "replay_matches": self.replay_matches,
            "problems": list(self.problems),
        }


def verify_revealed(
    *,
    seed: str | None,
    commitment: str,
    inputs: Mapping[str, Any],
    result: Mapping[str, Any] | None,
) -> Verification:
    """Check a revealed draw: the seed opens the commitment published before the deal, and
    replaying the pure draw from the seed and the committed inputs gives the recorded result."""
    if not seed or result is None:
        return Verification(False, False, False, ("The draw has not been revealed yet.",))
    problems: list[str] = []
    commitment_matches = secrets.compare_digest(commitment_for(seed, inputs), commitment)
    if not commitment_matches:
        problems.append("The seed and inputs do not match the commitment published before.")
    replayed = _replayed({**inputs, "seed": seed})
    if isinstance(replayed, str):
        problems.append(replayed)
    replay_matches = not isinstance(replayed, str) and canonical_json(replayed) == canonical_json(
        result
    )
    if not isinstance(replayed, str) and not replay_matches:
        problems.append("Replaying the draw from the seed gives a different result.")
    return Verification(
        commitment_matches and replay_matches, commitment_matches, replay_matches, tuple(problems)
    )
