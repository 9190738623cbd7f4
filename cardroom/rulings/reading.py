"""Reading the rulings log: what a ruling points at, chains of amendments, precedents, CSV
export."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Count

from cardroom.rulings.models import Ruling
from cardroom.tables.models import Hand, HandAction, Table
from rules.models import Rule

CSV_COLUMNS = (
    "id", "table", "tournament", "number", "kind", "amends", "hand", "action", "seats", "players",
    "situation", "decision", "citations", "director", "created_at",
)  # fmt: skip


#: The largest id or number a reference may hold (the columns' limit): past it, nothing is found.
LARGEST_ID = 2**63 - 1


def ruling_references(
    *, table: int, hand: int | None = None, action: int | None = None, amends: int | None = None
) -> dict[str, Any]:
    """What a ruling points at, from the numbers a director gives: the table's number, the
    hand's id, the action's ``seq`` in that hand, the amended ruling's id. Each one given must
    exist (``ValidationError`` naming each field that names nothing); the service then checks
    that they belong together (the hand dealt at the table, the ruling made there)."""
    found: dict[str, Any] = {"table": None, "hand": None, "action": None, "amends": None}
    errors: dict[str, str] = {}
    if 0 < table <= LARGEST_ID:
        found["table"] = Table.objects.filter(number=table).first()
    if found["table"] is None:
        errors["table"] = f"There is no table {table}."
    if hand is not None:
        if 0 < hand <= LARGEST_ID:
            found["hand"] = Hand.objects.filter(pk=hand).first()
        if found["hand"] is None:
            errors["hand"] = f"There is no hand {hand}."
    if action is not None and "hand" not in errors:
        actions = HandAction.objects.filter(hand=found["hand"], seq=action)
        found["action"] = actions.first() if found["hand"] and 0 < action <= LARGEST_ID else None
        if found["action"] is None:
            errors["action"] = "That hand has no action with this number."
    if amends is not None:
        if 0 < amends <= LARGEST_ID:
            found["amends"] = Ruling.objects.filter(pk=amends).first()
        if found["amends"] is None:
            errors["amends"] = f"There is no ruling {amends}."
    if errors:
        raise ValidationError(errors)
    return found


def cited_rules(ids: Iterable[str]) -> list[Rule]:
    """The rules behind citation ids, in the order given, unknown ids dropped."""
    wanted = [i for i in dict.fromkeys(ids) if i]
    found = {rule.citation_id: rule for rule in Rule.objects.filter(citation_id__in=wanted)}
    return [found[i] for i in wanted if i in found]


def precedents(citation_ids: list[str], *, limit: int = 5) -> list[Ruling]:
    """Past rulings citing the same rules, the most rules in common first."""
    if not citation_ids:
        return []
    return list(
        Ruling.objects.filter(citations__rule__citation_id__in=citation_ids)
        .annotate(shared=Count("citations", distinct=True))
        .select_related("table", "director")
        .prefetch_related("citations__rule")
        .order_by("-shared", "-created_at")[:limit]
    )


def amendment_draft(ruling: Ruling) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """A blank amendment of ``ruling``: its facts and its citations with their pinpoints, so
    the director changes only what the amendment or appeal changes. The amendment is still a
    new, append-only ruling linked to this one (``amends``)."""
    initial = {
        "table": ruling.table.number, "hand": ruling.hand_id,
        "action": ruling.action.seq if ruling.action_id and ruling.action else None,
        "seats": ", ".join(map(str, ruling.seats)),
        "situation": ruling.situation, "decision": ruling.decision,
    }  # fmt: skip
    return initial, [(c.rule_id, c.note) for c in ruling.citations.order_by("order")]


def ruling_chain(ruling: Ruling) -> list[Ruling]:
    """The original ruling and every amendment or appeal after it, oldest first."""
    root = ruling
    while root.amends_id is not None:
        root = Ruling.objects.select_related("amends").get(pk=root.amends_id)
    chain, frontier = [root], [root]
    while frontier:
        children = list(
            Ruling.objects.filter(amends__in=frontier)
            .select_related("director")
            .order_by("created_at")
        )
        chain.extend(children)
        frontier = children
    return chain


#: A cell starting with one of these is read as a formula by spreadsheet programs.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """Text a spreadsheet would run as a formula (``=HYPERLINK(...)`` typed into a situation)
    gets a leading apostrophe, so it opens as the text that was written. Numbers pass."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def write_rulings_csv(
    out: Any, rulings: Iterable[Ruling], tournament_name: Callable[[Ruling], str]
) -> None:
    """The log as CSV; ``tournament_name`` names each ruling's tournament (the tournaments
    record their rulings, above this log: ``cardroom.rulings.services.tournament_name``)."""
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for r in rulings:
        row = (
            [
                r.pk, r.table.number, tournament_name(r), r.number, r.kind, r.amends_id or "", r.hand_id or "",
                r.action.seq if r.action_id and r.action else "", " ".join(map(str, r.seats)),
                "; ".join(r.seat_labels), r.situation, r.decision,
                "; ".join(
                    f"{c.rule_id}{' (' + c.note + ')' if c.note else ''}" for c in r.citations.all()
                ),
                r.director.get_username(), r.created_at.isoformat(),
            ]
        )  # fmt: skip
        writer.writerow([spreadsheet_safe(cell) for cell in row])
