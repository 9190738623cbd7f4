"""Balancing (TDA 11). Pure Python."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.engine.errors import is_int
from rules.engine.seat_order import clockwise_from
from tournaments.draws.errors import (
    BALANCING,
    BALANCING_FLOP,
    BALANCING_PROCEDURE,
    BALANCING_STUD_AND_MIXED,
    DrawError,
)
from tournaments.draws.positions import (
    deal_order,
    hands_until_big_blind,
    seats_between_button_and_small_blind,
)
from tournaments.draws.seats import (
    PlayerId,
    Record,
    SeatRef,
    check_player,
    check_seats,
    citation_records,
)

# --- Balancing (TDA 11) ----------------------------------------------------------------------


class Game(StrEnum):
    FLOP = "flop"
    STUD = "stud"
    MIXED = "mixed"


class BalancePolicy(StrEnum):
    TDA = "tda"
    KEEP_POSITION = "keep_position"


@dataclass(frozen=True)
class SeatedPlayer:
    """A player in a seat. ``recently_moved``: moved by balancing recently (the caller decides how
    recently); such a player is not moved again while another candidate exists."""

    player: PlayerId
    seat: int
    recently_moved: bool = False

    def __post_init__(self) -> None:
        check_player(self.player)
        if not is_int(self.seat) or self.seat < 1:
            raise DrawError("bad_seat", f"Seats are numbered from 1, not {self.seat!r}.")


@dataclass(frozen=True)
class Move:
    """One balancing move: who, from where, to where, and the rule that chose them."""

    player: PlayerId
    from_seat: SeatRef
    to_seat: SeatRef
    reason: str
    citations: tuple[str, ...] = (BALANCING,)

    def to_dict(self) -> Record:
        return {
            "kind": "balance_move",
            "player": self.player,
            "from": self.from_seat.to_dict(),
            "to": self.to_seat.to_dict(),
            "reason": self.reason,
            "citations": citation_records(*self.citations),
        }


@dataclass(eq=False)
class _Table:
    number: int
    seat_numbers: list[int]
    players: dict[int, SeatedPlayer]
    button: int | None
    opened: list[int]

    def open_seats(self, barred: Collection[SeatRef]) -> list[int]:
        return [
            s
            for s in self.seat_numbers
            if s not in self.players and SeatRef(self.number, s) not in barred
        ]

    def to_blind(self, seat: int) -> int:
        assert self.button is not None
        return hands_until_big_blind(self.seat_numbers, self.players, self.button, seat)

    def blind_order(self) -> list[int]:
        """Occupied seats, the player due the big blind next first, the small blind last."""
        assert self.button is not None
        order = deal_order(self.seat_numbers, self.players, self.button)
        return order[1:] + order[:1]


def table_layout(
    tables: Mapping[int, Sequence[SeatedPlayer]],
    seats: Mapping[int, Sequence[int]] | int,
    buttons: Mapping[int, int] | None,
    last_opened: Mapping[int, Sequence[int]] | None,
) -> dict[int, _Table]:
    layout: dict[int, _Table] = {}
    everyone: set[PlayerId] = set()
    for number in sorted(tables):
        if isinstance(seats, int):
            seat_numbers = list(range(1, seats + 1))
        elif number in seats:
            seat_numbers = sorted(seats[number])
        else:
            raise DrawError("bad_seat", f"No seat numbers given for table {number}.")
        for seat in seat_numbers:
            SeatRef(number, seat)
        players: dict[int, SeatedPlayer] = {}
        for seated in tables[number]:
            if seated.seat not in seat_numbers:
                raise DrawError("bad_seat", f"Table {number} has no seat {seated.seat}.")
            if seated.seat in players:
                raise DrawError(
                    "duplicate_seat", f"Two players in table {number} seat {seated.seat}."
                )
            if seated.player in everyone:
                raise DrawError("duplicate_player", f"Player {seated.player!r} is seated twice.")
            everyone.add(seated.player)
            players[seated.seat] = seated
        button = None if buttons is None else buttons.get(number)
        opened = [] if last_opened is None else list(last_opened.get(number, ()))
        layout[number] = _Table(number, seat_numbers, players, button, opened)
    return layout


def rank_tables(numbers: Collection[int], order: Sequence[int]) -> dict[int, int]:
    """Position of each table in a published order; tables not listed follow by number."""
    if len(set(order)) != len(order):
        raise DrawError("duplicate_table", "A table appears twice in the published order.")
    listed = [t for t in order if t in numbers]
    rest = sorted(set(numbers) - set(listed))
    return {table: i for i, table in enumerate(listed + rest)}


def _first_not_recent[T](candidates: Iterable[tuple[T, SeatedPlayer]]) -> tuple[T, SeatedPlayer]:
    """The first candidate not moved recently; if every one was, the first (candidates are
    generated lazily, best first: usually the first one answers)."""
    first: tuple[T, SeatedPlayer] | None = None
    for candidate in candidates:
        if not candidate[1].recently_moved:
            return candidate
        first = first or candidate
    assert first is not None, "a fullest table always has players"
    return first


def balance(
    tables: Mapping[int, Sequence[SeatedPlayer]],
    *,
    seats: Mapping[int, Sequence[int]] | int,
    buttons: Mapping[int, int] | None = None,
    game: Game = Game.FLOP,
    policy: BalancePolicy = BalancePolicy.TDA,
    balancing_order: Sequence[int] = (),
    last_opened: Mapping[int, Sequence[int]] | None = None,
    forbidden: Collection[SeatRef] = frozenset(),
    max_difference: int = 1,
) -> list[Move]:
    """The moves that balance the tables (TDA 11), fewest possible, in the order to make them.

    ``seats`` gives each table's seat numbers (or N for seats 1..N everywhere). ``buttons`` gives,
    for flop and mixed games, the button's seat for the hand about to be dealt at each table.
    While the fullest and the shortest table differ by more than ``max_difference``, one player
    moves from the fullest to the shortest:

    - Which table gives the player (11-C): the fullest; among equally full tables, the first in
      ``balancing_order``, the order published before play (unlisted tables follow by number).
      The receiving table is the shortest, ties broken the same way.
    - Flop games (11-A), policy ``TDA``: the player due the big blind next moves to the worst
      position at the short table: the open seat that reaches the big blind soonest, the big
      blind itself included (so a player may post the big blind twice), never the small blind.
      Seats between the button and the small blind, where the player would sit out until the
      button passes, are used only when nothing else is open.
    - Mixed games (11-B) use the flop rule with the button frozen where the caller froze it.
    - Stud games (11-B): the last seat opened at the short table is filled (``last_opened``
      lists each table's open seats in the order they opened; with none known, the lowest open
      seat), by position: the player in that same seat number at the long table, else the next
      occupied seat clockwise.
    - Policy ``KEEP_POSITION`` (as online rooms do): the same tables, but the player and seat
      are paired to keep the player's place in the orbit (hands to the big blind as a share of
      the table) as close as possible; ties go to the player nearest the big blind.
    - A player marked ``recently_moved`` is not chosen while another candidate at any of the
      fullest tables exists.

    ``forbidden`` seats (reserved, TDA 9) are never filled. If the shortest tables have no seat
    to fill, balancing stops there.
    """
    if not is_int(max_difference) or max_difference < 1:
        raise DrawError("bad_difference", "Tables may differ by at least one player.")
    barred = frozenset(check_seats(forbidden, "forbidden seats"))
    layout = table_layout(tables, seats, buttons, last_opened)
    if game is not Game.STUD:
        missing = [t.number for t in layout.values() if t.players and t.button is None]
        if missing:
            raise DrawError(
                "no_button",
                f"Flop and mixed games need the button's seat at tables {missing}.",
                BALANCING_FLOP,
            )
    rank = rank_tables(layout, balancing_order)
    by_rank = sorted(layout.values(), key=lambda t: rank[t.number])
    moves: list[Move] = []
    while True:
        counts = {t.number: len(t.players) for t in by_rank}
        most, fewest = max(counts.values(), default=0), min(counts.values(), default=0)
        if most - fewest <= max_difference:
            return moves
        sources = [t for t in by_rank if counts[t.number] == most]
        targets = [
            t for t in by_rank if counts[t.number] < most - max_difference and t.open_seats(barred)
        ]
        if not targets:
            return moves
        fewest = min(counts[t.number] for t in targets)
        target = next(t for t in targets if counts[t.number] == fewest)
        move = _choose_move(sources, target, barred, game, policy)
        source = layout[move.from_seat.table]
        mover = source.players.pop(move.from_seat.seat)
        source.opened.append(move.from_seat.seat)
        target.players[move.to_seat.seat] = SeatedPlayer(
            mover.player, move.to_seat.seat, recently_moved=True
        )
        target.opened = [s for s in target.opened if s != move.to_seat.seat]
        moves.append(move)


def _choose_move(
    sources: list[_Table],
    target: _Table,
    barred: frozenset[SeatRef],
    game: Game,
    policy: BalancePolicy,
) -> Move:
    open_seats = target.open_seats(barred)
    if game is Game.STUD:
        return _stud_move(sources, target, open_seats)
    button = target.button
    assert button is not None
    waiting = seats_between_button_and_small_blind(
        target.number, target.seat_numbers, target.players, button
    )
    dealt_in = [s for s in open_seats if SeatRef(target.number, s) not in waiting]
    rule = BALANCING_FLOP if game is Game.FLOP else BALANCING_STUD_AND_MIXED
    citations = (BALANCING, rule, BALANCING_PROCEDURE)

    def to_blind_if_seated(seat: int) -> int:
        return hands_until_big_blind(target.seat_numbers, [*target.players, seat], button, seat)

    if not dealt_in:
        # Nothing open where the player is dealt in at once: they wait for the button to pass.
        dealt_in = open_seats
    if policy is BalancePolicy.KEEP_POSITION:
        return _keep_position_move(sources, target, dealt_in, to_blind_if_seated, citations)
    # Ties (open seats in the same gap come round equally soon): the first clockwise from the button.
    clockwise = deal_order(target.seat_numbers, target.seat_numbers, button)
    seat = min(dealt_in, key=lambda s: (to_blind_if_seated(s), clockwise.index(s)))

    # TDA 11-A: the player due the big blind next; if recently moved, the same player at the next
    # fullest table, then the next player in blind order.
    def candidates() -> Iterator[tuple[_Table, SeatedPlayer]]:
        orders: dict[int, list[int]] = {}  # worked out only for the tables looked at
        for depth in range(max(len(table.players) for table in sources)):
            for table in sources:
                if table.number not in orders:
                    orders[table.number] = table.blind_order()
                order = orders[table.number]
                if depth < len(order):
                    yield table, table.players[order[depth]]

    table, mover = _first_not_recent(candidates())
    return Move(
        mover.player,
        SeatRef(table.number, mover.seat),
        SeatRef(target.number, seat),
        f"TDA 11-A: due the big blind next at table {table.number}; worst position at "
        f"table {target.number} ({to_blind_if_seated(seat)} hands to the big blind).",
        citations,
    )


def _keep_position_move(
    sources: list[_Table],
    target: _Table,
    open_seats: list[int],
    to_blind_if_seated: Callable[[int], int],
    citations: tuple[str, ...],
) -> Move:
    size = len(target.players) + 1
    seat_share = {s: to_blind_if_seated(s) / size for s in open_seats}
    # The first fullest table with a player not moved recently gives the player (fewest moves).
    table = next(
        (t for t in sources if any(not p.recently_moved for p in t.players.values())), sources[0]
    )
    pool = [p for p in table.players.values() if not p.recently_moved] or list(
        table.players.values()
    )
    best = min(
        (
            (
                abs(table.to_blind(p.seat) / len(table.players) - seat_share[s]),
                table.to_blind(p.seat),
                s,
                p,
            )
            for p in pool
            for s in open_seats
        ),
        key=lambda choice: (choice[0], choice[1], seat_share[choice[2]], choice[2]),
    )
    _, _, seat, mover = best
    return Move(
        mover.player,
        SeatRef(table.number, mover.seat),
        SeatRef(target.number, seat),
        f"Keep position: {table.to_blind(mover.seat)} hands to the big blind at table "
        f"{table.number}, {to_blind_if_seated(seat)} at table {target.number}.",
        (BALANCING, BALANCING_PROCEDURE),
    )


def _stud_move(sources: list[_Table], target: _Table, open_seats: list[int]) -> Move:
    recent_openings = [s for s in reversed(target.opened) if s in open_seats]
    seat = recent_openings[0] if recent_openings else min(open_seats)

    def candidates() -> Iterator[tuple[_Table, SeatedPlayer]]:
        # The same seat number at each fullest table in order, then the next seat clockwise.
        rings: dict[int, list[int]] = {}  # worked out only for the tables looked at
        for step in range(max(len(t.seat_numbers) for t in sources)):
            for table in sources:
                if table.number not in rings:
                    # Round from the seat itself: clockwise from the seat before it.
                    rings[table.number] = clockwise_from(seat - 1, table.seat_numbers)
                ring = rings[table.number]
                if step < len(ring) and ring[step] in table.players:
                    yield table, table.players[ring[step]]

    table, mover = _first_not_recent(candidates())
    return Move(
        mover.player,
        SeatRef(table.number, mover.seat),
        SeatRef(target.number, seat),
        f"TDA 11-B: stud moves by position; seat {mover.seat} at table {table.number} fills "
        f"the last seat opened, {target.number}/{seat}.",
        (BALANCING, BALANCING_STUD_AND_MIXED, BALANCING_PROCEDURE),
    )


def tables_to_halt(tables: Mapping[int, Sequence[SeatedPlayer]]) -> list[int]:
    """Tables three or more players short of the fullest (TDA 11-D): they halt play once their
    blinds are affected, until balanced (when is the floor's call)."""
    counts = {number: len(players) for number, players in tables.items()}
    most = max(counts.values(), default=0)
    return sorted(number for number, count in counts.items() if most - count >= 3)
