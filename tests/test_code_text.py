"""Comments and docstrings say what the code does and why, never which tracker issue or tester's
numbered finding asked for it (STYLE.md): a tracker number tells a reader nothing the code does
not, and points at a thread they may never see."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("cardroom", "rules", "tournaments", "bench", "bin", "static", "templates", "tests")
SKIPPED = ("tests/browser/vendor",)

# A tracker number ("issue" and a number, "#" allowed), except a three-digit HTTP status after
# the verb ("the view issues" and a status is not one); a tester's numbered finding ("F" and a
# number in brackets or before a colon, the tester's "finding" or "item" and a number).
TRACKER = re.compile(
    r"\bissues? #?(?![1-5]\d\d\b)\d+\b"
    r"|\bF\d{1,2}\b(?=[),:;]| and F\d| \(|\s*$)"
    r"|\btester['’]s (?:finding|item) \d+",
    re.IGNORECASE | re.MULTILINE,
)
HTML_COMMENTS = re.compile(
    r"{%\s*comment\s*%}(.*?){%\s*endcomment\s*%}|{#(.*?)#}|<!--(.*?)-->", re.DOTALL
)
JS_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.DOTALL)


def python_text(source: str) -> Iterator[tuple[int, str]]:
    """Each comment and docstring of a Python module, with its line."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                yield first.lineno, first.value.value


def pattern_text(source: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    for match in pattern.finditer(source):
        yield source.count("\n", 0, match.start()) + 1, match.group(0)


def code_text(path: Path) -> Iterator[tuple[int, str]]:
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        yield from python_text(source)
    elif path.suffix == ".html":
        yield from pattern_text(source, HTML_COMMENTS)
    else:
        yield from pattern_text(source, JS_COMMENTS)


def project_files() -> list[Path]:
    files: list[Path] = []
    for folder in FOLDERS:
        for suffix in ("py", "html", "js", "css"):
            files.extend((ROOT / folder).rglob(f"*.{suffix}"))
    return sorted(
        path
        for path in set(files)
        if not any(path.relative_to(ROOT).as_posix().startswith(skip) for skip in SKIPPED)
        and not path.name.endswith(".min.js")
    )


def tracker_references(path: Path) -> list[str]:
    found = []
    for line, text in code_text(path):
        for match in TRACKER.finditer(text):
            where = line + text.count("\n", 0, match.start())
            found.append(f"{path.relative_to(ROOT)}:{where}: {match.group(0)!r}")
    return found


def test_no_comment_or_docstring_points_at_a_tracker_issue() -> None:
    found = [reference for path in project_files() for reference in tracker_references(path)]
    assert not found, "Say what the code does instead of naming the issue:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "text",
    [
        "# the desk issues a seat card to the player",
        "# the view issues 404 for a table it does not know, 422 for a bad amount",
        "# no issues found by check --deploy",
        "# seat #3 is the button",
        "# F-key shortcuts: F for fold",
    ],
)
def test_the_check_lets_ordinary_words_through(text: str) -> None:
    assert not TRACKER.search(text)


@pytest.mark.parametrize(
    "text",
    [
        "# issue 20: the waitlists",
        "# (issues 19, 20)",
        "# Issue #25 asked for it",
        "# a folded seat (the tester's F14)",
        "# the buy-in (F8, F16)",
        "# F13: asked with the chip count first",
        "# the tester's finding 1",
    ],
)
def test_the_check_finds_tracker_references(text: str) -> None:
    assert TRACKER.search(text)


def test_every_module_says_what_it_is_for() -> None:
    """STYLE.md: each module opens with a docstring saying what it is for (a migration's says
    what it changes). An empty ``__init__.py`` only makes a package and needs none."""
    missing = [
        str(path.relative_to(ROOT))
        for folder in ("cardroom", "rules", "tournaments", "bench", "bin", "tests")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if not str(path.relative_to(ROOT)).startswith(SKIPPED)
        and "migrations" not in path.parts
        and path.read_text(encoding="utf-8").strip()
        and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not missing, f"Say what these modules are for: {missing}"
