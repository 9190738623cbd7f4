"""The rulebook: books, sections, rules with stable citation ids, examples, other-edition
numbers, house rules with their history, and the editions of a room's imported rulebook."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from cardroom.core.append_only import AppendOnly, chain_unique
from cardroom.core.audit import Chain


class BookKind(models.TextChoices):
    BUNDLED = "bundled", "Bundled"
    HOUSE = "house", "House rules"
    #: The room's own rulebook, imported from its file (PDF, Markdown or text), by edition.
    IMPORTED = "imported", "Imported from the room's file"


class Rulebook(models.Model):
    code = models.CharField(max_length=10, unique=True, help_text="e.g. RRoP, TDA, HOUSE")
    title = models.CharField(max_length=200)
    source = models.CharField(max_length=300, blank=True)
    edition = models.CharField(max_length=100, blank=True)
    attribution = models.TextField(blank=True)
    url = models.URLField(blank=True)
    kind = models.CharField(max_length=10, choices=BookKind, default=BookKind.BUNDLED)
    format_version = models.CharField(max_length=40, blank=True)
    #: "BOOK-SECTION.NUMBER" (RRoP-14.3) or "BOOK-NUMBER" (TDA-47).
    citation_form = models.CharField(max_length=30, blank=True)
    description = models.TextField(blank=True, help_text="The source's own introduction.")
    notes = models.TextField(blank=True, help_text="How the source was turned into this book.")
    order = models.PositiveSmallIntegerField(default=0)
    imported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["order", "code"]
        constraints = [
            # The database refuses a kind outside the choices, whatever writes it.
            models.CheckConstraint(
                condition=models.Q(kind__in=list(BookKind.values)), name="rules_rulebook_kind_valid"
            )
        ]

    def __str__(self) -> str:
        return self.title


class Section(models.Model):
    rulebook = models.ForeignKey(Rulebook, on_delete=models.CASCADE, related_name="sections")
    code = models.CharField(max_length=20)
    title = models.CharField(max_length=200)
    intro = models.TextField(blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["rulebook__order", "order"]
        constraints = [
            models.UniqueConstraint(fields=["rulebook", "code"], name="section_code_per_book")
        ]

    def __str__(self) -> str:
        return f"{self.rulebook.code} · {self.title}"


class Rule(models.Model):
    """One rule. ``citation_id`` never changes once published: rulings and the engine cite it."""

    citation_id = models.CharField(max_length=40, unique=True)
    rulebook = models.ForeignKey(Rulebook, on_delete=models.PROTECT, related_name="rules")
    section = models.ForeignKey(Section, on_delete=models.PROTECT, related_name="rules")
    number = models.CharField(max_length=20)
    title = models.CharField(max_length=200)
    text = models.TextField(blank=True)
    order = models.PositiveIntegerField(default=0)
    #: The edition and source the text comes from, when not the book's.
    edition = models.CharField(max_length=100, blank=True)
    source = models.CharField(max_length=300, blank=True)
    #: A placeholder so that a citation resolves while its text is missing from the sources.
    stub = models.BooleanField(default=False)
    note = models.TextField(blank=True)
    #: Example and illustration text, kept beside the rule for the search index.
    examples_text = models.TextField(blank=True, editable=False)
    withdrawn = models.BooleanField(default=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    #: Written by the house (edited on the floor, with history), not imported from a file.
    house = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rulebook__order", "section__order", "order"]

    def __str__(self) -> str:
        return f"{self.citation_id} {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("rules:rule_detail", args=[self.citation_id])

    def cited_count(self) -> int:
        """How many rulings cite this rule (0 while the rulings app has none to offer)."""
        citations = getattr(self, "ruling_citations", None)
        if citations is None:
            return 0
        return int(citations.values("ruling").distinct().count())

    def neighbours(self) -> tuple[Rule | None, Rule | None]:
        """The rules before and after this one in its book (withdrawn rules skipped)."""
        book = Rule.objects.filter(rulebook_id=self.rulebook_id, withdrawn=False).exclude(
            pk=self.pk
        )
        position = (self.section.order, self.order)
        before = book.filter(
            models.Q(section__order__lt=position[0])
            | models.Q(section__order=position[0], order__lt=position[1])
        ).order_by("-section__order", "-order")
        after = book.filter(
            models.Q(section__order__gt=position[0])
            | models.Q(section__order=position[0], order__gt=position[1])
        ).order_by("section__order", "order")
        return before.first(), after.first()


class RuleExample(models.Model):
    rule = models.ForeignKey(Rule, on_delete=models.CASCADE, related_name="examples")
    order = models.PositiveSmallIntegerField(default=0)
    title = models.CharField(max_length=200, blank=True)
    text = models.TextField()

    class Meta:
        ordering = ["rule", "order"]

    def __str__(self) -> str:
        return f"{self.rule.citation_id} {self.title}"


class RuleAlias(models.Model):
    """The rule's number in another edition: an old citation resolves to the rule it meant."""

    rule = models.ForeignKey(Rule, on_delete=models.CASCADE, related_name="aliases")
    citation_id = models.CharField(max_length=40, unique=True)
    edition = models.CharField(max_length=100)
    number = models.CharField(max_length=20)
    #: That edition's wording, when it differs.
    text = models.TextField(blank=True)

    class Meta:
        ordering = ["edition", "citation_id"]
        verbose_name_plural = "rule aliases"

    def __str__(self) -> str:
        return f"{self.citation_id} ({self.edition}) → {self.rule.citation_id}"


