"""A room's rulebook file as words: a PDF (its text layer, read with pypdf), a Markdown file or
plain text; bounded in size, and refused with a sentence a floor manager can act on.

pypdf reads PDFs in pure Python (no system library to install beside it) and is maintained
by the py-pdf project; only its text extraction is used. A PDF's pages come with their
furniture: a running header or footer repeated on most pages and the page numbers are left
out here, so that they do not end up inside the rule that runs across the page break.
"""

from __future__ import annotations

import io
import logging
from collections import Counter
from dataclasses import dataclass
from pathlib import PurePath

from pypdf import PdfReader

from cardroom.core.numbers import grouped
from rules.rulebook_text import ParsedBook, RulebookTextError, parse_rulebook

#: The largest file the import reads (a 200-page rulebook PDF is usually 1 to 3 MB).
MAX_BYTES = 10 * 1024 * 1024
MAX_PAGES = 600
#: The most text one file may give (about 600 pages of rules).
MAX_CHARS = 3_000_000

PDF, MARKDOWN, TEXT = "pdf", "markdown", "text"
KINDS = {
    ".pdf": PDF,
    ".md": MARKDOWN,
    ".markdown": MARKDOWN,
    ".txt": TEXT,
    ".text": TEXT,
}
KIND_NAMES = {PDF: "PDF", MARKDOWN: "Markdown", TEXT: "plain text"}


class RulebookFileError(ValueError):
    """A file the import cannot read; the message says why and what to do."""


@dataclass(frozen=True)
class RulebookFile:
    kind: str
    text: str
    pages: int = 0


def kind_of(name: str, data: bytes) -> str:
    suffix = PurePath(name).suffix.lower()
    if suffix in KINDS:
        return KINDS[suffix]
    if data.startswith(b"%PDF-"):
        return PDF
    raise RulebookFileError(
        "Upload the rulebook as a PDF (.pdf), a Markdown file (.md) or plain text (.txt)."
    )


def read_rulebook_file(name: str, data: bytes) -> RulebookFile:
    """The file's words, by its kind (its name's ending, else a PDF's signature)."""
    if len(data) > MAX_BYTES:
        raise RulebookFileError(
            f"The file is {len(data) / 1024 / 1024:.1f} MB; the most the import reads is "
            f"{MAX_BYTES // 1024 // 1024} MB."
        )
    if not data.strip():
        raise RulebookFileError("The file is empty.")
    kind = kind_of(name, data)
    if kind == PDF:
        return pdf_text(data)
    return RulebookFile(kind, decode_text(data))


def decode_text(data: bytes) -> str:
    if b"\x00" in data[:4096]:
        raise RulebookFileError("This is not a text file: upload the PDF, or save it as text.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")  # a file saved by an older Windows editor
    if len(text) > MAX_CHARS:
        raise RulebookFileError(f"The file holds more than {grouped(MAX_CHARS)} characters.")
    return text


def pdf_text(data: bytes) -> RulebookFile:
    # pypdf warns through logging about every oddity of a PDF it still reads.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise RulebookFileError(
                "The PDF is protected by a password: save an unprotected copy and upload that."
            )
        if len(reader.pages) > MAX_PAGES:
            raise RulebookFileError(f"The PDF has more than {MAX_PAGES} pages.")
        pages: list[list[str]] = []
        total = 0
        for page in reader.pages:
            text = page.extract_text() or ""
            total += len(text)
            if total > MAX_CHARS:
                raise RulebookFileError(f"The PDF holds more than {grouped(MAX_CHARS)} characters.")
            pages.append(text.splitlines())
    except RulebookFileError:
        raise
    except Exception as exc:
        # A damaged or unusual PDF fails anywhere inside pypdf, with many exception types
        # (its own, and ValueError, KeyError, struct and zlib errors): all are the file's.
        raise RulebookFileError(f"The PDF cannot be read ({type(exc).__name__}).") from exc
    if not any(line.strip() for page in pages for line in page):
        raise RulebookFileError(
            "The PDF has no text to read (a scan is only pictures of pages): upload the "
            "rulebook's own PDF, or its text."
        )
    return RulebookFile(PDF, "\n".join(without_furniture(pages)), pages=len(pages))


def without_furniture(pages: list[list[str]], edge: int = 2) -> list[str]:
    """The pages' lines without a running header or footer: a line among the first or last
    ``edge`` lines of most pages (digits aside, so "Page 3" and "Page 4" are one line)."""
    if len(pages) < 3:
        return [line for page in pages for line in page]

    def key(line: str) -> str:
        return "".join(ch for ch in line.strip().lower() if not ch.isdigit())

    edges = Counter(
        key(line) for page in pages for line in {*page[:edge], *page[-edge:]} if line.strip()
    )
    running = {text for text, seen in edges.items() if seen >= max(3, len(pages) // 2)}
    lines: list[str] = []
    for page in pages:
        for index, line in enumerate(page):
            at_edge = index < edge or index >= len(page) - edge
            if not (at_edge and key(line) in running):
                lines.append(line)
    return lines


def parse_rulebook_file(name: str, data: bytes) -> tuple[RulebookFile, ParsedBook]:
    """Read a file and find its rules; ``RulebookFileError`` says why a file is refused."""
    found = read_rulebook_file(name, data)
    try:
        book = parse_rulebook(
            found.text, markdown=found.kind == MARKDOWN, wrapped=found.kind == PDF
        )
    except RulebookTextError as exc:
        raise RulebookFileError(str(exc)) from exc
    return found, book
