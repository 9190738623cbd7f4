"""The reconciliation of a tournament's money ledger (``MoneyMove``), and of a day's: what came in
(from the players, by kind and by method; from the room: added money and overlays), where it is
held (the prize pool, the house fee, the staff fee, the bounties, what is owed to players) and
what went out (prizes, bounties, fees taken), the balance equation, and every difference named.

Read only. Every sum is one database aggregate (grouped by kind and method: a few dozen rows
however long the ledger), every list of lines is bounded, and the one walk of every line (the
chain's verification) reads a row at a time. The differences:

* a line that does not balance (the database refuses one, so only a rewrite outside the
  application makes one), or a line moving a place its kind never moves (a payout touching the
  house fee);
* the ledger's chain broken (``cardroom.core.audit.verify_stream``, as ``verify_audit`` walks
  every chain);
* a place holding less than nothing (more paid out of the prize pool than came into it);
* once the tournament is complete, prizes still held (naming who is unpaid) and amounts still
  owed to players (bounties won, not paid).

The drawer (what each method took less what it paid) is shown beside, not counted as a
difference: prizes paid in cash from entries taken by card leave the cash drawer short by
design, and the cage covers it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import reduce
from operator import or_
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Count, F, Q, QuerySet, Sum

from cardroom.core import audit
from cardroom.rulings.reading import spreadsheet_safe
from tournaments.models import Tournament, TournamentStatus
from tournaments.money.currency import Currency, format_money, room_currency
from tournaments.money.currency import currency_of as of_prices
from tournaments.money.models import Method, MoneyMove, MoveKind, Prices
from tournaments.money.payouts import prizes_owed

#: Money across the desk, and the places the money is held (signed), as the ledger's columns.
DESK = ("player_in", "room_in", "player_out", "room_out")
PLACES = ("pool", "house", "staff", "bounty", "owed")
COLUMNS = DESK + PLACES
PLACE_NAMES = {
    "pool": "prize pool",
    "house": "house fee",
    "staff": "staff fee",
    "bounty": "bounties",
    "owed": "owed to players",
}
#: The most differences of one sort named on a page (the count says how many there are).
NAMED = 20
#: Lines a page of the ledger lists.
PAGE_SIZE = 50

PAYMENTS = (MoveKind.ENTRY, MoveKind.REENTRY, MoveKind.REBUY, MoveKind.ADDON)
#: The columns each kind of line may move (the ledger's meaning, written once in
#: ``tournaments.money.models``); any other column non-zero is a line of the wrong shape.
MOVES: dict[str, frozenset[str]] = {
    **{kind: frozenset({"player_in", "pool", "house", "staff", "bounty"}) for kind in PAYMENTS},
    MoveKind.REFUND: frozenset({"player_out", "pool", "house", "staff", "bounty"}),
    MoveKind.ADDED: frozenset({"room_in", "pool"}),
    MoveKind.OVERLAY: frozenset({"room_in", "pool"}),
    MoveKind.BOUNTY_WON: frozenset({"bounty", "owed"}),
    MoveKind.BOUNTY_PAID: frozenset({"owed", "player_out"}),
    MoveKind.PAYOUT: frozenset({"pool", "player_out"}),
    MoveKind.FEES_TAKEN: frozenset({"room_out", "house", "staff"}),
    MoveKind.DEAL: frozenset(),
}


def unbalanced() -> Q:
    """Lines whose two sides differ, or with money across the desk below zero (the database's
    own two checks on ``MoneyMove``, asked of the rows it holds)."""
    held = F("pool") + F("house") + F("staff") + F("bounty") + F("owed")
    balances = Q(player_in=held - F("room_in") + F("player_out") + F("room_out"))
    return ~balances | reduce(or_, (Q(**{f"{name}__lt": 0}) for name in DESK))


def misshapen() -> Q:
    """Lines moving a column their kind never moves (or of a kind the ledger does not know)."""
    wrong = [
        Q(kind=kind) & reduce(or_, (~Q(**{name: 0}) for name in COLUMNS if name not in moves))
        for kind, moves in MOVES.items()
        if set(COLUMNS) - moves
    ]
    return reduce(or_, wrong) | ~Q(kind__in=list(MOVES))


@dataclass(frozen=True)
class Sums:
    """The ledger's columns added up, with the number of lines."""

    lines: int = 0
    player_in: int = 0
    room_in: int = 0
    player_out: int = 0
    room_out: int = 0
    pool: int = 0
    house: int = 0
    staff: int = 0
    bounty: int = 0
    owed: int = 0

    @property
    def paid_in(self) -> int:
        return self.player_in + self.room_in

    @property
    def paid_out(self) -> int:
        return self.player_out + self.room_out

    @property
    def held(self) -> int:
        return self.pool + self.house + self.staff + self.bounty + self.owed

    @property
    def balances(self) -> bool:
        return self.paid_in - self.paid_out == self.held

    def __add__(self, other: Sums) -> Sums:
        return Sums(**{name: getattr(self, name) + getattr(other, name) for name in SUM_FIELDS})


