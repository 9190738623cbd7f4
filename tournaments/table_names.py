"""The one name a tournament table has everywhere: the room's, "Table 101", what the dealer,
the players and the floor see on the felt. The tournament's own numbering (1..n, in room-number
order) stays inside the draws, the published break order and their records, which replay with
it; everything a person reads goes through here to say the room's number instead."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tournaments.models import TournamentTable

#: Tables named in a draw's or a check's words: "table 2", "Table 2", "tables 2 and 3",
#: "Tables 1, 2 and 3".
TABLES_SAID = re.compile(r"\b([Tt]ables?) ([0-9]+(?:(?:, | and )[0-9]+)*)\b")
NUMBER = re.compile(r"[0-9]+")


def room_numbers(tournament_id: int) -> dict[int, int]:
    """The tournament's table numbers to the room's: ``{1: 101, 2: 102}`` (one query)."""
    return dict(
        TournamentTable.objects.filter(tournament_id=tournament_id).values_list(
            "number", "table__number"
        )
    )


def tournament_number(tournament_id: int, room: int) -> int | None:
    """The tournament's number for the room's table ``room`` (what a director types), or None
    when the tournament has no such table."""
    numbers = TournamentTable.objects.filter(tournament_id=tournament_id, table__number=room)
    return numbers.values_list("number", flat=True).first()


def room_number(rooms: Mapping[int, int], table: int) -> int | str:
    """The room's number for the tournament's table ``table`` ("?" for one it never had)."""
    return rooms.get(table, "?")


def table_name(rooms: Mapping[int, int], table: int) -> str:
    """ "Table 101" for the tournament's table 1."""
    return f"Table {room_number(rooms, table)}"


def where(rooms: Mapping[int, int], table: int, seat: int | None = None) -> str:
    """ "Table 101 seat 6": where a person walks."""
    return table_name(rooms, table) + (f" seat {seat}" if seat is not None else "")


def said_numbers(rooms: Mapping[int, int], tables: Sequence[int]) -> str:
    """ "101, 102 and 103": the room's numbers for the tournament's tables, in their order."""
    said = [str(room_number(rooms, t)) for t in tables]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


def said_by_room(text: str, rooms: Mapping[int, int]) -> str:
    """A draw's or a check's words ("TDA 11-A: due the big blind next at table 2") with the
    room's numbers ("… at table 102"): the pure draws name tables by the numbering they are
    given, and their records must keep replaying with it, so the words are put in the room's
    numbers where a person reads them."""

    def room(match: re.Match[str]) -> str:
        said = NUMBER.sub(lambda n: str(rooms.get(int(n[0]), n[0])), match[2])
        return f"{match[1]} {said}"

    return TABLES_SAID.sub(room, text)
