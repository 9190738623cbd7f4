"""The room's one change feed (``cardroom/core/changes.py``): every declared model's rows write
their changes through the database's triggers, whatever wrote them, and every polling screen
reads it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.utils import timezone

from cardroom.core import changes
from cardroom.core.changes import Change, Topic
from cardroom.screens import board
from cardroom.screens.floor import poll
from cardroom.tables.models import Table
from cardroom.waitlists import services as waitlists
from cardroom.waitlists.views import version
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def triggers_in_database() -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        return {row[0] for row in cursor.fetchall()}


def test_every_model_that_declares_a_feed_has_its_triggers() -> None:
    """A migration that rebuilds a table (SQLite does, to add a column) must make the triggers
    again: this finds one that did not."""
    declared = changes.feeds()
    assert {"cardroom.Table", "cardroom.Hand", "tournaments.Tournament"} <= set(declared)
    present = triggers_in_database()
    missing = [
        label
        for label in declared
        if not set(changes.trigger_names(apps.get_model(label), connection.vendor)) <= present
    ]
    assert not missing, f"No change feed triggers on {missing}"


def test_an_insert_and_an_update_each_write_a_change_even_through_a_bare_update(
    floor_manager: Any,
) -> None:
    table = make_table(number=7, by=floor_manager)
    assert Change.objects.filter(topic=Topic.TABLE, item=table.pk).count() >= 1
    Change.objects.all().delete()
    Table.objects.filter(pk=table.pk).update(name="Window")  # no save(), no signal
    assert list(Change.objects.values_list("topic", "item")) == [(Topic.TABLE, table.pk)]


def test_a_write_rolled_back_leaves_no_change(floor_manager: Any) -> None:
    table = make_table(number=7, by=floor_manager)
    Change.objects.all().delete()
    with pytest.raises(RuntimeError), transaction.atomic():
        Table.objects.filter(pk=table.pk).update(name="Window")
        raise RuntimeError
    assert not Change.objects.exists()


def test_changed_since_looks_back_the_overlap_and_a_stale_reader_reads_everything(
    floor_manager: Any,
) -> None:
    table = make_table(number=7, by=floor_manager)
    now = timezone.now()
    assert table.pk in changes.changed_since(now - timedelta(seconds=5))[Topic.TABLE]
    assert table.pk in changes.changed_since(now + changes.OVERLAP / 2)[Topic.TABLE]
    assert not changes.changed_since(now + changes.OVERLAP * 2)
    assert not changes.stale(now - changes.RETAIN + changes.OVERLAP * 2, now)
    assert changes.stale(now - changes.RETAIN, now)


def test_prune_drops_only_what_the_feed_no_longer_keeps(floor_manager: Any) -> None:
    make_table(number=7, by=floor_manager)
    kept = Change.objects.count()
    Change.objects.create(topic=Topic.TABLE, item=1, at=timezone.now() - changes.RETAIN * 2)
    assert changes.prune(timezone.now()) == 1
    assert Change.objects.count() == kept


def test_a_floor_page_older_than_the_feed_gets_the_whole_grid(floor_manager: Any) -> None:
    make_table(number=7, by=floor_manager)
    then = timezone.now() - changes.RETAIN - timedelta(minutes=1)
    cursor = poll({}, "", now=then).cursor
    update = poll({}, cursor)
    assert update.grid is not None and [card.table.number for card in update.grid] == [7]


def test_the_waitlist_page_and_the_board_move_on_with_the_feed(
    floor_manager: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from cardroom.seats import services as players

    table = make_table(number=7, by=floor_manager, status="open")
    page, shown = version(), board.board_version()
    # The board's versions move on when the write commits.
    with django_capture_on_commit_callbacks(execute=True):
        game_list = waitlists.open_list(
            variant=table.variant, structure=table.structure, small_blind=table.small_blind,
            big_blind=table.big_blind, by=floor_manager,
        )  # fmt: skip
    assert version() != page and board.board_version() != shown
    page, shown = version(), board.board_version()
    player = players.find_or_create_player(name="Ana Ruiz", by=floor_manager)
    with django_capture_on_commit_callbacks(execute=True):
        players.seat_player(table=table, player=player, seat=1, buy_in=100, by=floor_manager)
    # A seat change moves the board on at once too (it used to wait for the board's expiry).
    assert version() != page and board.board_version() != shown
    assert game_list.pk in changes.changed_since(timezone.now())[Topic.LIST]
