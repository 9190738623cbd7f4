"""Cardroom's house procedures for what the bundled books leave out (an exposed card and a
misdeal, a boxed card, a deck change, rabbit hunting, phones, English only, protecting a hand,
showing cards, one player to a hand, fouled hands, being at your seat, colour-ups and the chip
race): the floor's words find each one first, several ways of asking each; they are house
rules the room edits, keeping its words when the books are loaded again; and a question that
finds nothing suggests the closest sections and, to a floor manager, a house rule to write.

Run on SQLite (FTS5) and on PostgreSQL (full text and trigrams): CI runs this module on both.
"""

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from rules.models import (
    Rule,
    RuleAlias,
    Rulebook,
    RuleExample,
    Section,
    VocabularyWord,
)
from rules.search import closest_sections, search_rules
from rules.services import update_house_rule
from tests.rules.test_procedures import HOUSE_PROCEDURES

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", autouse=True)
def bundled(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock():
        call_command("load_rulebook", verbosity=0)
    yield
    with django_db_blocker.unblock():
        for model in (RuleExample, RuleAlias, Rule, Section, Rulebook, VocabularyWord):
            model.objects.all().delete()


def first(query: str) -> str:
    hits = search_rules(query, limit=3)
    return hits[0].rule.citation_id if hits else ""


#: A floor person's words, several per situation, and the rule that must come first.
SITUATIONS = [
    # A card exposed in the deal (the floor's "flashed card").
    ("exposed", "CR-DL.1"),
    ("card exposed during the deal", "CR-DL.1"),
    ("dealer flipped a card while dealing", "CR-DL.1"),
    ("flashed", "CR-DL.1"),
    ("dealer flashed seat 3's card", "CR-DL.1"),
    # Misdeals.
    ("misdeal", "CR-DL.2"),
    ("when is it a misdeal", "CR-DL.2"),
    ("dealer missed a seat", "CR-DL.2"),
    ("is it a misdeal if the button was wrong", "CR-DL.2"),
    ("two cards flipped on the deal", "CR-DL.1"),  # two exposed: its second paragraph
    # Boxed cards.
    ("boxed", "CR-DL.3"),
    ("boxed card", "CR-DL.3"),
    ("card face up in the deck", "CR-DL.3"),
    ("upside down card in the deck", "CR-DL.3"),
    # Deck changes.
    ("deck change", "CR-DL.4"),
    ("player wants a new deck", "CR-DL.4"),
    ("marked card", "CR-DL.4"),
    ("can I change the deck", "CR-DL.4"),
    # Rabbit hunting.
    ("rabbit", "CR-DL.5"),
    ("rabbit hunting", "CR-DL.5"),
    ("show me what would have come", "CR-DL.5"),
    ("can the dealer show the river", "CR-DL.5"),
    # Phones and devices.
    ("phone", "CR-PC.1"),
    ("cell", "CR-PC.1"),
    ("cell phone at the table", "CR-PC.1"),
    ("texting during a hand", "CR-PC.1"),
    ("player on his mobile in a hand", "CR-PC.1"),
    ("headphones", "CR-PC.1"),
    # English only.
    ("English", "CR-PC.2"),
    ("english only", "CR-PC.2"),
    ("two players speaking Spanish during a hand", "CR-PC.2"),
    ("foreign language at the table", "CR-PC.2"),
    # Protecting a hand.
    ("protect your hand", "CR-PC.3"),
    ("dealer mucked my hand", "CR-PC.3"),
    ("unprotected hand killed", "CR-PC.3"),
    ("card protector", "CR-PC.3"),
    # Showing one's own cards.
    ("flashing cards during a hand", "CR-PC.4"),
    ("showed his cards to another player", "RRoP-SD.6"),  # the published rule, cited by CR-PC.4
    # One player to a hand.
    ("one player to a hand", "CR-PC.5"),
    ("soft play", "CR-PC.5"),
    ("spectator giving advice", "CR-PC.5"),
    ("chip dumping", "CR-PC.5"),
    # Fouled and dead hands.
    ("fouled hand", "CR-HD.1"),
    ("dead hand", "CR-HD.1"),
    ("cards touched the muck", "CR-HD.1"),
    ("foul", "CR-HD.1"),
    # At your seat.
    ("not at his seat when the cards were dealt", "CR-HD.2"),
    ("at your seat", "CR-HD.2"),
    ("absent player dealt in", "CR-HD.2"),
    # Colour-ups and the chip race (tournaments/colour_ups.py's procedure), and a cash table's.
    ("colour up", "CR-CU.3"),
    ("color up", "CR-CU.3"),
    ("chip race", "CR-CU.3"),
    ("race off the greens", "CR-CU.3"),
    ("can a player be raced out", "CR-CU.4"),
    ("colour up at a cash table", "CR-CU.5"),
    ("colouring up before cashing out", "CR-CU.5"),
]


@pytest.mark.parametrize(("query", "rule"), SITUATIONS, ids=[q for q, _ in SITUATIONS])
def test_the_floors_words_find_the_house_procedure_first(query: str, rule: str) -> None:
    assert first(query) == rule, [h.rule.citation_id for h in search_rules(query, limit=5)]


def test_every_house_procedure_is_asked_for_several_ways() -> None:
    asked: dict[str, int] = {}
    for _, rule in SITUATIONS:
        asked[rule] = asked.get(rule, 0) + 1
    assert {rule for rule in HOUSE_PROCEDURES if asked.get(rule, 0) < 2} == {"CR-PC.4"}
    assert len({query.lower() for query, _ in SITUATIONS}) == len(SITUATIONS)


def test_the_house_procedures_are_house_rules_citing_what_they_follow(client: Client) -> None:
    rules = Rule.objects.filter(citation_id__in=HOUSE_PROCEDURES)
    assert rules.count() == len(HOUSE_PROCEDURES)
    for rule in rules:
        assert rule.house, rule.citation_id
        assert "This follows" in rule.text, rule.citation_id
    # The engine's procedures are not house rules: their words are what the engine does.
    assert not Rule.objects.get(citation_id="CR-BB.1").house
    html = client.get("/rulebook/CR-PC.1/").content.decode()
    assert "Cardroom's default wording, which the room may edit or replace" in html
    assert "TDA&#x27;s rule on electronic devices and communication (Rule 5)" in html


def test_a_room_edits_a_house_procedure_and_keeps_its_words_when_the_books_reload(
    floor_manager: Any,
) -> None:
    client = Client()
    client.force_login(floor_manager)
    page = client.get("/rulebook/CR-PC.2/").content.decode()
    assert 'href="/rulebook/CR-PC.2/edit/"' in page
    response = client.post(
        "/rulebook/CR-PC.2/edit/",
        {"title": "English or French at the table", "text": "English or French during a hand."},
    )
    assert response.status_code == 302
    call_command("load_rulebook", verbosity=0)
    rule = Rule.objects.get(citation_id="CR-PC.2")
    assert (rule.title, rule.text) == ("English or French at the table",
                                       "English or French during a hand.")  # fmt: skip
    assert rule.house and rule.revisions.count() == 1
    assert "as this room has written it" in Client().get("/rulebook/CR-PC.2/").content.decode()
    assert first("french") == "CR-PC.2"
    # Another room's edit of a second procedure, then the history's rows, as written.
    update_house_rule(rule=Rule.objects.get(citation_id="CR-DL.5"), by=floor_manager,
                      title="Rabbit hunting on request", text="The dealer shows it if asked.")  # fmt: skip
    call_command("load_rulebook", verbosity=0)
    assert Rule.objects.get(citation_id="CR-DL.5").title == "Rabbit hunting on request"


def test_a_question_that_finds_nothing_suggests_sections_and_a_house_rule(
    floor_manager: Any, staff: Any
) -> None:
    assert search_rules("button ante") == []
    sections = closest_sections("button ante")
    assert sections and sections[0].title == "Blinds and the Button"
    manager = Client()
    manager.force_login(floor_manager)
    html = manager.get("/rulebook/", {"q": "button ante"}).content.decode()
    assert "The closest sections" in html and "Blinds and the Button" in html
    assert 'href="/rulebook/house/new/?title=button%20ante"' in html
    form = manager.get("/rulebook/house/new/", {"title": "button ante"}).content.decode()
    assert 'value="button ante"' in form
    # Staff are shown the sections, not the offer to write a rule they may not write.
    reader = Client()
    reader.force_login(staff)
    html = reader.get("/rulebook/", {"q": "button ante"}).content.decode()
    assert "Blinds and the Button" in html and "Write a house rule" not in html
