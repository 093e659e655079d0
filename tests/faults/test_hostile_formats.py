"""Markup and escape payloads inside web pages, EPUBs and PDFs: their text, titles, link
targets, alt text and stylesheet classes stay data.

Each reader turns a document into reader text and spans; the payloads must come out as
literal text (the CLI writes no control byte, the app shows "[@click=app.quit]" and a click
on it runs nothing), and a link's target never becomes a link or a style.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from core.ingest import read_document
from sample_articles.epub import epub

from .helpers import CONTROL_RE, ESCAPES, MARKUP, PAYLOAD, run_mr, run_mr_bytes, write

HTML_PAYLOAD = PAYLOAD.replace("\x1b", "&#27;").replace("\x07", "&#7;").replace("<", "&lt;")


def hostile_html() -> str:
    return (
        f"<html><head><title>Page {HTML_PAYLOAD}</title></head><body><main>"
        f"<h1>Heading {MARKUP}</h1>"
        f"<p>Text {HTML_PAYLOAD} with <em>[bold red]em[/]</em> and "
        f'<a href="javascript:alert(1)">[@click=app.quit]link-text[/]</a> and '
        f'<img alt="alt {MARKUP}" src="x.png"> end of a long enough paragraph.</p>'
        f"<p>Second paragraph {MARKUP} for the extractor to quote from as well.</p>"
        "</main></body></html>"
    )


def hostile_epub() -> bytes:
    """An EPUB 3 whose title, table of contents, chapter and stylesheet carry payloads."""
    # XML cannot hold control characters: the markup and the shell payloads go in
    x = CONTROL_RE.sub("", PAYLOAD).replace("&", "&amp;").replace("<", "&lt;")
    chapter = (
        '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
        f"<head><title>{x}</title></head><body><h1>Chapter {x}</h1>"
        f'<p><span class="b">{x}</span> and <a href="javascript:x()">{x}</a> in a long paragraph.</p>'
        f"<p>Another paragraph with {x} in it for the extractor.</p></body></html>"
    )
    return epub(
        [chapter],
        title=f"Book {x}",
        contents=[f"TOC {x}"],
        files={"s.css": ("text/css", ".b { font-weight: bold } ." + "x" * 50 + "{ }")},
    )


def hostile_pdf() -> bytes:
    """A one-page PDF (standard Helvetica) whose text and Info title carry payloads: the
    title with raw ESC/BEL bytes, the page text with markup."""
    title = "Evil \\033]2;PWNED-PDF\\007 " + MARKUP.replace("(", "").replace(")", "")
    lines = [f"Text {MARKUP} in a PDF paragraph", "that the reader must show literally."]
    stream = "BT /F1 11 Tf 72 720 Td 14 TL " + " ".join(f"({line}) '" for line in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Title ({title}) >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(f"{n} 0 obj\n{body}\nendobj\n".encode("latin-1"))
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for off in offsets:
        out.write(f"{off:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out.getvalue()


@pytest.fixture
def documents(inputs: Path) -> list[Path]:
    return [
        write(inputs / "evil[@click=app.quit].html", hostile_html()),
        write(inputs / "evil.epub", hostile_epub()),
        write(inputs / "evil.pdf", hostile_pdf()),
    ]


def test_readers_keep_payloads_as_plain_text_and_spans_as_ours(documents: list[Path]) -> None:
    for path in documents:
        doc = read_document(path)
        assert doc.paragraphs, path
        text = "\n".join(p.text for p in doc.paragraphs)
        assert "[@click=app.quit]" in text or "[@click=app.quit]" in doc.title, path
        # stored as data already: each control character one U+FFFD (plain text's rule)
        assert not CONTROL_RE.search(text) and not CONTROL_RE.search(doc.title), path
        for p in doc.paragraphs:
            for s in p.spans:
                assert s.kind in {"emphasis", "strong", "code", "link", "image", "strike"}
                assert 0 <= s.start < s.end <= len(p.text)


@pytest.mark.parametrize(
    "command", [["list"], ["show", "1"], ["show", "2"], ["show", "3"], ["search", "click-me"]]
)
def test_the_cli_writes_no_control_byte_from_any_format(
    home: Path, documents: list[Path], command: list[str]
) -> None:
    imported = run_mr(home, "import", *map(str, documents), "--extractor", "placeholder")
    assert imported.returncode == 0, imported.stderr
    result = run_mr_bytes(home, *command)
    assert result.returncode == 0, result.stderr
    for stream in (result.stdout, result.stderr):
        bad = CONTROL_RE.findall(stream.decode("utf-8").replace("\r\n", "\n"))
        assert bad == [], f"control characters reached the terminal: {bad!r}"
    assert "[@click=app.quit]" in result.stdout.decode()
    assert ESCAPES not in result.stdout.decode()


def test_clicking_payloads_of_every_format_in_the_app_runs_nothing(home: Path, documents: list[Path]) -> None:
    """Each article opened in the app: the payload shows as text (in the reader, styled spans
    and all), and clicks on it run no action."""
    from .app_driver import run_app, screen_text, settle

    assert run_mr(home, "import", *map(str, documents), "--extractor", "placeholder").returncode == 0

    async def body(app, pilot) -> None:  # type: ignore[no-untyped-def]
        for article_id in (1, 2, 3):
            app.open_article(article_id)
            await settle(pilot)
            shown = screen_text(app)
            assert "[@click=app.quit]" in shown, article_id
            for y, line in enumerate(shown.splitlines()):
                x = line.find("[@click")
                if x >= 0:
                    for dx in range(0, 12, 3):
                        await pilot.click(offset=(x + dx, y))
                    await pilot.pause()
                    assert app.is_running, f"a click on article {article_id}'s payload ran an action"
            await pilot.press("escape")
            await settle(pilot)

    run_app(home, body)
    assert not Path("/tmp/mr-pwned").exists()
