"""Import the bundled rulebooks, or the files given, idempotently: run it as often as you like."""

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules import rulebook_format as fmt
from rules.services import load_rulebooks


class Command(BaseCommand):
    help = f"Import rulebook files ({fmt.FORMAT}); without paths, the bundled books."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="*", help="rulebook TOML files (default: bundled)")

    def handle(self, *args: Any, paths: list[str], **options: Any) -> None:
        try:
            books = [fmt.load_rulebook_file(p) for p in paths] if paths else fmt.bundled_rulebooks()
            counts = load_rulebooks(books)
        except (fmt.RulebookFormatError, ValidationError) as exc:
            raise CommandError(str(exc)) from exc
        for code, done in counts.items():
            summary = ", ".join(f"{number} {what}" for what, number in done.items())
            self.stdout.write(f"{code}: {summary}")
