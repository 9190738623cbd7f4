"""What every draw record cites and how a draw refuses: the algorithm's name, the rulebook
edition, the rule references, and :class:`DrawError`. Pure Python, like the whole package:

- ``seeds``: seeds and commitments (provably fair draws).
- ``seats``: seats, cards and the pieces every draw record is built from.
- ``seat_draws``: the random draws (initial seating, open seats, the double-blind break).
- ``replay``: replaying a record from its seed, verifying a record and a revealed draw.
- ``positions``: the deal order and who is due the big blind.
- ``balancing``: balancing moves; ``breaks``: when tables break.

Balancing and break planning are deterministic: the TDA wants a procedure published before play
(Rule 11-C), not a draw.

Rules applied (Poker TDA, 2024 numbering; every reference is stored with :data:`EDITION`):

- Rule 7: random seating. Rule 8-A: alternates, late entries and re-entries draw from the same
  seat pool and are dealt in except between the small blind and the button. Rule 9: a seat may be
  reserved for special needs (leave it out of the seats, or pass it as forbidden).
- Rule 10: breaking tables; 10-A: a moved player may receive any seat, blinds and button
  included, except between the small blind and the button. The Illustrated Addendum's two-step
  "double-blind" process is ``seat_draws.break_table``.
- Rule 11: balancing; 11-A flop games move the player due the big blind next to the worst
  position; 11-B stud games move by position, mixed games freeze the button; 11-C a
  predetermined procedure; 11-D a table three or more short of the fullest halts.
- RP-9: the final table's size (two tables of five become a 9-handed final table).
"""

from __future__ import annotations

ALGORITHM = "cardroom.draws/1"
"""Stored with every record; bump it if the way a draw consumes the generator ever changes."""

EDITION = "TDA 2024"
"""The rulebook edition every citation below refers to."""

RANDOM_SEATING = "TDA-7"
ALTERNATES_AND_LATE_ENTRIES = "TDA-8-A"
SPECIAL_NEEDS = "TDA-9"
BREAKING_TABLES = "TDA-10"
MOVED_PLAYER_SEAT = "TDA-10-A"
DOUBLE_BLIND = "TDA-10-Addendum"  # the Illustrated Addendum's 2-step "double-blind" example
BALANCING = "TDA-11"
BALANCING_FLOP = "TDA-11-A"
BALANCING_STUD_AND_MIXED = "TDA-11-B"
BALANCING_PROCEDURE = "TDA-11-C"
BALANCING_HALT = "TDA-11-D"
FINAL_TABLE_SIZE = "TDA-RP-9"

CITATIONS = frozenset(
    value
    for name, value in dict(globals()).items()
    if name.isupper() and isinstance(value, str) and value.startswith("TDA-")
)


class DrawError(ValueError):
    """A draw that cannot be made as asked: a contract code, a plain message, the rules applied."""

    def __init__(self, code: str, message: str, *citations: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.citations: tuple[str, ...] = citations
        self.edition = EDITION
