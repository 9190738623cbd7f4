"""Import the bundled rulebooks, or the files given, idempotently: run it as often as you like.

A ``cardroom-rulebook`` TOML file is imported as it is. A room's own rulebook (a PDF, a
Markdown or a plain-text file) needs ``--code`` and ``--edition``: the command prints what it
found (as the import page previews it) and saves it as the book's next edition, unless
``--dry-run``.
"""

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules import rulebook_format as fmt
from rules.imports import SourceFile, check_code, check_label, compare, save_edition
from rules.rulebook_files import MAX_BYTES, RulebookFileError, parse_rulebook_file
from rules.services import load_rulebooks


class Command(BaseCommand):
    help = (
        f"Import rulebook files ({fmt.FORMAT}); without paths, the bundled books. A room's "
        "rulebook as a PDF, Markdown or text file: one path with --code and --edition."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="*", help="rulebook files (default: the bundled TOML)")
        parser.add_argument("--code", help="the room's book code, cited as CODE-12 (a file)")
        parser.add_argument("--edition", help="the edition's name: 2025, v3 (a file)")
        parser.add_argument("--title", default="", help="the book's title (a file)")
        parser.add_argument("--dry-run", action="store_true", help="show what a file holds")

    def handle(self, *args: Any, paths: list[str], **options: Any) -> None:
        files = [Path(p) for p in paths if Path(p).suffix.lower() != ".toml"]
        if files:
            if len(paths) != 1:
                raise CommandError("Import a room's rulebook file on its own, one at a time.")
            self.import_file(files[0], **options)
            return
        try:
            books = [fmt.load_rulebook_file(p) for p in paths] if paths else fmt.bundled_rulebooks()
            counts = load_rulebooks(books)
        except (fmt.RulebookFormatError, ValidationError) as exc:
            raise CommandError(str(exc)) from exc
        for code, done in counts.items():
            summary = ", ".join(f"{number} {what}" for what, number in done.items())
            self.stdout.write(f"{code}: {summary}")

    def import_file(
        self, path: Path, *, code: str | None, edition: str | None, title: str, dry_run: bool,
        **options: Any,
    ) -> None:  # fmt: skip
        if not code or not edition:
            raise CommandError("A room's rulebook file needs --code (RIVER) and --edition (2025).")
        try:
            if path.stat().st_size > MAX_BYTES:
                raise CommandError(f"{path}: larger than {MAX_BYTES // 1024 // 1024} MB.")
            data = path.read_bytes()
            code = check_code(code)
            label = check_label(code, edition)
            found, book = parse_rulebook_file(path.name, data)
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from exc
        except RulebookFileError as exc:
            raise CommandError(f"{path}: {exc}") from exc
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        counts = book.counts()
        self.stdout.write(
            f"{path.name}: {counts['sections']} sections, {counts['rules']} rules, "
            f"{counts['sub_rules']} sub-rules, {counts['examples']} examples, "
            f"{counts['unplaced']} not placed"
        )
        for rule in book.rules[:5]:
            self.stdout.write(f"  {code}-{rule.number}  {rule.title}")
        for item in book.unplaced:
            self.stdout.write(f"  not placed, line {item.line}: {item.reason} {item.text}")
        changes = compare(code, book).counts
        self.stdout.write(", ".join(f"{n} {what}" for what, n in changes.items()))
        if dry_run:
            self.stdout.write("Dry run: nothing saved.")
            return
        source = SourceFile.of(path.name, data, found)
        try:
            saved = save_edition(
                book=book, code=code, title=title or book.title or code, label=label,
                source=source, by=None,
            )  # fmt: skip
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(f"Saved {saved.rulebook.code} edition {saved.label} ({saved.number}).")
