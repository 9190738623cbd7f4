"""Rulebook search: one function, two engines, chosen by the database in use.

- PostgreSQL: a weighted ``search_vector`` (citation and title A, text B, examples C; a stored
  generated column with a GIN index, migration 0002), ``ts_rank``, ``ts_headline`` snippets,
  and ``pg_trgm`` over the rulebook's own words so a typo still finds the rule.
- SQLite: two FTS5 tables kept in step by triggers (title and text; the examples apart),
  ``bm25`` with column weights, ``snippet()``, prefix indexes for the word being typed; typos
  are matched with ``difflib`` against the same word list.

Both read web-search syntax (``"phrase"``, ``or``, ``-word``), add the rulebook's words for
the floor's (``rules.vocabulary``), look citations up directly ("TDA 45", "14.3", and old
numbers such as "TDA 41"), and filter by book and section. Never a ``LIKE`` scan.

A query first needs every term; when that finds little, rules matching all but one follow
(``quorums``): small intersections to rank, even on 20,000 rules (``make bench``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from django.db import connection
from django.db.models import Q, QuerySet
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from rules.models import Rule, Rulebook, Section, VocabularyWord
from rules.vocabulary import SYNONYMS, Term, parse_citation, parse_query

MAX_QUERY = 200
#: Snippet markers: control characters survive HTML escaping, then become <mark>.
START, STOP = "\x02", "\x03"
MARKED = re.compile(f"{START}([^{START}{STOP}]*){STOP}")
#: Fewer hits than this for all the terms, and rules matching all but one are added.
RELAX_BELOW = 5
MAX_GROUPS, MAX_SUBSETS = 8, 70
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
    for needed in quorums(len(groups)):
        if len(hits) >= min(limit, RELAX_BELOW):
            break
        seen = {hit.rule.pk for hit in hits}
        subsets = [list(s) for s in combinations(groups, needed)][:MAX_SUBSETS]
        found = backend(subsets, excluded, scope, limit + len(seen))
        hits += [hit for hit in found if hit.rule.pk not in seen]
    return hits[:limit]


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
    return groups[:MAX_GROUPS], [term for term in terms if term.exclude]


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


def _by_citation(query: str, scope: Scope) -> list[Rule]:
    """Rules named by the query itself: "TDA-45", "tda 45", "rule 45", "14.3", "TDA 41"
    (an older edition's number, resolved to the rule it meant)."""
    typed = parse_citation(query)
    ranked: list[str] = []
    lookup = Q(pk__in=[])
    if " " not in query and "-" in query:
        ranked.append(query)
        lookup |= Q(citation_id=query) | Q(aliases__citation_id=query)
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
        if nearest := _nearest_word(term.text):
            fixes[term.text] = nearest
    return [
        term.with_alternative(fixes[term.text]) if term.text in fixes else term for term in terms
    ]


def _nearest_word(word: str) -> str | None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # ``%`` is pg_trgm's similarity operator (GIN-indexed); 0.3 is its default cut-off.
            cursor.execute(
                "SELECT word, similarity(word, %s) AS score FROM rules_vocabularyword"
                " WHERE word %% %s ORDER BY score DESC, word LIMIT 1",
                [word, word],
            )
            row = cursor.fetchone()
        return str(row[0]) if row and row[1] >= 0.35 else None
    words = VocabularyWord.objects.filter(word__startswith=word[0]).values_list("word", flat=True)
    close = difflib.get_close_matches(word, list(words), n=1, cutoff=0.75)
    return close[0] if close else None


# --- snippets --------------------------------------------------------------------------------


def highlight(raw: str) -> SafeString:
    """Escape everything first, then turn matched marker pairs into <mark>: whatever the rule
    text or the query holds, no HTML gets through."""
    safe = MARKED.sub(r"<mark>\1</mark>", escape(raw)).replace(START, "").replace(STOP, "")
    return mark_safe(safe)  # noqa: S308 - built from escaped text and our own tags


def plain_snippet(text: str, words: int = 30) -> SafeString:
    parts = text.replace(START, "").replace(STOP, "").split()
    tail = "…" if len(parts) > words else ""
    return mark_safe(escape(" ".join(parts[:words])) + tail)  # noqa: S308 - escaped


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
) -> list[Hit]:
    query = tsquery(subsets, excluded)
    if not query:
        return []
    terms = {term.text: term for subset in subsets for group in subset for term in group}
    words = _either([_ts_group(term) for term in terms.values()], " | ")
    filters, params = _scope_sql(scope)
    # Rank every match, headline only the best few (ts_headline re-parses the text), marking
    # any of the query's words.
    sql = f"""
        SELECT id, rank, ts_headline('english', body, to_tsquery('english', %s), %s) FROM (
            SELECT r.id, r.text || E'\\n\\n' || r.examples_text AS body,
                   ts_rank(%s::real[], r.search_vector, q) AS rank
            FROM rules_rule r, to_tsquery('english', %s) q
            WHERE r.search_vector @@ q AND NOT r.withdrawn {filters}
            ORDER BY rank DESC, r.id LIMIT %s
        ) best ORDER BY rank DESC, id
    """  # noqa: S608 - fixed SQL fragments only; every value is a parameter
    options = f"StartSel={START}, StopSel={STOP}, MaxWords=35, MinWords=15, MaxFragments=2"
    rows = _fetch(sql, [words, options, TS_WEIGHTS, query, *params, limit])
    return _hits([(pk, rank) for pk, rank, _ in rows], {pk: [s] for pk, _, s in rows})


