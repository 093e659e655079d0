"""EPUB (2 and 3): the chapters in spine order, each titled from the book's table of contents.

Standard library only (zipfile, ElementTree): META-INF/container.xml names the package file,
whose spine orders the chapters and whose nav document (EPUB 3) or NCX (EPUB 2) titles them.
Each chapter's XHTML is read by html_blocks (headings, lists, quotes, images' alt text);
every paragraph's locator carries its chapter and the headings inside it. A book whose
chapters are encrypted (DRM) is refused: MemoryRush does not remove DRM. Font obfuscation,
which only scrambles embedded fonts, is no obstacle.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote
from xml.etree import ElementTree

from core.domain import SourceDocument
from core.domain.errors import RefusedInput
from core.ingest.blocks import Block, Sections, one_line
from core.ingest.document import document_from_blocks
from core.ingest.html_blocks import convert_html, convert_tree
from core.ingest.html_parse import parse_page

_NS = {
    "c": "urn:oasis:names:tc:opendocument:xmlns:container",
    "opf": "http://www.idpf.org/2007/opf",
    "dc": "http://purl.org/dc/elements/1.1/",
    "ncx": "http://www.daisy.org/z3986/2005/ncx/",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "enc": "http://www.w3.org/2001/04/xmlenc#",
}
_FONT_OBFUSCATION = ("http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC")
_XML_ENCODING = re.compile(rb"""^<\?xml[^>]*encoding=["']([A-Za-z0-9_.-]+)""")
_CHAPTER_TYPES = ("application/xhtml+xml", "text/html", "application/xml")
_CSS_RULE = re.compile(r"(?:^|[}\s,])\.([A-Za-z_][\w-]*)\s*\{([^}]*)\}")  # a rule for one class
_BOLD = re.compile(r"font-weight:(?:bold|bolder|[6-9]00)\b")
_CSS_CAP = 1024 * 1024


@dataclass(frozen=True, slots=True)
class _Book:
    zf: zipfile.ZipFile
    opf_dir: str
    title: str | None
    metadata: dict[str, str]
    chapters: list[str]  # zip member names in spine order
    toc: dict[str, str]  # zip member name -> its first table-of-contents title
    class_styles: dict[str, str]  # CSS class -> "strong" / "emphasis" (the book's stylesheets)


def parse_epub(data: bytes, source_path: str, *, max_text: int) -> SourceDocument:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        book = _open_book(zf)
        _refuse_drm(zf, book.chapters)
        notices: list[str] = []
        blocks = _read_chapters(book, max_text, notices)
    except (zipfile.BadZipFile, ElementTree.ParseError, KeyError, EOFError) as exc:
        raise RefusedInput(f"damaged EPUB ({exc}); it could not be read") from None
    return document_from_blocks(
        blocks, source_path, title=book.title, metadata=book.metadata, notices=tuple(notices)
    )


def _xml(zf: zipfile.ZipFile, name: str) -> ElementTree.Element:
    return ElementTree.fromstring(zf.read(name))


def _open_book(zf: zipfile.ZipFile) -> _Book:
    container = _xml(zf, "META-INF/container.xml")
    rootfile = container.find(".//c:rootfile", _NS)
    if rootfile is None or not rootfile.get("full-path"):
        raise RefusedInput("damaged EPUB: META-INF/container.xml names no package file")
    opf_path = rootfile.get("full-path", "")
    opf = _xml(zf, opf_path)
    opf_dir = posixpath.dirname(opf_path)
    manifest: dict[str, tuple[str, str, str]] = {}  # id -> (member, media type, properties)
    for item in opf.findall("opf:manifest/opf:item", _NS):
        href = item.get("href") or ""
        member = posixpath.normpath(posixpath.join(opf_dir, unquote(href.split("#")[0])))
        manifest[item.get("id") or ""] = (member, item.get("media-type") or "", item.get("properties") or "")
    chapters = []
    for ref in opf.findall("opf:spine/opf:itemref", _NS):
        found = manifest.get(ref.get("idref") or "")
        if found and found[1] in _CHAPTER_TYPES and found[0] in zf.NameToInfo:
            chapters.append(found[0])
    metadata = {}
    for key in ("creator", "language", "date", "publisher"):
        value = opf.findtext(f"opf:metadata/dc:{key}", default="", namespaces=_NS).strip()
        if value:
            metadata[key] = value
    title = one_line(opf.findtext("opf:metadata/dc:title", default="", namespaces=_NS)) or None
    nav = next((m for m, _, props in manifest.values() if "nav" in props.split()), None)
    spine = opf.find("opf:spine", _NS)
    ncx = manifest.get(spine.get("toc") or "") if spine is not None else None
    toc = _toc(zf, nav, ncx[0] if ncx else None)
    sheets = [m for m, kind, _ in manifest.values() if kind == "text/css" and m in zf.NameToInfo]
    return _Book(zf, opf_dir, title, metadata, chapters, toc, class_styles(zf, sheets))


def class_styles(zf: zipfile.ZipFile, sheets: list[str]) -> dict[str, str]:
    """Classes a book's stylesheets set bold or italic (word processors' EPUBs style text by
    class, not with <b> and <i>): `.span2 { font-weight: bold }` -> {"span2": "strong"}."""
    out: dict[str, str] = {}
    for sheet in sheets:
        css = zf.read(sheet)[:_CSS_CAP].decode("utf-8", "replace")
        for name, body in _CSS_RULE.findall(css):
            rules = body.lower().replace(" ", "")
            if _BOLD.search(rules):
                out[name] = "strong"
            elif "font-style:italic" in rules or "font-style:oblique" in rules:
                out[name] = "emphasis"
    return out


