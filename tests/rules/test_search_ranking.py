"""The search ranking's constants, pinned by their effect: each expected score below is
written out as arithmetic, so changing a weight in ``rules.search`` (where a term is found,
a phrase, the rulebook's word for the floor's, a title that opens with the term, the share of
the title covered, an illustrating book) fails here, and so does changing the index weights
that choose the candidates (bm25's columns and the examples' table on SQLite, ``ts_rank``'s
A-D on PostgreSQL)."""

from typing import Any

import pytest

from rules import rulebook_format as fmt
from rules.models import Rule, Rulebook
from rules.search import Query, query_groups, score, search_rules
from rules.services import import_rulebook, refresh_vocabulary
from rules.vocabulary import parse_query


def points(query: str, *, title: str, text: str = "", examples: str = "", book: str = "X") -> float:
    rule = Rule(
        rulebook=Rulebook(code=book), citation_id=f"{book}-1", title=title, text=text,
        examples_text=examples,
    )  # fmt: skip
    groups, _ = query_groups(parse_query(query))
    return score(rule, Query.of(groups)).points


@pytest.mark.parametrize(
    ("query", "rule", "expected"),
    [
        # In the title (8), not leading it, covering one of its three words (2 x 1/3).
        ("jackpot", {"title": "The bad-beat jackpot"}, 8 + 2 * (1 / 3)),
        # Leading the title (+2) and covering half of it.
        ("jackpot", {"title": "Jackpot qualifiers"}, 8 + 2 + 2 * (1 / 2)),
        # In the text only (3); in the examples only (1).
        ("jackpot", {"title": "Promotions", "text": "The jackpot pays."}, 3),
        ("jackpot", {"title": "Promotions", "examples": "A jackpot hand."}, 1),
        # A two-word phrase found whole counts half as much again (1.5), leads, covers 2/3.
        ('"bad beat"', {"title": "The bad-beat jackpot"}, 8 * 1.5 + 2 + 2 * (2 / 3)),
        # Found by the rulebook's word for the floor's ("overchip": "single chip"), 0.9 of it.
        ("overchip", {"title": "Chips", "text": "A single chip larger than the call."}, 3 * 0.9),
        # A book of worked situations illustrating another book counts 0.85 of its evidence.
        ("jackpot", {"title": "Jackpot", "book": "BH"}, (8 + 2 + 2 * 1) * 0.85),
        # Two terms add up: title (8, leading +2) and text (3); the title is half covered.
        ("jackpot drop", {"title": "Jackpot rules", "text": "The drop."}, 8 + 3 + 2 + 2 * (1 / 2)),
    ],
)
def test_each_ranking_weight_has_the_effect_it_documents(
    query: str, rule: dict[str, Any], expected: float
) -> None:
    assert points(query, **rule) == pytest.approx(expected)


def book(*rules: fmt.Rule) -> None:
    import_rulebook(
        fmt.Book(
            code="CLUB", title="Club", source="", edition="", attribution="", url="",
            sections=(fmt.Section("J", "Jackpots", 1),), path="club.toml", rules=rules,
        )
    )  # fmt: skip
    refresh_vocabulary()


def rule(number: int, title: str, text: str, examples: str = "") -> fmt.Rule:
    return fmt.Rule(
        citation=f"CLUB-{number}", number=str(number), section="J", title=title, text=text,
        examples=(fmt.Example("Example", examples),) if examples else (), other_editions=(),
    )  # fmt: skip


@pytest.mark.django_db
def test_the_index_hands_the_ranking_a_title_match_among_many_text_matches() -> None:
    """Thirty rules say "jackpot" three times in their text; the last one has it only in its
    title. The index passes the ranking its best 20: only weighting the title well above the
    text (bm25 10 to 2; ts_rank A 1.0 to B 0.3) puts the title match among them."""
    book(
        *(
            rule(n, f"Promotion {n}", "Jackpot: the jackpot drop funds the jackpot.")
            for n in range(1, 31)
        ),
        rule(31, "Jackpot", "Only the room's promotions board may announce it."),
    )
    assert [hit.rule.citation_id for hit in search_rules("jackpot", book="CLUB", limit=1)] == [
        "CLUB-31"
    ]


@pytest.mark.django_db
def test_the_index_keeps_text_matches_over_examples_that_only_repeat_the_word() -> None:
    """Ten rules name the jackpot once in their text, fifteen repeat it in their examples
    (forty more never name it). The index's pool of 20 keeps every text match (examples count
    half on SQLite, C 0.1 against B 0.3 on PostgreSQL), so all ten rank above the rest."""
    book(
        *(rule(n, f"Drop {n}", f"The drop of table {n} also funds the jackpot.") for n in range(1, 11)),
        *(
            rule(n, f"Board {n}", "The board is updated.", "Jackpot jackpot jackpot jackpot.")
            for n in range(11, 26)
        ),
        *(rule(n, f"Seat {n}", "Seats are drawn.") for n in range(26, 66)),
    )  # fmt: skip
    found = [hit.rule.citation_id for hit in search_rules("jackpot", book="CLUB", limit=20)]
    assert set(found[:10]) == {f"CLUB-{n}" for n in range(1, 11)}, found
