"""Rulebook search on the bundled books: the words a floor person types find the rule, on
SQLite (FTS5) and PostgreSQL (weighted tsvector, pg_trgm) alike. The same module runs on both
backends; PostgreSQL-only checks are marked ``postgres``."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules import rulebook_format as fmt
from rules.models import Rule, RuleAlias, Rulebook, RuleExample, Section, VocabularyWord
from rules.search import search_rules
from rules.services import import_rulebook, load_rulebooks, refresh_vocabulary
from rules.snippets import highlight
from rules.vocabulary import parse_citation, parse_query

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", autouse=True)
def bundled(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """The bundled books, loaded once for the module (each test still rolls back its own)."""
    with django_db_blocker.unblock():
        load_rulebooks(fmt.bundled_rulebooks())
    yield
    with django_db_blocker.unblock():
        for model in (RuleExample, RuleAlias, Rule, Section, Rulebook, VocabularyWord):
            model.objects.all().delete()


def top(query: str, n: int = 3, **filters: Any) -> list[str]:
    return [hit.rule.citation_id for hit in search_rules(query, **filters)[:n]]


#: What a floor person types, and the rule that must be in the first three.
RELEVANCE = [
    ("shove for less than a full raise", "RRoP-14.3"),
    ("min raise", "RRoP-14.3"),
    ("min raise previous raise not double", "BH-2"),
    ("overchip", "RRoP-BR.15"),
    ("one chip without saying raise", "RRoP-BR.15"),
    ("string bet", "RRoP-BR.14"),
    ("straddle", "RRoP-14.14"),
    ("reopen the betting", "TDA-47"),
    ("short all-ins add up", "RRoP-14.5"),
    ("chop the odd chip", "RRoP-TI.5"),
    ("who gets the odd chips in a chopped pot", "TDA-20"),
    ("acting out of turn", "RRoP-BR.10"),
    ("action out of turn OOT", "TDA-53"),
    ("undercall", "TDA-51"),
    ("underraise", "TDA-52"),
    ("rounding the pot size", "RRoP-PL.4"),
    ("all in cards face up", "TDA-16"),
    ("see a called hand", "RRoP-SD.5"),
    ("show one card show all", "RRoP-SD.6"),
    ("cards speak", "RRoP-SD.2"),
    ("call the clock", "RRoP-14.15"),
    ("verbal statement binding", "RRoP-BR.8"),
    ("chips released into the pot", "RRoP-BR.12"),
    ("forward motion", "RRoP-BR.13"),
    ("raise cap limit", "RRoP-BR.3"),
    ("check raise allowed", "RRoP-BR.1"),
    ("short big blind minimum bet", "RRoP-4.2"),
    ("minimum bet is the big blind", "BH-1"),
    ("maximum buy-in", "RRoP-14.16"),
    ("run it twice", "RRoP-14.17"),
    ("hidden chips after all in", "RRoP-TR.18"),
    ("multiple chips betting", "TDA-45"),
    ("chips in front not pulled in", "TDA-46"),
    ("table break seat draw", "TDA-10"),
    ("suit ranking", "RRoP-TI.1"),
    ("smallest chip that plays", "RRoP-BR.7"),
    ("wager exceeds the pot size", "RRoP-PL.1"),
    ("burn card substantial action", "TDA-38"),
    ("misunderstood amount", "RRoP-14.10"),
    ("order of showing", "RRoP-SD.7"),
    ("knock the table", "RRoP-BR.9"),
    ("straddle bring-in", "RRoP-14.2"),
    ("raise size largest prior bet", "TDA-43"),
    ("pot limit small blind counts as big blind", "RRoP-PL.5"),
    ("insurance", "RRoP-14.17"),
    ("jam short of a raise original raiser", "BH-4"),
]


@pytest.mark.parametrize(("query", "rule"), RELEVANCE, ids=[q for q, _ in RELEVANCE])
def test_floor_queries_find_their_rule_in_the_top_three(query: str, rule: str) -> None:
    assert rule in top(query), f"{query!r} → {top(query, 8)}"


def test_the_relevance_set_is_big_enough_and_names_real_rules() -> None:
    assert len(RELEVANCE) >= 25
    current = set(Rule.objects.filter(withdrawn=False).values_list("citation_id", flat=True))
    assert {rule for _, rule in RELEVANCE} <= current


@pytest.mark.parametrize(
    ("typed", "rule"),
    [
        ("TDA 45", "TDA-45"), ("tda-45", "TDA-45"), ("TDA45", "TDA-45"), ("rule 45", "TDA-45"),
        ("14.3", "RRoP-14.3"), ("RRoP-14.3", "RRoP-14.3"), ("rrop 14.3", "RRoP-14.3"),
        ("br 15", "RRoP-BR.15"), ("RRoP BR.15", "RRoP-BR.15"), ("BH 4", "BH-4"),
    ],
)  # fmt: skip
def test_a_citation_typed_comes_first(typed: str, rule: str) -> None:
    hits = search_rules(typed)
    assert hits[0].rule.citation_id == rule and hits[0].exact


@pytest.mark.parametrize(
    ("typed", "rule"),
    [("TDA 41", "TDA-47"), ("TDA-41", "TDA-47"), ("TDA-2017-9", "TDA-10"),
     ("TDA 2017 rule 9", "TDA-10"), ("TDA 9", "TDA-10")],
)  # fmt: skip
def test_an_older_editions_number_finds_the_rule_it_meant(typed: str, rule: str) -> None:
    assert top(typed, 1) == [rule]


def test_a_rules_own_id_beats_an_old_number_that_reads_the_same() -> None:
    # "rule 10": TDA-10 is a rule of its own; TDA 2017's rule 9 moved to 10 but is TDA-2017-9.
    assert top("TDA 10", 1) == ["TDA-10"]


def test_filters_by_book_and_section() -> None:
    assert {h.rule.rulebook.code for h in search_rules("raise", book="RRoP")} == {"RRoP"}
    pot_limit = search_rules("pot", book="RRoP", section="PL")
    assert pot_limit and {h.rule.section.code for h in pot_limit} == {"PL"}
    assert not [hit for hit in search_rules("TDA 45", book="RRoP") if hit.exact]
    assert search_rules("raise", book="NOPE") == []
    assert top("straddle", 5, book="rrop", section="14") == ["RRoP-14.14", "RRoP-14.2"]


def test_web_search_syntax_phrases_or_and_minus() -> None:
    assert set(top("straddle", 5)) >= {"RRoP-14.14", "RRoP-14.2"}
    assert "RRoP-14.2" not in top('straddle -"bring-in"', 5)
    assert set(top("undercall or underraise")) >= {"TDA-51", "TDA-52"}
    for hit in search_rules('"odd chip"'):
        words = f"{hit.rule.title} {hit.rule.text} {hit.rule.examples_text}".lower()
        assert "odd chip" in words


@pytest.mark.parametrize(
    ("floor", "rulebook"),
    [("shove", "all-in"), ("jam", "all-in"), ("min-raise", "minimum raise"),
     ("overchip", "single"), ("chop", "split"), ("knock", "rap")],
)  # fmt: skip
def test_the_floors_words_find_the_rulebooks_words(floor: str, rulebook: str) -> None:
    best = search_rules(floor)[0].rule
    words = f"{best.title} {best.text} {best.examples_text}".lower()
    assert rulebook in words or rulebook in words.replace("-", " ")
    assert floor not in words.split()  # found by the rulebook's word, not the floor's


def test_a_half_typed_word_finds_the_rule_as_you_type() -> None:
    assert "RRoP-14.14" in top("strad")
    assert "RRoP-14.14" in top("straddle bri")


@pytest.mark.parametrize(
    ("typo", "rules"),
    [("straddel", {"RRoP-14.14"}), ("re-opning", {"TDA-47", "RRoP-14.5", "BH-6", "BH-7"}),
     ("undercal", {"TDA-51"}), ("strdadle", {"RRoP-14.14"})],
)  # fmt: skip
def test_typos_still_find_the_rule(typo: str, rules: set[str]) -> None:
    assert rules & set(top(typo)), top(typo, 8)


@pytest.mark.postgres
def test_postgres_typos_use_trigram_similarity_over_the_rulebooks_words() -> None:
    from rules.search import nearest_word

    assert nearest_word("straddel") == "straddle"
    assert nearest_word("re-opning") in {"re-opening", "re-opened", "re-open"}
    with connection.cursor() as cursor:
        cursor.execute("SELECT similarity('straddel', 'straddle') > 0.4")
        assert cursor.fetchone()[0]


@pytest.mark.postgres
def test_postgres_searches_a_weighted_generated_column_through_a_gin_index() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT is_generated FROM information_schema.columns"
            " WHERE table_name = 'rules_rule' AND column_name = 'search_vector'"
        )
        assert cursor.fetchone()[0] == "ALWAYS"
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'rules_rule_search_gin'")
        assert "gin (search_vector)" in cursor.fetchone()[0].lower()
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(
            "EXPLAIN SELECT id FROM rules_rule"
            " WHERE search_vector @@ to_tsquery('english', 'straddle')"
        )
        plan = " ".join(row[0] for row in cursor.fetchall())
    assert "rules_rule_search_gin" in plan
    title_hit = Rule.objects.get(citation_id="RRoP-14.14")
    assert search_rules("straddle")[0].rule == title_hit  # title (A) over text (B)


def test_search_uses_the_full_text_index_never_a_like_scan() -> None:
    with CaptureQueriesContext(connection) as queries:
        assert search_rules("straddle bring-in")
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert " LIKE " not in sql.upper()
    assert ("@@" in sql) if connection.vendor == "postgresql" else ("MATCH" in sql)


def test_snippets_mark_the_matches_and_escape_the_rule_text() -> None:
    book = fmt.Book(
        code="EVIL", title="Evil", source="", edition="", attribution="", url="",
        sections=(fmt.Section("X", "X", 1),), path="evil.toml", rules=(
            fmt.Rule(
                citation="EVIL-1", number="1", section="X", title="Straddle mischief",
                text='A <script>alert("x")</script> straddle <img src=x onerror=alert(1)> '
                "bet \x02 & more",
                examples=(fmt.Example("<b>Example</b>", "<script>straddle</script>"),),
                other_editions=(),
            ),
        ),
    )  # fmt: skip
    import_rulebook(book)
    refresh_vocabulary()
    for query in ("mischief straddle", "<script>straddle</script>", '"<img src=x>" straddle'):
        for hit in search_rules(query, book="EVIL"):
            html = str(hit.snippet)
            assert "<script" not in html and "<img" not in html and "<b>" not in html
            assert "&lt;" in html or "<mark>" in html
            assert html.count("<mark>") == html.count("</mark>")
    hit = search_rules("mischief straddle", book="EVIL")[0]
    assert "<mark>straddle</mark>" in str(hit.snippet).lower()
    # Only our own <mark> tags are markup; PostgreSQL's headline drops tags, SQLite escapes.
    assert "<" not in str(hit.snippet).replace("<mark>", "").replace("</mark>", "")


def test_highlight_never_lets_markup_through() -> None:
    assert str(highlight("\x02<b>\x03 & \x02x")) == "<mark>&lt;b&gt;</mark> &amp; x"


def test_withdrawn_rules_are_left_out_of_search() -> None:
    Rule.objects.filter(citation_id="RRoP-14.14").update(withdrawn=True)
    assert "RRoP-14.14" not in top("straddle", 10)
    assert "RRoP-14.14" not in [hit.rule.citation_id for hit in search_rules("RRoP-14.14")]


def test_limits_and_empty_queries() -> None:
    assert search_rules("") == search_rules("   ") == []
    assert len(search_rules("raise", limit=3)) == 3
    assert search_rules("raise", limit=0) == []
    assert search_rules("x" * 5000) is not None  # long input is cut, not an error


def test_reading_a_query() -> None:
    terms = parse_query('shove "full raise" -limit or cap strad')
    assert [(t.text, t.exclude, t.joined_by_or) for t in terms] == [
        ("shove", False, False), ("full raise", False, False), ("limit", True, False),
        ("cap", False, True), ("strad", False, False),
    ]  # fmt: skip
    assert terms[0].alternatives == ("all-in",)
    assert terms[-1].prefix and not terms[0].prefix
    assert [t.text for t in parse_query("what is the min raise")] == ["min raise"]
    assert parse_citation("straddle") is None
    assert parse_citation("TDA 2013 rule 41") == parse_citation("tda 2013 41")


def test_question_words_go_and_floor_phrases_stay_whole() -> None:
    terms = parse_query("what happens when a player acts out of turn")
    assert [t.text for t in terms] == ["acts", "out of turn"]
    assert [t.text for t in parse_query("player")] == ["player"]  # nothing else to search
    assert [t.text for t in parse_query("dead button rule")] == ["dead button"]
    (chip,) = parse_query("can I overchip")
    assert "single chip" in chip.alternatives and "oversize wager" not in chip.alternatives
    (string,) = parse_query("is a string raise ok")
    assert string.text == "string raise" and "string bet" in string.alternatives
    # One pass, longest first: the shorter phrase inside is not quoted again.
    assert [t.text for t in parse_query("single oversized chip")] == ["single oversized chip"]
    assert [t.text for t in parse_query('"min raise rules" or shove')] == [
        "min raise rules",
        "shove",
    ]


def test_titles_and_numbers_weigh_more_than_text_and_examples() -> None:
    book = fmt.Book(
        code="CLUB", title="Club", source="", edition="", attribution="", url="",
        sections=(fmt.Section("J", "Jackpots", 1),), path="club.toml", rules=(
            fmt.Rule(
                citation="CLUB-1", number="1", section="J", title="Table stakes",
                text="Only chips on the table play; the drop is taken from each pot.",
                examples=(fmt.Example("Example", "Jackpot, jackpot, jackpot: the jackpot "
                                      "drop, the jackpot board, the jackpot sign."),),
                other_editions=(),
            ),
            fmt.Rule(
                citation="CLUB-2", number="2", section="J", title="The bad-beat jackpot",
                text="Both hole cards must play.", examples=(), other_editions=(),
            ),
            fmt.Rule(
                citation="CLUB-3", number="3", section="J", title="Promotions",
                text="The jackpot qualifies on quads or better.", examples=(),
                other_editions=(),
            ),
        ),
    )  # fmt: skip
    import_rulebook(book)
    refresh_vocabulary()
    assert top("jackpot", book="CLUB") == ["CLUB-2", "CLUB-3", "CLUB-1"]
    assert top("club 3 jackpot", 1, book="CLUB") == ["CLUB-3"]  # its number, in words


def test_the_snippet_marks_the_rulebooks_word_for_the_floors() -> None:
    hit = search_rules("overchip")[0]
    assert hit.rule.citation_id == "RRoP-BR.15"
    assert "<mark>single chip</mark>" in str(hit.snippet)
    misdeal = search_rules("misdeal")[0]
    assert misdeal.rule.citation_id == "CR-DL.2"
    assert "<mark>misdeal</mark>, before <mark>substantial action</mark>" in str(misdeal.snippet)
