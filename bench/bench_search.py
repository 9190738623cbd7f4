"""Rulebook search at scale: the bundled books plus 20,000 synthetic rules written from their
words, searched with the relevance queries of the tests; p50/p95 of ``search_rules`` against a
naive ``icontains`` scan over the same rows.

Runs on the configured database (``DATABASE_URL``: PostgreSQL full text there; a scratch SQLite
file with FTS5 otherwise). Run it on both:

    .venv/bin/python bench/bench_search.py
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom_bench .venv/bin/python bench/bench_search.py

Every timed search is checked (``bench.harness.expect_that``): the indexed one finds rules for
every query.
``BENCH_QUICK=1``: 300 synthetic rules, one pass.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
if "DATABASE_URL" not in os.environ:  # a fresh scratch database each run
    (ROOT / "var" / "bench.sqlite3").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = "sqlite:///var/bench.sqlite3"

from bench.harness import expect_that, sized  # noqa: E402

SECTIONS = 50


def synthetic_rules() -> int:
    return sized(20_000, 300)


def _setup() -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def relevance_queries() -> list[tuple[str, str]]:
    """The floor queries of the relevance test, each with the rule it must find."""
    from tests.rules.test_rulebook_search import RELEVANCE

    return list(RELEVANCE)


def build_rulebook(count: int | None = None, seed: int = 2026) -> float:
    """The bundled books, then ``count`` synthetic rules: each restates one real rule (as other
    cardrooms' books and house rules do) with a few of its sentences, some words dropped and
    its title reshuffled, so words keep the real rulebook's spread (``raise`` is in about half
    of the rules, ``straddle`` in a few). Returns the seconds it took."""
    from django.db import connection, transaction

    from rules.models import Rule, Rulebook, Section
    from rules.rulebook_format import bundled_rulebooks
    from rules.services import import_rulebook, refresh_vocabulary

    count = count or synthetic_rules()
    started = time.perf_counter()
    books = bundled_rulebooks()
    for book in books:
        import_rulebook(book)
    Rule.objects.filter(rulebook__code="SYN").delete()
    Section.objects.filter(rulebook__code="SYN").delete()
    Rulebook.objects.filter(code="SYN").delete()
    sources = []
    for rule in (rule for book in books for rule in book.rules):
        texts = [rule.text, *(example.text for example in rule.examples)]
        sentences = [s for t in texts for s in re.split(r"(?<=[.!?])\s+", t) if len(s) > 20]
        if sentences:
            sources.append((rule.title.split(), sentences))
    rng = random.Random(seed)

    def restate(sentence: str) -> str:
        return " ".join(word for word in sentence.split() if rng.random() > 0.1)

    with transaction.atomic():
        synthetic = Rulebook.objects.create(code="SYN", title="Synthetic rules", order=900)
        sections = Section.objects.bulk_create(
            Section(rulebook=synthetic, code=str(n), title=f"Synthetic section {n}", order=n)
            for n in range(1, SECTIONS + 1)
        )
        rules = []
        for n in range(count):
            title, sentences = rng.choice(sources)
            section, number = sections[n % SECTIONS], n // SECTIONS + 1
            picked = rng.sample(sentences, min(len(sentences), rng.randint(1, 4)))
            rules.append(
                Rule(
                    citation_id=f"SYN-{section.code}.{number}", rulebook=synthetic, section=section,
                    number=str(number), title=" ".join(rng.sample(title, len(title))),
                    text=" ".join(map(restate, picked[:2])),
                    examples_text=" ".join(map(restate, picked[2:])), order=n,
                )
            )  # fmt: skip
        Rule.objects.bulk_create(rules, batch_size=1000)
    refresh_vocabulary()
    with connection.cursor() as cursor:
        # Fresh statistics and no dead rows from the previous run, as a live database has.
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    return time.perf_counter() - started


def word_spread(word: str) -> float:
    """The share of rules whose words include ``word`` (how common the corpus makes it)."""
    from rules.models import Rule

    words = Rule.objects.values_list("title", "text", "examples_text")
    return sum(word in " ".join(row).lower() for row in words) / max(1, len(words))


def naive_search(query: str, limit: int = 20) -> list[Any]:
    """What a search without an index does: every word somewhere, by ``icontains``."""
    from django.db.models import Q

    from rules.models import Rule

    rules = Rule.objects.filter(withdrawn=False)
    for word in query.lower().split():
        rules = rules.filter(
            Q(title__icontains=word) | Q(text__icontains=word) | Q(examples_text__icontains=word)
        )
    return list(rules.select_related("rulebook", "section")[:limit])


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[max(0, round(0.95 * len(ordered)) - 1)]


def _time_queries(search: Any, queries: list[str], check: Any = None) -> list[float]:
    """Each query's time, ``REPEAT`` passes (quick: one) after a warm-up pass; ``check(query,
    result)`` sees every result, off the clock."""
    for query in queries:  # warm up caches and plans
        result = search(query)
        if check is not None:
            check(query, result)
    samples = []
    for _ in range(sized(5, 1)):
        for query in queries:
            started = time.perf_counter()
            result = search(query)
            samples.append((time.perf_counter() - started) * 1000)
            if check is not None:
                check(query, result)
    return samples


def run() -> dict[str, Any]:
    _setup()
    from django.db import connection

    from rules.models import Rule
    from rules.search import search_rules

    build_s = build_rulebook()
    pairs = relevance_queries()
    queries = [query for query, _ in pairs]

    def found(query: str, hits: list[Any]) -> None:
        # Which rule comes first among 20,000 restatements is the relevance test's business
        # (on the real books); here a query that finds nothing means the index is not there.
        expect_that(f"search_rules({query!r}) finds rules", bool(hits), hits)

    indexed = _time_queries(lambda q: search_rules(q, limit=20), queries, found)
    naive = _time_queries(naive_search, queries)
    search_p50, search_p95 = _percentiles(indexed)
    naive_p50, naive_p95 = _percentiles(naive)
    return {
        "backend": connection.vendor,
        "rules": Rule.objects.count(),
        "queries": len(queries),
        "build_and_index_s": build_s,
        "search_p50_ms": search_p50,
        "search_p95_ms": search_p95,
        "search_max_ms": max(indexed),
        "icontains_p50_ms": naive_p50,
        "icontains_p95_ms": naive_p95,
        "icontains_over_search_p50": naive_p50 / search_p50,
        "icontains_over_search_p95": naive_p95 / search_p95,
        "rules_saying_raise": word_spread("raise"),
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(
            f"{name:32} {value:12.2f}" if isinstance(value, float) else f"{name:32} {value!s:>12}"
        )
