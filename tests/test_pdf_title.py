"""A PDF's title (issue 32, item 1): a specification's title page reads "Shared MIME-info
Database" in large type above "X Desktop Group (http://www.freedesktop.org)", and every later
page repeats the title small as its running header. The title came out as the organisation's
line and the real one was in no paragraph: the title page's own title was taken for the running
header. An organisation or URL line in the document information is not a title either."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_support import TextLine, text_pdf

from core.ingest import read_document

TITLE = "Shared MIME-info Database"
ORG = "X Desktop Group (http://www.freedesktop.org)"
BODY = [
    "Many programs and desktops use the MIME system to represent the types of files.",
    "This specification tries to unify the type-guessing systems used by each desktop.",
    "The database is made up of XML files in the packages directory of each data directory.",
    "Applications read the compiled cache, which update-mime-database writes from them.",
]


def spec(*, info_title: str | None) -> bytes:
    """A title page, then three pages whose running header repeats the title in small type."""
    first = [
        TextLine(TITLE, 24, 740),
        TextLine(ORG, 16, 700),
        TextLine("Version 0.21", 10, 660),
        TextLine(BODY[0], 10, 620),
    ]
    later = [
        [TextLine(TITLE, 8, 770), TextLine(body, 10, 700), TextLine(f"{n}", 8, 40, x=300)]
        for n, body in enumerate(BODY[1:], 2)
    ]
    return text_pdf([first, *later], title=info_title)


@pytest.mark.parametrize("info_title", [None, "", ORG, "www.freedesktop.org", "Red Hat, Inc."])
def test_a_spec_is_titled_by_its_title_page_heading(tmp_path: Path, info_title: str | None) -> None:
    path = tmp_path / "shared-mime-info-spec.pdf"
    path.write_bytes(spec(info_title=info_title))
    doc = read_document(path)
    assert doc.title == TITLE
    texts = [p.text for p in doc.paragraphs]
    assert ORG in texts  # the organisation's line stays, as text of the article
    assert texts.count(TITLE) == 0  # the title is the article's, not a paragraph; the headers are gone
    assert [p.text for p in doc.paragraphs if p.kind == "paragraph"][-3:] == BODY[1:]


def test_a_real_metadata_title_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "spec.pdf"
    path.write_bytes(spec(info_title="The Shared MIME-info Specification"))
    doc = read_document(path)
    assert doc.title == "The Shared MIME-info Specification"
    assert TITLE in [p.text for p in doc.paragraphs]  # the title page's heading, kept as a heading
