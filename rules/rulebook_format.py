"""The rulebook file format, ``cardroom-rulebook/2`` (described in docs/rulebook-format.md);
files of version 1 (without ``house``) are still read.

One TOML file per book: ``format``, ``[book]``, ``[[sections]]`` and ``[[rules]]`` with
``[[rules.examples]]`` and ``[[rules.other_editions]]``. Files are read and checked here, with
the standard library only; ``rules.services.import_rulebook`` writes them to the database.
Every check names the file and the field, so a broken file is fixed where it is broken.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT_NAME = "cardroom-rulebook"
FORMAT_VERSION = 2
FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"
#: Every version this reader reads, and the rule fields each one added.
VERSIONS = {f"{FORMAT_NAME}/1": frozenset[str](), FORMAT: frozenset({"house"})}
BUNDLED = Path(__file__).resolve().parent / "rulebooks"

#: How a book's rules are cited: ``RRoP-14.3`` (book, section, number) or ``TDA-47``.
SECTIONED, NUMBERED = "BOOK-SECTION.NUMBER", "BOOK-NUMBER"

BOOK_CODE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
SECTION_CODE = re.compile(r"[A-Z0-9]+")
RULE_NUMBER = re.compile(r"[0-9]+")
#: Any citation id: the book code, a hyphen, then letters and digits joined by ``.`` or ``-``.
CITATION = re.compile(r"[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9]+(?:[.\-][A-Za-z0-9]+)*")

#: The longest value the database keeps for each field (``rules.models``).
MAX_LENGTH = {
    "book.code": 10,
    "book.title": 200,
    "book.source": 300,
    "book.edition": 100,
    "book.url": 200,
    "section.code": 20,
    "section.title": 200,
    "rule.citation": 40,
    "rule.number": 20,
    "rule.title": 200,
    "example.title": 200,
    "other_edition.edition": 100,
    "other_edition.number": 20,
    "other_edition.citation": 40,
}

_KEYS = {
    "file": ({"format", "book", "sections", "rules"}, {"format", "book", "sections", "rules"}),
    "book": (
        {"code", "title", "source", "edition", "attribution", "citation_form"},
        {"url", "order", "description", "notes"},
    ),
    "section": ({"code", "title", "order"}, {"intro"}),
    "rule": (
        {"citation", "section", "number", "title"},
        {"text", "edition", "source", "stub", "note", "examples", "other_editions", "house"},
    ),
    "example": ({"title", "text"}, set()),
    "other_edition": ({"edition", "number", "citation"}, {"text"}),
}


class RulebookFormatError(ValueError):
    """A rulebook file that cannot be read or breaks the format; names the file and field."""

    def __init__(self, path: Path | str, message: str, *, field: str = "") -> None:
        super().__init__(f"{path}: {message}")
        self.path, self.message, self.field = str(path), message, field


@dataclass(frozen=True)
class Example:
    title: str
    text: str


@dataclass(frozen=True)
class OtherEdition:
    """The rule's number in another edition; ``citation`` resolves to the rule (an alias)."""

    edition: str
    number: str
    citation: str
    text: str | None = None  # that edition's wording, when it differs


@dataclass(frozen=True)
class Section:
    code: str
    title: str
    order: int
    intro: str = ""


@dataclass(frozen=True)
class Rule:
    citation: str
    number: str
    section: str
    title: str
    text: str
    examples: tuple[Example, ...]
    other_editions: tuple[OtherEdition, ...]
    edition: str = ""  # the edition the text comes from (the book's unless the rule says)
    source: str = ""  # where the text was taken from (the book's unless the rule says)
    stub: bool = False  # a placeholder so that citations resolve: no text in the sources
    note: str = ""
    #: A house procedure: the room edits its words on the rulebook page (version 2).
    house: bool = False

    @property
    def aliases(self) -> tuple[str, ...]:
        return tuple(other.citation for other in self.other_editions)


@dataclass(frozen=True)
class Book:
    code: str
    title: str
    source: str
    edition: str
    attribution: str
    url: str
    sections: tuple[Section, ...]
    rules: tuple[Rule, ...]
    path: str
    citation_form: str = SECTIONED
    order: int = 100
    description: str = ""
    notes: str = ""
    format: str = FORMAT


