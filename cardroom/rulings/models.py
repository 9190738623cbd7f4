"""The rulings log: a floor decision at a table, with the rules it cites. Append-only (the
model, the API and database triggers): an amendment or an appeal outcome is a new ruling
pointing at the one it changes. Written by ``services.py`` beside it, read by ``reading.py``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from cardroom.core.append_only import AppendOnly, chain_unique
from cardroom.core.audit import Chain
from cardroom.core.changes import Feed, Topic
from cardroom.tables.choices import choice_check


class RulingKind(models.TextChoices):
    RULING = "ruling", "Ruling"
    AMENDMENT = "amendment", "Amendment"
    APPEAL = "appeal", "Appeal outcome"


class Ruling(AppendOnly):
    """A floor decision. Never edited or deleted (model, API and database triggers): an
    amendment or an appeal outcome is a new ruling pointing at the one it changes. A ruling
    made while a tournament played at the table is the tournament's to record
    (``tournaments.TournamentRuling``): the log, below the tournaments, never points up at them."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.RULING, "table_id")

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "table_id",
        (
            "table_id",
            "number",
            "kind",
            "amends_id",
            "hand_id",
            "action_id",
            "seats",
            "situation",
            "decision",
            "director_id",
            "created_at",
            "request_key",
            "names",
        ),
        later={"names": {}},
    )

    append_only_message = "The rulings log is append-only: record an amendment instead."

    table = models.ForeignKey("cardroom.Table", on_delete=models.PROTECT, related_name="rulings")
    number = models.PositiveIntegerField(help_text="Numbered per table, in order.")
    kind = models.CharField(max_length=10, choices=RulingKind, default=RulingKind.RULING)
    amends = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="amendments"
    )
    hand = models.ForeignKey(
        "cardroom.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    action = models.ForeignKey(
        "cardroom.HandAction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rulings",
    )
    seats = models.JSONField(default=list, blank=True, help_text="Seats involved.")
    #: Who sat in each seat involved when the ruling was made ({"3": "Alice"}), from the hand
    #: the ruling is about (as dealt) or the seat map then, so a ruling read long after names
    #: the people, not seats that others have taken since. A seat empty then has no name.
    names = models.JSONField(
        default=dict, blank=True, help_text="The players in the seats involved, by seat."
    )
    situation = models.TextField()
    decision = models.TextField()
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rulings"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)
    request_key = models.CharField(
        max_length=64, null=True, blank=True, unique=True,
        help_text="The client's idempotency key: a retried post finds this ruling again.",
    )  # fmt: skip

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_ruling_number_per_table"),
            choice_check("kind", RulingKind),
            chain_unique("table"),
        ]
        # The floor dashboard reads each table's last ruling on every poll.
        indexes = [models.Index(fields=["table", "created_at"], name="ruling_table_created")]

    def __str__(self) -> str:
        return f"{self.table} ruling {self.number}"

    @property
    def seat_labels(self) -> list[str]:
        """Each seat involved as the floor says it: "Seat 3 · Alice" ("Seat 3" unnamed)."""
        names = self.names or {}
        return [
            f"Seat {seat} · {names[str(seat)]}" if names.get(str(seat)) else f"Seat {seat}"
            for seat in self.seats
        ]


class RulingCitation(AppendOnly):
    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain("ruling_id", ("ruling_id", "rule_id", "note", "order"))

    append_only_message = "The rulings log is append-only: record an amendment instead."

    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="citations")
    #: By citation id, the rule's stable name (so ``rule_id`` reads "TDA-45").
    rule = models.ForeignKey(
        "rules.Rule",
        to_field="citation_id",
        on_delete=models.PROTECT,
        related_name="ruling_citations",
    )
    note = models.CharField(max_length=200, blank=True, help_text="Pinpoint, e.g. 'Example 2'.")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["ruling", "order"]
        constraints = [
            models.UniqueConstraint(fields=["ruling", "rule"], name="cite_a_rule_once_per_ruling"),
            chain_unique("ruling"),
        ]

    def __str__(self) -> str:
        return f"{self.ruling} cites {self.rule_id}"
