"""Numbers for people are grouped by the active locale in one place (cardroom.core.numbers.grouped),
the way the templates group them, and nowhere by hand."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from cardroom.core.numbers import grouped, grouped_lazy
from cardroom.tables.desk import STACK_ERROR
from cardroom.tables.forms import WholeNumberField

ROOT = Path(__file__).resolve().parent.parent.parent
#: The code that writes for people. bench/ prints figures for engineers; the pure engine and
#: draws are scanned too: their messages give plain digits, the edges group them.
FOLDERS = ("cardroom", "rules", "tournaments")


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


def test_messages_built_when_a_module_loads_are_written_in_the_locale_shown() -> None:
    field = WholeNumberField(min_value=100, max_value=20_000, unit=" chips")
    assert str(STACK_ERROR) == "A stack is at most 2,147,483,647 chips."
    assert str(field.error_messages["max_value"]) == "At most 20,000 chips."
    with translation.override("de"):
        assert str(STACK_ERROR) == "A stack is at most 2.147.483.647 chips."
        assert str(field.error_messages["min_value"]) == "At least 100 chips."
        assert str(field.error_messages["max_value"]) == "At most 20.000 chips."


def _spec_groups(spec: str) -> bool:
    """A format spec with a grouping option: ``,`` or ``_`` (``{:,}``, ``{:_d}``, ``{:>12,}``)."""
    return "," in spec or "_" in spec


def hand_made_grouping(source: str) -> list[tuple[int, str]]:
    """Each place a module groups digits itself: an f-string's ``:,``, ``"{:,}".format``,
    ``format(x, ",")``, or the C library's ``locale`` (the process's locale, not the request's)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FormattedValue) and isinstance(node.format_spec, ast.JoinedStr):
            spec = "".join(
                part.value
                for part in node.format_spec.values
                if isinstance(part, ast.Constant) and isinstance(part.value, str)
            )
            if _spec_groups(spec):
                found.append((node.lineno, f"f-string spec {spec!r}"))
        elif isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr in {"format", "format_map"}
                and isinstance(func.value, ast.Constant)
                and isinstance(func.value.value, str)
            ):
                specs = [s for _, _, s, _ in string.Formatter().parse(func.value.value) if s]
                if any(_spec_groups(spec) for spec in specs):
                    found.append((node.lineno, f"{func.value.value!r}.{func.attr}"))
            elif (
                isinstance(func, ast.Name)
                and func.id == "format"
                and len(node.args) == 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and _spec_groups(node.args[1].value)
            ):
                found.append((node.lineno, f"format(…, {node.args[1].value!r})"))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            if "locale" in names:
                found.append((node.lineno, "import locale"))
    return sorted(found)


def test_the_scan_finds_each_way_of_grouping_by_hand() -> None:
    source = (
        "import locale\n"
        'a = f"{n:,}"\n'
        'b = f"{n:>12_d}"\n'
        'c = "{:,}".format(n)\n'
        'd = format(n, ",")\n'
        'e = f"{n:{width},}"\n'
        'fine = f"{n:>5}" + "{}".format(n) + f"{grouped(n)}"\n'
    )
    assert [line for line, _ in hand_made_grouping(source)] == [1, 2, 3, 4, 5, 6]


def test_no_number_is_grouped_by_hand() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, what in hand_made_grouping(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "group numbers with cardroom.core.numbers.grouped:\n" + "\n".join(found)