class _Reader:
    """Typed access to one file's parsed TOML; every failure names the field."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.added_later: frozenset[str] = frozenset()  # fields newer than the file's version

    def fail(self, field: str, problem: str) -> RulebookFormatError:
        return RulebookFormatError(self.path, f"{field}: {problem}", field=field)

    def table(self, value: object, field: str, kind: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, "must be a table")
        required, optional = _KEYS[kind]
        missing, unknown = required - value.keys(), value.keys() - required - optional
        prefix = f"{field}." if field else ""  # the file's top level has no name
        if missing:
            typo = f" ({prefix}{min(unknown)} is not a field of the format)" if unknown else ""
            raise self.fail(f"{prefix}{min(missing)}", "is required" + typo)
        if unknown:
            raise self.fail(f"{prefix}{min(unknown)}", "is not a field of the format (a typo?)")
        if later := value.keys() & self.added_later:
            raise self.fail(f"{prefix}{min(later)}", f"needs format = {FORMAT!r}")
        return value

    def tables(self, value: object, field: str, kind: str) -> list[tuple[str, dict[str, Any]]]:
        """Each table with its field name; a rule's name carries its citation when it has one."""
        if not isinstance(value, list):
            raise self.fail(field, "must be an array of tables")
        named = []
        for i, item in enumerate(value):
            name = f"{field}[{i}]"
            cited = item.get("citation") if isinstance(item, dict) and kind == "rule" else None
            if isinstance(cited, str):
                name += f" ({cited})"
            named.append((name, self.table(item, name, kind)))
        return named

    def text(
        self, data: dict[str, Any], key: str, field: str, limit: str = "", required: bool = True
    ) -> str:
        value = data.get(key, "")
        if not isinstance(value, str):
            raise self.fail(f"{field}.{key}", "must be a string")
        value = value.strip()
        if required and not value:
            raise self.fail(f"{field}.{key}", "must not be empty")
        if limit and len(value) > MAX_LENGTH[limit]:
            raise self.fail(f"{field}.{key}", f"is longer than {MAX_LENGTH[limit]} characters")
        return value

    def integer(self, data: dict[str, Any], key: str, field: str, default: int) -> int:
        value = data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.fail(f"{field}.{key}", "must be a whole number, 0 or more")
        return value

    def flag(self, data: dict[str, Any], key: str, field: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(f"{field}.{key}", "must be true or false")
        return value

    def pattern(self, value: str, regex: re.Pattern[str], field: str, shape: str) -> str:
        if not regex.fullmatch(value):
            raise self.fail(field, f"{value!r} must look like {shape}")
        return value


def load_rulebook_file(path: Path | str) -> Book:
    """Read and check one rulebook file."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RulebookFormatError(path, f"cannot be read as TOML: {exc}") from exc
    read = _Reader(path)
    version = _check_format(read, raw.get("format"))
    newer = list(VERSIONS)[list(VERSIONS).index(version) + 1 :]
    read.added_later = frozenset().union(*(VERSIONS[name] for name in newer))
    data = read.table(raw, "", "file")
    head = read.table(data["book"], "book", "book")
    code = read.pattern(
        read.text(head, "code", "book", "book.code"), BOOK_CODE, "book.code", "RRoP"
    )
    form = read.text(head, "citation_form", "book")
    if form not in (SECTIONED, NUMBERED):
        raise read.fail("book.citation_form", f"must be {SECTIONED!r} or {NUMBERED!r}")
    edition = read.text(head, "edition", "book", "book.edition")
    source = read.text(head, "source", "book", "book.source")
    url = read.text(head, "url", "book", "book.url", required=False)
    if url and not url.startswith(("https://", "http://")):
        raise read.fail("book.url", "must be an http(s) address")
    sections = _sections(read, data["sections"])
    rules = _rules(read, data["rules"], code, form, {s.code for s in sections}, edition, source)
    return Book(
        code=code,
        title=read.text(head, "title", "book", "book.title"),
        source=source,
        edition=edition,
        attribution=read.text(head, "attribution", "book"),
        url=url,
        sections=sections,
        rules=rules,
        path=str(path),
        citation_form=form,
        order=read.integer(head, "order", "book", 100),
        description=read.text(head, "description", "book", required=False),
        notes=read.text(head, "notes", "book", required=False),
        format=version,
    )


def _check_format(read: _Reader, value: object) -> str:
    if value is None:
        raise read.fail("format", f"is required: format = {FORMAT!r}")
    if not isinstance(value, str) or not value.startswith(f"{FORMAT_NAME}/"):
        raise read.fail("format", f"{value!r} is not a rulebook format ({FORMAT!r})")
    if value not in VERSIONS:
        known = " and ".join(repr(v) for v in VERSIONS)
        raise read.fail("format", f"{value!r} is not supported; this reader reads {known}")
    return value


def _sections(read: _Reader, value: object) -> tuple[Section, ...]:
    sections: list[Section] = []
    for field, raw in read.tables(value, "sections", "section"):
        code = read.text(raw, "code", field, "section.code")
        read.pattern(code, SECTION_CODE, f"{field}.code", "BR or 14 (capitals and digits)")
        section = Section(
            code=code,
            title=read.text(raw, "title", field, "section.title"),
            order=read.integer(raw, "order", field, 0),
            intro=read.text(raw, "intro", field, required=False),
        )
        if any(s.code == code for s in sections):
            raise read.fail(f"{field}.code", f"section {code!r} appears twice")
        if any(s.order == section.order for s in sections):
            raise read.fail(f"{field}.order", f"order {section.order} is already used")
        sections.append(section)
    if not sections:
        raise read.fail("sections", "a book needs at least one section")
    return tuple(sections)


def _rules(
    read: _Reader,
    value: object,
    book: str,
    form: str,
    sections: set[str],
    edition: str,
    source: str,
) -> tuple[Rule, ...]:
    rules: list[Rule] = []
    seen: dict[str, str] = {}  # citation id or alias -> where it was first given
    for field, raw in read.tables(value, "rules", "rule"):
        citation = read.text(raw, "citation", field, "rule.citation")
        section = read.text(raw, "section", field)
        if section not in sections:
            raise read.fail(f"{field}.section", f"{section!r} is not one of the book's sections")
        number = read.text(raw, "number", field, "rule.number")
        read.pattern(number, RULE_NUMBER, f"{field}.number", "14 (digits)")
        expected = f"{book}-{section}.{number}" if form == SECTIONED else f"{book}-{number}"
        if citation != expected:
            raise read.fail(
                f"{field}.citation", f"must be {expected!r} ({form}: book, section and number)"
            )
        if citation in seen:
            raise read.fail(f"{field}.citation", f"{citation!r} is already {seen[citation]}")
        seen[citation] = f"the id of {field}"
        examples = tuple(
            Example(
                title=read.text(e, "title", where, "example.title"),
                text=read.text(e, "text", where),
            )
            for where, e in read.tables(raw.get("examples", []), f"{field}.examples", "example")
        )
        others = _other_editions(read, raw.get("other_editions", []), field, book, seen)
        text = read.text(raw, "text", field, required=False)
        stub, note = read.flag(raw, "stub", field), read.text(raw, "note", field, required=False)
        if stub and (text or examples or not note):
            raise read.fail(f"{field}.stub", "a stub has no text or examples and needs a note")
        if not stub and not (text or examples):
            raise read.fail(f"{field}.text", "a rule needs text, examples, or both")
        rules.append(
            Rule(
                citation=citation,
                number=number,
                section=section,
                title=read.text(raw, "title", field, "rule.title"),
                text=text,
                examples=examples,
                other_editions=others,
                edition=read.text(raw, "edition", field, "book.edition", required=False) or edition,
                source=read.text(raw, "source", field, "book.source", required=False) or source,
                stub=stub,
                note=note,
                house=read.flag(raw, "house", field),
            )
        )
    if not rules:
        raise read.fail("rules", "a book needs at least one rule")
    return tuple(rules)


def _other_editions(
    read: _Reader, value: object, field: str, book: str, seen: dict[str, str]
) -> tuple[OtherEdition, ...]:
    others: list[OtherEdition] = []
    for where, raw in read.tables(value, f"{field}.other_editions", "other_edition"):
        citation = read.text(raw, "citation", where, "other_edition.citation")
        read.pattern(citation, CITATION, f"{where}.citation", f"{book}-41 or {book}-2013-9")
        if not citation.startswith(f"{book}-"):
            raise read.fail(f"{where}.citation", f"must start with {book + '-'!r}")
        if citation in seen:
            raise read.fail(f"{where}.citation", f"{citation!r} is already {seen[citation]}")
        seen[citation] = f"an alias in {where}"
        others.append(
            OtherEdition(
                edition=read.text(raw, "edition", where, "other_edition.edition"),
                number=read.text(raw, "number", where, "other_edition.number"),
                citation=citation,
                text=read.text(raw, "text", where, required=False) or None,
            )
        )
    return tuple(others)


def bundled_rulebooks(directory: Path | None = None) -> list[Book]:
    """Every book in ``rules/rulebooks/``, checked together: no citation id or alias twice."""
    paths = sorted((directory or BUNDLED).glob("*.toml"))
    books = sorted((load_rulebook_file(p) for p in paths), key=lambda b: (b.order, b.path))
    codes: dict[str, str] = {}
    seen: dict[str, str] = {}
    for book in books:
        if book.code in codes:
            raise RulebookFormatError(
                book.path, f"book.code: {book.code!r} is also the code of {codes[book.code]}",
                field="book.code",
            )  # fmt: skip
        codes[book.code] = book.path
        for rule in book.rules:
            for cid in (rule.citation, *rule.aliases):
                if cid in seen:
                    raise RulebookFormatError(
                        book.path, f"{rule.citation}: {cid!r} is also cited in {seen[cid]}",
                        field="citation",
                    )  # fmt: skip
                seen[cid] = book.path
    return books


def resolve_citation(books: Iterable[Book], citation: str) -> Rule | None:
    """The rule a citation names: a rule's own id first, then another edition's alias."""
    rules = [rule for book in books for rule in book.rules]
    for rule in rules:
        if rule.citation == citation:
            return rule
    for rule in rules:
        if citation in rule.aliases:
            return rule
    return None


def rule_in_edition(books: Iterable[Book], book: str, edition: str, number: str) -> Rule | None:
    """The rule a book numbered ``number`` in ``edition`` (e.g. TDA, "TDA 2013", "41")."""
    for each in (b for b in books if b.code == book):
        for rule in each.rules:
            if any(o.edition == edition and o.number == number for o in rule.other_editions):
                return rule
            own = (
                f"{rule.section}.{rule.number}" if each.citation_form == SECTIONED else rule.number
            )
            if rule.edition == edition and own == number:
                return rule
    return None
