"""Each hand's record of what decided its chips (``HandRecord``: the deal, the award, a void),
append-only and chained per table; the hands already on file get theirs, written from the
hand rows as they are now (``verify_audit`` holds each hand against its records from here on)."""

from typing import Any

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from cardroom.core.audit import AppendOnlyTriggers, link_rows

#: The hand's columns each kind of record keeps, and who made the change and when (as
#: ``cardroom.tables.hand_records`` has them when this migration was written).
RECORDED = {
    "dealt": (
        ("button", "seats", "game", "blinds", "posts", "names", "correction", "button_draw"),
        "started_by_id",
        "started_at",
    ),
    "awarded": (("result",), "awarded_by_id", "awarded_at"),
    "voided": (("void_reason",), "voided_by_id", "voided_at"),
}

#: Records linked and written at a time.
BATCH = 500


def record_hands(apps: Any, schema_editor: Any) -> None:
    """Every hand's records, table by table in hand order: its deal, then its award or its
    void when it has one."""
    using = schema_editor.connection.alias
    hand_model = apps.get_model("cardroom", "Hand")
    record_model = apps.get_model("cardroom", "HandRecord")
    batch: list[Any] = []

    def flush() -> None:
        link_rows(record_model, batch, using)
        record_model.objects.using(using).bulk_create(batch)
        batch.clear()

    hands = hand_model.objects.using(using).order_by("table_id", "number")
    for hand in hands.iterator():
        if batch and batch[-1].table_id != hand.table_id:
            flush()
        for kind, (names, by, at) in RECORDED.items():
            if kind != "dealt" and getattr(hand, at) is None:
                continue
            batch.append(
                record_model(
                    table_id=hand.table_id,
                    hand_id=hand.pk,
                    number=hand.number,
                    kind=kind,
                    record={name: getattr(hand, name) for name in names},
                    by_id=getattr(hand, by),
                    at=getattr(hand, at),
                )
            )
        if len(batch) >= BATCH:
            flush()
    if batch:
        flush()


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0029_voids_since_a_checkpoint"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="HandRecord",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "prev_hash",
                    models.CharField(blank=True, default="", editable=False, max_length=64),
                ),
                (
                    "row_hash",
                    models.CharField(blank=True, default="", editable=False, max_length=64),
                ),
                ("number", models.PositiveIntegerField()),
                (
                    "kind",
                    models.CharField(
                        choices=[("dealt", "Dealt"), ("awarded", "Awarded"), ("voided", "Voided")],
                        max_length=8,
                    ),
                ),
                ("record", models.JSONField()),
                (
                    "at",
                    models.DateTimeField(default=django.utils.timezone.now, editable=False),
                ),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "hand",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="records",
                        to="cardroom.hand",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="cardroom.table",
                    ),
                ),
            ],
            options={
                "ordering": ["table", "id"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("table", "prev_hash"), name="cardroom_handrecord_one_chain"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("kind__in", ["dealt", "awarded", "voided"])),
                        name="cardroom_handrecord_kind_valid",
                    ),
                    models.UniqueConstraint(
                        fields=("hand", "kind"), name="one_hand_record_of_a_kind"
                    ),
                ],
            },
        ),
        migrations.RunPython(record_hands, migrations.RunPython.noop, elidable=False),
        AppendOnlyTriggers("handrecord", "cardroom.HandRecord"),
    ]
