"""Every format on documents real tools wrote: title, paragraphs, locators, no boilerplate,
grounded units.

- tests/fixtures/formats: one English and one Chinese document LibreOffice exported to PDF
  (two columns, running header, page numbers, hyphenation), DOCX, EPUB and HTML
  (make_fixtures.py). The expected paragraphs are built from the generator's own source
  lists, never from a reader's output: every format must read the same document.
- tests/fixtures/formats/pages: pages Debian ships (pages/README.md has provenance and
  licences): a Sphinx page and its reStructuredText source, and two pages of libxml2's
  table-layout site with a menu column and a search form.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from core.domain import NO_LOCATOR, SourceDocument
from core.ingest import read_document
from core.services.bootstrap import Services
from core.validation.evidence import quote_in_paragraph

FORMATS = Path(__file__).resolve().parent / "fixtures" / "formats"
PAGES = FORMATS / "pages"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_fixtures", FORMATS / "make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
EN_INTRO = "Notes on spaced repetition for the MemoryRush test suite; see the encyclopedia article."
ZH_INTRO = "关于间隔重复的学习笔记。"
EN_BULLETS = [
    "Stability: days until recall falls to 90 percent.",
    "Difficulty: how hard a card is to stabilise.",
]
ZH_BULLETS = ["稳定性：回忆概率降到百分之九十所需的天数。", "难度：提高稳定性的难易程度。"]
DOCS = {
    # name: (title, intro, sections as written, bullets, running header)
    "notes": ("Forgetting and review", EN_INTRO, GEN.EN_SECTIONS * 2, EN_BULLETS, "MemoryRush test notes"),
    "笔记": ("间隔重复笔记", ZH_INTRO, GEN.ZH_SECTIONS * 3, ZH_BULLETS, "MemoryRush 测试笔记"),
}


def expected(name: str, *, list_as_paragraphs: bool = False) -> list[tuple[str, str, tuple[str, ...]]]:
    """(kind, text, heading path) of every paragraph, from the generator's source lists."""
    title, intro, sections, bullets, _ = DOCS[name]
    out = [("paragraph", intro, (title,))]  # before the first heading: the title's section
    for n, (heading, paragraphs) in enumerate(sections):
        out.append(("heading", heading, (heading,)))
        out += [("paragraph", p, (heading,)) for p in paragraphs]
        if n == 1:  # the generator puts its one list after the second section's paragraphs
            if list_as_paragraphs:
                out += [("paragraph", b, (heading,)) for b in bullets]
            else:
                out.append(("list", "\n".join(f"• {b}" for b in bullets), (heading,)))
    return out


def read(name: str) -> SourceDocument:
    return read_document(FORMATS / name)


def shape(doc: SourceDocument) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(p.kind, p.text, p.locator.section) for p in doc.paragraphs]


def no_boilerplate(doc: SourceDocument, header: str) -> None:
    for p in doc.paragraphs:
        assert header not in p.text, p.text  # the running header
        assert not p.text.strip().isdigit(), p.text  # a page number
        assert p.text.strip() != doc.title  # the title is the title, not a paragraph


@pytest.mark.parametrize("stem", sorted(DOCS))
@pytest.mark.parametrize("suffix", [".docx", ".html", ".pdf"])
def test_a_document_reads_the_same_in_every_format(stem: str, suffix: str) -> None:
    title, *_, header = DOCS[stem]
    doc = read(stem + suffix)
    assert doc.title == title
    assert doc.language == ("zh" if stem == "笔记" else "en")
    assert shape(doc) == expected(stem)  # 34 English paragraphs, 29 Chinese
    no_boilerplate(doc, header)


@pytest.mark.parametrize("stem", sorted(DOCS))
def test_a_pdf_knows_each_paragraphs_page(stem: str) -> None:
    doc = read(stem + ".pdf")
    pages = [p.locator.page for p in doc.paragraphs]
    assert all(isinstance(n, int) for n in pages)
    assert pages == sorted(pages) and pages[0] == 1  # in reading order, page by page
    assert pages[-1] == (4 if stem == "notes" else 2)  # the last page (pdfinfo: 4 and 2 pages)
    assert doc.paragraphs[-1].locator.label().startswith(f"p. {pages[-1]} · ")
    # a paragraph cut by a page end is one paragraph, on the page it starts on
    assert len({p.text for p in doc.paragraphs}) == len({t for _, t, _ in expected(stem)})


def test_an_english_pdf_reads_its_two_columns_in_order_and_joins_hyphenation() -> None:
    doc = read("notes.pdf")
    words = " ".join(p.text for p in doc.paragraphs)
    assert "\x02" not in words and "- " not in words.replace(" - ", "")  # hyphens at line ends joined
    assert "well-timed schedule" in words  # a hyphen that is part of the word stays


@pytest.mark.parametrize("stem", sorted(DOCS))
def test_an_epub_has_its_chapters_in_spine_order(stem: str) -> None:
    """LibreOffice's EPUB writes each heading as a styled paragraph starting a chapter and
    drops list markup (its list items are plain paragraphs): read as what the file holds."""
    title, *_, header = DOCS[stem]
    doc = read(stem + ".epub")
    assert doc.title == title
    assert [(k, t) for k, t, _ in shape(doc)] == [
        (k, t) for k, t, _ in expected(stem, list_as_paragraphs=True)
    ]
    chapters = [p.locator.chapter for p in doc.paragraphs]
    assert chapters[0] == "Section 1"  # the front matter, as the book's table of contents names it
    for p in doc.paragraphs[1:]:
        if p.kind == "heading":
            assert p.locator.chapter == p.text  # each chapter titled from the table of contents
    no_boilerplate(doc, header)


