"""Importing rulebooks: idempotent, in place, withdrawn not deleted, aliases, the command."""

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection

from rules import rulebook_format as fmt
from rules.models import Rule, RuleAlias, Rulebook, RuleExample, Section, VocabularyWord
from rules.search import resolve_citation, search_rules
from rules.search_index import ensure_search_index
from rules.services import import_rulebook, load_rulebooks, refresh_vocabulary

pytestmark = pytest.mark.django_db


def club_book(*rules: fmt.Rule) -> fmt.Book:
    return fmt.Book(
        code="CLUB", title="Club Rules", source="The club", edition="2025",
        attribution="Written by the club's floor staff.", url="",
        sections=(fmt.Section("BJ", "Bad-Beat Jackpot", 1), fmt.Section("CH", "Chips", 2)),
        rules=rules or (JACKPOT, CHIPS), path="club.toml", citation_form=fmt.SECTIONED,
    )  # fmt: skip


JACKPOT = fmt.Rule(
    citation="CLUB-BJ.1", number="1", section="BJ", title="Both hole cards must play",
    text="To qualify for the jackpot, both hole cards must play.",
    examples=(fmt.Example("Example", "Four aces lose to a straight flush."),),
    other_editions=(fmt.OtherEdition("2019", "4", "CLUB-2019-4"),),
)  # fmt: skip
CHIPS = fmt.Rule(
    citation="CLUB-CH.1", number="1", section="CH", title="Colour up at level breaks",
    text="Chips of a colour leaving play are raced off at the break.", examples=(),
    other_editions=(),
)  # fmt: skip


def test_importing_twice_changes_nothing_and_duplicates_nothing() -> None:
    first = import_rulebook(club_book())
    ids = dict(Rule.objects.values_list("citation_id", "pk"))
    second = import_rulebook(club_book())
    assert first == {"created": 2, "updated": 0, "unchanged": 0, "withdrawn": 0}
    assert second == {"created": 0, "updated": 0, "unchanged": 2, "withdrawn": 0}
    assert dict(Rule.objects.values_list("citation_id", "pk")) == ids
    assert (Rulebook.objects.count(), Section.objects.count()) == (1, 2)
    assert (RuleExample.objects.count(), RuleAlias.objects.count()) == (1, 1)


def test_a_changed_rule_is_updated_in_place() -> None:
    import_rulebook(club_book())
    before = Rule.objects.get(citation_id="CLUB-BJ.1")
    reworded = replace(JACKPOT, text="Both hole cards must play; a pocket pair qualifies.")
    counts = import_rulebook(club_book(reworded, CHIPS))
    after = Rule.objects.get(citation_id="CLUB-BJ.1")
    assert counts["updated"] == 1 and counts["unchanged"] == 1
    assert after.pk == before.pk
    assert "pocket pair" in after.text
    assert [hit.rule.citation_id for hit in search_rules("pocket pair")] == ["CLUB-BJ.1"]


def test_a_rule_gone_from_the_file_is_withdrawn_not_deleted_and_can_come_back() -> None:
    import_rulebook(club_book())
    counts = import_rulebook(club_book(JACKPOT))
    chips = Rule.objects.get(citation_id="CLUB-CH.1")
    assert counts["withdrawn"] == 1
    assert chips.withdrawn and chips.withdrawn_at is not None
    assert search_rules("raced off") == []
    assert resolve_citation("CLUB-CH.1") == chips  # rulings citing it still find it
    assert Section.objects.filter(code="CH").exists()  # its section stays while it does
    import_rulebook(club_book())
    chips.refresh_from_db()
    assert not chips.withdrawn and chips.withdrawn_at is None
    assert [hit.rule for hit in search_rules("raced off")] == [chips]


def test_a_withdrawn_rule_keeps_its_rulings() -> None:
    from cardroom.rulings.services import log_ruling
    from tests.factories import make_table, make_user

    import_rulebook(club_book())
    director = make_user(username="td", role=None, superuser=True)
    log_ruling(
        table=make_table(number=3), director=director, situation="A chip race dispute.",
        decision="Raced off as the rule says.", citations=[("CLUB-CH.1", "")],
    )  # fmt: skip
    import_rulebook(club_book(JACKPOT))
    chips = Rule.objects.get(citation_id="CLUB-CH.1")
    assert chips.withdrawn and chips.cited_count() == 1


def test_examples_are_replaced_as_a_whole_and_aliases_follow_their_rule() -> None:
    import_rulebook(club_book())
    moved = replace(
        CHIPS,
        examples=(fmt.Example("Example 1", "Two 25s race off."), fmt.Example("Example 2", "x")),
        other_editions=(fmt.OtherEdition("2019", "4", "CLUB-2019-4"),),
    )
    import_rulebook(club_book(replace(JACKPOT, other_editions=()), moved))
    assert list(Rule.objects.get(citation_id="CLUB-BJ.1").examples.values_list("title")) == [
        ("Example",)
    ]
    chips = Rule.objects.get(citation_id="CLUB-CH.1")
    assert [e.title for e in chips.examples.all()] == ["Example 1", "Example 2"]
    assert "Two 25s race off" in chips.examples_text
    assert RuleAlias.objects.get(citation_id="CLUB-2019-4").rule == chips
    assert resolve_citation("CLUB-2019-4") == chips


