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
    ("  ana   RUIZ " and "Ana Ruiz" are one name). Two people with one name are told apart
    by their contacts (``contact_key``)."""
    return " ".join(str(name).split()).casefold()


def contact_key(contact: str) -> str:
    """The room's one reading of a player's contact, so one phone or e-mail typed two ways is
    one contact: an e-mail (it has an "@") without spaces, case-folded ("Ana@Mail.com " is
    "ana@mail.com"); a phone, its ASCII digits only ("+34 600-12-34" and "34 6001234" are both
    "346001234"). Blank stays blank: no contact given."""
    text = "".join(str(contact).split())
    if "@" in text:
        return text.casefold()
    return "".join(c for c in text if c in "0123456789")


def split_contact(line: str) -> tuple[str, str]:
    """A name box's text as (name, contact): "Ana Ruiz, 600 123 456" or "Ana Ruiz,
    ana@mail.com" carry the contact after the last comma; a tail that is no phone or e-mail
    ("Smith, John") is part of the name. Spaces trimmed and collapsed."""
    clean = " ".join(str(line).split())
    name, comma, tail = clean.rpartition(",")
    name, tail = name.strip(), tail.strip()
    e_mail = "@" in tail and " " not in tail
    phone = not any(c.isalpha() for c in tail) and sum(c in "0123456789" for c in tail) >= 4
    if comma and name and (e_mail or phone):
        return name, tail
    return clean, ""


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

    def search(self, text: str) -> PlayerQuerySet:
        """Search as you type: the players whose name or alias starts with ``text`` (read as
        ``name_key`` reads a name). A prefix, so each side is one index range on PostgreSQL
        (``player_name_key_prefix``, ``player_alias_key_prefix``: pattern indexes, which a
        ``LIKE 'ana r%'`` uses whatever the database's collation)."""
        key = name_key(text)
        return self.filter(models.Q(name_key__startswith=key) | models.Q(alias_key__startswith=key))


class Player(models.Model):
    """A person the room knows, one record for the cash floor and the tournaments: reused from
    visit to visit, on the waitlists, at the cash seats and in every tournament entry. The
    public board shows ``alias`` or the initials of ``name``, never the full name, the
    contact, the notes or a bar. One player per name and contact (``name_key``,
    ``contact_key``: a unique key, on SQLite and PostgreSQL alike): two devices creating one
    person at once get one row, the second finds the first's (``find_or_create_player``); two
    people of one name with different contacts are two players."""

    name = models.CharField(max_length=120)
    #: ``name_key(name)``, kept by ``save``: unique, so one name is one player.
    name_key = models.CharField(max_length=360, editable=False)  # casefold: "ß" is "ss"
    alias = models.CharField(max_length=40, blank=True, help_text="Shown in public, if set.")
    #: ``name_key(alias)``, kept by ``save``: what a search by alias reads (``matching``).
    alias_key = models.CharField(max_length=120, editable=False, default="")
    #: A phone or an e-mail as typed (optional): what tells two people of one name apart.
    contact = models.CharField(max_length=120, blank=True, default="")
    #: ``contact_key(contact)``, kept by ``save``: with ``name_key``, one person.
    contact_key = models.CharField(max_length=120, editable=False, default="")
    #: For the staff only (never on a public screen).
    notes = models.CharField(max_length=500, blank=True, default="")
    #: Barred from the room: never seated, put on a list or registered (staff see the reason).
    barred = models.BooleanField(default=False)
    barred_reason = models.CharField(max_length=300, blank=True, default="")
    barred_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    barred_at = models.DateTimeField(null=True, blank=True)
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
            # PostgreSQL only (the other databases ignore the operator class): prefix search.
            models.Index(
                fields=["name_key"],
                name="player_name_key_prefix",
                opclasses=["varchar_pattern_ops"],
            ),
            models.Index(
                fields=["alias_key"],
                name="player_alias_key_prefix",
                opclasses=["varchar_pattern_ops"],
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["name_key", "contact_key"], name="one_player_per_name_and_contact"
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key, self.alias_key = name_key(self.name), name_key(self.alias)
        self.contact_key = contact_key(self.contact)
        fields = kwargs.get("update_fields")
        if fields is not None:
            keys = {"name": "name_key", "alias": "alias_key", "contact": "contact_key"}
            kwargs["update_fields"] = {*fields, *(keys[f] for f in fields if f in keys)}
        super().save(*args, **kwargs)

    @property
    def public_name(self) -> str:
        """What a public screen may show: the alias, else the initials ("John Smith": "J.S.")."""
        if self.alias.strip():
            return self.alias.strip()
        return initials(self.name)

    @property
    def contact_tail(self) -> str:
        """The last four characters of the contact ("…1234"): enough for the staff to tell two
        people of one name apart on a list, without the whole number on the screen."""
        tail = self.contact_key[-4:]
        return f"…{tail}" if tail else ""

    @property
    def told_apart(self) -> str:
        """The name with what tells this person apart: "Ana Ruiz (…1234; tall, red cap)"."""
        extra = "; ".join(part for part in (self.contact_tail, self.notes[:40]) if part)
        return f"{self.name} ({extra})" if extra else self.name


class PlayerChangeKind(models.TextChoices):
    EDITED = "edited", "Edited"
    BARRED = "barred", "Barred"
    UNBARRED = "unbarred", "Unbarred"


class PlayerChange(AppendOnly):
    """Every change the staff make to a player's record after it was created: an edit (the
    record as it then is), a bar and a lift of it, each with who, when and why. Chained per
    player; a correction is a new row."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain(
        "player_id",
        (
            "player_id",
            "kind",
            "name",
            "alias",
            "contact",
            "notes",
            "barred",
            "reason",
            "by_id",
            "at",
        ),
    )

    append_only_message = "A player's log is append-only: record a new change instead."

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="changes")
    kind = models.CharField(max_length=10, choices=PlayerChangeKind)
    name = models.CharField(max_length=120)
    alias = models.CharField(max_length=40, blank=True)
    contact = models.CharField(max_length=120, blank=True)
    notes = models.CharField(max_length=500, blank=True)
    barred = models.BooleanField(default=False)
    reason = models.CharField(max_length=300, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)

    class Meta:
        ordering = ["at", "id"]
        constraints = [chain_unique("player"), choice_check("kind", PlayerChangeKind)]

    def __str__(self) -> str:
        return f"{self.name}: {self.get_kind_display().lower()}"


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