@pytest.mark.parametrize("name", ["notes.docx", "notes.html", "notes.epub"])
def test_emphasis_and_links_are_spans_of_the_reader_text(name: str) -> None:
    """Word's runs, HTML's tags and an EPUB's stylesheet classes all mean the same spans."""
    intro = read(name).paragraphs[0]
    assert intro.text == EN_INTRO
    spans = {(intro.text[s.start : s.end], s.kind, s.href) for s in intro.spans}
    assert ("spaced repetition", "strong", None) in spans
    assert ("MemoryRush", "emphasis", None) in spans
    assert ("the encyclopedia article", "link", "https://en.wikipedia.org/wiki/Spaced_repetition") in spans


def test_a_sphinx_page_is_its_main_text_with_headings_and_code() -> None:
    doc = read_document(PAGES / "blinker-index.html")
    assert doc.title == "Blinker Documentation"
    text = "\n".join(p.text for p in doc.paragraphs)
    for chrome in ("Quick search", "Navigation", "Show Source", "Project Links", "Powered by", "¶"):
        assert chrome not in text, chrome  # the sidebar, the footer, the permalinks
    headings = [p.text for p in doc.paragraphs if p.kind == "heading"]
    assert headings[:3] == ["Decoupling With Named Signals", "Subscribing to Signals", "Emitting Signals"]
    [code] = [p for p in doc.paragraphs if p.text.startswith(">>> from blinker import signal")]
    assert code.kind == "code" and code.locator.section == ("Decoupling With Named Signals",)
    connect = next(p for p in doc.paragraphs if p.text.startswith("Signal.connect() registers"))
    assert ("Signal.connect()", "code") in {(connect.text[s.start : s.end], s.kind) for s in connect.spans}
    assert len(doc.paragraphs) == 169


def test_the_same_page_from_its_restructuredtext_source() -> None:
    """Sphinx's roles and directives read as the built page shows them."""
    doc = read_document(PAGES / "blinker-index.rst")
    assert doc.title == "Blinker Documentation"
    text = "\n".join(p.text for p in doc.paragraphs)
    for source in (":meth:", ":func:", ":class:", "rst-class", "autoclass", ":members:", "code-block"):
        assert source not in text, source
    connect = next(p for p in doc.paragraphs if p.text.startswith("Signal.connect registers"))
    assert connect.locator.section == ("Subscribing to Signals",)
    assert ("Signal.connect", "code") in {(connect.text[s.start : s.end], s.kind) for s in connect.spans}
    assert "signal(name, doc=None)" in [p.text for p in doc.paragraphs]  # a function's signature
    html = read_document(PAGES / "blinker-index.html")
    assert [p.text for p in doc.paragraphs if p.kind == "heading"][:12] == [
        p.text for p in html.paragraphs if p.kind == "heading"
    ][:12]


@pytest.mark.parametrize(
    ("name", "title", "headings"),
    [
        ("libxml2-FAQ.html", "FAQ", ["License(s)", "Installation", "Compilation", "Developer corner"]),
        ("libxml2-encoding.html", "Encodings support", ["What does internationalization support mean ?"]),
    ],
)
def test_a_table_layout_site_loses_its_menus_and_banner(name: str, title: str, headings: list[str]) -> None:
    doc = read_document(PAGES / name)
    assert doc.title == title
    text = "\n".join(p.text for p in doc.paragraphs)
    for chrome in (
        "Main Menu",
        "Related links",
        "Action against software patents",
        "Search ...",
        "Gnome2 Logo",
    ):
        assert chrome not in text, chrome
    assert "The XML C parser and toolkit of Gnome" not in text  # the site's banner heading
    found = [p.text for p in doc.paragraphs if p.kind == "heading"]
    assert found[: len(headings)] == headings
    assert all(p.locator.section[:1] != ("The XML C parser and toolkit of Gnome",) for p in doc.paragraphs)
    assert "Daniel Veillard" not in text  # the page's signature is a mailto link: furniture too


def test_every_format_imports_with_grounded_units(services: Services) -> None:
    """`memoryrush import` on a folder of every format: each reported, each with units whose
    quotes are exact spans of their paragraphs."""
    files = [FORMATS / f"{stem}{suffix}" for stem in DOCS for suffix in (".pdf", ".docx", ".epub", ".html")]
    files += [PAGES / "blinker-index.html", PAGES / "blinker-index.rst", PAGES / "libxml2-FAQ.html"]
    outcomes = services.library.import_paths(files, extractor="offline")
    assert [o.status for o in outcomes] == ["imported"] * len(files), [o.message for o in outcomes]
    for outcome in outcomes:
        assert outcome.article_id is not None
        units = services.library.units(outcome.article_id)
        assert units, outcome.path
        for unit in units:
            for e in unit.evidence:
                para = services.library.paragraph(outcome.article_id, e.paragraph_id)
                assert para is not None and quote_in_paragraph(e.quote, para.text), (outcome.path, e)
                assert (e.locator or NO_LOCATOR) == para.locator  # units carry where their quotes sit
    pdf_units = services.library.units(outcomes[0].article_id)
    assert all(e.locator is not None and e.locator.page for u in pdf_units for e in u.evidence)
