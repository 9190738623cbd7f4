"""Importing a room's rulebook: each rule gets its citation id and permalink; a new edition
marks what it added, changed and removed, keeps the old one readable and never breaks a
citation a ruling uses; the command does what the page does; bundled books are not touched."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import Client

from rules.imports import SourceFile, compare, confirm_import, save_edition, stage_import
from rules.models import BookKind, Rule, Rulebook, RulebookEdition, RuleVersion
from rules.rulebook_files import parse_rulebook_file
from rules.search import resolve_citation, search_rules
from tests.rules.pdf_files import pdf_of

pytestmark = pytest.mark.django_db

EDITION_2025 = """Riverside Card Club Rules

Section 1 - General
Rule 1: Floor People
The floor person on duty decides every dispute at the table.
Rule 2: Phones at the Table
A player may not talk on a phone at the table while holding cards.
Rule 3: Foreign Languages
Only English is spoken during a hand.

Section 2 - Dealing
Rule 4: Misdeals
Two cards exposed by the dealer in the deal make a misdeal.
Example 1: The dealer flips seat 3's first card and seat 6's second card. Misdeal.
"""

EDITION_2026 = """Riverside Card Club Rules

Section 1 - General
Rule 1: Floor People
The floor person on duty decides every dispute at the table.
Rule 2: Phones at the Table
A player may not use a phone or any device at the table while holding cards.

