"""Seeds and commitments: provably fair draws. Pure Python.

1. ``new_seed()`` takes 256 bits from the operating system's secure source (``secrets``).
2. Before anything is dealt, the draw's commitment is stored and shown:
   ``sha256(seed + "\\n" + canonical_json(inputs))`` in hex (:func:`commitment_for`). It binds
   the seed *and* the inputs (who was drawn, which seats were open), so neither can be swapped
   afterwards.
3. The draw runs on ``SeededRandom(seed)``; the result and the seed are revealed. Each record
   also carries ``seed_sha256`` (:func:`seed_commitment`), the hash of the seed alone.
4. Anyone can verify (``tournaments.draws.replay.verify_revealed``): the seed matches the
   commitment, and replaying the pure draw from the seed and the recorded inputs gives the
   recorded result, every random step included.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Mapping
from typing import Any

from tournaments.draws.errors import DrawError

SEED_BYTES = 32


class SeededRandom(random.Random):
    """A ``random.Random`` that remembers the seed it was built from, for the audit record."""

    def __init__(self, seed: str | int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, str | int):
            raise DrawError("bad_seed", "A seed is a string or an integer.")
        super().__init__(seed)
        self.seed_value: str | int = seed


def new_seed() -> str:
    """A fresh seed from the operating system's cryptographically secure source."""
    return secrets.token_hex(SEED_BYTES)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def seed_commitment(seed: str | int) -> str:
    """The SHA-256 (hex) of the seed's text: stored in every draw record as ``seed_sha256``."""
    return _sha256(str(seed))


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, so the hash never depends on layout."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def commitment_for(seed: str, inputs: Mapping[str, Any]) -> str:
    """The draw's commitment, published before the deal: the seed and the inputs, bound."""
    return _sha256(f"{seed}\n{canonical_json(inputs)}")


def seed_of(rng: random.Random) -> str | int | None:
    """The seed a draw records: a ``SeededRandom``'s own, None for any other generator."""
    return rng.seed_value if isinstance(rng, SeededRandom) else None
