"""A room's rulebook read from its file: the layouts rulebooks use (numbered rules, "Rule 1:",
"RP-1", "14.3", sections, sub-rules, worked examples), in a PDF built here, in Markdown and in
plain text; what cannot be placed is listed; bad files are refused with a reason."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.rulebook_files import (
    MAX_BYTES,
    RulebookFileError,
    parse_rulebook_file,
    read_rulebook_file,
)
from rules.rulebook_text import ParsedBook, RulebookTextError, parse_rulebook
from tests.rules.pdf_files import pdf_of

TEXT = """Riverside Card Club House Rules

These rules apply in the card room at all times.

Section 1 – General
1. Floor decisions. The floor's decision is final, in the best interest of the game.
2. Players protect their own hands at all times. A hand that is
not protected and is killed by the dealer has no redress.
Example 1: Seat 4 leaves his cards without a chip on them and the dealer mucks them.
The hand is dead.
3. Electronic devices. Phones may not be used at the table during a hand:
1) step away from the table to take a call;
2) no device on the table rail.

Section 2 – Betting
14.3 Minimum raise. A raise must be at least the size of the previous bet or raise.
14.3.1 Short all-in. An all-in of less than a full raise does not reopen the betting.
RP-1: Dedicated Final Table
The final table is played at one table chosen in advance.
"""


def by_number(book):  # type: ignore[no-untyped-def]
    return {rule.number: rule for rule in book.rules}


def test_plain_text_rules_sections_sub_rules_and_examples_are_recognised() -> None:
    book = parse_rulebook(TEXT)
    rules = by_number(book)
    assert list(rules) == ["1", "2", "3", "14.3", "14.3.1", "RP-1"]
    assert book.title == "Riverside Card Club House Rules"
    assert book.intro == "These rules apply in the card room at all times."
    assert [(s.code, s.title) for s in book.sections] == [("1", "General"), ("2", "Betting")]
    assert rules["1"].title == "Floor decisions"
    assert rules["2"].text.endswith("killed by the dealer has no redress.")  # lines run on
    assert [(e.title, e.text) for e in rules["2"].examples] == [
        ("Example 1", "Seat 4 leaves his cards without a chip on them and the dealer mucks "
                      "them. The hand is dead.")
    ]  # fmt: skip
    # A list inside a rule stays in its words, one item a line.
    assert rules["3"].text.splitlines()[1:] == [
        "1) step away from the table to take a call;",
        "2) no device on the table rail.",
    ]
    assert rules["14.3.1"].parent == "14.3" and rules["14.3.1"].title == "Short all-in"
    assert rules["RP-1"].title == "Dedicated Final Table"
    assert rules["RP-1"].section == "2"
    assert book.counts() == {
        "sections": 2, "rules": 5, "sub_rules": 1, "examples": 1, "unplaced": 0
    }  # fmt: skip


def test_rule_layouts_explicit_numbers_roman_sections_and_derived_titles() -> None:
    book = parse_rulebook(
        "PART IV: Dealing\n"
        "Rule 12 - Misdeals\n"
        "Two exposed cards in the deal are a misdeal.\n"
        "Rule 13\n"
        "Boxed Cards\n"
        "A card found face up in the deck is set aside.\n"
        "Rule 14: Protect your hand\n"
        "Article 15. A player's cards left unprotected may be killed by the dealer.\n"
    )
    rules = by_number(book)
    assert [(s.code, s.title) for s in book.sections] == [("4", "Dealing")]
    assert rules["12"].title == "Misdeals"
    assert rules["13"].title == "Boxed Cards"  # the title on the line after the number
    assert rules["13"].text == "A card found face up in the deck is set aside."
    assert rules["14"].title == "Protect your hand" and rules["14"].text == ""
    # No title in the source: its opening words, marked as made up.
    assert rules["15"].title == "A player's cards left unprotected may be killed by the dealer"
    assert rules["15"].derived_title


def test_numbers_starting_again_in_each_section_are_cited_by_section() -> None:
    book = parse_rulebook(
        "Betting and Raising\n"
        "1. Check-raise is permitted in all games.\n"
        "2. String raises are not allowed.\n"
        "\n"
        "Dealing Procedures\n"
        "1. The dealer burns a card before each round.\n"
    )
    assert [rule.number for rule in book.rules] == ["BR.1", "BR.2", "DP.1"]
    assert [s.title for s in book.sections] == ["Betting and Raising", "Dealing Procedures"]


def test_what_cannot_be_placed_is_listed_and_a_repeated_rule_takes_its_illustrations() -> None:
    book = parse_rulebook(
        "Example 1: an example before any rule.\n"
        "Rule 1: Floor People\n"
        "The floor decides.\n"
        "Rule 2: Odd Chips\n"
        "The odd chip goes to the first seat left of the button.\n"
        "\n"
        "Illustration Addendum\n"
        "Rule 2: Odd Chips\n"
        "Example 1: Seats 3 and 7 split 1,025; seat 3 is first left of the button.\n"
        "Rule 1: Floor People\n"
        "Repeated without examples.\n"
        "\n"
        "Glossary\n"
        "Button: the dealer's position.\n"
    )
    rules = by_number(book)
    assert [e.title for e in rules["2"].examples] == ["Example 1"]
    assert any("Rule 2 appears again" in note for note in book.notes)
    reasons = [item.reason for item in book.unplaced]
    assert "An example before any rule." in reasons
    assert any("already the rule on line 2" in reason for reason in reasons)
    # The glossary after the last rule is not the last rule's words.
    glossary = next(item for item in book.unplaced if item.text.startswith("Glossary"))
    assert glossary.text == "Glossary: Button: the dealer's position."
    assert "Button" not in rules["2"].text


def test_markdown_headings_bold_numbers_and_lists() -> None:
    book = parse_rulebook(
        "# Harbour Poker Room Rules\n\n"
        "Intro paragraph for players.\n\n"
        "## Section 3 – Conduct\n\n"
        "### Rule 7: English only\n\n"
        "Players speak English at the table during a hand. A player who\n"
        "speaks another language is warned.\n\n"
        "- first time: a warning\n"
        "- again: a penalty\n\n"
        "**Example 1:** Two players speak Spanish during a hand; both are warned.\n\n"
        "### Rule 8: Rabbit hunting\n\n"
        "Dealers do not show the cards that would have come.\n",
        markdown=True,
    )
    rules = by_number(book)
    assert book.title == "Harbour Poker Room Rules"
    assert [(s.code, s.title) for s in book.sections] == [("3", "Conduct")]
    assert rules["7"].text == (
        "Players speak English at the table during a hand. A player who speaks another "
        "language is warned.\n\n- first time: a warning\n- again: a penalty"
    )
    assert [(e.title, e.text) for e in rules["7"].examples] == [
        ("Example 1", "Two players speak Spanish during a hand; both are warned.")
    ]
    assert rules["8"].title == "Rabbit hunting"


PDF_PAGES = [
    [
        "Poker Rules of the House",
        "Section 1 - General Concepts",
        "Rule 1: Floor People",
        "Floor people consider the best interest of the game and fairness as top",
        "priorities in the decision-making process.",
        "Rule 2: Player Responsibilities",
        "Players protect their hands and act in turn.",
    ],
    [
        "Rule 3: Electronic Devices",
        "Players may not talk on a phone at the table. A player who takes a call is substan-",
        "tially delayed and steps away.",
        "Example 1: Seat 2 takes a call during a hand. He is warned.",
        "Section 2 - Dealing",
        "Rule 4: Misdeals",
    ],
    [
        "A misdeal is declared when two or more cards are exposed in the deal.",
        "Rule 5: Boxed Card",
        "A card face up in the deck is treated as a scrap of paper.",
    ],
]


def test_a_pdf_built_here_reads_like_its_text_without_headers_and_page_numbers() -> None:
    found, book = parse_rulebook_file("house-rules.pdf", pdf_of(PDF_PAGES))
    assert (found.kind, found.pages) == ("pdf", 3)
    assert "Riverside Card Club Rules" not in found.text  # the running header
    assert "Page 2 of 3" not in found.text
    rules = by_number(book)
    assert list(rules) == ["1", "2", "3", "4", "5"]
    assert rules["1"].text == (
        "Floor people consider the best interest of the game and fairness as top priorities "
        "in the decision-making process."
    )
    assert "substantially delayed" in rules["3"].text  # a word broken across lines, joined
    assert [e.title for e in rules["3"].examples] == ["Example 1"]
    # A rule running across a page break is one rule.
    assert rules["4"].text.startswith("A misdeal is declared")
    assert [(s.code, s.title) for s in book.sections] == [
        ("1", "General Concepts"),
        ("2", "Dealing"),
    ]


@pytest.mark.parametrize(
    ("name", "data", "says"),
    [
        ("rules.docx", b"PK\x03\x04 a word file", "PDF (.pdf), a Markdown file (.md)"),
        ("rules.txt", b"   \n ", "The file is empty."),
        ("rules.txt", b"\x00\x01binary", "not a text file"),
        ("rules.pdf", b"%PDF-1.4 broken", "The PDF cannot be read"),
        ("rules.pdf", pdf_of([[]], header="", numbered=False), "no text to read"),
        ("rules.txt", b"Just a paragraph of words with no numbered rules at all.", "No rules"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_with_the_reason(
    name: str, data: bytes, says: str
) -> None:
    with pytest.raises(RulebookFileError, match=says.replace("(", r"\(").replace(")", r"\)")):
        parse_rulebook_file(name, data)


def test_a_file_over_the_limit_is_refused_before_it_is_read() -> None:
    with pytest.raises(RulebookFileError, match="the most the import reads is 10 MB"):
        read_rulebook_file("big.txt", b"1. A rule.\n" * (MAX_BYTES // 10))


def test_a_text_file_from_an_old_windows_editor_is_read() -> None:
    found = read_rulebook_file("rules.txt", "1. Café rules – “quoted”.\n".encode("cp1252"))
    assert found.text == "1. Café rules – “quoted”.\n"


def test_a_tda_style_book_with_its_procedures_and_illustration_addendum() -> None:
    book = parse_rulebook(
        "Poker Tournament Rules 2024\n"
        "General Concepts\n"
        "1: Floor People\n"
        "The floor considers the best interest of the game and fairness first.\n"
        "2: Player Responsibilities\n"
        "Players protect their hands and make their intentions clear.\n"
        "Seating, Breaking & Balancing Tables\n"
        "10: Breaking Tables\n"  # numbers skipped in this extract still run on
        "Players from a broken table are seated by a 2-step random process: 1) show the\n"
        "seat cards; 2) deal a card to each player.\n"
        "Recommended Procedures\n"
        "RP-1: Dedicated Final Table\n"
        "The final table is played at a table chosen in advance.\n"
        "Illustration Addendum\n"
        "Rule 10: Breaking Tables\n"
        "Example 1: Table 3 breaks with seven players.\n",
        wrapped=True,
    )
    rules = by_number(book)
    assert list(rules) == ["1", "2", "10", "RP-1"]
    assert [(s.code, s.title) for s in book.sections] == [
        ("GC", "General Concepts"),
        ("SBBT", "Seating, Breaking & Balancing Tables"),
        ("RP", "Recommended Procedures"),
    ]
    assert "1) show the seat cards; 2) deal a card" in rules["10"].text
    assert [e.title for e in rules["10"].examples] == ["Example 1"]  # from the addendum
    assert book.unplaced == []


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "Rule 3: Misdeals",
                    "Section 2 - Dealing",
                    "14.3 Minimum raise.",
                    "RP-1:",
                    "Example 1:",
                    "1. Check-raise is permitted.",
                    "2)",
                    "## Heading",
                    "Page 4",
                    "Glossary",
                    "12.",
                    "Rule 12",
                    "Example",
                    "4.1.1 Sub",
                    "",
                ]
            ),
            st.text(max_size=60),
        ),
        max_size=40,
    ),
    st.booleans(),
    st.booleans(),
)
def test_any_text_is_read_or_refused_never_broken(
    lines: list[str], markdown: bool, wrapped: bool
) -> None:
    try:
        book = parse_rulebook("\n".join(lines), markdown=markdown, wrapped=wrapped)
    except RulebookTextError:
        return
    numbers = [rule.number for rule in book.rules]
    assert numbers and len(numbers) == len(set(numbers))
    assert all(0 < len(rule.number) <= 20 and len(rule.title) <= 200 for rule in book.rules)
    codes = {section.code for section in book.sections}
    assert {rule.section for rule in book.rules} == codes
    assert ParsedBook.from_dict(book.to_dict()) == book
