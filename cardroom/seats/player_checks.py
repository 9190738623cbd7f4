"""The players held against their log, for ``verify_audit``: a player's record (``Player``, an
ordinary row: the name, the contact, the notes and the bar the staff read at every seat, list
and entry) is what its log (``PlayerChange``, append-only and chained per player) last
recorded. A bar lifted, or a name changed, with one ``UPDATE`` is a break.

What the services write (``cardroom/seats/services.py``): a player is created unbarred with no
notes and no log row (``find_or_create_player``); every edit (``edit_player``) and every bar
and lift (``bar_player``) writes the record as it then is (name, alias, contact, notes, the
bar), and a bar also its reason and who barred. So a player with a log holds its last row's
name, contact, notes and bar, and the reason and barrer of its last bar or lift (a lift
clears them); a player without one is unbarred, with no notes.

Not held, because no log row records it: the name, alias and contact a player was created
with (until the first change), and an alias given to a player without one when the person is
found again (``find_or_create_player``: a player whose last row has no alias may have gained
one since); the time a bar was made (``barred_at``: the service stamps it a moment before
its log row's time)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from typing import Any

from cardroom.core import audit
from cardroom.seats.models import Player, PlayerChange, PlayerChangeKind

#: The player's columns its log's every row records, by the same names.
RECORDED = ("name", "contact", "notes", "barred")
#: The kinds of row that set or lift the bar.
BARS = {PlayerChangeKind.BARRED, PlayerChangeKind.UNBARRED}
#: A player with no log row as the services create one: unbarred, no notes.
UNSET: tuple[tuple[str, Any], ...] = (
    ("barred", False), ("notes", ""), ("barred_reason", ""), ("barred_by_id", None),
    ("barred_at", None),
)  # fmt: skip


def player_breaks(using: str = "default") -> list[audit.Break]:
    """Each player held against its log's last row (and its last bar or lift). Players and
    log rows are read a row at a time, side by side in player order, never all at once."""
    players = (
        Player.objects.using(using)
        .order_by("pk")
        .values("pk", *RECORDED, "alias", "barred_reason", "barred_by_id", "barred_at")
        .iterator()
    )
    changes: Iterator[Any] = groupby(
        PlayerChange._base_manager.using(using)
        .order_by("player_id", "pk")
        .values("player_id", "kind", *RECORDED, "alias", "reason", "by_id")
        .iterator(),
        key=itemgetter("player_id"),
    )
    breaks: list[audit.Break] = []
    log = next(changes, None)
    for player in players:
        while log is not None and log[0] < player["pk"]:
            log = next(changes, None)  # a log row of no player: the foreign key refuses it
        last = bar = None
        if log is not None and log[0] == player["pk"]:
            for row in log[1]:
                last = row
                bar = row if row["kind"] in BARS else bar
        breaks += _differences(player, last, bar)
    return breaks


def _differences(
    player: dict[str, Any], last: dict[str, Any] | None, bar: dict[str, Any] | None
) -> list[audit.Break]:
    where, pk = Player._meta.db_table, player["pk"]
    if last is None:
        # Created unbarred with no notes, and nothing since: no bar, no notes.
        said = [f"{name} {player[name]!r}" for name, unset in UNSET if player[name] != unset]
        if said:
            return [audit.Break(where, pk, f"{', '.join(said)} with no change in its log")]
        return []
    found = [
        f"{name} {player[name]!r}, its log {last[name]!r}"
        for name in RECORDED
        if player[name] != last[name]
    ]
    if player["alias"] != last["alias"] and last["alias"]:
        found.append(f"alias {player['alias']!r}, its log {last['alias']!r}")
    reason, by = (
        (bar["reason"], bar["by_id"])
        if bar and bar["kind"] == PlayerChangeKind.BARRED
        else ("", None)
    )
    if player["barred_reason"] != reason:
        found.append(f"bar reason {player['barred_reason']!r}, its log {reason!r}")
    if player["barred_by_id"] != by:
        found.append(f"barred by user {player['barred_by_id']}, its log user {by}")
    if (player["barred_at"] is None) == bool(player["barred"]):
        found.append(f"barred at {player['barred_at']} with barred {player['barred']}")
    if found:
        return [audit.Break(where, pk, "differs from its log's last change: " + "; ".join(found))]
    return []
