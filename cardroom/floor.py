"""What the floor dashboard shows, read in a fixed number of queries however many tables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, JSONField, OuterRef, Prefetch, Q, QuerySet, Subquery

from cardroom.models import Hand, HandStatus, Ruling, Table
from cardroom.services import engine_state
from rules.engine.state import snapshot
from tournaments.models import SeatAssignment, Tournament, TournamentStatus, TournamentTable


def live_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.exclude(status=TournamentStatus.COMPLETE).order_by("name")


@dataclass(frozen=True)
class Card:
    table: Table
    hand: Hand | None
    street: str | None
    pot: int | None
    seats_taken: int

    @property
    def version(self) -> str:
        hand = f"{self.hand.pk}.{self.hand.seq}" if self.hand else "-"
        table = self.table
        ruling = table.last_ruling_id or "-"
        return f"{table.updated_at.timestamp()}:{hand}:{ruling}:{self.seats_taken}"


def tables_for_floor(filters: dict[str, Any] | None = None) -> QuerySet[Table]:
    last_ruling = Ruling.objects.filter(table=OuterRef("pk")).order_by("-created_at", "-id")
    in_tournament = TournamentTable.objects.in_play().filter(table=OuterRef("pk"))
    seated = (
        SeatAssignment.objects.filter(
            table__in=TournamentTable.objects.in_play(),
            table__table=OuterRef("pk"),
            ended_at__isnull=True,
        )
        .order_by()
        .values("table__table")
        .annotate(n=Count("pk"))
        .values("n")
    )
    last_deal = (
        Hand.objects.filter(table=OuterRef("pk"))
        .exclude(state=HandStatus.VOIDED)
        .order_by("-number")
        .values("seats")
    )
    tables = Table.objects.annotate(
        last_ruling_id=Subquery(last_ruling.values("id")[:1]),
        last_ruling_number=Subquery(last_ruling.values("number")[:1]),
        last_ruling_decision=Subquery(last_ruling.values("decision")[:1]),
        tournament_now_name=Subquery(in_tournament.values("tournament__name")[:1]),
        tournament_seated=Subquery(seated[:1]),
        last_deal_seats=Subquery(last_deal[:1], output_field=JSONField()),
    ).prefetch_related(
        Prefetch(
            "hands",
            queryset=Hand.objects.filter(state=HandStatus.IN_PROGRESS).prefetch_related("actions"),
            to_attr="live_hands",
        )
    )
    for name, value in (filters or {}).items():
        if value in (None, ""):
            continue
        if name == "stakes":
            tables = tables.filter(small_blind=value[0], big_blind=value[1])
        elif name == "tournament" and str(value).isdigit():  # one tournament's tables
            tables = tables.filter(
                pk__in=TournamentTable.objects.in_play()
                .filter(tournament_id=int(value))
                .values("table_id")
            )
        elif name == "tournament":
            tables = tables.filter(kind="tournament" if value == "yes" else "cash")
        else:
            tables = tables.filter(**{name: value})
    return tables


def cards(tables: QuerySet[Table]) -> list[Card]:
    result = []
    for table in tables:
        hand = table.live_hands[0] if table.live_hands else None  # type: ignore[attr-defined]
        street = pot = None
        if hand is not None:
            state = snapshot(engine_state(hand))
            street, pot = state["street"], state["pot"]
        result.append(Card(table, hand, street, pot, seats_taken(table, hand)))
    return result


def seats_taken(table: Any, hand: Hand | None) -> int:
    """Players at the table: those dealt into the hand in progress; at a tournament table
    between hands, the players seated there by the draws; else those in the last hand."""
    if hand is not None:
        return len(hand.seats)
    if table.tournament_seated:
        return int(table.tournament_seated)
    return len(table.last_deal_seats or [])


def changed_table_ids(since: datetime) -> set[int]:
    """Tables whose card looks different since ``since``: settings, hands or rulings."""
    ids = set(Table.objects.filter(updated_at__gt=since).values_list("pk", flat=True))
    ids |= set(Hand.objects.filter(Q(updated_at__gt=since)).values_list("table_id", flat=True))
    ids |= set(Ruling.objects.filter(created_at__gt=since).values_list("table_id", flat=True))
    moved = SeatAssignment.objects.filter(Q(started_at__gt=since) | Q(ended_at__gt=since))
    ids |= set(moved.values_list("table__table_id", flat=True))
    return ids


def recent_rulings(limit: int = 10) -> list[Ruling]:
    return list(
        Ruling.objects.select_related("table", "director")
        .prefetch_related("citations__rule")
        .order_by("-created_at", "-id")[:limit]
    )
