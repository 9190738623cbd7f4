"""A room's own rulebook read from its words: rule numbers, titles, sections, sub-rules and
worked examples found in the layouts rulebooks use, for the import to preview and save.

What is recognised, line by line (Markdown's ``#`` headings and ``**bold**`` read alike):

- a section: "Section 4 - Misdeals" (any dash), "PART II: Betting", "Chapter 3", a Markdown heading, or
  a short line in Title Case standing alone just before a rule ("General Concepts");
- a rule: "Rule 1: Floor People", "RP-1: Dedicated Final Table", "14.3 Minimum raise",
  "12. Chips visible" (a bare number only while the numbering runs on: a list inside a rule,
  "1) show players …", stays in the rule's words);
- a sub-rule: a number under a rule's own ("14.3.1" under "14.3"), cited on its own;
- a worked example: "Example 1", "Example 4-A:", "Illustration", "Situation 2", filed under
  the rule before it. A rule number seen again later (an illustration addendum repeats
  "Rule 45") files that part's examples under the rule.

Whatever cannot be placed (an example before any rule, a heading with text and no rules, a
rule number seen twice without examples) is listed, not guessed at. Every rule gets a number
unique in the book; when bare numbers restart in each section, the section's code is put in
front ("BR.3"), as Robert's Rules are cited. Pure Python: ``rules.imports`` stores the result.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from cardroom.core.numbers import grouped
from rules.rulebook_lines import (
    Line,
    derived_title,
    heading_shaped,
    join_lines,
    lines_of,
    roman,
    section_code,
    split_title,
    title_shaped,
)

#: Bounds on what one file may hold (the import page says them).
MAX_RULES = 3000
MAX_EXAMPLES = 60
MAX_TITLE = 200
MAX_NUMBER = 20
MAX_INTRO = 20_000
#: A bare number this far past the last rule's still numbers a rule (numbers a book skipped).
RUNS_ON = 10

SECTION = re.compile(
    r"^(?:section|part|chapter)\s+(?P<num>\d{1,3}|[ivxlc]{1,7}|[a-z])\b\.?\s*"
    r"(?:[-–—:.)]\s*)?(?P<title>.*)$",
    re.IGNORECASE,
)
EXPLICIT = re.compile(
    r"^(?:rule|art(?:icle)?\.?)\s+(?P<num>\d{1,4}(?:\.\d{1,3})*)\b\s*(?:[-–—:.)]\s*)?"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
CODED = re.compile(
    r"^(?P<num>[A-Z]{1,4}-\d{1,4}(?:\.\d{1,3})*)(?:\s*[-–—:.)]\s*|\s+|$)(?P<rest>.*)$"
)
DOTTED = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3})+)\.?(?:\s*[-–—:)]\s*|\s+|$)(?P<rest>.*)$")
PLAIN = re.compile(r"^(?P<num>\d{1,3})(?P<sep>[.:)]|\s[-–—])\s+(?P<rest>.+)$")
EXAMPLE = re.compile(
    r"^(?P<title>(?:Example|EXAMPLE|Illustration|ILLUSTRATION|Situation|SITUATION|Scenario)"
    r"(?:\s+\d{1,3}(?:[-.][0-9A-Za-z]{1,3})*)?(?:\s*\([^)]{1,60}\))?)"
    r"(?:\s*[-–—:.)]\s*(?P<rest>.*)|\s+(?=\d)(?P<more>.*)|\s*$)"
)


@dataclass
class ParsedExample:
    title: str
    text: str


@dataclass
class ParsedRule:
    number: str
    title: str
    text: str
    section: str
    line: int
    examples: list[ParsedExample] = field(default_factory=list)
    #: The number of the rule this one is a sub-rule of ("14.3" for "14.3.1").
    parent: str = ""
    #: The title was made from the rule's opening words: the source gives none.
    derived_title: bool = False


@dataclass
class ParsedSection:
    code: str
    title: str
    order: int
    intro: str = ""


@dataclass
class Unplaced:
    line: int
    text: str
    reason: str


@dataclass
class ParsedBook:
    title: str
    intro: str
    sections: list[ParsedSection]
    rules: list[ParsedRule]
    unplaced: list[Unplaced]
    #: What the reader did that the preview should say ("Rule 45 seen again: …").
    notes: list[str]

    def counts(self) -> dict[str, int]:
        return {
            "sections": len({rule.section for rule in self.rules}),
            "rules": sum(not rule.parent for rule in self.rules),
            "sub_rules": sum(bool(rule.parent) for rule in self.rules),
            "examples": sum(len(rule.examples) for rule in self.rules),
            "unplaced": len(self.unplaced),
        }

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ParsedBook:
        return cls(
            title=data["title"],
            intro=data["intro"],
            sections=[ParsedSection(**s) for s in data["sections"]],
            rules=[
                ParsedRule(**{**r, "examples": [ParsedExample(**e) for e in r["examples"]]})
                for r in data["rules"]
            ],
            unplaced=[Unplaced(**u) for u in data["unplaced"]],
            notes=list(data["notes"]),
        )


class RulebookTextError(ValueError):
    """The words hold no rule the reader can recognise, or more than it keeps."""


# --- reading the structure -------------------------------------------------------------------


@dataclass
class _Rule:
    raw: str
    kind: str  # "plain", "explicit", "dotted", "coded"
    title: str
    lines: list[str]
    section: int
    line: int
    examples: list[tuple[str, list[str], int]] = field(default_factory=list)
    derived: bool = False


@dataclass
class _Section:
    number: str
    title: str
    line: int
    intro: list[str] = field(default_factory=list)


def _starts_like_words(rest: str) -> bool:
    """What follows a rule number on its line, if anything, opens like a heading or a rule:
    "Rule 45: Multiple chip betting", not running text such as "Rule 45, a silent bet …"."""
    return not rest or rest[0].isupper() or rest[0].isdigit() or rest[0] in "\"'“‘("


class _Reader:
    def __init__(self, lines: list[Line], *, markdown: bool, wrapped: bool) -> None:
        self.lines, self.markdown, self.wrapped = lines, markdown, wrapped
        self.title = ""
        self.intro: list[str] = []
        self.sections: list[_Section] = []
        self.rules: list[_Rule] = []
        self.unplaced: list[Unplaced] = []
        self.notes: list[str] = []
        self.target: list[str] = self.intro
        self.orphan: tuple[int, list[str]] | None = None
        self.plain_style: str | None = None
        self.last_plain: int | None = None
        self.section_since_plain = False
        self.previous = ""  # the last line with words
        self.width = 0

    # what a line is

    def rule_start(self, text: str, *, heading: bool) -> tuple[str, str, str] | None:
        """(number, kind, the words after it) when the line starts a rule."""
        if (m := EXPLICIT.match(text)) and text[0].isupper() and _starts_like_words(m["rest"]):
            kind = "dotted" if "." in m["num"] else "explicit"
            return m["num"], kind, m["rest"]
        if (m := CODED.match(text)) and _starts_like_words(m["rest"]):
            return m["num"], "coded", m["rest"]
        if (m := DOTTED.match(text)) and _starts_like_words(m["rest"]):
            return m["num"], "dotted", m["rest"]
        if (m := PLAIN.match(text)) and _starts_like_words(m["rest"]):
            number, style = int(m["num"]), m["sep"].strip()
            if heading or self._runs_on(number, style):
                return m["num"], "plain", m["rest"]
        return None

    def _runs_on(self, number: int, style: str) -> bool:
        """A bare "12." is a rule only while the book's numbering runs on (the next number, or
        1 again in a new section); "1)" opening a list inside a rule is the rule's words."""
        if self.plain_style is None:
            return style != ")" and (number == 1 or not self.rules)
        if style != self.plain_style:
            return False
        # Books skip numbers (a rule deleted, "44 reserved"): a few ahead still runs on.
        last = self.last_plain or 0
        return last < number <= last + RUNS_ON or (number == 1 and self.section_since_plain)

    def section_start(self, text: str) -> tuple[str, str] | None:
        m = SECTION.match(text)
        if m and text[0].isupper() and (not m["title"] or heading_shaped(m["title"])):
            return m["num"], m["title"]
        return None

    def next_starts_a_rule(self, index: int) -> bool:
        for line in self.lines[index + 1 :]:
            if line.text:
                return (
                    bool(EXPLICIT.match(line.text) or CODED.match(line.text))
                    or bool(DOTTED.match(line.text) or PLAIN.match(line.text))
                ) and _starts_like_words(line.text.split(" ", 1)[-1])
        return False

    # the walk

    def read(self) -> None:
        # A heading after the last rule ("Glossary") heads no rule: its words are not the last
        # rule's, and the preview lists them as not placed.
        last_rule = max(
            (i for i, line in enumerate(self.lines) if self.rule_start(line.text, heading=True)),
            default=-1,
        )
        for index, line in enumerate(self.lines):
            text = line.text
            if not text:
                self.target.append("")
                continue
            if line.heading:
                self.heading(line, index)
            elif start := self.rule_start(text, heading=False):
                self.start_rule(*start, line.number)
            elif (m := EXAMPLE.match(text)) and not self._is_mid_sentence():
                self.start_example(m["title"], m["rest"] or m["more"] or "", line.number)
            elif found := self.section_start(text):
                self.start_section(found[0], found[1], line.number)
            elif (
                heading_shaped(text)
                and (
                    not self.previous
                    or self.previous[-1] in ".!?:"
                    or self.target[-1:] == [""]
                    or self.target is self.intro
                )
                and (self.next_starts_a_rule(index) or index > last_rule)
            ):
                self.start_section("", text, line.number)
            else:
                self.target.append(text)
            self.previous = text

    def _is_mid_sentence(self) -> bool:
        """A PDF may wrap "… as in the" / "Example 2 above": only a line after a sentence's end
        (or a blank) opens an example."""
        return bool(self.target and self.target[-1] and self.previous[-1:] not in '.!?:)”"')

    def heading(self, line: Line, index: int) -> None:
        text = line.text
        if line.heading == 1 and not self.title and not self.rules and not self.sections:
            self.title = text
        elif start := self.rule_start(text, heading=True):
            self.start_rule(*start, line.number)
        elif m := EXAMPLE.match(text):
            self.start_example(m["title"], m["rest"] or m["more"] or "", line.number)
        elif found := SECTION.match(text):
            self.start_section(found["num"], found["title"], line.number)
        else:
            self.start_section("", text, line.number)

    def start_section(self, number: str, title: str, line: int) -> None:
        self.close_orphan()
        number = number.upper()
        if number and not number.isdigit() and (value := roman(number)) and len(number) > 1:
            number = str(value)
        elif number in {"I", "V", "X"}:
            number = str(roman(number))
        section = _Section(number, title.strip() or f"Section {number}", line)
        self.sections.append(section)
        self.target = section.intro
        self.section_since_plain = True

    def start_rule(self, number: str, kind: str, rest: str, line: int) -> None:
        self.close_orphan()
        if kind in {"plain", "explicit"}:
            self.last_plain = int(number)
            self.section_since_plain = False
        if kind == "plain" and (match := PLAIN.match(self.lines[line - 1].text)):
            self.plain_style = match["sep"].strip()
        if not self.sections:
            self.sections.append(_Section("", "General", line))
        title, text, derived = split_title(rest)
        rule = _Rule(number, kind, title, [text] if text else [], len(self.sections) - 1, line)
        rule.derived = derived
        self.rules.append(rule)
        self.target = rule.lines

    def start_example(self, title: str, rest: str, line: int) -> None:
        self.close_orphan()
        lines = [rest] if rest else []
        if not self.rules:
            self.orphan = (line, [title, *lines])
            self.target = self.orphan[1]
            return
        self.rules[-1].examples.append((" ".join(title.split()), lines, line))
        self.target = lines

    def close_orphan(self) -> None:
        if self.orphan is not None:
            line, words = self.orphan
            text = join_lines(words, wrapped=self.wrapped)
            self.unplaced.append(Unplaced(line, _excerpt(text), "An example before any rule."))
            self.orphan = None

    # the book

    def join(self, lines: list[str]) -> str:
        return join_lines(lines, wrapped=self.wrapped, width=self.width)

    def finish(self, width: int) -> ParsedBook:
        self.close_orphan()
        self.width = width
        join = self.join
        title = self.title
        intro = [line for line in self.intro]
        if not title:
            first = next((i for i, line in enumerate(intro) if line), None)
            if first is not None and len(intro[first]) <= 120 and intro[first][-1] not in ".,;":
                title = intro.pop(first)
        sections = self._sections(join)
        rules = self._rules(sections, join)
        if not rules:
            raise RulebookTextError(
                "No rules were found. Number them as the usual layouts do: “Rule 1: Floor "
                "People”, “1. …”, “14.3 …” or “RP-1: …”."
            )
        if len(rules) > MAX_RULES:
            raise RulebookTextError(f"More than {grouped(MAX_RULES)} rules: split the book in two.")
        used = {rule.section for rule in rules}
        for order, section in enumerate(s for s in sections if s.code in used):
            section.order = order + 1
        return ParsedBook(
            title=title[:MAX_TITLE],
            intro=join(intro)[:MAX_INTRO],
            sections=[s for s in sections if s.code in used],
            rules=rules,
            unplaced=self.unplaced,
            notes=self.notes,
        )

    def _sections(self, join: Callable[[list[str]], str]) -> list[ParsedSection]:
        taken: set[str] = set()
        sections = []
        for index, raw in enumerate(self.sections):
            code = raw.number or section_code(raw.title, taken)
            if code in taken:
                code = section_code(f"{raw.title} {code}", taken)
            taken.add(code)
            intro = join(raw.intro)
            has_rules = any(rule.section == index for rule in self.rules)
            if not has_rules and intro:
                self.unplaced.append(Unplaced(
                    raw.line, _excerpt(f"{raw.title}: {intro}"),
                    "A heading with words but no numbered rule under it: left out.",
                ))  # fmt: skip
            sections.append(ParsedSection(code, raw.title[:MAX_TITLE], index + 1, intro))
        return sections

    def _rules(
        self, sections: list[ParsedSection], join: Callable[[list[str]], str]
    ) -> list[ParsedRule]:
        starts: dict[int, list[int]] = {}
        for rule in self.rules:
            if rule.kind == "plain" and rule.raw == "1":
                starts.setdefault(1, []).append(rule.section)
        # Bare numbers starting again at 1 in another section: cite them by section ("BR.3").
        by_section = len(set(starts.get(1, []))) > 1
        kept: dict[str, ParsedRule] = {}
        for raw in self.rules:
            section = sections[raw.section]
            number = raw.raw
            if raw.kind == "plain" and by_section:
                number = f"{section.code}.{number}"
            elif raw.kind in {"plain", "explicit"}:
                number = str(int(number))
            examples = [
                ParsedExample(title[:MAX_TITLE], join(lines)) for title, lines, _ in raw.examples
            ]
            title, lines, derived = raw.title, list(raw.lines), raw.derived
            if not title:
                title, lines, derived = _title_from(lines)
            text = join(lines)
            if not title:
                title, derived = (derived_title(text), True) if text else (f"Rule {number}", True)
            if number in kept:
                self._again(kept[number], raw, title, text, examples)
                continue
            if len(number) > MAX_NUMBER:
                self.unplaced.append(
                    Unplaced(raw.line, _excerpt(f"{number} {title}"), "A number too long to cite.")
                )
                continue
            if len(examples) > MAX_EXAMPLES:
                self.unplaced.append(Unplaced(
                    raw.line, _excerpt(title),
                    f"More than {MAX_EXAMPLES} examples under one rule: the rest are left out.",
                ))  # fmt: skip
                examples = examples[:MAX_EXAMPLES]
            kept[number] = ParsedRule(
                number=number, title=_cut(title), text=text, section=section.code,
                line=raw.line, examples=examples, derived_title=derived,
            )  # fmt: skip
        for entry in kept.values():
            parts = entry.number.split(".")
            for depth in range(len(parts) - 1, 0, -1):
                if (parent := ".".join(parts[:depth])) in kept:
                    entry.parent = parent
                    break
        return list(kept.values())

    def _again(
        self, first: ParsedRule, raw: _Rule, title: str, text: str, examples: list[ParsedExample]
    ) -> None:
        """A rule number seen a second time: an illustration addendum's examples go under the
        rule; anything else is listed, not merged."""
        if not examples:
            self.unplaced.append(Unplaced(
                raw.line, _excerpt(f"{raw.raw} {title}: {text}"),
                f"Number {first.number} is already the rule on line {first.line}: left out.",
            ))  # fmt: skip
            return
        if text:
            examples.insert(0, ParsedExample(_cut(f"{title} (illustration)"), text))
        room = MAX_EXAMPLES - len(first.examples)
        first.examples.extend(examples[:room])
        self.notes.append(
            f"Rule {first.number} appears again on line {raw.line}: its {len(examples)} "
            f"example{'s' if len(examples) != 1 else ''} filed under the rule."
        )


