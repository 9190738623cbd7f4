"""The floor's words for the rulebook's words, and reading what someone typed.

Players say "shove", the rulebook says "all-in". A query is read term by term, and each floor
word or phrase also searches for the rulebook's phrases. Web-search syntax keeps its meaning:
``"quoted phrase"``, ``or`` between terms, ``-word`` to exclude. Pure Python: the search
backends in ``rules.search`` turn the terms into FTS5 or tsquery syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

#: Floor word or phrase (lower case) -> the rulebook's words for it.
SYNONYMS: dict[str, tuple[str, ...]] = {}


def _same(rulebook: tuple[str, ...], *floor: str) -> None:
    for word in floor:
        SYNONYMS[word] = rulebook


_same(("all-in",), "shove", "shoves", "shoved", "jam", "jams", "jammed", "push", "pushes",
      "allin", "all in", "all-ins")  # fmt: skip
_same(("minimum raise",), "min-raise", "min raise", "minraise", "min-raised", "minimum raises")
_same(("minimum bet", "minimum wager"), "min bet", "min-bet", "minbet")
_same(("oversized chip", "single chip"), "overchip", "over-chip", "over chip",
      "big chip", "one chip", "overchipped")  # fmt: skip
_same(("oversize wager", "oversize"), "overbet", "overbets", "over-bet", "overbetting")
_same(("split pot", "split"), "chop", "chops", "chopped", "chopping", "chop pot")
_same(("out of turn",), "oot", "out-of-turn", "acting early")
_same(("string raise", "string bet"), "string bet", "string-bet", "stringbet", "string raise",
      "string raising", "string betting")  # fmt: skip
_same(("re-open", "reopen"), "reopen", "re-open", "reopens", "re-opens", "reopened",
      "re-opened", "reopening", "re-opening")  # fmt: skip
_same(("undercall", "short call"), "undercall", "under-call", "under call", "undercalled")
_same(("time", "clock"), "clock", "call the clock", "call clock", "tank", "tanking")
_same(("discard", "muck", "killed"), "muck", "mucked", "mucking")
_same(("big blind",), "bb", "bigblind")
_same(("small blind",), "sb", "smallblind")
_same(("first to act", "under the gun"), "utg")
_same(("breaking tables", "breaking table", "break"), "table break", "break table",
      "breaking", "broken table")  # fmt: skip
_same(("balancing", "balance"), "balance tables", "balancing tables")
_same(("deal twice", "dealing twice"), "run it twice", "run twice", "ran it twice")
_same(("order of showing", "show"), "showdown order", "show order", "who shows first")
_same(("pot-limit",), "pl", "plo", "pot limit")
_same(("no-limit",), "nl", "nlh", "nlhe", "no limit")
_same(("pot size", "pot count"), "pot bet", "bet the pot", "pot sized", "potting")
_same(("re-raise", "raise"), "reraise", "re-raise", "3-bet", "3bet", "three-bet")
_same(("bring-in",), "bring in", "bringin")
_same(("rapping", "rap"), "knock", "knocks", "knocking", "tap the table", "knock the table")
_same(("verbal", "statement"), "declare", "declared", "declaration", "said")
_same(("seat card", "seat cards", "random"), "seat draw", "redraw", "draw for seats")
_same(("suit", "suits"), "suit order", "suit ranking", "ranking of suits")
_same(("miscalling", "miscall"), "miscall", "miscalled", "wrong call")
_same(("hidden", "concealed"), "hiding chips", "hidden chips", "covered chips")

#: Words too common to help (PostgreSQL drops them itself; FTS5 would require them).
STOPWORDS = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "could", "did", "do", "does",
    "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is",
    "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "she", "should", "so", "than",
    "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "was", "we",
    "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would",
    "you", "your",
})  # fmt: skip

WORD = re.compile(r"[a-z0-9]+(?:['\-.][a-z0-9]+)*")
TOKEN = re.compile(r'(-?)"([^"]*)"?|(\S+)')
FLOOR_PHRASES = sorted((p for p in SYNONYMS if " " in p), key=len, reverse=True)


@dataclass(frozen=True)
class Term:
    """One piece of a query: words (a phrase when several), with the alternatives any of which
    may match instead, joined to the term before by ``or``, or excluded."""

    text: str
    alternatives: tuple[str, ...] = ()
    exclude: bool = False
    joined_by_or: bool = False
    #: The last word while someone is still typing it ("strad" finds "straddle").
    prefix: bool = False

    @property
    def options(self) -> tuple[str, ...]:
        return (self.text, *(a for a in self.alternatives if a != self.text))

    def with_alternative(self, word: str) -> Term:
        return replace(self, alternatives=(*self.alternatives, word))


def parse_query(query: str) -> list[Term]:
    raw = query.lower()
    # Floor phrases ("min raise", "run it twice") become one quoted term before splitting.
    for phrase in FLOOR_PHRASES:
        raw = re.sub(rf'(?<!["\w]){re.escape(phrase)}(?![\w"])', f'"{phrase}"', raw)
    typing = bool(query) and not query[-1].isspace() and not query.rstrip().endswith('"')
    found = list(TOKEN.finditer(raw))
    terms: list[Term] = []
    pending_or = False
    for index, match in enumerate(found):
        negated, quoted, bare = match.group(1), match.group(2), match.group(3)
        if bare in {"or", "|"}:
            pending_or = bool(terms)
            continue
        exclude = bool(negated) or (bare is not None and bare.startswith("-") and len(bare) > 1)
        words = WORD.findall(quoted if quoted is not None else bare.lstrip("-"))
        if not words:
            continue
        text = " ".join(words)
        if quoted is None and len(words) == 1 and text in STOPWORDS:
            continue
        last = index == len(found) - 1
        terms.append(
            Term(
                text=text,
                alternatives=SYNONYMS.get(text, ()),
                exclude=exclude,
                joined_by_or=pending_or and not exclude,
                prefix=typing
                and last
                and quoted is None
                and not exclude
                and len(words) == 1
                and len(text) > 1,
            )
        )
        pending_or = False
    return terms


# --- citations typed as such -----------------------------------------------------------------

BOOKS = {
    "rrop": "RRoP", "robert's": "RRoP", "roberts": "RRoP", "rr": "RRoP",
    "tda": "TDA", "bh": "BH", "house": "HOUSE",
}  # fmt: skip
#: "TDA 45", "tda-45", "TDA45", "rule 45", "14.3", "RRoP BR.15", "br 15", "TDA 2013 rule 41".
CITATION = re.compile(
    r"^\s*(?:(?P<book>rrop|robert'?s|rr|tda|bh|house)(?=[\s\-\d])[\s\-]*)?"
    r"(?:(?P<year>(?:19|20)\d\d)[\s\-]+)?(?:rules?\s*|no\.?\s*|#\s*)?"
    r"(?P<section>[a-z]{1,3}(?=[\s.\-]?\d))?[\s.\-]?(?P<number>\d{1,3}(?:\.\d{1,3})?)\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class TypedCitation:
    book: str | None
    number: str
    #: An edition year ("TDA 2013 rule 41"): look the number up among other editions only.
    year: str | None = None

    def candidates(self) -> list[str]:
        books = [self.book] if self.book else ["TDA", "RRoP", "BH", "HOUSE"]
        return [f"{book}-{self.number}" for book in books]


def parse_citation(query: str) -> TypedCitation | None:
    match = CITATION.match(query)
    if not match:
        return None
    book = match.group("book")
    number = match.group("number")
    if section := match.group("section"):
        number = f"{section.upper()}.{number}"
    return TypedCitation(
        book=BOOKS[book.lower()] if book else None, number=number, year=match.group("year")
    )
