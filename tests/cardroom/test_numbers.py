"""Numbers for people are grouped by the active locale in one place (cardroom.numbers.grouped),
the way the templates group them, and nowhere by hand."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from cardroom.numbers import grouped, grouped_lazy


def test_the_projects_english_groups_by_thousands_with_commas() -> None:
    assert grouped(0) == "0"
    assert grouped(999) == "999"
    assert grouped(1000) == "1,000"
    assert grouped(2_147_483_647) == "2,147,483,647"
    assert grouped(-1500) == "-1,500"


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en-us", "1,234,567"), ("de", "1.234.567"), ("fr", "1\xa0234\xa0567")],
)
def test_grouping_follows_the_active_locale(language: str, expected: str) -> None:
    with translation.override(language):
        assert grouped(1_234_567) == expected
        assert str(grouped_lazy(1_234_567)) == expected


@pytest.mark.parametrize("language", ["en-us", "de", "fr", "hi"])
@pytest.mark.parametrize("number", [0, 7, 1000, -1000, 123_456_789, 2**53 - 1])
def test_a_message_writes_a_number_as_the_templates_floatformat_0g(
    language: str, number: int
) -> None:
    template = Template('{{ number|floatformat:"0g" }}')
    with translation.override(language):
        assert grouped(number) == template.render(Context({"number": number}))
