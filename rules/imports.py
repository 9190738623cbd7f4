"""A room's rulebook imported from its file, edition by edition.

A file is read (``rules.rulebook_files``), its rules are found (``rules.rulebook_text``) and
compared with the book's current edition, and the floor manager sees the preview before
anything is saved (``stage_import``: the result kept on the server under a token). Saving
(``save_edition``) writes the book in place, keyed on citation ids (``<CODE>-<number>``: the
room's own numbers, so a rule keeps its id and its permalink in every edition):

- a rule in the file is added, changed or unchanged; its words in this edition are kept as a
  ``RuleVersion``, so every earlier edition stays readable rule by rule;
- a rule gone from the file is withdrawn, never deleted: the rulings that cite it keep their
  citation and its page, which says which edition dropped it;
- bundled books (``load_rulebook``) and the house rules written on the page are never
  overwritten by a file: the room's book has its own code.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from cardroom.core.locks import lock_row
from rules.models import (
    BookKind,
    ChangeKind,
    Rule,
    RuleAlias,
    Rulebook,
    RulebookEdition,
    RulebookImport,
    RuleVersion,
    Section,
)
from rules.rulebook_files import KIND_NAMES, RulebookFile, RulebookFileError, parse_rulebook_file
from rules.rulebook_format import BOOK_CODE, Example, bundled_rulebooks
from rules.rulebook_text import ParsedBook, ParsedRule
from rules.services import HOUSE_CODE, refresh_vocabulary, sync_examples

#: How long a preview waits for its confirmation.
PREVIEW_HOURS = 24
#: The room's book is listed (and wins ties in search) before the bundled ones.
IMPORTED_ORDER = 0
#: The preview shows this many of the first rules and of each kind of change.
SHOWN = 12
SHOWN_CHANGES = 60


@dataclass(frozen=True)
class SourceFile:
    """The file an edition was read from, as its record keeps it."""

    name: str
    kind: str
    sha256: str
    pages: int = 0
    size: int = 0

    @classmethod
    def of(cls, name: str, data: bytes, found: RulebookFile) -> SourceFile:
        digest = hashlib.sha256(data).hexdigest()
        return cls(name[-200:], found.kind, digest, found.pages, len(data))


@dataclass
class Changes:
    """What saving the file would do to the book, by citation id and title."""

    added: list[tuple[str, str]] = field(default_factory=list)
    changed: list[tuple[str, str]] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)
    unchanged: int = 0

    @property
    def counts(self) -> dict[str, int]:
        return {
            "added": len(self.added),
            "changed": len(self.changed),
            "removed": len(self.removed),
            "unchanged": self.unchanged,
        }


def citation_of(code: str, rule: ParsedRule) -> str:
    return f"{code}-{rule.number}"


def examples_of(rule: ParsedRule) -> list[dict[str, str]]:
    return [{"title": e.title, "text": e.text} for e in rule.examples]


def examples_text(examples: list[dict[str, str]]) -> str:
    return "\n\n".join(f"{e['title']}: {e['text']}" for e in examples)


# --- checks ----------------------------------------------------------------------------------


def check_code(code: str) -> str:
    """The code the room's book is cited by: new, or one of its earlier imports."""
    code = code.strip()
    if not BOOK_CODE.fullmatch(code) or len(code) > 10:
        raise ValidationError(
            {"code": "A code is letters and digits, starting with a letter, 10 at most: RIVER."}
        )
    if code.upper() == HOUSE_CODE:
        raise ValidationError(
            {"code": "HOUSE holds the house rules written on the rulebook page: choose another."}
        )
    bundled = bundled_codes()
    if code.casefold() in bundled:
        name = bundled[code.casefold()]
        raise ValidationError({
            "code": f"{name} is a book that comes with Cardroom: give the room's file its own "
                    f"code (such as {name}2024 or ROOM)."
        })  # fmt: skip
    book = Rulebook.objects.filter(code__iexact=code).first()
    if book is not None and book.kind != BookKind.IMPORTED:
        raise ValidationError({
            "code": f"{book.code} is {book.title}, which comes with Cardroom: give the room's "
                    f"file its own code (such as {book.code}2024 or ROOM)."
        })  # fmt: skip
    return book.code if book is not None else code


@functools.cache
def bundled_codes() -> dict[str, str]:
    """The codes of the books that come with Cardroom (``rules/rulebooks/``), case-folded."""
    return {book.code.casefold(): book.code for book in bundled_rulebooks()}