Section 2 - Dealing
Rule 4: Misdeals
Two cards exposed by the dealer in the deal make a misdeal.
Example 1: The dealer flips seat 3's first card and seat 6's second card. Misdeal.
Rule 5: Boxed Cards
A card face up in the deck is a scrap of paper and is replaced.
"""


def save(text: str, label: str, *, name: str = "rules.txt", by: Any = None) -> RulebookEdition:
    data = text.encode()
    found, book = parse_rulebook_file(name, data)
    return save_edition(
        book=book, code="RIVER", title="Riverside Rules", label=label,
        source=SourceFile.of(name, data, found), by=by,
    )  # fmt: skip


def test_each_rule_gets_a_citation_id_a_permalink_and_is_found_by_search() -> None:
    edition = save(EDITION_2025, "2025")
    assert (edition.number, edition.added, edition.changed, edition.removed) == (1, 4, 0, 0)
    book = Rulebook.objects.get(code="RIVER")
    assert (book.kind, book.edition, book.order) == (BookKind.IMPORTED, "2025", 0)
    assert list(book.rules.values_list("citation_id", flat=True)) == [
        "RIVER-1", "RIVER-2", "RIVER-3", "RIVER-4"
    ]  # fmt: skip
    misdeal = Rule.objects.get(citation_id="RIVER-4")
    assert misdeal.section.title == "Dealing"
    assert misdeal.examples.get().title == "Example 1"
    assert misdeal.get_absolute_url() == "/rulebook/RIVER-4/"
    response = Client().get("/rulebook/RIVER-4/")
    assert response.status_code == 200
    assert "Two cards exposed by the dealer" in response.text
    # Search reaches the new words, and "RIVER 4" is a citation.
    assert search_rules("phone at the table")[0].rule.citation_id == "RIVER-2"
    assert [hit.rule.citation_id for hit in search_rules("river 4")][:1] == ["RIVER-4"]
    assert [hit.rule.citation_id for hit in search_rules("RIVER-3")][:1] == ["RIVER-3"]


def test_a_new_edition_marks_what_changed_and_keeps_cited_and_old_rules_readable(
    director: Any,
) -> None:
    from cardroom.rulings.services import log_ruling
    from tests.factories import make_table

    save(EDITION_2025, "2025")
    ruling = log_ruling(
        table=make_table(number=9), director=director, seats=[3],
        situation="Seat 3 answered her phone and spoke Spanish with seat 5 during a hand.",
        decision="Warned.", citations=[("RIVER-2", ""), ("RIVER-3", "")],
    )  # fmt: skip
    data = EDITION_2026.encode()
    _, book = parse_rulebook_file("rules-2026.txt", data)
    assert compare("RIVER", book).counts == {
        "added": 1, "changed": 1, "removed": 1, "unchanged": 2
    }  # fmt: skip
    second = save(EDITION_2026, "2026", name="rules-2026.txt")
    assert (second.number, second.added, second.changed, second.removed, second.unchanged) == (
        2, 1, 1, 1, 2,
    )  # fmt: skip
    changes = dict(second.versions.values_list("rule__citation_id", "change"))
    assert changes == {
        "RIVER-1": "unchanged", "RIVER-2": "changed", "RIVER-3": "removed",
        "RIVER-4": "unchanged", "RIVER-5": "added",
    }  # fmt: skip
    # The withdrawn rule keeps its row, its id and its page: the ruling still cites it.
    english = resolve_citation("RIVER-3")
    assert english is not None and english.withdrawn
    assert [c.rule_id for c in ruling.citations.order_by("order")] == ["RIVER-2", "RIVER-3"]
    assert Client().get("/rulebook/RIVER-3/").status_code == 200
    assert not [h for h in search_rules("English") if h.rule.citation_id == "RIVER-3"]
    # The rule as it now reads, and as the first edition had it.
    phones = Rule.objects.get(citation_id="RIVER-2")
    assert "any device" in phones.text
    old = RuleVersion.objects.get(rule=phones, edition__number=1)
    assert old.text == "A player may not talk on a phone at the table while holding cards."
    page = Client().get("/rulebook/RIVER-2/?edition=1")
    assert '<div class="rule-text"><p>A player may not talk on a phone' in page.text
    assert "<del>talk on</del> <ins>use</ins> a phone <ins>or any device</ins>" in page.text
    # Importing the first file again brings rule 3 back as current (added again).
    third = save(EDITION_2025, "2025 reprint")
    assert (third.added, third.changed, third.removed) == (1, 1, 1)
    assert not Rule.objects.get(citation_id="RIVER-3").withdrawn
    assert Rule.objects.get(citation_id="RIVER-5").withdrawn


def test_a_pdf_edition_is_imported_like_a_text_one() -> None:
    pages = [
        ["Section 1 - General", "Rule 1: Floor People", "The floor person on duty decides."],
        ["Rule 2: Chip Race", "Odd chips are raced off at the colour-up.",
         "Example 1: Seats 2 and 5 each have one green chip left."],
    ]  # fmt: skip
    edition = save_edition(
        book=parse_rulebook_file("r.pdf", pdf_of(pages))[1], code="RIVER", title="Riverside",
        label="2025", source=SourceFile("r.pdf", "pdf", "0" * 64, 2), by=None,
    )  # fmt: skip
    assert (edition.file_kind, edition.pages, edition.added) == ("pdf", 2, 2)
    assert Rule.objects.get(citation_id="RIVER-2").examples.count() == 1


def test_the_code_and_edition_are_checked(floor_manager: Any) -> None:
    from django.core.management import call_command as run

    run("load_rulebook", verbosity=0)
    for code, says in (
        ("TDA", "comes with Cardroom"),
        ("house", "HOUSE holds the house rules"),
        ("9LIVES", "letters and digits"),
        ("RIVERSIDECLUB", "10 at most"),
    ):
        with pytest.raises(ValidationError, match=says):
            stage_import(by=floor_manager, name="r.txt", data=b"1. A rule.", code=code, label="1")
    save(EDITION_2025, "2025")
    with pytest.raises(ValidationError, match="already has an edition 2025"):
        stage_import(by=floor_manager, name="r.txt", data=b"1. A.", code="river", label="2025")
    with pytest.raises(ValidationError, match="Name the edition"):
        stage_import(by=floor_manager, name="r.txt", data=b"1. A.", code="RIVER", label=" ")


def test_a_preview_is_saved_once_however_often_it_is_confirmed(floor_manager: Any) -> None:
    draft = stage_import(
        by=floor_manager, name="rules.txt", data=EDITION_2025.encode(), code="RIVER",
        label="2025", title="",
    )  # fmt: skip
    assert draft.title == "Riverside Card Club Rules"  # the file's own title
    assert not Rulebook.objects.filter(code="RIVER").exists()  # nothing saved by a preview
    first = confirm_import(draft=draft, by=floor_manager)
    again = confirm_import(draft=draft, by=floor_manager)
    assert first.pk == again.pk and RulebookEdition.objects.count() == 1
    assert first.imported_by == floor_manager


def test_the_command_previews_and_saves_a_room_file(tmp_path: Any, capsys: Any) -> None:
    path = tmp_path / "house.md"
    path.write_text(
        "# Harbour Rules\n\n## Section 1 – Conduct\n\n### Rule 1: English only\n\n"
        "English only at the table during a hand.\n"
    )
    call_command("load_rulebook", str(path), code="HARB", edition="v1", dry_run=True)
    assert "1 sections, 1 rules, 0 sub-rules" in capsys.readouterr().out
    assert not Rulebook.objects.filter(code="HARB").exists()
    call_command("load_rulebook", str(path), code="HARB", edition="v1")
    assert "Saved HARB edition v1 (1)." in capsys.readouterr().out
    assert Rule.objects.get(citation_id="HARB-1").title == "English only"
    with pytest.raises(CommandError, match="needs --code"):
        call_command("load_rulebook", str(path))
    with pytest.raises(CommandError, match="already has an edition v1"):
        call_command("load_rulebook", str(path), code="HARB", edition="v1")


# --- the import page -------------------------------------------------------------------------


def upload(client: Client, data: bytes, name: str = "rules.txt", **fields: str) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    values = {"code": "RIVER", "edition": "2025", "title": "", **fields}
    return client.post(
        "/rulebook/import/", {**values, "file": SimpleUploadedFile(name, data)}, follow=False
    )


def test_the_page_reads_the_file_previews_it_and_saves_it_on_confirmation(
    floor_manager: Any,
) -> None:
    client = Client()
    client.force_login(floor_manager)
    assert client.get("/rulebook/import/").status_code == 200
    pdf = pdf_of([EDITION_2025.splitlines()[2:9], EDITION_2025.splitlines()[9:]])
    response = upload(client, pdf, name="river.pdf")
    assert response.status_code == 302
    preview_url = response["Location"]
    assert preview_url.startswith("/rulebook/import/")
    page = client.get(preview_url).content.decode()
    assert "Nothing is saved yet" in page
    assert "<dt>Rules</dt><dd>4</dd>" in page and "<dt>Examples</dt><dd>1</dd>" in page
    assert "RIVER-1</span> <strong>Floor People</strong>" in page
    assert not Rulebook.objects.filter(code="RIVER").exists()
    saved = client.post(preview_url)
    edition = RulebookEdition.objects.get()
    assert saved["Location"] == "/rulebook/editions/RIVER/1/"
    assert (edition.file_kind, edition.pages, edition.added) == ("pdf", 2, 4)
    assert "4 added, 0 changed" in client.get(saved["Location"]).content.decode()
    # The next edition's preview says what it changes before it is saved.
    response = upload(client, EDITION_2026.encode(), edition="2026")
    page = client.get(response["Location"]).content.decode()
    assert (
        "<strong>1</strong> added, <strong>1</strong> changed, <strong>1</strong> removed" in page
    )
    assert "RIVER-3</span> Foreign Languages" in page  # listed under Removed


def test_the_page_refuses_a_bad_file_with_a_form_error(
    floor_manager: Any, monkeypatch: Any
) -> None:
    client = Client()
    client.force_login(floor_manager)
    monkeypatch.setattr("rules.forms.MAX_BYTES", 1000)
    response = upload(client, b"1. A rule.\n" * 200)
    assert response.status_code == 422
    assert "the most the import reads is" in response.content.decode()
    response = upload(client, b"%PDF-1.4 not really", name="rules.pdf")
    assert response.status_code == 422 and "The PDF cannot be read" in response.content.decode()
    response = upload(client, b"1. A rule.", code="TDA")
    assert response.status_code == 422 and "comes with Cardroom" in response.content.decode()
    response = upload(client, b"1. A rule.", name="rules.docx")
    assert (
        response.status_code == 422 and "Upload the rulebook as a PDF" in response.content.decode()
    )
    assert not Rulebook.objects.filter(code="RIVER").exists()


def test_an_expired_or_unknown_preview_sends_the_manager_back_to_upload(
    floor_manager: Any,
) -> None:
    client = Client()
    client.force_login(floor_manager)
    response = client.post("/rulebook/import/no-such-token/")
    assert response.status_code == 302 and response["Location"] == "/rulebook/import/"
    assert not RulebookEdition.objects.exists()
