"""The room's one change feed: what changed since a screen last asked.

Every screen that polls reads it: the floor dashboard (which table cards to send again), the
waitlist page (whether anything it shows moved), the public board (which cached board is
current) and the clock's changes as the floor and the board see them.

A model whose rows a screen shows declares ``change_feed = Feed(topic, column)``: the topic,
and the column naming what changed (a table's id, a list's id, a tournament's id). A database
trigger (``ChangeFeedTriggers``, a migration operation) adds a ``Change`` row for every row
inserted or updated, inside the writer's own transaction: no write can forget to say it
changed something, an ``update()`` included, and a write rolled back leaves no change behind.

A change is stamped with the database's clock when its row is written, before its transaction
commits: a reader looks back ``OVERLAP`` before the time it last read, so a write that
committed just after that read is still seen (the screens then send a card twice at worst,
never miss one). Changes are kept ``RETAIN``; a reader whose last read is older gets
everything again (``stale``), and ``prune`` (every minute, from the beat) drops the rest.

The public screens (the board, the room display) are polled far more often than anything
changes, so they do not read the feed on every poll: each topic also has a **version** in the
shared cache (``versions``), a number that only grows, bumped after the commit of any
transaction that wrote a row of that topic's models. ``watch_writes`` puts a wrapper on every
database connection that notes each ``INSERT``, ``UPDATE`` or ``DELETE`` of a table with a feed
(the ORM's saves, ``update()`` and bulk writes alike, as the triggers see them all) and bumps the
versions once the transaction commits (a write rolled back bumps nothing). A screen keys what it
built by the versions it shows: an unchanged poll reads one cache entry and no database, a
changed one builds again. A write made outside Django (``psql``) bumps nothing: the screens also
build again when what they keep expires. Without a cache outside the database (no Redis: the
shared cache is the database's), a read of the cache is a query anyway: the version is then the
feed's newest change (``latest``) and nothing is bumped.
"""

from __future__ import annotations

import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from typing import Any, cast

from django.apps import apps as live_apps
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.db import DatabaseCache
from django.db import connection, models
from django.db.models import Field, Model
from django.db.transaction import TransactionManagementError

from cardroom.core.operations import DatabaseOnly

logger = logging.getLogger(__name__)

#: A change is stamped before its transaction commits; one that commits this much later shows.
OVERLAP = timedelta(seconds=10)
#: How long changes are kept: a reader that last read longer ago than this reads everything.
RETAIN = timedelta(minutes=10)


class Topic(models.TextChoices):
    TABLE = "table", "A table's settings or status"
    HAND = "hand", "A hand at a table"
    RULING = "ruling", "A ruling at a table"
    SEATS = "seats", "A cash table's seat map"
    MUST_MOVE = "must_move", "A must-move table"
    LIST = "list", "A waitlist"
    TOURNAMENT_TABLE = "tournament_table", "A tournament's table or its seating"
    TOURNAMENT = "tournament", "A tournament or its clock"
    ENTRANTS = "entrants", "A tournament's entrants"
    ROOM = "room", "The room's settings"


@dataclass(frozen=True)
class Feed:
    """What a model's rows say changed: ``topic``, and the column (attname) naming the item."""

    topic: str
    column: str


class Change(models.Model):
    """One row written (inserted or updated) that a screen shows: written by the database's
    triggers, read by the screens, kept ``RETAIN``."""

    topic = models.CharField(max_length=20, choices=Topic)
    item = models.BigIntegerField(help_text="The id of what changed (a table, a list, …).")
    at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["topic", "id"], name="cardroom_change_topic_id")]
        constraints = [  # the database refuses a topic outside ``Topic``, as every choice
            models.CheckConstraint(
                condition=models.Q(topic__in=list(Topic.values)), name="cardroom_change_topic_valid"
            )
        ]

    def __str__(self) -> str:
        return f"{self.topic} {self.item} at {self.at:%H:%M:%S}"


def feeds() -> dict[str, Feed]:
    """Every model's declared feed, by model label."""
    found = {}
    for model in live_apps.get_models():
        feed = getattr(model, "change_feed", None)
        if isinstance(feed, Feed):
            found[model._meta.label] = feed
    return found


# --- reading --------------------------------------------------------------------------------


def stale(since: datetime, now: datetime) -> bool:
    """A read this old may have missed changes already pruned: read everything instead."""
    return since < now - RETAIN + OVERLAP


def changed_since(since: datetime, topics: Iterable[str] | None = None) -> dict[str, set[int]]:
    """The items of each topic changed since ``since`` less ``OVERLAP``."""
    rows = Change.objects.filter(at__gt=since - OVERLAP)
    if topics is not None:
        rows = rows.filter(topic__in=list(topics))
    changed: dict[str, set[int]] = defaultdict(set)
    for topic, item in rows.values_list("topic", "item").distinct():
        changed[topic].add(item)
    return changed


#: The most changes one read takes after a mark; a reader further behind reads everything.
MOST_AFTER = 5000


