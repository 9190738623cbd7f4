"""The lines of a room's rulebook file and the words of one rule: Markdown read as text, page
numbers and contents lines left out, lines run on into paragraphs (a PDF's lines are the
page's), a rule's title told from its words. Pure Python, for ``rules.rulebook_text``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A derived title (a rule whose source gives none) is its opening words, this long at most.
DERIVED_TITLE = 70

PAGE_FURNITURE = re.compile(r"^(?:page\s+)?[-–—]?\s*\d{1,4}\s*[-–—]?(?:\s+of\s+\d{1,4})?$", re.I)
CONTENTS_LINE = re.compile(r"(?:\.\s?){4,}\s*\d{1,4}$|\s{3,}\d{1,4}$")
LIST_ITEM = re.compile(r"^(?:[-*+•]\s|\(?[a-z]\)\s|\(?\d{1,2}\)\s|\([ivx]{1,4}\)\s)", re.I)
MD_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<text>.*?)\s*#*\s*$")
MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
SMALL_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "vs"}
)
#: Hyphenated prefixes a line may break after and keep ("all-\nin" is "all-in").
KEEP_HYPHEN = frozenset(
    {"all", "re", "non", "pre", "self", "multi", "half", "over", "under", "co", "post", "big",
     "out", "heads", "check", "one", "two", "three", "four", "five", "no", "pot", "high", "low"}
)  # fmt: skip


# --- lines -----------------------------------------------------------------------------------


@dataclass
class Line:
    number: int
    text: str
    #: A Markdown heading's level (0: not a heading).
    heading: int = 0


def markdown_line(raw: str) -> tuple[str, int]:
    text = raw.strip()
    if text.startswith("```") or text in {"---", "***", "___"}:
        return "", 0
    level = 0
    if match := MD_HEADING.match(text):
        level, text = len(match.group("level")), match.group("text")
    text = re.sub(r"^>\s?", "", text)
    text = MD_LINK.sub(r"\1", text).replace("**", "").replace("__", "")
    text = re.sub(r"^\*(?=\S)|(?<=\S)\*$", "", text)
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!])", r"\1", text)
    return text.strip(), level


def lines_of(text: str, *, markdown: bool) -> list[Line]:
    """The text's lines, trimmed, with Markdown read; page numbers and contents lines left out."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")
    text = text.replace("\t", " ").replace("\u00ad", "").replace("\ufeff", "")
    found: list[Line] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        body, level = markdown_line(raw) if markdown else (raw.strip(), 0)
        body = " ".join(body.split())
        if PAGE_FURNITURE.match(body) or (body and CONTENTS_LINE.search(body)):
            body = ""  # a page number, or a contents line ("Floor People ........ 3")
        found.append(Line(number, body, level))
    return found


# --- the words of a rule ---------------------------------------------------------------------


def join_lines(lines: list[str], *, wrapped: bool, width: int = 0) -> str:
    """Lines as a rule's text: a blank line is a paragraph, a list item its own line, other
    lines run on (a PDF's lines are the page's, not the author's). In a PDF (``wrapped``) a
    sentence ending well short of the page's width also ends a paragraph."""
    paragraphs: list[list[str]] = [[]]
    for index, line in enumerate(lines):
        current = paragraphs[-1]
        if not line:
            if current:
                paragraphs.append([])
            continue
        if not current:
            current.append(line)
        elif LIST_ITEM.match(line):
            current.append("\n" + line)
        elif current[-1].endswith("-") and line[:1].islower() and breaks_word(current[-1]):
            current[-1] = current[-1][:-1] + line
        elif current[-1].endswith("-") and line[:1].islower():
            current[-1] += line
        else:
            current.append(" " + line)
        previous = lines[index]
        if wrapped and width and previous[-1:] in ".!?:" and len(previous) < 0.7 * width:
            paragraphs.append([])
    text = "\n\n".join("".join(p) for p in paragraphs if p)
    return text.strip()


def breaks_word(line: str) -> bool:
    """True when a line's last hyphen splits a word ("substan-" / "tial"), not a compound."""
    word = re.findall(r"[A-Za-z]+-$", line)
    return bool(word) and word[0][:-1].lower() not in KEEP_HYPHEN and len(word[0]) > 3


def split_title(rest: str) -> tuple[str, str, bool]:
    """A rule line's words after its number: (title, the text that starts on it, derived).
    "Minimum raise. A raise must …" is titled; a rule that opens straight into its words
    ("Check-raise is permitted in all games …") is titled by its opening words."""
    rest = rest.strip()
    if not rest:
        return "", "", False
    split = re.match(r"^(?P<t>[^.:;!?]{1,100}?)\s*(?:[.:]\s+|\s[-–—]\s+)(?P<x>\S.*)$", rest)
    if split and title_shaped(split.group("t")):
        return split.group("t").strip(), split.group("x"), False
    if len(rest) <= 100 and rest[-1] not in ".;!?," and title_shaped(rest):
        return rest.rstrip(":"), "", False
    return derived_title(rest), rest, True


def title_shaped(words: str) -> bool:
    parts = words.split()
    if not parts or len(parts) > 9 or (not words[:1].isupper() and not words[:1].isdigit()):
        return False
    big = [w for w in parts if w.lower() not in SMALL_WORDS and w[:1].isalpha()]
    capital = sum(w[:1].isupper() for w in big)
    return len(parts) <= 6 or (bool(big) and capital >= 0.6 * len(big))


def derived_title(text: str) -> str:
    first = re.split(r"(?<=[.!?;])\s", text.strip(), maxsplit=1)[0].rstrip(".;!?,:")
    if len(first) <= DERIVED_TITLE:
        return first
    cut = first[:DERIVED_TITLE].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def heading_shaped(text: str) -> bool:
    """A short line standing alone as a heading: Title Case or capitals, no sentence end."""
    if not text or len(text) > 70 or text[-1] in ".,;:!?" or not text[0].isalpha():
        return False
    if text.isupper():
        return True
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’]*", text) if w.lower() not in SMALL_WORDS]
    return bool(words) and len(words) <= 8 and all(w[0].isupper() for w in words)


def roman(value: str) -> int | None:
    numerals = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    total, previous = 0, 0
    for char in reversed(value.lower()):
        if char not in numerals:
            return None
        digit = numerals[char]
        total += -digit if digit < previous else digit
        previous = max(previous, digit)
    return total or None


def section_code(title: str, taken: set[str]) -> str:
    """A section's code from its title's initials ("Betting and Raising" is BR), unique."""
    words = [w for w in re.findall(r"[A-Za-z]+", title) if w.lower() not in SMALL_WORDS]
    base = "".join(w[0] for w in words[:5]).upper() or "S"
    code, n = base, 2
    while code in taken:
        code, n = f"{base}{n}", n + 1
    return code
