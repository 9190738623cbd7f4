"""The bundled rulebook files: they load, hold every rule the engine cites, and keep the format.

Pure pytest (no database): ``pytest -p no:django tests/rules/test_rulebook_files.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import rulebook_format as fmt
from rules.engine import citations

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rulebook-format.md"


@pytest.fixture(scope="module")
def books() -> list[fmt.Book]:
    return fmt.bundled_rulebooks()


def by_citation(books: list[fmt.Book]) -> dict[str, fmt.Rule]:
    return {rule.citation: rule for book in books for rule in book.rules}


def test_every_bundled_book_loads_in_order(books: list[fmt.Book]) -> None:
    assert [book.code for book in books] == ["RRoP", "TDA", "BH", "CR"]
    for book in books:
        assert book.title and book.source and book.edition and book.attribution


def test_cardroom_s_procedures_say_they_are_cardroom_s_own_and_whose_practice_they_follow(
    books: list[fmt.Book],
) -> None:
    cr = next(book for book in books if book.code == "CR")
    assert "Written by Cardroom" in cr.attribution
    assert "where the bundled sources are silent, written by Cardroom" in cr.notes
    assert "TDA Rule 32 (Dead Button)" in cr.notes and "missed blinds" in cr.notes
    # Every procedure is one the engine cites, but the house procedures: Cardroom's default
    # wording of what the floor rules on, marked for the room to edit, each naming its source.
    assert {rule.citation for rule in cr.rules if not rule.house} <= citations.ALL
    house = [rule for rule in cr.rules if rule.house]
    assert len(house) >= 12 and not {rule.citation for rule in house} & citations.ALL
    assert all("This follows" in rule.text for rule in house)


def test_robert_s_rules_are_credited_to_bob_ciaffone_with_his_permission(
    books: list[fmt.Book],
) -> None:
    rrop = next(book for book in books if book.code == "RRoP")
    assert "Bob Ciaffone" in rrop.attribution
    assert "so any person or cardroom can use it who so desires" in rrop.attribution


@pytest.mark.parametrize("citation", sorted(citations.ALL))
def test_every_citation_the_engine_emits_is_a_rule_in_the_rulebook(
    books: list[fmt.Book], citation: str
) -> None:
    assert citation in by_citation(books)


# Each engine citation against words of the rule it must name (a wrong number lands elsewhere).
CITED_WORDS = [
    ("RRoP-BR.3", "a maximum of a bet and three raises"),
    ("RRoP-BR.4", "Unlimited raising is allowed in heads-up play"),
    ("RRoP-BR.5", "An all-in wager of a half a bet or more is treated as a full bet"),
    ("RRoP-BR.6", "Any wager must be at least the size of the previous bet or raise"),
    ("RRoP-BR.7", "The smallest chip that may be wagered"),
    ("RRoP-BR.8", "A verbal statement denotes your action and is binding"),
    ("RRoP-BR.10", "Deliberately acting out of turn"),
    ("RRoP-BR.14", "a full bet plus a half-bet or more"),
    ("RRoP-BR.15", "you are assumed to have only called"),
    ("RRoP-BR.16", "must be brought up to proper size"),
    ("RRoP-4.2", "a preflop raiser must at least double the size of the big blind"),
    ("RRoP-14.0", "for a total wager of $250"),
    ("RRoP-14.1", "The number of raises in any betting round is unlimited"),
    ("RRoP-14.2", "A straddle bet sets a new minimum bring-in"),
    ("RRoP-14.3", "All raises must be equal to or greater than the size of the previous bet"),
    ("RRoP-14.4", "“Completing the bet” is a limit poker wager type only"),
    ("RRoP-14.5", "Multiple all-in wagers"),
    ("RRoP-14.7", "A wager is not binding until the chips are actually released"),
    ("RRoP-14.8", "the bet will be corrected to the verbal statement"),
    ("RRoP-14.11", "A bet of a single chip or bill without comment"),
    ("RRoP-14.12", "The wager is brought up to the sufficient amount only"),
    ("RRoP-14.13", "the same denomination of chip (or larger) used for the minimum bring-in"),
    ("RRoP-14.14", "one optional live straddle is allowed"),
    ("RRoP-14.16", "a maximum amount for the buy-in"),
    ("RRoP-14.17", "The players are allowed to agree to deal twice"),
    ("RRoP-PL.1", "the amount will be reduced to the maximum allowable"),
    ("RRoP-PL.4", "round off the pot size upward"),
    ("RRoP-PL.5", "treat the little blind as if it were the same size of the big blind"),
    ("RRoP-PL.6", "it is considered to be a bet of the pot size"),
    ("TDA-40", "where verbal and chips are contradictory"),
    ("TDA-43", "The largest prior full bet or raise of the current betting round"),
    ("TDA-45", "a multiple-chip bet (including a bet of your last chips) is a call"),
    ("TDA-46", "If prior chips don’t cover the call AND are left alone"),
    ("TDA-47", "Multiple short all-in wagers that cumulatively equal a full raise"),
    ("TDA-53", "Step 1: Action backs up to the correct player in order"),
    ("TDA-20", "split as evenly as possible"),
    ("RRoP-TI.5", "the first hand clockwise from the button gets the odd chip"),
    ("RRoP-TI.1", "Suits are used to break a tie between cards of the same rank"),
    ("CR-BB.1", "the button may be on a seat where nobody is dealt in (a dead button)"),
    ("CR-BB.2", "the small blind is dead: nobody posts it"),
    ("CR-BB.3", "The live post counts toward the player's wager"),
    ("CR-BB.4", "the button moves each hand to the next player clockwise"),
    ("CR-BB.5", "that player owes a big blind and a small blind"),
    ("CR-BB.6", "posts one big blind, live (CR-BB.3), to be dealt in at once"),
    ("CR-BB.7", "so nobody posts the big blind twice in a row"),
    ("CR-BB.8", "a misdeal does not move the button"),
    ("CR-BB.9", "the player with the highest card takes the button"),
    ("CR-DM.1", "It goes into the main pot and counts toward nobody's wager"),
    ("CR-DM.2", "the player in the big blind posts one ante for the whole table"),
    ("CR-TP.1", "an absent player's hand is dealt and killed"),
    ("CR-TP.2", "A hand under way when the level changes is played out at the old level"),
    ("CR-TP.3", "the player who started that hand with more chips finishes in the higher place"),
    ("CR-GM.1", "The desk deals none of these, so no table is set up for them"),
    ("CR-CU.1", "Each denomination divides the next larger one"),
    ("CR-CU.2", "throughout the level before the break and during the break itself"),
    ("CR-CU.3", "No player wins more than one chip"),
    ("CR-CU.4", "No player is raced out of a tournament"),
]


def test_the_word_table_covers_every_engine_citation_with_text() -> None:
    assert {cid for cid, _ in CITED_WORDS} == citations.ALL


@pytest.mark.parametrize(("citation", "words"), CITED_WORDS)
def test_each_engine_citation_names_the_rule_it_means(
    books: list[fmt.Book], citation: str, words: str
) -> None:
    rule = by_citation(books)[citation]
    assert words in " ".join([rule.text, *(e.text for e in rule.examples)])


def test_no_rule_is_a_placeholder(books: list[fmt.Book]) -> None:
    # TDA-44 (oversized chip) is not in the source texts, so it is not bundled and the engine
    # cites Robert's single-chip rules instead of inventing its text.
    assert not [rule.citation for book in books for rule in book.rules if rule.stub]


def test_citation_ids_and_aliases_are_unique_across_books(books: list[fmt.Book]) -> None:
    ids = [cid for book in books for rule in book.rules for cid in (rule.citation, *rule.aliases)]
    assert len(ids) == len(set(ids))


def test_every_alias_resolves_to_its_own_rule(books: list[fmt.Book]) -> None:
    for book in books:
        for rule in book.rules:
            assert fmt.resolve_citation(books, rule.citation) is rule
            for other in rule.other_editions:
                assert fmt.resolve_citation(books, other.citation) is rule
                assert fmt.rule_in_edition(books, book.code, other.edition, other.number) is rule


@pytest.mark.parametrize(
    ("old", "edition", "number", "current"),
    [
        ("TDA-41", "TDA 2013", "41", "TDA-47"),  # re-opening the bet
        ("TDA-2017-9", "TDA 2017", "9", "TDA-10"),  # breaking tables, now Rule 10
        ("RRoP-v5-14.4", "Version 5", "14.4", "RRoP-14.6"),  # raising in more than one move
        ("RRoP-v5-14.14", "Version 5", "14.14", "RRoP-14.17"),  # dealing twice
    ],
)
def test_an_old_citation_resolves_to_the_rule_it_meant(
    books: list[fmt.Book], old: str, edition: str, number: str, current: str
) -> None:
    book = current.split("-")[0]
    assert fmt.resolve_citation(books, old) is by_citation(books)[current]
    assert fmt.rule_in_edition(books, book, edition, number) is by_citation(books)[current]


def test_a_current_id_wins_over_an_old_edition_number(books: list[fmt.Book]) -> None:
    # Version 5 numbered "raising in more than one move" 14.4; today 14.4 is completing the bet.
    assert fmt.resolve_citation(books, "RRoP-14.4") is by_citation(books)["RRoP-14.4"]


def test_rules_quoted_from_version_5_carry_their_edition(books: list[fmt.Book]) -> None:
    rules = by_citation(books)
    for cid in ("RRoP-4.1", "RRoP-4.2", "RRoP-SD.6", "RRoP-TI.5", "RRoP-TR.23"):
        assert rules[cid].edition == "Version 5"
        assert "Poker Betting Help" in rules[cid].source
    assert rules["RRoP-14.3"].edition != "Version 5"


# Counted by reading the source texts (/work/shared/seeds):
# - RRoP: Betting and Raising 16 paragraphs; No-Limit and Pot-Limit opening paragraph + 17
#   rules; pot-limit 6; quoted from Version 5 in Poker Betting Help: Button and Blind Use 2,
#   The Showdown 7, Ties 2 (1 and 5), Tournament Rules 3 (18, 19, 23) = 54 rules. Examples:
#   2 in the No-Limit section (after rules 5 and 10) + Version 5's 2 (after its 3 and 8) = 4.
# - TDA: Illustration Addendum items for Rules 10, 16, 18, 20, 38, 40, 43, 45, 46, 47, 51, 52,
#   53 = 13 rules. Examples: addendum 3+2+2+2+1+5+8+5+7+3+3+4 = 45, plus
#   the 2013 addendum's 8 (Rule 40-era 2-end, 3, 4-A, 4-B; Rule 41's 1, 1-A, 1-B, 2) = 53.
# - BH: the opening betting round + Situations 1-7 = 8 rules; examples: pre-flop, flop,
#   turn-and-river + one per situation = 10.
COUNTS = {"RRoP": (54, 4), "TDA": (13, 53), "BH": (8, 10)}


@pytest.mark.parametrize(("code", "rules", "examples"), [(c, *n) for c, n in COUNTS.items()])
def test_each_book_holds_every_rule_and_example_of_its_sources(
    books: list[fmt.Book], code: str, rules: int, examples: int
) -> None:
    book = next(book for book in books if book.code == code)
    assert len(book.rules) == rules
    assert sum(len(rule.examples) for rule in book.rules) == examples


def test_robert_s_sections_number_their_rules_in_order(books: list[fmt.Book]) -> None:
    rrop = next(book for book in books if book.code == "RRoP")
    numbers = {
        s.code: [int(r.number) for r in rrop.rules if r.section == s.code] for s in rrop.sections
    }
    assert numbers["BR"] == list(range(1, 17))
    assert numbers["14"] == list(range(0, 18))
    assert numbers["PL"] == list(range(1, 7))
    assert numbers["4"] == [1, 2] and numbers["SD"] == list(range(1, 8))
    assert numbers["TI"] == [1, 5] and numbers["TR"] == [18, 19, 23]


def test_betting_help_situations_are_bh_1_to_7(books: list[fmt.Book]) -> None:
    bh = next(book for book in books if book.code == "BH")
    titles = {rule.citation: [e.title for e in rule.examples] for rule in bh.rules}
    for n in range(1, 8):
        assert titles[f"BH-{n}"] == [f"Situation {n}"]


def test_every_section_has_rules(books: list[fmt.Book]) -> None:
    for book in books:
        assert {s.code for s in book.sections} == {r.section for r in book.rules}


def test_texts_keep_only_single_spaces_and_plain_line_breaks(books: list[fmt.Book]) -> None:
    texts = [
        text
        for book in books
        for rule in book.rules
        for text in (rule.title, rule.text, *(x for e in rule.examples for x in (e.title, e.text)))
    ]
    for text in texts:
        assert text == text.strip()
        assert not re.search(r"[ \t\u00a0]{2,}|\t|\u00a0| \n|\n |\n{3,}", text), text[:60]


# ---------------------------------------------------------------- format errors

MINIMAL = """\
format = "cardroom-rulebook/1"

