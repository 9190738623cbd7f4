"""Rulebook forms: the search box with its filters, a house rule's words, and a room's rulebook
file to import."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.urls import reverse

from cardroom.core.parsers import whole_number
from rules.models import Rulebook, Section
from rules.rulebook_files import MAX_BYTES
from rules.search import MAX_QUERY
from rules.services import HOUSE_NUMBER_ERROR, MAX_HOUSE_NUMBER


class SearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=MAX_QUERY, label="Search the rulebook")
    book = forms.ChoiceField(required=False, label="Book")
    section = forms.ChoiceField(required=False, label="Section")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        books = list(Rulebook.objects.values_list("code", "title"))
        book_field = cast(forms.ChoiceField, self.fields["book"])  # declared just above
        section_field = cast(forms.ChoiceField, self.fields["section"])
        book_field.choices = [("", "All books"), *books]
        sections = Section.objects.select_related("rulebook").order_by("rulebook__order", "order")
        section_field.choices = [
            ("", "All sections"),
            *((s.code, f"{s.rulebook.code} · {s.title}") for s in sections),
        ]
        # A filter changed re-runs the search in place, like typing does.
        for name in ("book", "section"):
            self.fields[name].widget.attrs.update({
                "hx-get": reverse("rules:search"), "hx-target": "#results",
                "hx-swap": "outerHTML", "hx-include": "closest form", "hx-replace-url": "true",
            })  # fmt: skip

    def values(self) -> tuple[str, str, str]:
        """The query and filters, blank when not given (or not valid)."""
        if not self.is_bound:
            return "", "", ""
        self.is_valid()  # an unknown book or section is dropped, the words are kept
        data = self.cleaned_data
        return data.get("q", "").strip(), data.get("book", ""), data.get("section", "")


class HouseRuleForm(forms.Form):
    title = forms.CharField(max_length=200)
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 8}))


class NewHouseRuleForm(HouseRuleForm):
    number = forms.CharField(
        required=False, max_length=10, help_text="Leave blank for the next free number."
    )
    field_order = ("number", "title", "text")

    #: ``number=9999999999`` passed the length check and overflowed ``Rule.order`` (a 500).
    MAX_NUMBER = MAX_HOUSE_NUMBER

    def clean_number(self) -> str:
        number: str = self.cleaned_data["number"].strip()
        if number and not 1 <= (whole_number(number) or 0) <= self.MAX_NUMBER:
            raise forms.ValidationError(HOUSE_NUMBER_ERROR)
        return number


class RulebookImportForm(forms.Form):
    """The room's rulebook file and what to call it; read and previewed before it is saved."""

    file = forms.FileField(
        label="Rulebook file",
        help_text=f"A PDF, a Markdown (.md) or a plain-text (.txt) file, "
        f"{MAX_BYTES // 1024 // 1024} MB at most.",
        widget=forms.ClearableFileInput(attrs={"accept": ".pdf,.md,.markdown,.txt,.text"}),
    )
    code = forms.CharField(
        max_length=10,
        help_text="Letters and digits, cited as CODE-12: RIVER-12. "
        "An earlier import's code makes this file its next edition.",
    )
    edition = forms.CharField(max_length=100, help_text="The edition's year or version: 2025, v3.")
    title = forms.CharField(
        max_length=200, required=False, help_text="Leave blank for the file's own title."
    )

    def clean_file(self) -> UploadedFile[bytes]:
        upload: UploadedFile[bytes] = self.cleaned_data["file"]
        if (upload.size or 0) > MAX_BYTES:
            size = (upload.size or 0) / 1024 / 1024
            raise forms.ValidationError(
                f"The file is {size:.1f} MB; the most the import reads is "
                f"{MAX_BYTES // 1024 // 1024} MB."
            )
        return upload