SUM_FIELDS = ("lines", *COLUMNS)


def total(sums: Iterable[Sums]) -> Sums:
    return sum(sums, Sums())


@dataclass(frozen=True)
class Difference:
    """A thing that does not add up: what it is, and where (a line, a player, a place)."""

    what: str
    where: str
    line: int | None = None


@dataclass(frozen=True)
class DrawerLine:
    method: str
    label: str
    taken: int
    paid: int

    @property
    def net(self) -> int:
        return self.taken - self.paid


@dataclass
class Reconciliation:
    """One tournament's money, or one day's across the tournaments with lines that day."""

    currency: Currency
    #: Per (kind, method): the lines' sums (one grouped query).
    groups: dict[tuple[str, str], Sums]
    differences: list[Difference] = field(default_factory=list)

    @property
    def totals(self) -> Sums:
        return total(self.groups.values())

    @property
    def balanced(self) -> bool:
        return not self.differences

    def by_kind(self, *kinds: str) -> Sums:
        return total(sums for (kind, _), sums in self.groups.items() if kind in kinds)

    def money(self, amount: int) -> str:
        return format_money(amount, self.currency)

    def players_in(self) -> list[tuple[str, int, int]]:
        """Per kind of payment: its label, the lines and the amount taken (refunds negative)."""
        rows = []
        for kind in (*PAYMENTS, MoveKind.REFUND):
            sums = self.by_kind(kind)
            if sums.lines:
                rows.append((MoveKind(kind).label, sums.lines, sums.player_in - sums.player_out))
        return rows

    def room_in(self) -> list[tuple[str, int, int]]:
        rows = []
        for kind in (MoveKind.ADDED, MoveKind.OVERLAY):
            sums = self.by_kind(kind)
            if sums.lines:
                rows.append((MoveKind(kind).label, sums.lines, sums.room_in))
        return rows

    def out(self) -> list[tuple[str, int, int]]:
        """What left the box: prizes, bounties and fees taken (refunds are with the payments)."""
        return [
            ("Prizes paid", *self._lines_and(MoveKind.PAYOUT, "player_out")),
            ("Bounties paid", *self._lines_and(MoveKind.BOUNTY_PAID, "player_out")),
            ("Fees taken", *self._lines_and(MoveKind.FEES_TAKEN, "room_out")),
        ]

    def _lines_and(self, kind: str, column: str) -> tuple[int, int]:
        sums = self.by_kind(kind)
        return sums.lines, getattr(sums, column)

    def held(self) -> list[tuple[str, int]]:
        sums = self.totals
        return [(PLACE_NAMES[name].capitalize(), getattr(sums, name)) for name in PLACES]

    def drawer(self) -> list[DrawerLine]:
        """Per method: what it took (players and room) and what it paid out."""
        rows = []
        for method in Method:
            sums = total(s for (_, m), s in self.groups.items() if m == method)
            if sums.lines:
                rows.append(DrawerLine(method, method.label, sums.paid_in, sums.paid_out))
        return rows


def sums_by_kind_and_method(lines: QuerySet[MoneyMove]) -> dict[tuple[str, str], Sums]:
    aggregates = {name: Sum(name, default=0) for name in COLUMNS}
    grouped: Iterable[Any] = (
        lines.order_by().values("kind", "method").annotate(lines=Count("pk"), **aggregates)
    )
    return {
        (row["kind"], row["method"]): Sums(**{name: row[name] for name in SUM_FIELDS})
        for row in grouped
    }