def check_label(code: str, label: str) -> str:
    label = " ".join(label.split())
    if not label:
        raise ValidationError({"edition": "Name the edition: its year or version (2025, v3)."})
    if len(label) > 100:
        raise ValidationError({"edition": "An edition's name is 100 characters at most."})
    if RulebookEdition.objects.filter(rulebook__code=code, label__iexact=label).exists():
        raise ValidationError(
            {"edition": f"{code} already has an edition {label}: name this one differently."}
        )
    return label


# --- comparing with the current edition ------------------------------------------------------


def compare(code: str, book: ParsedBook) -> Changes:
    current = {
        rule.citation_id: rule
        for rule in Rule.objects.filter(rulebook__code=code).prefetch_related("examples")
    }
    changes = Changes()
    seen = set()
    for entry in book.rules:
        citation = citation_of(code, entry)
        seen.add(citation)
        rule = current.get(citation)
        if rule is None or rule.withdrawn:
            changes.added.append((citation, entry.title))
        elif _same(rule, entry):
            changes.unchanged += 1
        else:
            changes.changed.append((citation, entry.title))
    changes.removed = [
        (citation, rule.title)
        for citation, rule in current.items()
        if citation not in seen and not rule.withdrawn
    ]
    return changes


def _same(rule: Rule, entry: ParsedRule) -> bool:
    examples = [{"title": e.title, "text": e.text} for e in rule.examples.all()]
    return (rule.title, rule.text, examples) == (entry.title, entry.text, examples_of(entry))


# --- the preview, kept on the server ---------------------------------------------------------


def stage_import(
    *, by: User, name: str, data: bytes, code: str, label: str, title: str = ""
) -> RulebookImport:
    """Read a file and keep what it holds for its preview; nothing in the rulebook changes.
    Refusals are ``ValidationError``s naming the form's field."""
    code = check_code(code)
    label = check_label(code, label)
    try:
        found, book = parse_rulebook_file(name, data)
    except RulebookFileError as exc:
        raise ValidationError({"file": str(exc)}) from exc
    source = SourceFile.of(name, data, found)
    existing = Rulebook.objects.filter(code=code).values_list("title", flat=True).first()
    title = " ".join(title.split())[:200] or existing or book.title or f"{code} rules"
    # Previews nobody confirmed go after a day: the list of them stays short.
    stale = timezone.now() - timedelta(hours=PREVIEW_HOURS)
    RulebookImport.objects.filter(created_at__lt=stale).delete()
    return RulebookImport.objects.create(
        token=secrets.token_urlsafe(32), created_by=by, code=code, title=title, label=label,
        file_name=source.name, file_kind=source.kind, sha256=source.sha256, size=source.size,
        pages=source.pages, parsed=book.to_dict(),
    )  # fmt: skip


def pending_import(token: str) -> RulebookImport | None:
    """A preview while it is fresh. Its token is its key: a floor manager may pass the link
    to another, who confirms it in their own name."""
    stale = timezone.now() - timedelta(hours=PREVIEW_HOURS)
    return RulebookImport.objects.filter(token=token, created_at__gte=stale).first()


@dataclass
class Preview:
    code: str
    title: str
    label: str
    file_name: str
    kind: str
    counts: dict[str, int]
    first_rules: list[tuple[str, ParsedRule, str]]
    unplaced: list[tuple[int, str, str]]
    notes: list[str]
    changes: Changes
    #: The book's current edition when this file is an edition of it.
    current: RulebookEdition | None
    #: The current edition was read from this very file.
    same_file: bool


def preview(draft: RulebookImport) -> Preview:
    book = ParsedBook.from_dict(draft.parsed)
    sections = {s.code: s.title for s in book.sections}
    current = RulebookEdition.objects.filter(rulebook__code=draft.code).order_by("-number").first()
    return Preview(
        code=draft.code, title=draft.title, label=draft.label, file_name=draft.file_name,
        kind=KIND_NAMES.get(draft.file_kind, draft.file_kind), counts=book.counts(),
        first_rules=[
            (citation_of(draft.code, r), r, sections.get(r.section, "")) for r in book.rules[:SHOWN]
        ],
        unplaced=[(u.line, u.text, u.reason) for u in book.unplaced], notes=book.notes,
        changes=compare(draft.code, book),
        current=current, same_file=current is not None and current.sha256 == draft.sha256,
    )  # fmt: skip


def confirm_import(*, draft: RulebookImport, by: User) -> RulebookEdition:
    """Save a previewed file as the book's new edition (once: a second click finds it saved)."""
    with transaction.atomic():
        draft = lock_row(RulebookImport, draft.pk)
        if draft.saved_edition_id is not None:
            return RulebookEdition.objects.get(pk=draft.saved_edition_id)
        source = SourceFile(draft.file_name, draft.file_kind, draft.sha256, draft.pages)
        edition = save_edition(
            book=ParsedBook.from_dict(draft.parsed), code=draft.code, title=draft.title,
            label=draft.label, source=source, by=by,
        )  # fmt: skip
        draft.saved_edition = edition
        draft.save(update_fields=["saved_edition"])
    return edition


