"""Writing the rulings log: a director's ruling, numbered per table, citing the rulebook,
stamped with the tournament playing at the table, safe to post twice (idempotency keys).

It sits in the top layer, beside the floor: a ruling records the tournament at its table, so
writing one reads the tournaments. (Reading the log: ``cardroom/rulings/reading.py``, below them.)"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max

from cardroom.core.api_errors import Refusal
from cardroom.core.locks import lock_row
from cardroom.core.roles import RoleRequired, has_role, ruling_roles
from cardroom.rulings.models import Ruling, RulingCitation, RulingKind
from cardroom.seats.services import live_seats
from cardroom.tables.choices import TableKind
from cardroom.tables.models import Hand, HandAction, Table
from rules.models import Rule
from tournaments.models import SeatAssignment, Tournament, TournamentRuling, TournamentTable


def log_ruling(
    *,
    table: Table,
    director: User,
    situation: str,
    decision: str,
    citations: list[tuple[str, str]],
    hand: Hand | None = None,
    action: HandAction | None = None,
    seats: list[int] | None = None,
    amends: Ruling | None = None,
    kind: str = RulingKind.RULING,
    request_key: str | None = None,
) -> Ruling:
    """Record a ruling citing rules of the rulebook (``citations``: citation id, pinpoint).

    ``request_key`` (the client's idempotency key) makes a retry safe: a post repeated because
    its answer was lost returns the ruling the first one wrote instead of writing it twice.
    """
    ruling, _ = record_ruling(
        table=table, director=director, situation=situation, decision=decision,
        citations=citations, hand=hand, action=action, seats=seats, amends=amends, kind=kind,
        request_key=request_key,
    )  # fmt: skip
    return ruling


def record_ruling(
    *,
    table: Table,
    director: User,
    situation: str,
    decision: str,
    citations: list[tuple[str, str]],
    hand: Hand | None = None,
    action: HandAction | None = None,
    seats: list[int] | None = None,
    amends: Ruling | None = None,
    kind: str = RulingKind.RULING,
    request_key: str | None = None,
) -> tuple[Ruling, bool]:
    """``log_ruling``, also saying whether the ruling is a replay: written earlier by a post
    with the same ``request_key`` (and the same ruling in it), not by this call."""
    asked = RulingRequest(
        table_id=table.pk, director_id=director.pk, situation=situation.strip(),
        decision=decision.strip(), kind=kind, amends_id=amends.pk if amends else None,
        hand_id=hand.pk if hand else None, action_id=action.pk if action else None,
        seats=sorted(set(seats or [])),
        citations=[(citation, note.strip()) for citation, note in citations],
    )  # fmt: skip
    if request_key is not None and (done := replayed_ruling(request_key, asked)):
        return done, True
    check_may_rule(director, table=table, amends=amends)

    errors: dict[str, str] = {}
    if not situation.strip():
        errors["situation"] = "Describe the situation."
    if not decision.strip():
        errors["decision"] = "Give the decision."
    ids = [citation for citation, _ in citations]
    if not ids:
        errors["citations"] = "Cite at least one rule."
    elif len(ids) != len(set(ids)):
        errors["citations"] = "Each rule is cited once; put pinpoints in its note."
    rules = {rule.citation_id: rule for rule in Rule.objects.filter(citation_id__in=ids)}
    unknown = [citation for citation in ids if citation not in rules]
    withdrawn = [citation for citation in ids if citation in rules and rules[citation].withdrawn]
    if unknown:
        errors["citations"] = f"Not in the rulebook: {', '.join(unknown)}."
    elif withdrawn:
        errors["citations"] = f"Withdrawn from the rulebook: {', '.join(withdrawn)}."
    if hand is not None and hand.table_id != table.pk:
        errors["hand"] = f"{hand} was not dealt at {table}."
    if action is not None and (hand is None or action.hand_id != hand.pk):
        errors["action"] = "The action must belong to the hand the ruling is about."
    if kind not in RulingKind.values:
        errors["kind"] = "Choose a ruling, an amendment or an appeal outcome."
    elif (kind == RulingKind.RULING) != (amends is None):
        errors["amends"] = (
            "Amendments and appeal outcomes name the ruling they change; rulings don't."
        )
    if amends is not None and amends.table_id != table.pk:
        errors["amends"] = f"{amends} was made at another table."
    seated = (
        {entry["seat"] for entry in hand.seats}
        if hand is not None
        else set(range(1, table.seats + 1))
    )
    if seats and any(seat not in seated for seat in seats):
        errors["seats"] = "Name seats that were in the hand (or at the table)."
    if errors:
        raise ValidationError(errors)
    try:
        with transaction.atomic():
            # Lock the table so two directors never get the same ruling number.
            locked = lock_row(Table, table.pk)
            # The same key sent twice at once: the other post, which held the lock first, has
            # committed its ruling by now (read again after the wait).
            if request_key is not None and (done := replayed_ruling(request_key, asked)):
                return done, True
            number = (locked.rulings.aggregate(n=Max("number"))["n"] or 0) + 1
            involved = sorted(set(seats or []))
            sitting = seat_names(locked, hand=hand, amends=amends)
            ruling = Ruling.objects.create(
                table=locked, number=number, kind=kind,
                amends=amends, hand=hand, action=action, seats=involved,
                names={str(n): sitting[n] for n in involved if sitting.get(n)},
                situation=situation.strip(),
                decision=decision.strip(), director=director, request_key=request_key,
            )  # fmt: skip
            if (tournament := tournament_at(locked)) is not None:
                TournamentRuling.objects.create(ruling=ruling, tournament=tournament)
            RulingCitation.objects.bulk_create(
                RulingCitation(ruling=ruling, rule=rules[citation], note=note.strip(), order=order)
                for order, (citation, note) in enumerate(citations)
            )
    except IntegrityError:
        # The same key sent twice at once: the other request wrote it first.
        if request_key is None or not (done := replayed_ruling(request_key, asked)):
            raise
        return done, True
    return ruling, False


def seat_names(
    table: Table, *, hand: Hand | None = None, amends: Ruling | None = None
) -> dict[int, str]:
    """Who sits in each seat for a ruling at ``table``, by seat number: the players dealt into
    ``hand`` as it was dealt (a ruling about a hand names who played it, whoever sits there
    now); else who sits there now (the cash seat map, or the tournament's seating at the
    table), the names an amended ruling recorded taking the place of today's. The seat picker
    shows these and the ruling stores them."""
    if hand is not None:
        return {int(seat): name for seat, name in (hand.names or {}).items()}
    playing = (
        TournamentTable.objects.in_play().filter(table=table).values_list("pk", flat=True).first()
    )
    if playing is not None:
        seated = SeatAssignment.objects.filter(table_id=playing, ended_at__isnull=True)
        names = {a.seat: a.entrant.name for a in seated.select_related("entrant")}
    else:
        names = {s.seat: s.player.name for s in live_seats(table)}
    if amends is not None:
        names.update({int(seat): name for seat, name in (amends.names or {}).items()})
    return names


def is_tournament_ruling(table: Table, amends: Ruling | None = None) -> bool:
    """A tournament's ruling: at a tournament table (or one where a tournament plays now), or
    amending or appealing a ruling made in a tournament."""
    if amends is not None and tournament_of(amends) is not None:
        return True
    return table.kind == TableKind.TOURNAMENT or tournament_at(table) is not None


def check_may_rule(user: User, *, table: Table, amends: Ruling | None = None) -> None:
    """``RoleRequired`` (403) unless ``user`` may log this ruling: its table decides
    (``roles.ruling_roles``: a cash table's floor manager or a director; a tournament's
    director alone)."""
    tournament = is_tournament_ruling(table, amends)
    roles = ruling_roles(tournament=tournament)
    if not has_role(user, *roles):
        where = (
            f"A ruling at {table}, a tournament table," if tournament else f"A ruling at {table}"
        )
        raise RoleRequired(*roles, doing=where)


def tournament_at(table: Table) -> Tournament | None:
    """The tournament playing at a room table now (its table there is active), or None."""
    seat = (
        TournamentTable.objects.in_play().filter(table=table).select_related("tournament").first()
    )
    return seat.tournament if seat is not None else None


@dataclass(frozen=True)
class RulingRequest:
    """What a ruling post asks for, normalized as the ruling is stored: a post sent again with
    the same idempotency key must ask for the same ruling."""

    table_id: int
    director_id: Any
    situation: str
    decision: str
    kind: str
    amends_id: int | None
    hand_id: int | None
    action_id: int | None
    seats: list[int]
    citations: list[tuple[str, str]]

    @classmethod
    def of(cls, ruling: Ruling) -> RulingRequest:
        cited = ruling.citations.order_by("order").values_list("rule_id", "note")
        return cls(
            table_id=ruling.table_id, director_id=ruling.director_id,
            situation=ruling.situation, decision=ruling.decision, kind=ruling.kind,
            amends_id=ruling.amends_id, hand_id=ruling.hand_id, action_id=ruling.action_id,
            seats=list(ruling.seats), citations=[tuple(row) for row in cited],
        )  # fmt: skip


class IdempotencyKeyReused(Refusal):
    """An idempotency key sent again with another ruling in the post."""

    code = "idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__(
            {"request_key": "This idempotency key belongs to another ruling; send a new one."}
        )


def replayed_ruling(request_key: str, asked: RulingRequest) -> Ruling | None:
    """The ruling an earlier post with this idempotency key wrote, if any. A key is one
    ruling's: sent again with anything else in the post (another table, director, text,
    citation...), it is refused rather than answered with a ruling that was not asked for."""
    done = Ruling.objects.filter(request_key=request_key).first()
    if done is not None and RulingRequest.of(done) != asked:
        raise IdempotencyKeyReused
    return done


#: What a page or the API reading rulings selects with them to name each one's tournament.
WITH_TOURNAMENT = "tournament_link__tournament"


def tournament_of(ruling: Ruling) -> Tournament | None:
    """The tournament that played at the ruling's table when it was made (its own record of the
    ruling, ``TournamentRuling``), or None for a cash game's."""
    link = getattr(ruling, "tournament_link", None)  # the reverse one-to-one, if any
    return link.tournament if link is not None else None


def tournament_name(ruling: Ruling) -> str:
    return tournament.name if (tournament := tournament_of(ruling)) is not None else ""