def line_differences(
    lines: QuerySet[MoneyMove], currency: Currency, limit: int | None = NAMED
) -> list[Difference]:
    """Lines that do not balance, and lines of the wrong shape (at most ``limit`` of each)."""
    found = []
    money = currency.format
    fields = (*COLUMNS, "pk", "kind")
    for row in lines.filter(unbalanced()).order_by("pk").values(*fields)[:limit]:
        sums = Sums(**{name: row[name] for name in COLUMNS})
        found.append(
            Difference(
                f"does not balance: {money(sums.paid_in)} in less {money(sums.paid_out)} out "
                f"is not the {money(sums.held)} it puts where money is held",
                f"line {row['pk']} ({row['kind']})",
                row["pk"],
            )
        )
    for row in lines.filter(misshapen()).order_by("pk").values(*fields)[:limit]:
        moved = [name for name in COLUMNS if row[name] and name not in MOVES.get(row["kind"], ())]
        found.append(
            Difference(
                f"a line of kind “{row['kind']}” moves {', '.join(moved) or 'nothing it may'}",
                f"line {row['pk']}",
                row["pk"],
            )
        )
    return found


def held_below_zero(sums: Sums, currency: Currency) -> list[Difference]:
    return [
        Difference(
            f"the {PLACE_NAMES[name]} holds {format_money(getattr(sums, name), currency)}: more "
            "went out of it than came in",
            PLACE_NAMES[name],
        )
        for name in PLACES
        if getattr(sums, name) < 0
    ]


def chain_differences(tournament_ids: Iterable[int]) -> list[Difference]:
    found = []
    for tournament_id in tournament_ids:
        for broken in audit.verify_stream(MoneyMove, tournament_id)[:NAMED]:
            found.append(
                Difference(
                    f"the ledger's chain is broken: {broken.what}",
                    f"line {broken.row} of tournament {tournament_id}",
                    broken.row,
                )
            )
    return found


def currency_of(tournament_id: int) -> Currency:
    """The currency of the tournament's price list (its money was taken in it), else the
    room's."""
    fields = Prices.objects.filter(tournament_id=tournament_id).only("currency", "minor_units")
    prices = fields.first()
    return of_prices(prices)


def reconcile(tournament: Tournament) -> Reconciliation:
    """The tournament's money, added up, with every difference named."""
    lines = MoneyMove.objects.filter(tournament=tournament)
    result = Reconciliation(currency_of(tournament.pk), sums_by_kind_and_method(lines))
    result.differences += line_differences(lines, result.currency)
    totals = result.totals
    if not totals.balances:
        result.differences.append(totals_difference(totals, result.currency))
    result.differences += chain_differences([tournament.pk])
    result.differences += held_below_zero(totals, result.currency)
    if tournament.status == TournamentStatus.COMPLETE:
        result.differences += unpaid(tournament, totals, result.currency)
    return result


def totals_difference(sums: Sums, currency: Currency) -> Difference:
    money = currency.format
    return Difference(
        f"the totals do not balance: {money(sums.paid_in)} in less {money(sums.paid_out)} out "
        f"is not the {money(sums.held)} held",
        "the whole ledger",
    )


def unpaid(tournament: Tournament, sums: Sums, currency: Currency) -> list[Difference]:
    """Once the tournament is complete every prize is paid and nothing is owed: name who is
    still unpaid (WSOP and TDA practice: the prize pool is paid out in full the day the event
    ends; the room keeps no prize money)."""
    found = []
    if sums.pool > 0:
        found.append(
            Difference(
                f"the tournament is complete and the prize pool still holds "
                f"{currency.format(sums.pool)}",
                "prize pool",
            )
        )
        found += unpaid_prizes(tournament, currency)
    if sums.owed:
        owed = (
            MoneyMove.objects.filter(tournament=tournament)
            .order_by()
            .values("entrant", "entrant__name", "entrant__number")
            .annotate(owed=Sum("owed"))
            .exclude(owed=0)
            .order_by("entrant__number")[:NAMED]
        )
        for row in owed:
            found.append(
                Difference(
                    f"is still owed {currency.format(row['owed'])} (bounties won, not paid)",
                    f"{row['entrant__name']} #{row['entrant__number']}",
                )
            )
    return found


def unpaid_prizes(tournament: Tournament, currency: Currency) -> list[Difference]:
    """The finishers in the money (``payouts.prizes_owed``: the table in force, shared places,
    a deal's shares) with no prize paid, best place first."""
    return [
        Difference(
            f"has no prize paid: {currency.format(owed.amount)} owed for {owed.label} place",
            f"{owed.entrant.name} #{owed.entrant.number}",
        )
        for owed in prizes_owed(tournament)
        if owed.paid is None and owed.amount > 0
    ][:NAMED]