@dataclass(frozen=True)
class After:
    """The changes after a reader's mark (``changes_after``): each topic's items, and the mark to
    read from next time."""

    found: dict[str, set[int]]
    mark: int


def changes_after(mark: int, now: datetime, most: int | None = MOST_AFTER) -> After | None:
    """The changes with an id past ``mark``, and the next mark: the highest id up to which every
    change is read. Ids are handed out when a row is written and its transaction may commit
    later, so a missing id is a change still being written: the mark stays below it (its
    changes after are read again next time) until it shows, or until it is older than
    ``OVERLAP`` (a write rolled back, whose id never shows). One indexed range read, of the
    changes since the last read only. None when more than ``most`` changed since (the reader
    is better off reading everything)."""
    rows = (
        Change.objects.filter(pk__gt=mark).order_by("pk").values_list("pk", "topic", "item", "at")
    )
    if most is not None:
        rows = rows[: most + 1]
    read = list(rows)
    if most is not None and len(read) > most:
        return None
    found: dict[str, set[int]] = defaultdict(set)
    settled = True
    for pk, topic, item, at in read:
        found[topic].add(item)
        # A gap before this change: its writer may still commit, unless this change (written
        # after the gap's id was handed out) is older than a commit can lag.
        if settled and (pk == mark + 1 or at <= now - OVERLAP):
            mark = pk
        else:
            settled = False
    return After(dict(found), mark)


def mark_now(now: datetime) -> int:
    """The mark of a reader reading everything now: the highest id up to which every change is
    committed (or older than ``OVERLAP``). Reads the changes of the last ``OVERLAP`` only,
    through the index on ``at``: its next read after this mark sends a change at most once."""
    before = (
        Change.objects.filter(at__lte=now - OVERLAP).order_by("-at").values_list("pk", flat=True)
    ).first() or 0
    after = changes_after(before, now, most=None)
    assert after is not None  # no limit: always an answer
    return after.mark


def latest(topics: Iterable[str]) -> int:
    """The newest change of these topics (0 before any): one query, an indexed look-up a topic
    (``MAX(id)`` over the ``(topic, id)`` index, on SQLite and PostgreSQL alike)."""
    wanted = [str(topic) for topic in topics]
    if not wanted:
        return 0
    table = Change._meta.db_table
    newest = f"(SELECT MAX(id) FROM {table} WHERE topic = %s)"  # noqa: S608 (a model's table)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join([newest] * len(wanted)), wanted)
        row = cursor.fetchone()
    return max((value or 0 for value in row or ()), default=0)


def prune(now: datetime) -> int:
    """Drop the changes older than ``RETAIN``. Returns how many."""
    deleted, _ = Change.objects.filter(at__lt=now - RETAIN).delete()
    return deleted


# --- the screens' versions, in the shared cache ---------------------------------------------


def shared_cache() -> BaseCache:
    """The broker's Redis when one is configured (the public rate limits' alias), else the
    database cache: shared by every web process and worker either way."""
    return caches["throttle" if "throttle" in settings.CACHES else "default"]


def _version_key(topic: str) -> str:
    return f"cardroom-version:{topic}"


def on_database_cache() -> bool:
    """Whether the shared cache is the database's (no Redis configured)."""
    return isinstance(shared_cache(), DatabaseCache)


def versions(topics: Iterable[str]) -> tuple[int, ...]:
    """The current version of each topic: one read of the shared cache, no database. A topic
    with no version yet (a cache emptied or restarted) starts at the clock in nanoseconds,
    above any version it had before, so nothing built before is taken for current."""
    if on_database_cache():
        # No cache outside the database (no Redis): the feed's newest change is the version,
        # one indexed query, and nothing is bumped (``note_writes``).
        return (latest(topics),)
    store = shared_cache()
    keys = [_version_key(str(topic)) for topic in topics]
    found = store.get_many(keys)
    if missing := [key for key in keys if key not in found]:
        for key in missing:
            store.add(key, time.time_ns(), None)
        found |= store.get_many(missing)
    return tuple(int(found[key]) for key in keys)


def versions_and_value(topics: Iterable[str], key: str) -> tuple[tuple[int, ...], Any]:
    """``versions(topics)`` and the shared cache's value at ``key`` (None without one): on
    Redis one read for both, where a screen polled several times a second (the room display)
    paid a round trip and a client each."""
    if on_database_cache():
        return versions(topics), shared_cache().get(key)
    keys = [_version_key(str(topic)) for topic in topics]
    found = shared_cache().get_many([*keys, key])
    if any(name not in found for name in keys):  # a version to start: ``versions`` starts it
        return versions(topics), found.get(key)
    return tuple(int(found[name]) for name in keys), found.get(key)


def bump(topics: Iterable[str]) -> None:
    """A new version of each topic (after the commit of a write of its rows)."""
    store = shared_cache()
    for topic in topics:
        key = _version_key(str(topic))
        try:
            store.incr(key)
        except ValueError:  # none yet: start one above any it had, as ``versions`` does
            store.set(key, time.time_ns(), None)