[book]
code = "CLUB"
title = "Club Rules"
source = "The club"
edition = "2025"
attribution = "The club's floor staff."
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
text = "Both of the losing player's hole cards must play."

[[rules.examples]]
title = "Example"
text = "The 7 does not play."

[[rules.other_editions]]
edition = "2019"
number = "J.4"
citation = "CLUB-2019-J.4"
"""


def write(tmp_path: Path, text: str, name: str = "club.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_minimal_file_loads(tmp_path: Path) -> None:
    book = fmt.load_rulebook_file(write(tmp_path, MINIMAL))
    assert book.code == "CLUB" and book.rules[0].aliases == ("CLUB-2019-J.4",)
    assert book.rules[0].edition == "2025"  # the book's, unless the rule says


def test_the_example_in_the_format_document_loads(tmp_path: Path) -> None:
    block = re.search(r"```toml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert block
    book = fmt.load_rulebook_file(write(tmp_path, block.group(1)))
    assert [rule.citation for rule in book.rules] == ["CLUB-BJ.1"]


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('format = "cardroom-rulebook/1"', 'format = "cardroom-rulebook/3"', "format"),
        ('format = "cardroom-rulebook/1"', 'format = "something/1"', "format"),
        ('title = "Club Rules"\n', "", "book.title"),
        ('edition = "2025"', 'edition = "  "', "book.edition"),
        ('code = "CLUB"', 'code = "C-LUB"', "book.code"),
        ('citation_form = "BOOK-SECTION.NUMBER"', 'citation_form = "ANY"', "book.citation_form"),
        ('attribution = "', 'atribution = "', "book.attribution: is required (book.atribution"),
        ("order = 1", 'order = "first"', "sections[0].order"),
        ('section = "BJ"', 'section = "XX"', "rules[0] (CLUB-BJ.1).section"),
        ('citation = "CLUB-BJ.1"', 'citation = "CLUB-1"', "rules[0] (CLUB-1).citation"),
        ('number = "1"', 'number = "one"', "rules[0] (CLUB-BJ.1).number"),
        ('title = "Both hole', 'titel = "Both hole', "rules[0] (CLUB-BJ.1).title"),
        ('text = "The 7 does not play."', 'text = ""', "rules[0] (CLUB-BJ.1).examples[0].text"),
        ('citation = "CLUB-2019-J.4"', 'citation = "CLUB-BJ.1"', "other_editions[0].citation"),
        ('citation = "CLUB-2019-J.4"', 'citation = "TDA-41"', "other_editions[0].citation"),
        ('text = "Both of', 'stub = true\ntext = "Both of', "rules[0] (CLUB-BJ.1).stub"),
    ],
)
def test_a_format_error_names_the_file_and_the_field(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    assert old in MINIMAL
    path = write(tmp_path, MINIMAL.replace(old, new, 1))
    with pytest.raises(fmt.RulebookFormatError) as caught:
        fmt.load_rulebook_file(path)
    assert str(path) in str(caught.value)
    assert field in str(caught.value)


def test_a_file_without_rules_is_refused(tmp_path: Path) -> None:
    text = MINIMAL.split("[[rules]]")[0]
    with pytest.raises(fmt.RulebookFormatError, match=r"club\.toml: rules: is required"):
        fmt.load_rulebook_file(write(tmp_path, text))


def test_a_rule_without_text_or_examples_is_refused(tmp_path: Path) -> None:
    text = MINIMAL.replace('text = "Both of the losing player\'s hole cards must play."\n', "")
    text = text.split("[[rules.examples]]")[0]
    with pytest.raises(fmt.RulebookFormatError, match=r"rules\[0\] \(CLUB-BJ.1\)\.text"):
        fmt.load_rulebook_file(write(tmp_path, text))


def test_a_duplicate_citation_is_refused(tmp_path: Path) -> None:
    rule = MINIMAL[MINIMAL.index("[[rules]]") :]
    with pytest.raises(fmt.RulebookFormatError, match=r"rules\[1\].*already"):
        fmt.load_rulebook_file(write(tmp_path, MINIMAL + "\n" + rule))


def test_a_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "format = \n")
    with pytest.raises(fmt.RulebookFormatError, match="cannot be read as TOML") as caught:
        fmt.load_rulebook_file(path)
    assert caught.value.path == str(path)


def test_books_loaded_together_may_not_share_a_code(tmp_path: Path) -> None:
    write(tmp_path, MINIMAL, "a.toml")
    other = MINIMAL.replace('code = "CLUB"', 'code = "CLUB2"').replace("CLUB-", "CLUB2-")
    write(tmp_path, other, "b.toml")
    assert [b.code for b in fmt.bundled_rulebooks(tmp_path)] == ["CLUB", "CLUB2"]
    write(tmp_path, MINIMAL, "c.toml")
    with pytest.raises(fmt.RulebookFormatError, match=r"book\.code: 'CLUB'") as caught:
        fmt.bundled_rulebooks(tmp_path)
    assert caught.value.path.endswith("c.toml")
