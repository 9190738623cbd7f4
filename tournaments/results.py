"""A tournament's results: every finishing place with the player, when they went out and the
hand that busted them, the winner, and the names a public screen may show.

Read from the standing eliminations (a reinstated bust is not one) and the entrants' places
(``eliminations.recompute_places``: shared on one hand-for-hand hand, TDA RP-8; none while
registration is open, TDA 8). The results page, its CSV, the room display and the public board
all read them here."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count

from cardroom.rulings.reading import spreadsheet_safe
from cardroom.seats.models import Player, initials
from tournaments.models import Elimination, Entrant, EntrantStatus, Tournament, TournamentStatus
from tournaments.money.currency import Currency, currency_of, room_currency
from tournaments.money.models import Deal, MoneyMove
from tournaments.money.payouts import deal_shares, ordinal, prices_of, prizes_owed


@dataclass(frozen=True)
class Standing:
    """One line of the results: a place (``None``: still in, or not fixed while registration
    is open), the entrant, and their standing elimination (``None`` for a player still in)."""

    place: int | None
    label: str
    entrant: Entrant
    elimination: Elimination | None
    room_table: int | None
    #: The prize owed (``money.payouts.prizes_owed``: None out of the money) and its PAYOUT
    #: line once paid.
    prize: int | None = None
    paid: MoneyMove | None = None
    #: The share the deal gave this player (``money.deals``), from the moment it is recorded:
    #: a player still in is owed it whatever place they finish in (the winner takes the amount
    #: left to play for as well). None for a player the deal does not cover.
    deal_share: int | None = None
    #: The words the CSV keeps beside the place's number (``place_note``).
    note: str = ""

    @property
    def out_at(self) -> datetime | None:
        return self.elimination.at if self.elimination is not None else None

    @property
    def hand_label(self) -> str:
        """ "Table 21 hand #14"; for a player put out by the director's "Out", or busted before
        the desk said which hand, the table and seat they left."""
        out = self.elimination
        if out is None:
            return ""
        if out.hand is not None:
            return str(out.hand)
        return "put out by the director" if out.table_number else ""

    @property
    def where(self) -> str:
        out = self.elimination
        if out is None or out.table_number is None:
            return ""
        # The table's one name, the room's (``tournaments/table_names.py``).
        return f"Table {self.room_table or '?'} seat {out.seat}"


def recorded_deal(tournament: Tournament) -> Deal | None:
    """The deal the players left agreed, when one is on record (one a tournament)."""
    return Deal.objects.filter(tournament_id=tournament.pk).first()


def standings(tournament: Tournament, deal: Deal | None = None) -> list[Standing]:
    """Every entry of the final field, best place first: the winner (or the players still in),
    then each place in order; an entry followed by a re-entry is not a place of its own (the
    player is placed by the last entry); each player a recorded ``deal`` covers with their
    share (read here when not given). A few queries, whatever the field."""
    # A refunded entry never played: no place, no line in the results.
    final = list(
        tournament.entrants.filter(reentries__isnull=True).exclude(status=EntrantStatus.WITHDRAWN)
    )
    standing = tournament.eliminations.standing()
    outs = {
        row.entrant_id: row
        for row in standing.filter(entrant__in=[e.pk for e in final])
        .select_related("hand__table")
        .order_by("id")
    }
    per_hand = dict(
        standing.filter(hand_for_hand_hand__isnull=False, entrant__place__isnull=False)
        .values_list("hand_for_hand_hand")
        .annotate(n=Count("id"))
        .values_list("hand_for_hand_hand", "n")
    )
    rooms = dict(tournament.tables.values_list("number", "table__number"))
    owed = {o.entrant.pk: o for o in prizes_owed(tournament)}
    shares = deal_shares(deal if deal is not None else recorded_deal(tournament))
    rows = []
    for entrant in final:
        out = outs.get(entrant.pk) if entrant.status == EntrantStatus.ELIMINATED else None
        shared = per_hand.get(out.hand_for_hand_hand or -1, 1) if out is not None else 1
        prize = owed.get(entrant.pk)
        share = shares.get(entrant.pk)
        rows.append(
            Standing(
                place=entrant.place,
                label=place_label(tournament, entrant, shared),
                note=place_note(tournament, entrant, shared, dealt=share is not None),
                entrant=entrant,
                elimination=out,
                room_table=rooms.get(out.table_number) if out and out.table_number else None,
                prize=prize.amount if prize is not None else None,
                paid=prize.paid if prize is not None else None,
                deal_share=share,
            )
        )
    return sorted(rows, key=_order)


def _order(row: Standing) -> tuple[int, int, int]:
    """The players still in (the winner) first, then the places, then the busts not placed
    yet (registration open), the latest out first."""
    if row.entrant.status != EntrantStatus.ELIMINATED:
        return (0, row.place or 0, row.entrant.number)
    if row.place is not None:
        return (1, row.place, row.entrant.number)
    return (2, -(row.elimination.pk if row.elimination else 0), row.entrant.number)


def place_label(tournament: Tournament, entrant: Entrant, shared: int) -> str:
    """ "1" (the winner), "3-4 (shared, same hand)" (an en dash) for busts on one
    hand-for-hand hand, "still in", or "not yet" while registration is open."""
    place = entrant.place
    if place is None:
        if entrant.status != EntrantStatus.ELIMINATED:
            return "still in"
        return "not yet (registration open)" if tournament.registration_open else "—"
    if shared > 1:
        return f"{place}–{place + shared - 1} (shared, same hand)"
    return str(place)


def place_note(tournament: Tournament, entrant: Entrant, shared: int, *, dealt: bool) -> str:
    """What the CSV says beside a place's number, which stays a number (or empty): "winner",
    "shared 3rd to 4th, same hand" (the two joined by an en dash; TDA RP-8-A), "still in",
    "not placed: registration open" (TDA 8), and "deal" for a player a recorded deal covers;
    several joined by "; "."""
    notes = []
    place = entrant.place
    if place is None:
        if entrant.status != EntrantStatus.ELIMINATED:
            notes.append("still in")
        elif tournament.registration_open:
            notes.append("not placed: registration open")
    elif shared > 1:
        notes.append(f"shared {ordinal(place)}–{ordinal(place + shared - 1)}, same hand")
    elif place == 1 and entrant.status != EntrantStatus.ELIMINATED:
        notes.append("winner")
    if dealt:
        notes.append("deal")
    return "; ".join(notes)


def winner(tournament: Tournament) -> Entrant | None:
    """The last player standing of a complete tournament (1st), else None."""
    if tournament.status != TournamentStatus.COMPLETE:
        return None
    return tournament.entrants.filter(place=1).exclude(status=EntrantStatus.ELIMINATED).first()


def public_names(entrants: Iterable[Entrant]) -> dict[int, str]:
    """What a public screen may show of each entrant (never a full name): the alias of the
    entry's person (``Entrant.player``), else the initials of the name entered ("Ana Ruiz":
    "A.R."), else (a name of no letters or digits) the entry number. One query."""
    entrants = list(entrants)
    players = Player.objects.in_bulk({e.player_id for e in entrants})
    found = {}
    for entrant in entrants:
        player = players.get(entrant.player_id)
        alias = player.alias.strip() if player is not None else ""
        shown = alias or initials(entrant.name)
        found[entrant.pk] = shown or f"#{entrant.number}"
    return found


#: The finishing places a room display shows when the tournament is over.
DISPLAY_PLACES = 10


def final_standings(tournament: Tournament, count: int = DISPLAY_PLACES) -> list[dict[str, Any]]:
    """The best ``count`` places of a complete tournament as a public screen shows them (the
    room display's TV link is public): place and public name, never a full name."""
    placed = [row for row in standings(tournament) if row.place is not None][:count]
    names = public_names(row.entrant for row in placed)
    return [{"place": row.label, "name": names[row.entrant.pk]} for row in placed]


#: ``place`` is a number (empty while not finished); ``place_note`` the words beside it.
CSV_COLUMNS = (
    "place", "place_note", "name", "entry", "out_at", "table", "room_table", "seat", "hand", "hand_id",
    "hand_for_hand_hand", "prize", "paid",
)  # fmt: skip


def plain_amount(amount: int | None, currency: Currency) -> str:
    """An amount as a spreadsheet reads it: "1234.50" (no symbol, no grouping); "" for none."""
    if amount is None:
        return ""
    whole, minor = divmod(amount, 10**currency.minor_units)
    if not currency.minor_units:
        return str(whole)
    return f"{whole}.{str(minor).rjust(currency.minor_units, '0')}"


def results_currency(tournament: Tournament) -> Currency:
    return currency_of(prices_of(tournament))


def write_results_csv(out: Any, rows: Iterable[Standing], currency: Currency | None = None) -> None:
    """The results as CSV, one row a place; cells a spreadsheet would run as formulas (a name
    typed as ``=HYPERLINK(...)``) start with an apostrophe (``spreadsheet_safe``). ``place``
    is only ever a number, the best of a shared place (empty while not finished), so a
    spreadsheet sorts and sums it; the words go in ``place_note``. ``prize`` is the amount
    owed in the currency's major unit ("340.00"; a dealt player still in: the deal's share),
    ``paid`` when it was paid."""
    currency = currency or room_currency()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        out_row = row.elimination
        cells = [
            row.place if row.place is not None else "", row.note, row.entrant.name,
            row.entrant.number,
            row.out_at.isoformat() if row.out_at else "",
            # "table" is the table's one name, the room's number; "room_table", the same,
            # stays for the spreadsheets that read it.
            row.room_table or "", row.room_table or "",
            out_row.seat if out_row and out_row.seat else "",
            row.hand_label, out_row.hand_id if out_row and out_row.hand_id else "",
            out_row.hand_for_hand_hand if out_row and out_row.hand_for_hand_hand else "",
            plain_amount(row.prize if row.prize is not None else row.deal_share, currency),
            row.paid.at.isoformat() if row.paid else "",
        ]  # fmt: skip
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