@cache
def _topics_by_table() -> dict[str, str]:
    """Each database table with a feed, and its topic."""
    return {
        live_apps.get_model(label)._meta.db_table: feed.topic for label, feed in feeds().items()
    }


WRITE = re.compile(r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[`"]?(\w+)', re.IGNORECASE)


@dataclass
class Pending:
    """The topics a connection's open transaction wrote, bumped once on its commit."""

    topics: set[str] = field(default_factory=set)

    def __call__(self) -> None:
        topics, self.topics = self.topics, set()
        try:
            bump(topics)
        except Exception:  # a cache outage: the screens build again when their copies expire
            logger.warning("screen versions not bumped", exc_info=True)


def note_writes(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """The execute wrapper: runs the statement, then notes the topic of a table it wrote."""
    result = execute(sql, params, many, context)
    if sql[:1] in "IUDiud" and (found := WRITE.match(sql)) and not on_database_cache():
        topic = _topics_by_table().get(found[1])
        if topic is not None:
            db = context["connection"]
            pending = db.__dict__.setdefault("cardroom_pending", Pending())
            pending.topics.add(topic)
            # One bump a commit: a statement right after another of this wrapper's in the same
            # savepoint adds no callback (the two stand or fall together); outside a transaction
            # (autocommit) ``on_commit`` bumps at once. A callback dropped by a rollback leaves
            # its topics to the next commit's (a harmless extra build).
            queued = db.run_on_commit
            if not (queued and queued[-1][1] is pending and queued[-1][0] == set(db.savepoint_ids)):
                # Manual transactions (no atomic block): bumped with the next commit's.
                with suppress(TransactionManagementError):
                    db.on_commit(pending, robust=True)
    return result


def watch_writes(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: the wrapper on the connection, once."""
    if note_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(note_writes)


# --- the database's triggers ----------------------------------------------------------------


class ChangeFeedTriggers(DatabaseOnly):
    """A ``Change`` row for every row of the model inserted or updated (its declared feed)."""

    def __init__(self, model_name: str, topic: str, column: str) -> None:
        super().__init__(model_name, topic, column)
        self.model_name, self.topic, self.column = model_name, topic, column

    def describe(self) -> str:
        return f"Change feed triggers on {self.model_name}"

    def sql(self, model: type[Model], vendor: str) -> list[str]:
        table = model._meta.db_table
        field = cast("Field[Any, Any]", model._meta.get_field(self.column.removesuffix("_id")))
        column = field.column  # a concrete field: an id or a foreign key
        # Table, column and topic come from the models and ``Topic``, never from a request.
        if vendor == "postgresql":
            return [
                f"CREATE OR REPLACE FUNCTION {table}_feed() RETURNS trigger AS $$ BEGIN "  # noqa: S608
                f"INSERT INTO cardroom_change (topic, item, at) "
                f"VALUES ('{self.topic}', NEW.{column}, clock_timestamp()); RETURN NULL; "
                "END $$ LANGUAGE plpgsql",
                f"CREATE TRIGGER {table}_feed AFTER INSERT OR UPDATE ON {table} FOR EACH ROW "
                f"WHEN (NEW.{column} IS NOT NULL) EXECUTE FUNCTION {table}_feed()",
            ]
        return [
            f"CREATE TRIGGER {table}_feed_{what.lower()} AFTER {what} ON {table} FOR EACH ROW "  # noqa: S608
            f"WHEN NEW.{column} IS NOT NULL BEGIN "
            f"INSERT INTO cardroom_change (topic, item, at) VALUES ('{self.topic}', "
            f"NEW.{column}, strftime('%Y-%m-%d %H:%M:%f', 'now')); END"
            for what in ("INSERT", "UPDATE")
        ]

    def drop(self, model: type[Model], vendor: str) -> list[str]:
        table = model._meta.db_table
        if vendor == "postgresql":
            return [
                f"DROP TRIGGER IF EXISTS {table}_feed ON {table}",
                f"DROP FUNCTION IF EXISTS {table}_feed()",
            ]
        return [f"DROP TRIGGER IF EXISTS {table}_feed_{what}" for what in ("insert", "update")]

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        model = to_state.apps.get_model(app_label, self.model_name)
        vendor = schema_editor.connection.vendor
        for statement in [*self.drop(model, vendor), *self.sql(model, vendor)]:
            schema_editor.execute(statement)

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        model = from_state.apps.get_model(app_label, self.model_name)
        for statement in self.drop(model, schema_editor.connection.vendor):
            schema_editor.execute(statement)


def trigger_names(model: type[Model], vendor: str) -> list[str]:
    """The triggers a model's feed has in the database (for the test that they are there)."""
    table = model._meta.db_table
    if vendor == "postgresql":
        return [f"{table}_feed"]
    return [f"{table}_feed_insert", f"{table}_feed_update"]