def _scope_sql(scope: Scope) -> tuple[str, list[object]]:
    sql, params = "", []
    for column, ids in (("rulebook_id", scope.books), ("section_id", scope.sections)):
        if ids is not None:
            sql += f" AND r.{column} IN ({', '.join('%s' for _ in ids)})"
            params += ids
    return sql, params


def _fetch(sql: str, params: list[object]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


def _hits(ranked: list[tuple[int, float]], snippets: dict[int, list[str | None]]) -> list[Hit]:
    rules = Rule.objects.select_related("rulebook", "section").in_bulk([pk for pk, _ in ranked])
    hits = []
    for pk, rank in ranked:
        marked = next((s for s in snippets.get(pk, []) if s and START in s), None)
        rule = rules[pk]
        snippet = highlight(marked) if marked else plain_snippet(rule.text or rule.examples_text)
        hits.append(Hit(rule, float(rank), snippet))
    return hits


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
) -> list[Hit]:
    query = fts_query(subsets, excluded)
    if not query:
        return []
    filters, params = _scope_sql(scope)
    # Each table returns its best rows in rank order (FTS5 sorts them itself) with snippets
    # cut from the row under the cursor; a rule's score is its text's plus its examples'.
    # Snippets cost a fraction of a millisecond each, so only the rows returned get one.
    scores: dict[int, float] = {}
    snippets: dict[int, list[str | None]] = {}
    for table, column, rank, weight in (
        ("rules_rule_fts", 2, f"bm25({', '.join(map(str, BM25_WEIGHTS))})", 1.0),
        ("rules_example_fts", 0, "bm25()", EXAMPLE_WEIGHT),
    ):
        sql = f"""
            SELECT f.rowid, f.rank, snippet({table}, {column}, %s, %s, '…', 28)
            FROM {table} f JOIN rules_rule r ON r.id = f.rowid
            WHERE {table} MATCH %s AND f.rank MATCH %s AND NOT r.withdrawn {filters}
            ORDER BY f.rank LIMIT %s
        """  # noqa: S608 - fixed SQL fragments only; every value is a parameter
        for pk, score, snippet in _fetch(sql, [START, STOP, query, rank, *params, limit]):
            scores[pk] = scores.get(pk, 0.0) - score * weight
            snippets.setdefault(pk, []).append(snippet)
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return _hits(ranked, snippets)