def _title_from(lines: list[str]) -> tuple[str, list[str], bool]:
    """A rule whose number stands alone: its title is the next line when that reads as one."""
    first = next((i for i, line in enumerate(lines) if line), None)
    if first is not None and len(lines[first]) <= 100 and lines[first][-1] not in ".;,!?":
        rest = lines[first + 1 :]
        if any(rest) and title_shaped(lines[first]):
            return lines[first].rstrip(":"), rest, False
    return "", lines, False


def _cut(title: str) -> str:
    return title if len(title) <= MAX_TITLE else title[: MAX_TITLE - 1].rstrip() + "…"


def _excerpt(text: str, length: int = 240) -> str:
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"


def _width(lines: list[Line]) -> int:
    lengths = sorted(len(line.text) for line in lines if line.text)
    return lengths[int(len(lengths) * 0.9)] if lengths else 0


def parse_rulebook(text: str, *, markdown: bool = False, wrapped: bool = False) -> ParsedBook:
    """Read a rulebook's words: ``markdown`` for a .md file, ``wrapped`` for text taken from a
    PDF (its lines are the page's: sentences run on across them)."""
    lines = lines_of(text, markdown=markdown)
    reader = _Reader(lines, markdown=markdown, wrapped=wrapped)
    reader.read()
    return reader.finish(_width(lines) if wrapped else 0)