def test_a_section_dropped_from_the_file_goes_once_empty() -> None:
    import_rulebook(club_book())
    book = club_book(JACKPOT)
    import_rulebook(replace(book, sections=book.sections[:1]))
    assert Section.objects.filter(code="CH").exists()  # the withdrawn rule still sits in it
    Rule.objects.filter(citation_id="CLUB-CH.1").update(section=Section.objects.get(code="BJ"))
    import_rulebook(replace(book, sections=book.sections[:1]))
    assert not Section.objects.filter(code="CH").exists()


def test_the_search_index_follows_every_write() -> None:
    import_rulebook(club_book())
    rule = Rule.objects.get(citation_id="CLUB-CH.1")
    rule.title = "Chip race at the colour-up"
    rule.save()
    assert [hit.rule for hit in search_rules("colour-up")] == [rule]
    assert search_rules('"level breaks"') == []


def test_an_index_a_table_rebuild_broke_is_repaired() -> None:
    """SQLite drops triggers when a migration rebuilds rules_rule; PostgreSQL's generated
    column cannot be lost, so there is nothing to repair."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE rules_rule ADD COLUMN scratch integer")
            cursor.execute("ALTER TABLE rules_rule DROP COLUMN scratch")
        import_rulebook(club_book())
        assert ensure_search_index(connection) is False
        assert [hit.rule.citation_id for hit in search_rules("jackpot")] == ["CLUB-BJ.1"]
        return
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER rules_rule_fts_insert")
    import_rulebook(club_book())
    assert search_rules("jackpot") == []  # written while the trigger was gone
    assert ensure_search_index(connection) is True
    assert [hit.rule.citation_id for hit in search_rules("jackpot")] == ["CLUB-BJ.1"]
    assert ensure_search_index(connection) is False


def test_vocabulary_holds_the_rulebooks_words() -> None:
    import_rulebook(club_book())
    assert refresh_vocabulary() == VocabularyWord.objects.count()
    words = set(VocabularyWord.objects.values_list("word", flat=True))
    assert {"jackpot", "qualify", "straight", "raced"} <= words


def test_the_command_loads_the_bundled_books_and_is_safe_to_rerun() -> None:
    books = fmt.bundled_rulebooks()
    call_command("load_rulebook", stdout=(out := _Out()))
    assert Rule.objects.count() == sum(len(book.rules) for book in books)
    call_command("load_rulebook", stdout=(again := _Out()))
    for book in books:
        assert f"{book.code}: {len(book.rules)} created" in out.text
        assert f"{book.code}: 0 created, 0 updated, {len(book.rules)} unchanged" in again.text
    assert VocabularyWord.objects.filter(word="straddle").exists()


def test_every_bundled_rule_example_and_alias_is_in_the_database() -> None:
    books = fmt.bundled_rulebooks()
    load_rulebooks(books)
    for book in books:
        stored = Rulebook.objects.get(code=book.code)
        assert (stored.title, stored.edition, stored.attribution) == (
            book.title, book.edition, book.attribution
        )  # fmt: skip
        for entry in book.rules:
            rule = Rule.objects.get(citation_id=entry.citation)
            assert (rule.rulebook, rule.section.code, rule.title) == (
                stored, entry.section, entry.title
            )  # fmt: skip
            assert rule.examples.count() == len(entry.examples)
            for other in entry.other_editions:
                assert resolve_citation(other.citation) == rule


def test_the_command_takes_a_path_and_names_a_broken_file(tmp_path: Path) -> None:
    good = tmp_path / "club.toml"
    good.write_text(CLUB_TOML, encoding="utf-8")
    call_command("load_rulebook", str(good), stdout=_Out())
    assert Rule.objects.get(citation_id="CLUB-BJ.1").title == "Both hole cards must play"
    bad = tmp_path / "bad.toml"
    bad.write_text(CLUB_TOML.replace("cardroom-rulebook/1", "cardroom-rulebook/9"))
    with pytest.raises(CommandError, match=r"bad\.toml"):
        call_command("load_rulebook", str(bad), stdout=_Out())


def test_a_citation_of_another_book_is_refused() -> None:
    import_rulebook(club_book())
    other = replace(club_book(), code="CLUB2")
    with pytest.raises(ValidationError, match="another rulebook"):
        import_rulebook(other)


class _Out:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str, *args: Any, **kwargs: Any) -> None:
        self.text += text

    def flush(self) -> None:
        pass


CLUB_TOML = """format = "cardroom-rulebook/1"

[book]
code = "CLUB"
title = "Club Rules"
source = "The club's own jackpot rules"
edition = "2025"
attribution = "Written by the club's floor staff."
citation_form = "BOOK-SECTION.NUMBER"

[[sections]]
code = "BJ"
title = "Bad-Beat Jackpot"
order = 1

[[rules]]
citation = "CLUB-BJ.1"
section = "BJ"
number = "1"
title = "Both hole cards must play"
text = "To qualify for the jackpot, both of the losing player's hole cards must play."
"""
