"""Chip counts changed away from the desk, and the check that the chips add up.

The desk's awards write the entrants' counts as hands are pushed (``table_hands``); everything
else goes through here, each change a ``ChipCount`` row (before, after, reason, who) in the
tournament's audit chain:

- ``record_table_counts``: a table's counts at a break, all of its players or none;
- ``correct_count``: one player's count after a dispute (TDA-1: the director corrects a record
  that is wrong);
- ``move_chips``: chips put somewhere else, to another player or out of play, with the reason
  (RRoP-TR.18: chips found after a pot go to the player who won it, or are removed from the
  tournament). A player still holding chips is not put out until they are
  (``eliminations.eliminate_player``).

Locking: each write locks the tournament row first, exclusive (``seating.lock_tournament``);
the desk's deal and settle hold it shared (``seating.share_tournament``), so a count waits for
the hands being dealt or pushed and they for it, while they go on beside each other. A player
dealt into a hand not yet pushed keeps the count the hand was dealt with: the change is refused
(``seating.refuse_if_in_hand``, 409 ``in_hand``). A hand proposed before the change and dealt
after it is refused by the desk's own check (the proposal's stacks changed: 409).

During a hand the chips in its pots are still in the players' counts: the desk writes the
counts only when the pots are pushed (``table_hands._apply_award``), and a voided hand leaves
them as they were. So the chips in play are the counts of the players still in, whether or not
a hand is being played (``reconcile``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, F, Sum

from cardroom.core.api_errors import Refusal
from cardroom.core.numbers import grouped
from cardroom.core.parsers import MAX_SAFE_INTEGER
from cardroom.core.reasons import clean_reason
from tournaments.draws.errors import DrawError
from tournaments.models import (
    OUT_OF_PLAY,
    ChipChange,
    ChipCount,
    Entrant,
    EntrantStatus,
    SeatAssignment,
    Tournament,
    TournamentStatus,
    TournamentTableStatus,
)
from tournaments.money.models import MoveKind
from tournaments.seating import (
    CORRECTION,
    cite,
    lock_tournament,
    refuse_if_in_hand,
    refuse_if_withdrawn,
)

#: RRoP-TR.18: chips found after a pot belong to the player who won it, or are removed from
#: the tournament: the two places a player's chips may go other than a hand at the desk.
CHIPS_ELSEWHERE = "RRoP-TR.18"

#: The largest count taken: within the column (a PostgreSQL bigint) and what a JSON client
#: holds exactly (``cardroom.core.parsers.MAX_SAFE_INTEGER``), so the API, the page and the
#: desk's proposal all read the same number.
MAX_CHIPS = MAX_SAFE_INTEGER

#: How many of the last changes the director's page lists beside a difference.
RECENT_CHANGES = 10


class ChipsRefused(Refusal):
    """A count or a move the rules refuse (a negative or impossible count, more chips than the
    player has, no reason): a form error on its field, a 422 ``chips_refused`` in the API."""

    code = "chips_refused"


def check_chips(chips: object, field: str = "chips") -> int:
    """A count as the services take it: a whole number from 0 to ``MAX_CHIPS``."""
    if isinstance(chips, bool) or not isinstance(chips, int):
        raise ChipsRefused(field, "A count is a whole number of chips.")
    if chips < 0:
        raise ChipsRefused(field, "A count is never below 0.")
    if chips > MAX_CHIPS:
        raise ChipsRefused(field, f"A count is at most {grouped(MAX_CHIPS)} chips.")
    return chips


def _still_in(tournament: Tournament, entrant: Entrant, *, field: str = "") -> Entrant:
    """The entrant as locked writes read it: in this tournament, not out, not withdrawn, not
    finished. ``field``: the form field naming the entrant (the receiver of a move, "to"), on
    which a withdrawn entry is refused."""
    if tournament.status == TournamentStatus.COMPLETE:
        raise DrawError("complete", f"{tournament} is over: its counts stay as they finished.")
    current = Entrant.objects.get(pk=entrant.pk)
    if current.tournament_id != tournament.pk:
        raise DrawError("not_in_play", f"{current} is not in {tournament}.")
    if current.status == EntrantStatus.ELIMINATED:
        raise DrawError(
            "not_in_play", f"{current.name} is out: an eliminated player holds no chips.",
            CORRECTION,
        )  # fmt: skip
    if field and current.status == EntrantStatus.WITHDRAWN:
        raise ChipsRefused(
            field, f"{current} withdrew (the entry was refunded): chips go to a player still in."
        )
    refuse_if_withdrawn(current, doing="count or move chips for them")
    return current


def _write(
    tournament: Tournament,
    entrant: Entrant,
    after: int,
    *,
    kind: ChipChange,
    reason: str,
    by: User,
    citations: Iterable[str],
    other: Entrant | None = None,
    transfer: int | None = None,
    table_number: int | None = None,
) -> ChipCount:
    row = ChipCount.objects.create(
        tournament=tournament, entrant=entrant, kind=kind, chips_before=entrant.chips,
        chips_after=after, other=other, transfer=transfer, table_number=table_number,
        reason=reason, citations=cite(*citations), by=by,
    )  # fmt: skip
    Entrant.objects.filter(pk=entrant.pk).update(chips=after)
    entrant.chips = after
    return row


def correct_count(*, entrant: Entrant, chips: int, reason: str, by: User) -> ChipCount:
    """One player's count, corrected after a dispute (TDA-1), with the reason on record. A
    count of 0 is taken, and the player is then out once the director says so: nobody is put
    out by a count (``broke``). Refused while the player is in a hand not yet pushed."""
    chips = check_chips(chips)
    reason = clean_reason(reason, "Say why the count is corrected: it goes on record.",
                          error=ChipsRefused)  # fmt: skip
    with transaction.atomic():
        locked = lock_tournament(entrant.tournament_id)
        current = _still_in(locked, entrant)
        refuse_if_in_hand(locked, [current.pk], doing="correct the count")
        return _write(locked, current, chips, kind=ChipChange.CORRECTION, reason=reason, by=by,
                      citations=[CORRECTION])  # fmt: skip


def record_table_counts(
    *, tournament: Tournament, table_number: int, counts: Mapping[int, int], reason: str, by: User
) -> list[ChipCount]:
    """A table's counts (at a break, a colour-up): every player seated there, by entry number,
    all written or none. Refused while a hand is being played at the table, and when the
    counts name a player not seated there or leave one out (the table is counted whole)."""
    checked = {number: check_chips(chips, f"chips_{number}") for number, chips in counts.items()}
    reason = clean_reason(reason, "Say why the table is counted (a break, a colour-up…).",
                          error=ChipsRefused)  # fmt: skip
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
        if locked.status == TournamentStatus.COMPLETE:
            raise DrawError("complete", f"{locked} is over: its counts stay as they finished.")
        table = locked.tables.select_related("table").filter(number=table_number).first()
        if table is None or table.status != TournamentTableStatus.ACTIVE:
            raise DrawError("no_table", f"{locked} has no table {table_number} in play.")
        seated = {
            a.entrant.number: a.entrant
            for a in SeatAssignment.objects.filter(table=table, ended_at__isnull=True)
            .select_related("entrant")
            .order_by("seat")
        }
        if not seated:
            raise DrawError("no_players", f"Nobody is seated at {table.name}.")
        missing = [n for n in seated if n not in checked]
        strangers = sorted(n for n in checked if n not in seated)
        if missing or strangers:
            said = []
            if missing:
                said.append("a count for " + ", ".join(f"#{n}" for n in missing))
            if strangers:
                said.append("no count for " + ", ".join(f"#{n}" for n in strangers)
                            + " (not seated there)")  # fmt: skip
            raise ChipsRefused(
                "counts", f"{table.name} is counted whole: give {' and '.join(said)}."
            )
        refuse_if_in_hand(locked, [e.pk for e in seated.values()], doing="count the table")
        return [
            _write(locked, entrant, checked[number], kind=ChipChange.COUNT, reason=reason,
                   by=by, citations=[CORRECTION], table_number=table_number)
            for number, entrant in seated.items()
        ]  # fmt: skip


def move_chips(
    *, from_entrant: Entrant, to_entrant: Entrant | None, chips: int, reason: str, by: User
) -> list[ChipCount]:
    """Chips taken from a player and given to another (``to_entrant``) or taken out of play
    (None), with the reason (RRoP-TR.18). A transfer is two rows, the giver's and the
    receiver's, naming each other and sharing a transfer number; both players are locked by
    the tournament row and neither may be in a hand not yet pushed."""
    chips = check_chips(chips)
    if chips == 0:
        raise ChipsRefused("chips", "Move at least one chip.")
    reason = clean_reason(reason, "Say why the chips move: it goes on record.", error=ChipsRefused)
    with transaction.atomic():
        locked = lock_tournament(from_entrant.tournament_id)
        giver = _still_in(locked, from_entrant)
        receiver = _still_in(locked, to_entrant, field="to") if to_entrant is not None else None
        if receiver is not None and receiver.pk == giver.pk:
            raise ChipsRefused("to", f"{giver.name} cannot give chips to themselves.")
        if chips > giver.chips:
            raise ChipsRefused(
                "chips", f"{giver.name} has {grouped(giver.chips)} chips: at most that moves."
            )
        ids = [giver.pk] + ([receiver.pk] if receiver is not None else [])
        refuse_if_in_hand(locked, ids, doing="move the chips")
        cited = [CHIPS_ELSEWHERE, CORRECTION]
        if receiver is None:
            return [_write(locked, giver, giver.chips - chips, kind=ChipChange.OUT_OF_PLAY,
                           reason=reason, by=by, citations=cited)]  # fmt: skip
        number = locked.chip_counts.filter(kind=ChipChange.TRANSFER_OUT).count() + 1
        given = _write(
            locked,
            giver,
            giver.chips - chips,
            kind=ChipChange.TRANSFER_OUT,
            reason=reason,
            by=by,
            citations=cited,
            other=receiver,
            transfer=number,
        )
        taken = _write(
            locked,
            receiver,
            receiver.chips + chips,
            kind=ChipChange.TRANSFER_IN,
            reason=reason,
            by=by,
            citations=cited,
            other=giver,
            transfer=number,
        )
        return [given, taken]


def broke(rows: Iterable[ChipCount]) -> list[Entrant]:
    """The players a count left with no chips: they are out once the director puts them out
    (the desk deals nobody with 0 chips), never by the count itself."""
    return [row.entrant for row in rows if row.chips_after == 0]


# --- do the chips add up? ----------------------------------------------------------------------


@dataclass(frozen=True)
class Reconciliation:
    """The chips that should be in play against those counted.

    ``bought``: every source of chips with its total, each a line the director reads
    ("12 entries of 20,000"). ``in_play``: the counts of the players still in (a hand being
    played included: its pots are in the counts until pushed). ``out_of_play``: chips taken
    out with a reason. ``corrected``: what counts and corrections added (negative: took)."""

    bought: tuple[tuple[str, int], ...]
    in_play: int
    out_of_play: int
    corrected: int
    recent: tuple[ChipCount, ...]

    @property
    def expected(self) -> int:
        return sum(chips for _, chips in self.bought)

    @property
    def difference(self) -> int:
        """Chips counted and put out of play beyond those bought (negative: chips missing)."""
        return self.in_play + self.out_of_play - self.expected

    @property
    def balanced(self) -> bool:
        return self.difference == 0

    @property
    def missing(self) -> int:
        """Chips bought that are neither counted nor out of play (0 when none are)."""
        return max(0, -self.difference)


def bought_in(tournament: Tournament) -> tuple[tuple[str, int], ...]:
    """Where the chips in play came from, each with its total: every entry (a re-entry, an
    alternate and a late entry too) starts with the starting stack (``setup.register_entrants``),
    less the entries refunded before play (their stack left play with the refund); each rebuy
    and add-on puts its chips into play (a line of the ledger, ``tournaments.money.payments``),
    a line here of its own (three rebuys of 20,000 chips)."""
    entries = tournament.entrants.exclude(status=EntrantStatus.WITHDRAWN).count()
    stack = tournament.starting_stack
    bought = [(f"{grouped(entries)} entries × {grouped(stack)}", entries * stack)]
    rows = (
        tournament.money.filter(kind__in=[MoveKind.REBUY, MoveKind.ADDON])
        .values("kind", "chips")
        .annotate(n=Count("id"))
        .order_by("-kind", "chips")
    )
    for row in rows:
        n, chips = row["n"], row["chips"]
        what = ("rebuy" if row["kind"] == MoveKind.REBUY else "add-on") + ("" if n == 1 else "s")
        bought.append((f"{grouped(n)} {what} × {grouped(chips)}", n * chips))
    return tuple(bought)


def chips_in_play(tournament: Tournament) -> int:
    """The counts of the players still in (registered or seated)."""
    live = tournament.entrants.exclude(status__in=OUT_OF_PLAY)
    return int(live.aggregate(total=Sum("chips"))["total"] or 0)


def reconcile(tournament: Tournament) -> Reconciliation:
    """The chips bought against the chips counted, in four queries (``Reconciliation``)."""
    log = tournament.chip_counts.all()
    change = F("chips_after") - F("chips_before")
    out = log.filter(kind=ChipChange.OUT_OF_PLAY).aggregate(total=Sum(-change))["total"]
    corrected = log.filter(kind__in=[ChipChange.COUNT, ChipChange.CORRECTION]).aggregate(
        total=Sum(change)
    )["total"]
    recent = tuple(log.select_related("entrant", "by")[:RECENT_CHANGES])
    return Reconciliation(
        bought=bought_in(tournament), in_play=chips_in_play(tournament),
        out_of_play=int(out or 0), corrected=int(corrected or 0), recent=recent,
    )  # fmt: skip
