"""``manage.py verify_audit``: walk every audit chain and say where one is broken."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cardroom.core import audit
from cardroom.seats.seat_checks import seat_breaks
from cardroom.tables.hand_records import hand_breaks
from cardroom.tables.models import Hand
from cardroom.waitlists.entry_checks import entry_breaks
from rules.engine.button_draw import replay_button_draw
from tournaments.draw_services import verify_draw
from tournaments.models import Draw, DrawStatus
from tournaments.money.ledger import ledger_breaks


class Command(BaseCommand):
    help = (
        "Check every audit log: each row's hash against its fields and the row before it in its "
        "stream, each void or deal against its seal, each revealed draw and each draw for the "
        "button replayed from its seed, each tournament's money ledger added up line by line. "
        "Exits 1 and lists every break (table, row, what) if anything was rewritten."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--database", default="default", help="The database to check.")

    def handle(self, *args: Any, **options: Any) -> None:
        using = options["database"]
        breaks = audit.verify(using=using)
        for draw in Draw.objects.using(using).filter(status=DrawStatus.REVEALED).order_by("pk"):
            check = verify_draw(draw)
            if not check.ok:
                breaks.append(
                    audit.Break(
                        Draw._meta.db_table,
                        draw.pk,
                        "the revealed draw does not replay from its seed: "
                        + "; ".join(check.problems),
                    )
                )
        # CR-BB.9: a draw for the button kept with a hand deals again from its seed to the same
        # cards and button (the hand's button may differ: the dealer may have corrected it).
        drawn = Hand.objects.using(using).exclude(button_draw={}).order_by("pk")
        for hand_id, record in drawn.values_list("pk", "button_draw"):
            if not replay_button_draw(record):
                breaks.append(
                    audit.Break(
                        Hand._meta.db_table,
                        hand_id,
                        "the draw for the button does not replay from its seed",
                    )
                )
        # Each tournament's money ledger: every line balances and moves only what its kind
        # moves, and the totals balance (its chain is walked above with every other chain).
        breaks += ledger_breaks(using)
        breaks += hand_breaks(using) + seat_breaks(using) + entry_breaks(using)
        rows = sum(
            Draw._meta.apps.get_model(label)._base_manager.using(using).count()
            for label in audit.CHAINS
        )
        if breaks:
            for found in breaks:
                self.stderr.write(f"BREAK {found}")
            raise CommandError(f"{len(breaks)} break(s) in the audit logs ({rows} rows checked).")
        self.stdout.write(f"Audit logs intact: {rows} rows in {len(audit.CHAINS)} logs chained.")
