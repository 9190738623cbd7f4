"""``manage.py verify_audit``: walk every audit chain against the checkpoints and say where one
is broken."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cardroom.core import audit, checkpoints
from cardroom.core.numbers import grouped
from cardroom.screens.audit import run_verification


class Command(BaseCommand):
    help = (
        "Check every audit log: each row's keyed hash against its fields and the row before it "
        "in its stream, each void or deal against its seal, each stream against the latest "
        "checkpoint of it in the checkpoint file (rows lost, a tail cut, a stream vanished), "
        "the checkpoint file's own signatures and links, each revealed draw and each draw for "
        "the button replayed from its seed, each tournament's money ledger added up line by "
        "line, each hand against its signed deal, award and void, each cash seat's stack "
        "against its seat events, each waitlist entry against its events. Prints what it checked; exits 1 and lists every finding if anything was "
        "rewritten."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--database", default="default", help="The database to check.")

    def handle(self, *args: Any, **options: Any) -> None:
        outcome = run_verification("manage.py verify_audit", using=options["database"])
        verification = outcome.verification
        held = verification.held
        self.stdout.write(
            f"Checked {grouped(verification.walk.rows)} rows in "
            f"{grouped(verification.streams)} streams of {len(audit.CHAINS)} logs, signed "
            f"with audit key {audit.signing_key().id!r}."
        )
        if held.last is None:
            self.stdout.write(
                f"No checkpoint in {held.path}: the streams were not held against one "
                "(manage.py audit_checkpoint writes the first)."
            )
        else:
            self.stdout.write(
                f"Held against {grouped(len(held.heads))} streams' heads in {held.path}: "
                f"{grouped(held.lines)} checkpoints, the latest seq {held.last.seq} at "
                f"{held.last.at} ({checkpoints.age_in_words(held.last.when)} ago)."
            )
        if held.torn:
            self.stdout.write(
                f"{held.torn} checkpoint line(s) cut short by a stopped writer (each followed "
                "by a whole one)."
            )
        if outcome.findings:
            for found in outcome.findings:
                self.stderr.write(f"BREAK {found}")
            raise CommandError(
                f"{len(outcome.findings)} finding(s) in the audit logs "
                f"({grouped(verification.walk.rows)} rows checked)."
            )
        self.stdout.write(
            f"Audit logs intact: {grouped(verification.walk.rows)} rows in "
            f"{len(audit.CHAINS)} logs chained."
        )