# --- saving an edition -----------------------------------------------------------------------


def save_edition(
    *, book: ParsedBook, code: str, title: str, label: str, source: SourceFile, by: User | None
) -> RulebookEdition:
    """Write the book's new edition in place and record what it changed."""
    with transaction.atomic():
        code = check_code(code)
        rulebook, _ = Rulebook.objects.get_or_create(
            code=code, defaults={"title": title, "kind": BookKind.IMPORTED}
        )
        # Lock the book: two imports never number the same edition or write the same rule.
        rulebook = lock_row(Rulebook, rulebook.pk)
        label = check_label(code, label)
        rulebook.title, rulebook.edition, rulebook.kind = title, label, BookKind.IMPORTED
        rulebook.source = f"The room's rulebook, imported from {source.name}"[:300]
        rulebook.citation_form, rulebook.order = "BOOK-NUMBER", IMPORTED_ORDER
        rulebook.description, rulebook.imported_at = book.intro, timezone.now()
        rulebook.attribution = rulebook.attribution or "The room's own rulebook."
        rulebook.save()
        sections = _sections(rulebook, book)
        versions, counts = _write_rules(rulebook, book, sections, code, label)
        number = (rulebook.editions.aggregate(last=Max("number"))["last"] or 0) + 1
        edition = RulebookEdition.objects.create(
            rulebook=rulebook, number=number, label=label, file_name=source.name,
            file_kind=source.kind, sha256=source.sha256, pages=source.pages, imported_by=by,
            **counts,
        )  # fmt: skip
        for version in versions:
            version.edition = edition
        RuleVersion.objects.bulk_create(versions, batch_size=500)
    refresh_vocabulary()
    return edition


def _sections(rulebook: Rulebook, book: ParsedBook) -> dict[str, Section]:
    sections = {}
    for entry in book.sections:
        section, _ = Section.objects.update_or_create(
            rulebook=rulebook, code=entry.code,
            defaults={"title": entry.title, "intro": entry.intro, "order": entry.order},
        )  # fmt: skip
        sections[entry.code] = section
    rulebook.sections.exclude(code__in=sections).filter(rules__isnull=True).delete()
    return sections


def _write_rules(
    rulebook: Rulebook, book: ParsedBook, sections: dict[str, Section], code: str, label: str
) -> tuple[list[RuleVersion], dict[str, int]]:
    existing = {
        rule.citation_id: rule
        for rule in Rule.objects.filter(rulebook=rulebook).prefetch_related("examples")
    }
    counts = dict.fromkeys(("added", "changed", "removed", "unchanged"), 0)
    versions: list[RuleVersion] = []
    for position, entry in enumerate(book.rules):
        citation = citation_of(code, entry)
        examples = examples_of(entry)
        values = {
            "section": sections[entry.section], "number": entry.number, "title": entry.title,
            "text": entry.text, "order": position, "examples_text": examples_text(examples),
            "withdrawn": False, "withdrawn_at": None, "house": False, "edition": "",
            "source": "", "stub": False, "note": "",
        }  # fmt: skip
        rule = existing.get(citation)
        if rule is None:
            if Rule.objects.filter(citation_id=citation).exists() or (
                RuleAlias.objects.filter(citation_id=citation).exists()
            ):
                raise ValidationError(f"{citation} already belongs to another rulebook.")
            rule = Rule.objects.create(citation_id=citation, rulebook=rulebook, **values)
            change = ChangeKind.ADDED
        else:
            change = (
                ChangeKind.ADDED
                if rule.withdrawn
                else ChangeKind.UNCHANGED
                if _same(rule, entry)
                else ChangeKind.CHANGED
            )
            if any(getattr(rule, key) != value for key, value in values.items()):
                for key, value in values.items():
                    setattr(rule, key, value)
                rule.save()
        sync_examples(rule, tuple(Example(e["title"], e["text"]) for e in examples))
        counts[change] += 1
        versions.append(
            RuleVersion(
                rule=rule, change=change, title=entry.title, text=entry.text, examples=examples
            )
        )
    kept = {citation_of(code, entry) for entry in book.rules}
    for citation, rule in existing.items():
        if citation in kept or rule.withdrawn:
            continue
        rule.withdrawn, rule.withdrawn_at = True, timezone.now()
        rule.save(update_fields=["withdrawn", "withdrawn_at", "updated_at"])
        counts["removed"] += 1
        versions.append(
            RuleVersion(rule=rule, change=ChangeKind.REMOVED, title=rule.title, text="")
        )
    return versions, counts
