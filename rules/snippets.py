"""Search snippets: about ``SNIPPET_WORDS`` words of a rule around the query's matches, the
rule's words HTML-escaped and the matches wrapped in ``<mark>`` (``rules.search`` finds them);
and the words one edition of a rule changed, as ``<del>`` and ``<ins>``."""

import bisect
import difflib
import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from rules.models import Rule

#: Snippet markers: control characters survive HTML escaping, then become <mark>.
START, STOP = "\x02", "\x03"
MARKED = re.compile(f"{START}([^{START}{STOP}]*){STOP}")
SNIPPET_WORDS = 30


def highlight(raw: str) -> SafeString:
    """Escape everything first, then turn matched marker pairs into <mark>: whatever the rule
    text or the query holds, no HTML gets through."""
    safe = MARKED.sub(r"<mark>\1</mark>", escape(raw)).replace(START, "").replace(STOP, "")
    return mark_safe(safe)  # noqa: S308 - built from escaped text and our own tags


def snippet(rule: Rule, anything: re.Pattern[str] | None) -> SafeString:
    """About ``SNIPPET_WORDS`` words of the rule's text (else of its examples) around the most
    matches, the matches marked; the text's opening words when neither matches."""
    for text in (rule.text, rule.examples_text):
        text = text.replace(START, "").replace(STOP, "")
        found = anything.finditer(text) if anything is not None else ()
        if spans := [m.span() for m in found if m.end() > m.start()]:
            return highlight(_window(text, spans))
    return plain_snippet(rule.text or rule.examples_text)


def _window(text: str, spans: list[tuple[int, int]]) -> str:
    words = [m.span() for m in re.finditer(r"\S+", text)]
    starts = [start for start, _ in words]
    hit_words = sorted({bisect.bisect_right(starts, start) - 1 for start, _ in spans})
    # The window of SNIPPET_WORDS words holding the most matched words, a few words of
    # context before the first of them.
    best, first = -1, 0
    for index in hit_words:
        begin = max(0, index - 4)
        count = bisect.bisect_left(hit_words, begin + SNIPPET_WORDS) - bisect.bisect_left(
            hit_words, begin
        )
        if count > best:
            best, first = count, begin
    last = min(len(words), first + SNIPPET_WORDS) - 1
    cut_from, cut_to = words[first][0], words[last][1]
    marked, at = [], cut_from
    for start, end in spans:
        start, end = max(start, at), min(end, cut_to)
        if start >= end:
            continue
        marked += [text[at:start], START, text[start:end], STOP]
        at = end
    marked.append(text[at:cut_to])
    body = " ".join("".join(marked).split())
    return ("… " if first else "") + body + (" …" if last < len(words) - 1 else "")


def plain_snippet(text: str, words: int = 30) -> SafeString:
    parts = text.replace(START, "").replace(STOP, "").split()
    tail = "…" if len(parts) > words else ""
    return mark_safe(escape(" ".join(parts[:words])) + tail)  # noqa: S308 - escaped


#: A rule's two wordings longer than this are not compared word by word.
MAX_DIFF_WORDS = 5000


def word_diff(old: str, new: str) -> SafeString:
    """``new`` with the words it dropped from ``old`` in ``<del>`` and those it added in
    ``<ins>``, escaped; paragraphs kept."""
    before, after = re.findall(r"\S+|\n", old), re.findall(r"\S+|\n", new)
    if len(before) + len(after) > MAX_DIFF_WORDS:
        return mark_safe(escape(new))  # noqa: S308 - escaped
    parts: list[str] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in {"replace", "delete"}:
            parts.append("<del>" + escape(" ".join(before[i1:i2])) + "</del>")
        if tag in {"replace", "insert"}:
            parts.append("<ins>" + escape(" ".join(after[j1:j2])) + "</ins>")
        if tag == "equal":
            parts.append(escape(" ".join(after[j1:j2])))
    html = " ".join(parts).replace(" \n ", "<br>").replace("\n", "<br>")
    return mark_safe(html)  # noqa: S308 - built from escaped words and our own tags
