"""``manage.py audit_checkpoint``: write the audit chains' heads to the checkpoint file now."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from cardroom.core import checkpoints
from cardroom.core.numbers import grouped


class Command(BaseCommand):
    help = (
        "Write a checkpoint of the audit chains (each changed stream's row count and last "
        "hash, signed with the audit key) to CARDROOM_AUDIT_CHECKPOINT_FILE, if anything "
        "changed since the last one (--force: write one anyway). The Celery beat does this "
        "every minute. --show prints the latest checkpoint, for a shift's printout."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--database", default="default", help="The database to read.")
        parser.add_argument("--force", action="store_true", help="Write even if unchanged.")
        parser.add_argument(
            "--show", action="store_true", help="Print the latest checkpoint; write nothing."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = checkpoints.checkpoint_path()
        if options["show"]:
            line = checkpoints.last_line(path)
            if line is None:
                self.stdout.write(f"No checkpoint in {path}.")
                return
            self.stdout.write(
                f"Checkpoint seq {line.seq} at {line.at}, key {line.key!r}, "
                f"{grouped(len(line.heads))} streams\nsignature {line.mac}\n"
                f"after {line.prev or '(the first)'}"
            )
            return
        line = checkpoints.write(options["database"], force=options["force"], path=path)
        if line is None:
            self.stdout.write(f"Nothing changed since the last checkpoint in {path}.")
            return
        self.stdout.write(
            f"Checkpoint seq {line.seq} written to {path}: {grouped(len(line.heads))} streams, "
            f"signature {line.mac}."
        )