class RuleRevision(AppendOnly):
    """House-rule history: every version as written, by whom. Append-only."""

    #: Its audit chain (``cardroom/core/audit.py``): the stream and the fields hashed.
    audit_chain = Chain("rule_id", ("rule_id", "title", "text", "changed_by_id", "changed_at"))

    rule = models.ForeignKey(Rule, on_delete=models.CASCADE, related_name="revisions")
    title = models.CharField(max_length=200)
    text = models.TextField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    changed_at = models.DateTimeField(default=timezone.now, editable=False)

    append_only_message = "Rule history is append-only."

    class Meta:
        ordering = ["-changed_at", "-id"]
        constraints = [chain_unique("rule")]

    def __str__(self) -> str:
        return f"{self.rule.citation_id} revision {self.changed_at:%Y-%m-%d %H:%M}"


class VocabularyWord(models.Model):
    """Every word the rulebook uses, for correcting typos in searches (rebuilt on import)."""

    word = models.CharField(max_length=60, unique=True)

    def __str__(self) -> str:
        return self.word


class ChangeKind(models.TextChoices):
    ADDED = "added", "Added"
    CHANGED = "changed", "Changed"
    UNCHANGED = "unchanged", "Unchanged"
    REMOVED = "removed", "Removed"


class RulebookEdition(models.Model):
    """One edition of a room's rulebook as imported from its file, with what it changed.
    Written once by ``rules.imports.save_edition``; the rules keep their rows across editions."""

    rulebook = models.ForeignKey(Rulebook, on_delete=models.PROTECT, related_name="editions")
    #: 1 for the first edition imported, then 2, 3 …: the edition's address.
    number = models.PositiveIntegerField()
    label = models.CharField(max_length=100, help_text="The edition's name: 2025, v3, June 2026")
    file_name = models.CharField(max_length=200)
    file_kind = models.CharField(max_length=10)
    sha256 = models.CharField(max_length=64)
    pages = models.PositiveIntegerField(default=0)
    imported_at = models.DateTimeField(default=timezone.now)
    #: Empty when imported by the ``load_rulebook`` command.
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    added = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    removed = models.PositiveIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["rulebook", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["rulebook", "number"], name="edition_number_per_book"),
            models.UniqueConstraint(fields=["rulebook", "label"], name="edition_label_per_book"),
        ]

    def __str__(self) -> str:
        return f"{self.rulebook.code} edition {self.label}"

    def get_absolute_url(self) -> str:
        return reverse("rules:edition", args=[self.rulebook.code, self.number])


class RuleVersion(models.Model):
    """A rule's words in one edition of its book, and how that edition changed it; a rule
    the edition dropped has a ``removed`` row (its last words are the edition's before)."""

    edition = models.ForeignKey(RulebookEdition, on_delete=models.CASCADE, related_name="versions")
    rule = models.ForeignKey(Rule, on_delete=models.PROTECT, related_name="versions")
    change = models.CharField(max_length=10, choices=ChangeKind)
    title = models.CharField(max_length=200)
    text = models.TextField(blank=True)
    #: The edition's worked examples: [{"title": …, "text": …}].
    examples = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["edition", "rule__order"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "rule"], name="one_version_per_edition"),
            models.CheckConstraint(
                condition=models.Q(change__in=list(ChangeKind.values)),
                name="rules_ruleversion_change_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rule.citation_id} in {self.edition} ({self.change})"


class RulebookImport(models.Model):
    """A rulebook file read and waiting for the floor manager who uploaded it to confirm its
    preview: what the file holds, kept on the server under an unguessable token for a day."""

    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    code = models.CharField(max_length=10)
    title = models.CharField(max_length=200)
    label = models.CharField(max_length=100)
    file_name = models.CharField(max_length=200)
    file_kind = models.CharField(max_length=10)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    pages = models.PositiveIntegerField(default=0)
    #: ``rules.rulebook_text.ParsedBook.to_dict()``.
    parsed = models.JSONField()
    saved_edition = models.ForeignKey(
        RulebookEdition, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.file_name} → {self.code} {self.label}"