def _toc(zf: zipfile.ZipFile, nav: str | None, ncx: str | None) -> dict[str, str]:
    """Chapter member -> the first title the table of contents gives it."""
    toc: dict[str, str] = {}
    entries: list[tuple[str, str]] = []  # (href relative to its document, title)
    base = ""
    if nav and nav in zf.NameToInfo:
        base = posixpath.dirname(nav)
        root = _xml(zf, nav)
        for a in root.iter(f"{{{_NS['xhtml']}}}a"):
            entries.append((a.get("href") or "", one_line("".join(a.itertext()))))
    elif ncx and ncx in zf.NameToInfo:
        base = posixpath.dirname(ncx)
        root = _xml(zf, ncx)
        for point in root.iter(f"{{{_NS['ncx']}}}navPoint"):
            label = point.findtext("ncx:navLabel/ncx:text", default="", namespaces=_NS)
            content = point.find("ncx:content", _NS)
            entries.append((content.get("src") or "" if content is not None else "", one_line(label)))
    for href, title in entries:
        member = posixpath.normpath(posixpath.join(base, unquote(href.split("#")[0])))
        if title and member not in toc:
            toc[member] = title
    return toc


def _refuse_drm(zf: zipfile.ZipFile, chapters: list[str]) -> None:
    if "META-INF/encryption.xml" not in zf.NameToInfo:
        return
    root = _xml(zf, "META-INF/encryption.xml")
    for data in root.iter(f"{{{_NS['enc']}}}EncryptedData"):
        method = data.find("enc:EncryptionMethod", _NS)
        if method is not None and method.get("Algorithm") in _FONT_OBFUSCATION:
            continue
        ref = data.find(".//enc:CipherReference", _NS)
        if ref is not None and unquote(ref.get("URI") or "") in chapters:
            raise RefusedInput(
                "this EPUB is DRM-protected (its chapters are encrypted); MemoryRush does not remove "
                "DRM: import a DRM-free copy"
            )


def _read_chapters(book: _Book, max_text: int, notices: list[str]) -> list[Block]:
    """The chapters' blocks in spine order; what a chapter had to say goes to `notices`, named
    by its file in the book."""
    blocks: list[Block] = []
    sections = Sections()
    total = 0
    for n, member in enumerate(book.chapters, 1):
        info = book.zf.getinfo(member)
        total += info.file_size
        if total > max_text * 4:  # markup is a few times the text; a zip bomb is refused unread
            raise RefusedInput(
                "the EPUB's chapters hold more text than max_file_mb allows; raise it in the config"
            )
        html = _decode(book.zf.read(member))
        chapter = book.toc.get(member)
        sections.in_chapter(chapter or f"Chapter {n}")
        converted = _convert(html, sections, book.class_styles, notices, member)
        if chapter is None:  # not in the table of contents: its first heading, else its <title>
            heading = next((b.text for b in converted.blocks if b.kind == "heading"), None)
            chapter = one_line(heading or converted.page_title) or None
            converted.blocks[:] = _rechapter(converted.blocks, chapter)
        blocks.extend(_titled(converted.blocks, chapter, book.title if not blocks else None))
    return blocks


def _titled(blocks: list[Block], chapter: str | None, book_title: str | None) -> list[Block]:
    """A chapter's blocks with its opening line read as what it is: the book's title at the
    start of the book is dropped (it is the document's title), and a first paragraph that is
    the chapter's title is its heading (word processors export headings as styled <p>)."""
    if not blocks:
        return blocks
    first = one_line(blocks[0].text).casefold()
    if book_title and first == book_title.casefold():
        return _titled(blocks[1:], chapter, None)
    if chapter and first == chapter.casefold() and blocks[0].kind == "paragraph":
        head = blocks[0]
        return [Block("heading", head.text, head.spans, head.locator, 1), *blocks[1:]]
    return blocks


def _convert(
    html: str, sections: Sections, class_styles: dict[str, str], notices: list[str], member: str
) -> Any:
    """A chapter's blocks: lxml parses it (C; the standard library's parser, in Python, took
    three times as long on a 1 MB book), html_blocks reads the tree."""
    from lxml import etree

    try:
        page = parse_page(html)
    except (etree.ParserError, ValueError):  # nothing lxml can read: the tolerant parser
        return convert_html(html, sections=sections, class_styles=class_styles)
    notices.extend(f"{member}: {notice}" for notice in page.notices)
    return convert_tree(page.root, sections=sections, class_styles=class_styles)


def _rechapter(blocks: list[Block], chapter: str | None) -> list[Block]:
    """Blocks of a chapter the table of contents does not name, given the name found in it."""
    from dataclasses import replace

    out = []
    for b in blocks:
        section = b.locator.section
        if section[:1] == (chapter,):
            section = section[1:]
        out.append(replace(b, locator=replace(b.locator, chapter=chapter, section=section)))
    return out


def _decode(raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    declared = _XML_ENCODING.match(raw)
    if declared:
        try:
            return raw.decode(declared.group(1).decode("ascii"))
        except (LookupError, UnicodeDecodeError):
            pass
    return raw.decode("utf-8", "replace")
