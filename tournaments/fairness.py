"""Provably fair draws: commit to a secret seed before the cards, reveal it after, replay.

1. ``new_seed()`` takes 256 bits from the operating system's secure source (``secrets``).
2. Before anything is dealt, the draw's commitment is stored and shown:
   ``sha256(seed + "\\n" + canonical_json(inputs))`` in hex. It binds the seed *and* the inputs
   (who was drawn, which seats were open), so neither can be swapped afterwards.
3. The draw runs on ``draws.SeededRandom(seed)``; the result and the seed are revealed.
4. Anyone can ``verify``: the seed matches the commitment, and replaying the pure draw
   (``tournaments.draws.replay``) from the seed and the recorded inputs gives the recorded
   result, every random step included.

No Django here: verification works on the plain values of the record.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tournaments import draws

SEED_BYTES = 32


def new_seed() -> str:
    """A fresh seed from the operating system's cryptographically secure source."""
    return secrets.token_hex(SEED_BYTES)


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, so the hash never depends on layout."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def commitment_for(seed: str, inputs: Mapping[str, Any]) -> str:
    return hashlib.sha256(f"{seed}\n{canonical_json(inputs)}".encode()).hexdigest()


def rng_for(seed: str) -> draws.SeededRandom:
    """The draw's random source: fully determined by the revealed seed."""
    return draws.SeededRandom(seed)


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


def verify(
    *,
    seed: str | None,
    commitment: str,
    inputs: Mapping[str, Any],
    result: Mapping[str, Any] | None,
) -> Verification:
    """Check a recorded draw: the seed opens the commitment published before the deal, and
    replaying the pure draw from the seed and the committed inputs gives the recorded result."""
    if not seed or result is None:
        return Verification(False, False, False, ("The draw has not been revealed yet.",))
    problems: list[str] = []
    commitment_matches = secrets.compare_digest(commitment_for(seed, inputs), commitment)
    if not commitment_matches:
        problems.append("The seed and inputs do not match the commitment published before.")
    try:
        replayed: dict[str, Any] | None = draws.replay({**inputs, "seed": seed}).to_dict()
    except (draws.DrawError, KeyError, TypeError, AttributeError) as exc:
        replayed = None
        problems.append(f"The recorded inputs do not replay: {exc}")
    replay_matches = replayed is not None and canonical_json(replayed) == canonical_json(result)
    if replayed is not None and not replay_matches:
        problems.append("Replaying the draw from the seed gives a different result.")
    return Verification(
        commitment_matches and replay_matches, commitment_matches, replay_matches, tuple(problems)
    )
