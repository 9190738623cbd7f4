"""Writes to the rulebook: importing books (idempotent, in place) and house rules (with history).

Rules are keyed on their citation id, which never changes once published: rulings point at it.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import format_lazy

from cardroom.core.locks import lock_row
from cardroom.core.numbers import grouped_lazy
from cardroom.core.parsers import whole_number
from rules import rulebook_format as fmt
from rules.models import (
    BookKind,
    Rule,
    RuleAlias,
    Rulebook,
    RuleExample,
    RuleRevision,
    Section,
    VocabularyWord,
)

#: The words of the rulebook, for typo correction ("straddel" → "straddle").
WORDS = re.compile(r"[a-z][a-z'\-]{1,58}[a-z]")
HOUSE_CODE, HOUSE_SECTION = "HOUSE", "H"


@transaction.atomic
def import_rulebook(book: fmt.Book) -> dict[str, int]:
    """Create or update a book in place; importing the same file twice changes nothing.

    A rule keeps its row (and its rulings) across imports. A rule gone from the file is
    marked withdrawn, never deleted; one that comes back is current again. Examples are
    replaced as a whole when they change; other-edition aliases are added or moved. A house
    procedure (``house = true``) the room has edited keeps the room's title and words.
    """
    rulebook, _ = Rulebook.objects.select_for_update().update_or_create(
        code=book.code,
        defaults={
            "title": book.title, "source": book.source, "edition": book.edition,
            "attribution": book.attribution, "url": book.url, "kind": BookKind.BUNDLED,
            "format_version": book.format, "citation_form": book.citation_form,
            "description": book.description, "notes": book.notes, "order": book.order,
            "imported_at": timezone.now(),
        },
    )  # fmt: skip
    sections = {
        entry.code: Section.objects.update_or_create(
            rulebook=rulebook, code=entry.code,
            defaults={"title": entry.title, "order": entry.order, "intro": entry.intro},
        )[0]
        for entry in book.sections
    }  # fmt: skip
    counts = {"created": 0, "updated": 0, "unchanged": 0, "withdrawn": 0}
    existing = {rule.citation_id: rule for rule in Rule.objects.filter(rulebook=rulebook)}
    for position, entry in enumerate(book.rules):
        values: dict[str, Any] = {
            "section": sections[entry.section], "number": entry.number, "title": entry.title,
            "text": entry.text, "order": position, "edition": entry.edition,
            "source": entry.source, "stub": entry.stub, "note": entry.note,
            "examples_text": "\n\n".join(f"{e.title}: {e.text}" for e in entry.examples),
            "withdrawn": False, "withdrawn_at": None, "house": False,
        }  # fmt: skip
        rule = existing.get(entry.citation)
        values["house"] = entry.house
        if rule is not None and rule.house and rule.revisions.exists():
            # A house procedure the room has rewritten keeps the room's words.
            del values["title"], values["text"]
        if rule is None:
            if Rule.objects.filter(citation_id=entry.citation).exists():
                raise ValidationError(f"{entry.citation} already belongs to another rulebook.")
            rule = Rule.objects.create(citation_id=entry.citation, rulebook=rulebook, **values)
            counts["created"] += 1
        elif any(getattr(rule, key) != value for key, value in values.items()):
            for key, value in values.items():
                setattr(rule, key, value)
            rule.save()
            counts["updated"] += 1
        else:
            counts["unchanged"] += 1
        sync_examples(rule, entry.examples)
        _sync_aliases(rule, entry.other_editions)
    gone = rulebook.rules.filter(withdrawn=False).exclude(
        citation_id__in=[entry.citation for entry in book.rules]
    )
    counts["withdrawn"] = gone.update(withdrawn=True, withdrawn_at=timezone.now())
    # Sections dropped from the file go too, unless a (withdrawn) rule still sits in one.
    rulebook.sections.exclude(code__in=sections).filter(rules__isnull=True).delete()
    return counts


def sync_examples(rule: Rule, examples: tuple[fmt.Example, ...]) -> None:
    wanted = [(example.title, example.text) for example in examples]
    if list(rule.examples.values_list("title", "text")) == wanted:
        return
    rule.examples.all().delete()
    RuleExample.objects.bulk_create(
        RuleExample(rule=rule, order=i, title=title, text=text)
        for i, (title, text) in enumerate(wanted)
    )


def _sync_aliases(rule: Rule, others: tuple[fmt.OtherEdition, ...]) -> None:
    for other in others:
        RuleAlias.objects.update_or_create(
            citation_id=other.citation,
            defaults={
                "rule": rule, "edition": other.edition, "number": other.number,
                "text": other.text or "",
            },
        )  # fmt: skip
    rule.aliases.exclude(citation_id__in=[other.citation for other in others]).delete()


def load_rulebooks(books: list[fmt.Book]) -> dict[str, dict[str, int]]:
    """Import several books, then rebuild the word list the typo matching uses."""
    counts = {book.code: import_rulebook(book) for book in books}
    refresh_vocabulary()
    return counts


def refresh_vocabulary() -> int:
    """Rebuild the list of words the rulebook uses (typo correction in searches)."""
    words: set[str] = set()
    for title, text, examples in Rule.objects.filter(withdrawn=False).values_list(
        "title", "text", "examples_text"
    ):
        words.update(WORDS.findall(f"{title} {text} {examples}".lower().replace("’", "'")))
    with transaction.atomic():
        VocabularyWord.objects.all().delete()
        VocabularyWord.objects.bulk_create(
            (VocabularyWord(word=word) for word in sorted(words)), batch_size=1000
        )
    return len(words)


# --- house rules -----------------------------------------------------------------------------


def _clean(title: str, text: str) -> tuple[str, str]:
    title, text = title.strip(), text.strip()
    errors = {}
    if not title:
        errors["title"] = "Give the house rule a title."
    if not text:
        errors["text"] = "Write the rule."
    if errors:
        raise ValidationError(errors)
    return title, text


#: A house rule's number is also its place in the book (``Rule.order``, a PositiveIntegerField:
#: at most 2^31 - 1 on PostgreSQL): nine digits always fit.
MAX_HOUSE_NUMBER = 999_999_999
HOUSE_NUMBER_ERROR = format_lazy(
    "A house rule number is a whole number from 1 to {}.", grouped_lazy(MAX_HOUSE_NUMBER)
)


def create_house_rule(*, by: User, title: str, text: str, number: str = "") -> Rule:
    """Add a house rule, cited ``HOUSE-<number>`` (the next free number unless given)."""
    title, text = _clean(title, text)
    number = number.strip()
    if number and not 1 <= (whole_number(number) or 0) <= MAX_HOUSE_NUMBER:
        raise ValidationError({"number": HOUSE_NUMBER_ERROR})
    with transaction.atomic():
        book, _ = Rulebook.objects.get_or_create(
            code=HOUSE_CODE,
            defaults={"title": "House rules", "kind": BookKind.HOUSE, "order": 1000,
                      "citation_form": "BOOK-NUMBER", "source": "This cardroom"},
        )  # fmt: skip
        # Lock the book so that two managers never take the same number.
        book = lock_row(Rulebook, book.pk)
        section, _ = Section.objects.get_or_create(
            rulebook=book, code=HOUSE_SECTION, defaults={"title": "House rules"}
        )
        numbers = book.rules.values_list("number", flat=True)
        taken = {n for n in map(whole_number, numbers) if n is not None}
        number = number or str(max(taken, default=0) + 1)
        citation = f"{HOUSE_CODE}-{number}"
        if Rule.objects.filter(citation_id=citation).exists() or (
            RuleAlias.objects.filter(citation_id=citation).exists()
        ):
            raise ValidationError({"number": f"{citation} already exists."})
        rule = Rule.objects.create(
            citation_id=citation, rulebook=book, section=section, number=number, title=title,
            text=text, order=int(number), house=True,
        )  # fmt: skip
        RuleRevision.objects.create(rule=rule, title=title, text=text, changed_by=by)
    refresh_vocabulary()
    return rule


def update_house_rule(*, rule: Rule, by: User, title: str, text: str) -> Rule:
    """Change a house rule's words; the previous versions stay in its history."""
    title, text = _clean(title, text)
    if not rule.house:
        raise ValidationError("Only house rules are edited here; bundled books are imported.")
    with transaction.atomic():
        rule = lock_row(Rule, rule.pk)
        if (rule.title, rule.text) == (title, text):
            return rule
        rule.title, rule.text = title, text
        rule.save(update_fields=["title", "text", "updated_at"])
        RuleRevision.objects.create(rule=rule, title=title, text=text, changed_by=by)
    refresh_vocabulary()
    return rule
