"""EPUB books made in memory, for the tests and the benches: one maker of the container, the
package and the table of contents, so that each test writes only the chapters it is about.

Text given here is put in the XML as it is: escape what must be escaped before.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping, Sequence

CONTAINER = (
    '<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
    'version="1.0"><rootfiles><rootfile full-path="{folder}book.opf" '
    'media-type="application/oebps-package+xml"/></rootfiles></container>'
)
XHTML = "application/xhtml+xml"


def chapter(title: str, body: str) -> str:
    """An XHTML chapter: `title` as its title and first heading, then `body` (markup)."""
    return (
        '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head>'
        f"<title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"
    )


def epub(
    chapters: Sequence[str],
    *,
    title: str = "Book",
    contents: Sequence[str] | None = None,
    files: Mapping[str, tuple[str, str]] | None = None,
    folder: str = "OEBPS/",
    deflate: bool = False,
) -> bytes:
    """An EPUB 3 with these XHTML `chapters` in spine order, in `folder` of the zip.

    contents: the table of contents (nav.xhtml), one entry a chapter; None: none.
    files: more files of the package, name -> (media type, text), such as a stylesheet.
    deflate: the entries compressed (as most books are), else stored."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED) as z:
        z.writestr("mimetype", "application/epub+zip")
        z.writestr("META-INF/container.xml", CONTAINER.format(folder=folder))
        items = [f'<item id="c{i}" href="c{i}.xhtml" media-type="{XHTML}"/>' for i in range(len(chapters))]
        items += [
            f'<item id="f{i}" href="{name}" media-type="{kind}"/>'
            for i, (name, (kind, _)) in enumerate((files or {}).items())
        ]
        if contents is not None:
            items.append(f'<item id="nav" href="nav.xhtml" media-type="{XHTML}" properties="nav"/>')
        spine = "".join(f'<itemref idref="c{i}"/>' for i in range(len(chapters)))
        z.writestr(
            f"{folder}book.opf",
            '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
            f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title></metadata>'
            f"<manifest>{''.join(items)}</manifest><spine>{spine}</spine></package>",
        )
        if contents is not None:
            links = "".join(f'<li><a href="c{i}.xhtml">{entry}</a></li>' for i, entry in enumerate(contents))
            z.writestr(
                f"{folder}nav.xhtml",
                f'<html xmlns="http://www.w3.org/1999/xhtml"><body><nav><ol>{links}</ol></nav></body></html>',
            )
        for i, text in enumerate(chapters):
            z.writestr(f"{folder}c{i}.xhtml", text)
        for name, (_, text) in (files or {}).items():
            z.writestr(f"{folder}{name}", text)
    return buf.getvalue()