def local_day(day: date) -> tuple[datetime, datetime]:
    """The room's day (``TIME_ZONE``) as the instants it starts and ends (a day of a clock
    change is 23 or 25 hours long)."""
    zone = ZoneInfo(settings.TIME_ZONE)
    start = datetime.combine(day, time.min, tzinfo=zone)
    return start, datetime.combine(day + timedelta(days=1), time.min, tzinfo=zone)


@dataclass(frozen=True)
class TournamentDay:
    tournament_id: int
    name: str
    sums: Sums


def day_lines(day: date) -> QuerySet[MoneyMove]:
    start, end = local_day(day)
    return MoneyMove.objects.filter(at__gte=start, at__lt=end)


#: The most tournaments a day's page lists (a room runs a handful a day).
DAY_TOURNAMENTS = 100


def reconcile_day(day: date) -> tuple[Reconciliation, list[TournamentDay]]:
    """Every tournament's lines on the room's date ``day``, added up, with the tournaments one
    by one; differences: lines that do not balance or are misshapen, broken chains."""
    lines = day_lines(day)
    result = Reconciliation(room_currency(), sums_by_kind_and_method(lines))
    aggregates = {name: Sum(name, default=0) for name in COLUMNS}
    grouped: Iterable[Any] = (
        lines.order_by()
        .values("tournament", "tournament__name")
        .annotate(lines=Count("pk"), **aggregates)
        .order_by("tournament")[:DAY_TOURNAMENTS]
    )
    per_tournament = [
        TournamentDay(
            row["tournament"],
            row["tournament__name"],
            Sums(**{name: row[name] for name in SUM_FIELDS}),
        )
        for row in grouped
    ]
    result.differences += line_differences(lines, result.currency)
    if not result.totals.balances:
        result.differences.append(totals_difference(result.totals, result.currency))
    result.differences += chain_differences(t.tournament_id for t in per_tournament)
    return result, per_tournament


# --- the lines ------------------------------------------------------------------------------


def lines_newest_first(lines: QuerySet[MoneyMove]) -> QuerySet[MoneyMove]:
    return lines.select_related("entrant", "from_entrant", "by", "tournament").order_by("-pk")


CSV_HEADER = (
    "line", "at", "tournament", "kind", "method", "entrant", "player", "from", *COLUMNS,
    "chips", "place", "refund of", "deal", "hand", "note", "by",
)  # fmt: skip
CSV_VALUES = (
    "pk", "at", "tournament_id", "kind", "method", "entrant__number", "entrant__name",
    "from_entrant__name", *COLUMNS, "chips", "place", "refund_of_id", "deal_id", "hand_id",
    "note", "by__username",
)  # fmt: skip


def csv_rows(lines: QuerySet[MoneyMove]) -> Iterator[list[Any]]:
    """The header, then every line newest first, read a chunk at a time (amounts in the minor
    unit, as stored; text cells made safe for spreadsheets)."""
    yield list(CSV_HEADER)
    rows = lines.order_by("-pk").values_list(*CSV_VALUES).iterator(chunk_size=500)
    for row in rows:
        cells = list(row)
        cells[1] = cells[1].isoformat()
        yield [spreadsheet_safe(c) if isinstance(c, str) else c for c in cells]


def ledger_breaks(using: str = "default") -> Iterator[audit.Break]:
    """For ``verify_audit``: each tournament's ledger, line by line and added up (a line that
    does not balance or moves what its kind may not, totals that do not balance, a place
    holding less than nothing). Its chain is walked with every other chain."""
    table = MoneyMove._meta.db_table
    ledger = MoneyMove.objects.using(using)
    tournaments = ledger.order_by("tournament_id").values_list("tournament_id", flat=True)
    for tournament_id in list(tournaments.distinct()):
        lines = ledger.filter(tournament_id=tournament_id)
        currency = currency_of(tournament_id)
        for difference in line_differences(lines, currency, limit=None):
            yield audit.Break(table, difference.line or 0, difference.what)
        sums = total(sums_by_kind_and_method(lines).values())
        found = held_below_zero(sums, currency)
        if not sums.balances:
            found.append(totals_difference(sums, currency))
        for difference in found:
            what = f"the ledger of tournament {tournament_id}: {difference.what}"
            yield audit.Break(Tournament._meta.db_table, tournament_id, what)
