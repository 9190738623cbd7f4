"""Rulebook search: one function, two engines chosen by the database in use, one ranking.

- PostgreSQL: a weighted ``search_vector`` (citation and title A, text B, examples C; a stored
  generated column with a GIN index, migration 0002), ``ts_rank``, and ``pg_trgm`` over the
  rulebook's own words so a typo still finds the rule, all as ``django.contrib.postgres.search``
  expressions (``SearchQuery``, ``SearchRank``, ``TrigramSimilarity``).
- SQLite: two FTS5 tables kept in step by triggers (title and text; the examples apart),
  ``bm25`` with column weights, prefix indexes for the word being typed; typos are matched
  with ``difflib`` against the same word list.

Both read web-search syntax (``"phrase"``, ``or``, ``-word``), add the rulebook's words for
the floor's (``rules.vocabulary``: "overchip" is the single larger chip, "misdeal" the ruling
after substantial action), look citations up directly ("TDA 45", "14.3", and old numbers such
as "TDA 41"), and filter by book and section. Never a ``LIKE`` scan.

The index finds the candidates (a few dozen, best first by its own rank); ``rank`` then
orders them the same way on both databases, by where each of the query's terms is found: in
the rule's citation or title (what the rule is about) far above its text, its text above its
worked examples; a whole phrase above a single word; a title that opens with the words
searched for above one that only mentions them. The rule that answers the question comes
first, not the walkthrough that uses its words most often.

A query first needs every term; when that finds little, rules matching all but one follow
(``quorums``): small intersections to rank, even on 20,000 rules (``make bench``).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from django.contrib.postgres.search import (
    SearchQuery,
    SearchRank,
    SearchVectorField,
    TrigramSimilarity,
)
from django.db import connection
from django.db.models import Q, QuerySet
from django.db.models.expressions import Col
from django.utils.safestring import SafeString

from rules.models import BookKind, Rule, Rulebook, Section, VocabularyWord
from rules.snippets import plain_snippet, snippet
from rules.vocabulary import (
    NOT_IN_THE_BOOKS,
    QUESTION_WORDS,
    STOPWORDS,
    SYNONYMS,
    Term,
    parse_citation,
    parse_query,
)

MAX_QUERY = 200
#: Fewer hits than this for all the terms, and rules matching all but one are added.
RELAX_BELOW = 5
MAX_GROUPS, MAX_SUBSETS = 8, 70
#: The index hands the ranking at least this many candidates, its best first.
POOL = 20
#: Where a term is found counts this much: citation and title, text, worked examples.
FIELD_WEIGHTS = (8.0, 3.0, 1.0)
#: A term of several words ("oversized chip") found whole counts this much more for each word
#: after its first; found by one of the rulebook's words for it rather than the words typed,
#: a little less.
PHRASE_WORD = 0.5
ALTERNATIVE = 0.9
#: A title that opens with a term ("Minimum raise; …", "Cards speak") is that rule's subject.
LEAD = 2.0
#: The share of a title's words that the query's terms cover, weighted: "One live straddle"
#: is more about "straddle" than "Minimum bet is the bring-in; a straddle sets a new bring-in".
TITLE_SHARE = 2.0
#: Books of worked situations that illustrate another book's rules count like examples of
#: them: Poker Betting Help's BH-1 to BH-7 are "numbered situations" illustrating Robert's
#: Rules (its notes), BH-0 a worked betting round. At equal evidence the rule comes first.
ILLUSTRATIONS = {"BH": 0.85}
#: The room's own rulebook, imported from its file, is the one the room plays by: at about
#: equal evidence its rule comes before a bundled book's or a default procedure's.
ROOM_BOOK = 1.15
#: bm25 weights of the FTS5 columns citation_id, title, text.
BM25_WEIGHTS = (10.0, 10.0, 2.0)
#: The examples' own FTS5 table counts this much against the rule's.
EXAMPLE_WEIGHT = 0.5
#: ts_rank weights for D, C (examples), B (text), A (citation and title).
TS_WEIGHTS = [0.05, 0.1, 0.3, 1.0]


@dataclass(frozen=True)
class Hit:
    rule: Rule
    rank: float
    #: HTML-safe: the rule's words escaped, the matches wrapped in <mark>.
    snippet: SafeString
    #: Found by its citation ("TDA 45"), not by its words.
    exact: bool = False


@dataclass(frozen=True)
class Scope:
    """Rulebook and section filters as ids; ``None`` means no filter."""

    books: list[int] | None = None
    sections: list[int] | None = None

    @property
    def empty(self) -> bool:
        return self.books == [] or self.sections == []

    def apply(self, rules: QuerySet[Rule]) -> QuerySet[Rule]:
        if self.books is not None:
            rules = rules.filter(rulebook_id__in=self.books)
        if self.sections is not None:
            rules = rules.filter(section_id__in=self.sections)
        return rules


def search_rules(
    query: str, *, book: str | None = None, section: str | None = None, limit: int = 20
) -> list[Hit]:
    """The rules best matching ``query``, best first (a citation typed as such comes first)."""
    query = query.strip()[:MAX_QUERY]
    scope = _scope(book, section)
    if not query or scope.empty or limit < 1:
        return []
    hits = [
        Hit(rule, 1000.0, plain_snippet(rule.text or rule.examples_text), exact=True)
        for rule in _by_citation(query, scope)
    ]
    groups, excluded = query_groups(_with_corrections(parse_query(query)))
    backend = _postgres if connection.vendor == "postgresql" else _sqlite
    parsed = Query.of(groups)
    seen = {hit.rule.pk for hit in hits}
    scored: list[Scored] = []
    for needed in quorums(len(groups)):
        # Counted here, not by the index: PostgreSQL drops stop words inside a phrase ("more
        # than the pot" is 'pot' to it), so its matches alone would relax less than FTS5's.
        whole = sum(candidate.matched == len(groups) for candidate in scored)
        if len(hits) + whole >= min(limit, RELAX_BELOW):
            break
        subsets = [
            list(subset)
            for subset in combinations(groups, needed)
            if all(group in subset for group in groups if _named_topic(group))
        ][:MAX_SUBSETS]
        found = [
            pk
            for pk in backend(subsets, excluded, scope, max(POOL, limit) + len(seen))
            if pk not in seen
        ]
        seen.update(found)
        scored += score_rules(found, parsed)
    # Rules matching all but one term compete with those matching all of them: a rule whose
    # title answers the question beats a walkthrough that happens to use every word.
    return (hits + rank(scored, parsed, limit - len(hits)))[:limit]


#: A search that finds nothing suggests this many sections.
SUGGESTED_SECTIONS = 3


def closest_sections(query: str, *, limit: int = SUGGESTED_SECTIONS) -> list[Section]:
    """For a search that found nothing: the sections whose rules share most of its words, any
    one word being enough (a phrase searched whole, "button ante", is split into its words).
    Bounded like a search: one index pass over at most ``MAX_GROUPS`` words, ``POOL * 2`` rules."""
    words = [
        word
        for term in _with_corrections(parse_query(query[:MAX_QUERY]))
        if not term.exclude
        for word in (term.text, *term.alternatives)
        for word in word.split()
        if word not in STOPWORDS and word not in QUESTION_WORDS and len(word) > 2
    ]
    terms = [Term(word) for word in dict.fromkeys(words)][:MAX_GROUPS]
    if not terms:
        return []
    backend = _postgres if connection.vendor == "postgresql" else _sqlite
    found = backend([[[term]] for term in terms], [], Scope(), POOL * 2)
    counts = Counter(
        Rule.objects.filter(pk__in=found).values_list("section_id", flat=True)
    )  # fmt: skip
    sections = Section.objects.select_related("rulebook").in_bulk(list(counts))
    ranked = sorted(
        sections.values(),
        key=lambda s: (-counts[s.pk], s.rulebook.order, s.rulebook.code, s.order),
    )
    return ranked[:limit]


def _named_topic(group: list[Term]) -> bool:
    """A topic the floor names that the bundled books do not cover ("button ante") is never
    dropped to find something: what shares the rest of the words is about something else."""
    return any(term.text in NOT_IN_THE_BOOKS for term in group)


def query_groups(terms: list[Term]) -> tuple[list[list[Term]], list[Term]]:
    """The query's positive groups (a term, with any terms ``or`` joined to it) and the
    excluded terms."""
    groups: list[list[Term]] = []
    for term in terms:
        if term.exclude:
            continue
        if groups and term.joined_by_or:
            groups[-1].append(term)
        else:
            groups.append([term])
    # The same thing said twice ("out of turn OOT") is wanted once: a group any of whose
    # options another group's would satisfy adds nothing.
    options = [frozenset(o for term in group for o in term.options) for group in groups]
    distinct = [
        group
        for index, group in enumerate(groups)
        if not any(
            other < options[index] or (other == options[index] and before < index)
            for before, other in enumerate(options)
        )
    ]
    return distinct[:MAX_GROUPS], [term for term in terms if term.exclude]


def quorums(count: int) -> list[int]:
    """How many of the groups a rule must match, pass by pass: all of them, then (when that
    finds little) all but one. Intersections stay small, so even on 20,000 rules a relaxed
    pass ranks hundreds of rows, not the thousands an ``or`` of common words would match."""
    return [count, count - 1] if count > 1 else [count] if count else []


def _scope(book: str | None, section: str | None) -> Scope:
    books = sections = None
    if book:
        books = list(Rulebook.objects.filter(code__iexact=book).values_list("pk", flat=True))
    if section:
        found = Section.objects.filter(code__iexact=section)
        if books is not None:
            found = found.filter(rulebook_id__in=books)
        sections = list(found.values_list("pk", flat=True))
    return Scope(books, sections)


# --- citations -------------------------------------------------------------------------------

#: A citation of a room's imported book: "RIVER 12", "river-14.3", "RIVER rule 4", "RIVER RP-1".
ROOM_CITATION = re.compile(
    r"^\s*(?P<book>[A-Za-z][A-Za-z0-9]{0,9})[\s\-]+(?:rules?\s*)?"
    r"(?P<number>(?:[A-Za-z]{1,4}-)?\d{1,4}(?:\.\d{1,3})*)\s*$"
)


def _by_citation(query: str, scope: Scope) -> list[Rule]:
    """Rules named by the query itself: "TDA-45", "tda 45", "rule 45", "14.3", "TDA 41"
    (an older edition's number, resolved to the rule it meant)."""
    typed = parse_citation(query)
    ranked: list[str] = []
    lookup = Q(pk__in=[])
    if " " not in query and "-" in query:
        ranked.append(query)
        lookup |= Q(citation_id=query) | Q(aliases__citation_id=query)
    rooms = dict(
        Rulebook.objects.filter(kind=BookKind.IMPORTED).values_list("code", "code")
    )  # the room's own books: "RIVER 12" and a bare "12" name their rules too
    if rooms and (named := ROOM_CITATION.match(query)):
        code = next((c for c in rooms if c.casefold() == named["book"].casefold()), None)
        if code:
            ranked.append(f"{code}-{named['number'].upper()}")
            lookup |= Q(citation_id=ranked[-1])
    if typed and not typed.book and not typed.year:
        ranked += [f"{code}-{typed.number}" for code in rooms]
    if typed and typed.year:
        lookup |= Q(aliases__number=typed.number, aliases__edition__contains=typed.year)
        if typed.book:
            lookup &= Q(rulebook__code=typed.book)
    elif typed:
        ranked += typed.candidates()
        lookup |= Q(citation_id__in=ranked) | Q(aliases__citation_id__in=ranked)
        if typed.book:
            lookup |= Q(rulebook__code=typed.book, aliases__number=typed.number)
    if not ranked and not (typed and typed.year):
        return []
    rules = scope.apply(Rule.objects.filter(lookup, withdrawn=False).distinct())
    found = list(rules.select_related("rulebook", "section").prefetch_related("aliases"))

    def position(rule: Rule) -> int:
        names = [rule.citation_id, *(alias.citation_id for alias in rule.aliases.all())]
        # The rule's own id before an old edition's number that happens to read the same.
        return min(
            (
                ranked.index(name) * 2 + (name != rule.citation_id)
                for name in names
                if name in ranked
            ),
            default=len(ranked) * 2,
        )

    return sorted(found, key=position)


def resolve_citation(citation: str) -> Rule | None:
    """The rule a citation id names: its own id, else another edition's alias, else either
    typed in other capitals ("tda-45"). Withdrawn rules resolve too: rulings still cite them."""
    rules = Rule.objects.select_related("rulebook", "section")
    for lookup in ("citation_id", "aliases__citation_id"):
        for exact in ("exact", "iexact"):
            if rule := rules.filter(**{f"{lookup}__{exact}": citation}).first():
                return rule
    return None


# --- typo tolerance --------------------------------------------------------------------------


def _with_corrections(terms: list[Term]) -> list[Term]:
    """A word the rulebook never uses also searches for the nearest word it does use; a last
    word that is already a whole word ("betting") is not searched as a prefix ("bet*")."""
    unknown = {
        term.text
        for term in terms
        if not term.exclude
        and " " not in term.text
        and len(term.text) >= 4
        and term.text not in SYNONYMS
        and not any(ch.isdigit() for ch in term.text)
    }
    typing = {term.text for term in terms if term.prefix}
    if not unknown | typing:
        return terms
    known = set(
        VocabularyWord.objects.filter(word__in=unknown | typing).values_list("word", flat=True)
    )
    terms = [replace(t, prefix=False) if t.prefix and t.text in known else t for t in terms]
    unknown -= known
    fixes: dict[str, str] = {}
    for term in terms:
        if term.text not in unknown or term.text in fixes:
            continue
        if term.prefix and VocabularyWord.objects.filter(word__startswith=term.text).exists():
            continue  # still being typed: "strad" is on its way to "straddle"
        if nearest := nearest_word(term.text):
            fixes[term.text] = nearest
    return [
        term.with_alternative(fixes[term.text]) if term.text in fixes else term for term in terms
    ]


def nearest_word(word: str) -> str | None:
    if connection.vendor == "postgresql":
        # ``trigram_similar`` is pg_trgm's ``%`` operator (GIN-indexed; cut-off 0.3).
        row = (
            VocabularyWord.objects.filter(word__trigram_similar=word)
            .annotate(score=TrigramSimilarity("word", word))
            .order_by("-score", "word")
            .values_list("word", "score")
            .first()
        )
        return row[0] if row and row[1] >= 0.35 else None
    words = VocabularyWord.objects.filter(word__startswith=word[0]).values_list("word", flat=True)
    close = difflib.get_close_matches(word, list(words), n=1, cutoff=0.75)
    return close[0] if close else None


# --- ranking ---------------------------------------------------------------------------------
# The same on both databases: the index only chose the candidates.

#: Endings a word may take in the rule's text and still be the query's word ("raise" finds
#: "raised", "raising"; "bet" finds "betting" through the doubled consonant).
ENDINGS = r"(?:e|es|s|ed|d|ing|er|ers|ies|ied|y|ly|ment|ments)?"
RULE_WORDS = re.compile(r"[a-z0-9]+")
TITLE_WORD = re.compile(r"[A-Za-z0-9]+")
LEADING_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


def stem(word: str) -> str:
    """Just enough of a stemmer to find the query's word in a rule again ("chips", "chip");
    the index's own stemmer (Porter, or PostgreSQL's) already chose the candidates."""
    for ending in ("ing", "ies", "ied", "ers", "es", "ed", "er", "s", "e"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "lsz":
        word = word[:-1]  # "betting" -> "bett" -> "bet"
    return word


@functools.lru_cache(maxsize=4096)
def option_pattern(option: str, prefix: bool) -> tuple[re.Pattern[str], int] | None:
    """A regular expression finding one of a term's options (a word or a phrase, with the
    words' other endings) in a rule, and how many words it has."""
    words = RULE_WORDS.findall(option.lower())
    if not words:
        return None
    if prefix and len(words) == 1:
        parts = [re.escape(words[0]) + r"\w*"]
    else:
        parts = []
        for word in words:
            root = stem(word)
            parts.append(re.escape(root) + f"(?:{re.escape(root[-1])})?" + ENDINGS)
    pattern = r"\b" + r"[\W_]+".join(parts) + r"\b"
    return re.compile(pattern, re.IGNORECASE), len(words)


def _group_patterns(group: list[Term]) -> list[tuple[re.Pattern[str], float]]:
    """Each option of a group's terms, with what finding it is worth: more for a phrase (as
    long as both the term typed and the option are), a little less for the rulebook's word
    than for the one typed."""
    found = []
    for term in group:
        typed = len(term.text.split())
        for option in term.options:
            if compiled := option_pattern(option, term.prefix):
                pattern, size = compiled
                worth = 1.0 + PHRASE_WORD * (min(typed, size, 2) - 1)
                found.append((pattern, worth if option == term.text else worth * ALTERNATIVE))
    return sorted(found, key=lambda item: -item[1])


@dataclass(frozen=True)
class Query:
    """A query's groups as patterns, and all of them as one (longest first) for marking
    snippets and measuring titles."""

    groups: list[list[tuple[re.Pattern[str], float]]]
    anything: re.Pattern[str] | None

    @classmethod
    def of(cls, groups: list[list[Term]]) -> Query:
        patterns = [_group_patterns(group) for group in groups]
        return cls(patterns, _either_pattern(tuple(p.pattern for g in patterns for p, _ in g)))


@functools.lru_cache(maxsize=512)
def _either_pattern(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    ordered = sorted(set(patterns), key=len, reverse=True)
    return re.compile("|".join(f"(?:{p})" for p in ordered), re.IGNORECASE)


@dataclass(frozen=True)
class Scored:
    rule: Rule
    points: float
    #: How many of the query's groups the rule has.
    matched: int


def score_rules(pks: list[int], query: Query) -> list[Scored]:
    rules = Rule.objects.select_related("rulebook", "section").in_bulk(pks)
    return [score(rule, query) for rule in rules.values()]


def score(rule: Rule, query: Query) -> Scored:
    """How well a rule answers the query: for each group, the best of its options by where
    it is found (title over text over examples), plus ``LEAD`` when the title opens with one
    of them and ``TITLE_SHARE`` for how much of the title the query covers."""
    fields = (f"{rule.citation_id} {rule.title}", rule.text, rule.examples_text)
    total, matched = 0.0, 0
    for options in query.groups:
        best = 0.0
        for pattern, worth in options:
            for weight, field in zip(FIELD_WEIGHTS, fields, strict=True):
                if weight * worth <= best:
                    break  # the fields come in falling weight: nothing better below
                if field and pattern.search(field):
                    best = weight * worth
                    break
        total += best
        matched += best > 0
    if not total or query.anything is None:
        return Scored(rule, 0.0, 0)
    title = LEADING_ARTICLE.sub("", rule.title)
    if query.anything.match(title):
        total += LEAD
    total += TITLE_SHARE * _title_share(title, query.anything)
    weight = ROOM_BOOK if rule.rulebook.kind == BookKind.IMPORTED else 1.0
    return Scored(rule, total * weight * ILLUSTRATIONS.get(rule.rulebook.code, 1.0), matched)


def _title_share(title: str, anything: re.Pattern[str]) -> float:
    words = [m.span() for m in TITLE_WORD.finditer(title) if m.group().lower() not in STOPWORDS]
    if not words:
        return 0.0
    spans = [m.span() for m in anything.finditer(title)]
    covered = sum(any(s <= start and end <= e for s, e in spans) for start, end in words)
    return covered / len(words)


def rank(scored: list[Scored], query: Query, limit: int) -> list[Hit]:
    """The best ``limit`` candidates as hits (with their snippets), the best answer first;
    ties go to the book, section and rule listed first (the room's order of its books). A
    candidate none of whose terms is found again (the index's stemmer reached further) is
    left out."""

    def order(candidate: Scored) -> tuple[float, int, int, int, int]:
        rule = candidate.rule
        return (-candidate.points, rule.rulebook.order, rule.section.order, rule.order, rule.pk)

    best = sorted((c for c in scored if c.points > 0), key=order)[: max(limit, 0)]
    return [Hit(c.rule, c.points, snippet(c.rule, query.anything)) for c in best]


# --- PostgreSQL ------------------------------------------------------------------------------

TS_WORD = re.compile(r"[a-z0-9]+(?:[\-.][a-z0-9]+)*")


def _ts_option(option: str, prefix: bool) -> str:
    words = TS_WORD.findall(option.replace("'", ""))
    if not words:
        return ""
    if prefix and len(words) == 1:
        return f"'{words[0]}':*"
    return "(" + " <-> ".join(f"'{word}'" for word in words) + ")"


def _ts_group(term: Term) -> str:
    options = [o for o in (_ts_option(opt, term.prefix) for opt in term.options) if o]
    return "(" + " | ".join(options) + ")" if options else ""


def tsquery(subsets: list[list[list[Term]]], excluded: list[Term]) -> str:
    """``to_tsquery`` syntax: any of the subsets, each needing all its groups, each group any
    of its terms, each term any of its options (the floor's word or the rulebook's); minus the
    exclusions. Words are quoted; nothing else gets in."""
    query = _either(
        [
            _either([_either([_ts_group(t) for t in group], " | ") for group in subset], " & ")
            for subset in subsets
        ],
        " | ",
    )
    nots = "".join(f" & !{group}" for group in map(_ts_group, excluded) if group)
    return query + nots if query else ""


def _either(options: list[str], joiner: str) -> str:
    options = [option for option in options if option]
    return "(" + joiner.join(options) + ")" if options else ""


def _postgres(
    subsets: list[list[list[Term]]], excluded: list[Term], scope: Scope, limit: int
) -> list[int]:
    """The ids of the best ``limit`` matches by ``ts_rank`` (candidates for ``rank``)."""
    if not (raw := tsquery(subsets, excluded)):
        return []
    query = SearchQuery(raw, search_type="raw", config="english")
    vector = _stored_vector()
    rules = scope.apply(Rule.objects.alias(vector=vector).filter(vector=query, withdrawn=False))
    ranked = rules.order_by(SearchRank(vector, query, weights=TS_WEIGHTS).desc(), "pk")
    return list(ranked.values_list("pk", flat=True)[:limit])


def _stored_vector() -> Col:
    """Migration 0002's weighted ``search_vector`` (a generated column with a GIN index). It
    exists on PostgreSQL only, so it is no field of ``Rule``: the queries name it directly."""
    field = SearchVectorField()
    field.set_attributes_from_name("search_vector")
    field.model = Rule  # named as Rule's, never added to it
    return Col(Rule._meta.db_table, field)


def _scope_sql(scope: Scope) -> tuple[str, list[int]]:
    sql, params = "", list[int]()
    for column, ids in (("rulebook_id", scope.books), ("section_id", scope.sections)):
        if ids is not None:
            sql += f" AND r.{column} IN ({', '.join('%s' for _ in ids)})"
            params += ids
    return sql, params


def _fetch(sql: str, params: list[str | int]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


# --- SQLite FTS5 -----------------------------------------------------------------------------

FTS_TOKEN = re.compile(r"[a-z0-9]+")


def _fts_option(option: str, prefix: bool) -> str:
    tokens = FTS_TOKEN.findall(option)
    if not tokens:
        return ""
    return '"' + " ".join(tokens) + '"' + ("*" if prefix and len(tokens) == 1 else "")


def _fts_group(term: Term) -> str:
    options = [o for o in (_fts_option(opt, term.prefix) for opt in term.options) if o]
    if len(options) > 1:
        return "(" + " OR ".join(options) + ")"
    return options[0] if options else ""


def fts_query(subsets: list[list[list[Term]]], excluded: list[Term]) -> str:
    """FTS5 ``MATCH`` syntax for the same structure as ``tsquery``; every token is a quoted
    string of [a-z0-9]."""
    query = _either(
        [
            _either([_either([_fts_group(t) for t in group], " OR ") for group in subset], " AND ")
            for subset in subsets
        ],
        " OR ",
    )
    for group in map(_fts_group, excluded):
        if query and group:
            query = f"{query} NOT {group}"
    return query


def _sqlite(
    subsets: list[list[list[Term]]], excluded: list[Term], scope: Scope, limit: int
) -> list[int]:
    """The ids of the best ``limit`` matches by bm25 (candidates for ``rank``)."""
    query = fts_query(subsets, excluded)
    if not query:
        return []
    filters, params = _scope_sql(scope)
    # Each table returns its best rows in rank order (FTS5 sorts them itself); a rule's score
    # is its text's plus its examples'. When the title and text alone fill the pool, the
    # examples are not searched: a rule found only by its examples ranks below every rule
    # found by its title or text for the same terms (FIELD_WEIGHTS).
    scores: dict[int, float] = {}
    for table, rank, weight in (
        ("rules_rule_fts", f"bm25({', '.join(map(str, BM25_WEIGHTS))})", 1.0),
        ("rules_example_fts", "bm25()", EXAMPLE_WEIGHT),
    ):
        if len(scores) >= limit:
            break
        sql = f"""
            SELECT f.rowid, f.rank FROM {table} f JOIN rules_rule r ON r.id = f.rowid
            WHERE {table} MATCH %s AND f.rank MATCH %s AND NOT r.withdrawn {filters}
            ORDER BY f.rank LIMIT %s
        """  # noqa: S608 - fixed SQL fragments only; every value is a parameter
        for pk, score in _fetch(sql, [query, rank, *params, limit]):
            scores[pk] = scores.get(pk, 0.0) - score * weight
    return [pk for pk, _ in sorted(scores.items(), key=lambda item: (-item[1], item[0]))][:limit]
