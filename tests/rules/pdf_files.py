"""Rulebook PDFs written in the tests, byte by byte: pages of text in the standard Helvetica
font, each with a running header and a page number, as a room's rulebook PDF has them."""

from __future__ import annotations


def _escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf_of(
    pages: list[list[str]], *, header: str = "Riverside Card Club Rules", numbered: bool = True
) -> bytes:
    """A valid PDF (catalog, page tree, one content stream a page, a cross-reference table)
    whose text layer is ``pages``, line by line; WinAnsi text, so keep to Latin-1."""
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"",  # the page tree, once the pages are numbered
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    kids = []
    for number, lines in enumerate(pages, start=1):
        footer = [f"Page {number} of {len(pages)}"] if numbered else []
        body = [line for line in (header, *lines, *footer) if line]
        ops = ["BT", "/F1 10 Tf", "12 TL", "50 780 Td"]
        ops += [f"({_escape(line)}) Tj T*" for line in body]
        ops.append("ET")
        stream = "\n".join(ops).encode("cp1252")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        content = len(objects)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for index, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % index + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)
