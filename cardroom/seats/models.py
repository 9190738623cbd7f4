"""The seat map of a cash table: the players, who they are across visits, what
they have in front of them, whether they are playing, what blinds they owe; and the log of
every change to it (who, when, how many chips).

A tournament table's seats are the tournament's (``tournaments.SeatAssignment``, the chips on
``tournaments.Entrant``); these models are the cash game's. The services that change them are
in ``cardroom/seats/services.py``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from cardroom.core.append_only import AppendOnly, chain_unique
from cardroom.core.audit import Chain
from cardroom.core.changes import Feed, Topic
from cardroom.tables.choices import SeatEventKind, SeatStatus, choice_check


def name_key(name: str) -> str:
    """The room's one reading of a player's name: trimmed, spaces collapsed, case-folded
    ("  ana   RUIZ " and "Ana Ruiz" are one player). Two people with one name are told apart
    by the floor typing it apart ("Ana Ruiz B.")."""
    return " ".join(str(name).split()).casefold()


def initials(name: str) -> str:
    """A name as the public board shows it without an alias: the first character of each word
    that starts with a letter or a digit ("John Smith": "J.S."); "!!!" and "(Jo)" give none."""
    return "".join(f"{word[0].upper()}." for word in name.split() if word[:1].isalnum())


class PlayerQuerySet(models.QuerySet["Player"]):
    def matching(self, text: str) -> PlayerQuerySet:
        """The players whose name or alias holds ``text``, each read as ``name_key`` reads a
        name ("ÖLF" finds "Ölf", "STRASSE" finds "Straße", "ana  ruiz" finds "Ana Ruiz"): the
        room's one reading, in Python, so SQLite (whose LIKE folds only ASCII) and PostgreSQL
        find the same players."""
        key = name_key(text)
        return self.filter(models.Q(name_key__contains=key) | models.Q(alias_key__contains=key))


class Player(models.Model):
    """A player the room knows: reused from visit to visit (and on the waitlists). The public
    board shows ``alias`` or the initials of ``name``, never the full name. One player per
    ``name_key`` (a unique key, on SQLite and PostgreSQL alike): two devices creating one
    name at once get one row, the second finds the first's (``players.find_or_create_player``)."""

    name = models.CharField(max_length=120)
    #: ``name_key(name)``, kept by ``save``: unique, so one name is one player.
    name_key = models.CharField(max_length=360, editable=False)  # casefold: "ß" is "ss"
    alias = models.CharField(max_length=40, blank=True, help_text="Shown in public, if set.")
    #: ``name_key(alias)``, kept by ``save``: what a search by alias reads (``matching``).
    alias_key = models.CharField(max_length=120, editable=False, default="")
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        indexes = [
            models.Index(fields=["name"], name="player_name"),
            models.Index(fields=["alias_key"], name="player_alias_key"),
        ]
        constraints = [models.UniqueConstraint(fields=["name_key"], name="one_player_per_name")]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key, self.alias_key = name_key(self.name), name_key(self.alias)
        fields = kwargs.get("update_fields")
        if fields is not None:
            keys = {"name": "name_key", "alias": "alias_key"}
            kwargs["update_fields"] = {*fields, *(keys[f] for f in fields if f in keys)}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        """What a public screen may show: the alias, else the initials ("John Smith": "J.S.")."""
        if self.alias.strip():
            return self.alias.strip()
        return initials(self.name)


class TableSeat(models.Model):
    """A player in a seat at a cash table. A live row (``left_at`` empty) per occupied seat;
    leaving the table ends it, so the rows are the table's seating history."""

    table = models.ForeignKey("cardroom.Table", on_delete=models.PROTECT, related_name="seated")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    #: Chips in front of the player between hands (a hand in progress changes it at its award).
    stack = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=12, choices=SeatStatus, default=SeatStatus.PLAYING)
    away_since = models.DateTimeField(null=True, blank=True)
    #: Missed blinds owed (CR-BB.3): a live big blind, a dead small blind.
    owes_big = models.BooleanField(default=False)
    owes_small = models.BooleanField(default=False)
    #: Not dealt in until the big blind reaches the seat (the player's choice, or the table's).
    waits_for_big_blind = models.BooleanField(default=False)
    #: Seated but not yet dealt a hand here: a new player posts or waits for the big blind.
    new = models.BooleanField(default=True)
    seated_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table__number", "seat"]
        constraints = [
            # However the application races: one player per live seat, one live seat per player.
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=models.Q(left_at__isnull=True),
                name="one_player_per_table_seat",
            ),
            models.UniqueConstraint(
                fields=["player"],
                condition=models.Q(left_at__isnull=True),
                name="one_table_seat_per_player",
            ),
            models.CheckConstraint(condition=models.Q(seat__gte=1), name="table_seat_from_1"),
            choice_check("status", SeatStatus),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.seat}"


class SeatEvent(AppendOnly):
    """Every change to a cash table's seat map: seated, chips added, a hand's result, sat
    out, returned, busted, moved, left. ``amount`` is the chips the change put in front of
    the player (negative: taken away, e.g. cashed out); ``stack`` what they had after it."""

    #: What its rows change on the screens (``cardroom/core/changes.py``).
    change_feed = Feed(Topic.SEATS, "table_id")

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "table_id",
        (
            "table_id",
            "seat",
            "player_id",
            "kind",
            "amount",
            "stack",
            "hand_id",
            "note",
            "by_id",
            "at",
        ),
    )

    table = models.ForeignKey(
        "cardroom.Table", on_delete=models.PROTECT, related_name="seat_events"
    )
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="events")
    kind = models.CharField(max_length=12, choices=SeatEventKind)
    amount = models.BigIntegerField(default=0)
    stack = models.PositiveIntegerField(default=0)
    hand = models.ForeignKey(
        "cardroom.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(max_length=300, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)

    class Meta:
        ordering = ["at", "id"]
        constraints = [chain_unique("table"), choice_check("kind", SeatEventKind)]

    def __str__(self) -> str:
        return f"{self.player} seat {self.seat}: {self.get_kind_display().lower()}"
