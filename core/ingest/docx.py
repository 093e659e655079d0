"""Word documents (.docx, Office Open XML): standard library only (zipfile, ElementTree).

word/document.xml in order: paragraphs (w:p) whose style is a heading (by its name in
styles.xml, "heading 1"... or an outline level) become headings and the section path; "Title"
the document title; paragraphs with numbering (w:numPr) one list block per run of them, bullets
or numbers from numbering.xml; tables (w:tbl) one table block, rows a line, cells between " | ".
Runs: bold -> strong, italic -> emphasis, character styles named Strong / Emphasis / code-like,
hyperlinks (w:hyperlink, target from the relationships) -> link, w:br -> a line break, w:tab ->
a tab, drawings' alt text (wp:docPr descr or title) -> image. Headers, footers, comments and
footnotes are not body text. The title falls back to docProps/core.xml's dc:title.

Paragraphs, rows, cells and runs are found through what wraps them, at any depth (docx_walk):
content controls (w:sdt: a template's cover page, table of contents, form fields), custom XML,
smart tags, tracked insertions and moves, fields, bidi runs, alternate content (its first
choice). A text box's paragraphs follow the paragraph it is anchored in. Tracked deletions
(w:del, w:moveFrom) are not read: the text reads as with the changes accepted, and the import
report says how many there were.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

from core.domain import InlineSpan, SourceDocument
from core.domain.errors import RefusedInput
from core.ingest.blocks import Block, Sections, one_line
from core.ingest.document import document_from_blocks
from core.ingest.docx_walk import ALTERNATE, DELETED, NO_TEXT, Deletions, W, chosen, find
from core.ingest.inline import TextBuilder, join_texts, shift_spans

R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
_PACKAGE_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_CODE_STYLES = ("code", "source", "verbatim", "preformatted", "macro")
_BLOCKS = frozenset([f"{W}p", f"{W}tbl"])
_ROWS = frozenset([f"{W}tr", f"{W}tbl"])
_CELLS = frozenset([f"{W}tc"])
_PARAGRAPHS = frozenset([f"{W}p"])


def parse_docx(data: bytes, source_path: str, *, max_text: int) -> SourceDocument:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        info = zf.getinfo("word/document.xml")
        if info.file_size > max_text * 8:
            raise RefusedInput("the document holds more text than max_file_mb allows; raise it in the config")
        reader = _Reader(zf)
        blocks = reader.read(ElementTree.fromstring(zf.read(info)))
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, EOFError) as exc:
        raise RefusedInput(f"damaged DOCX ({exc}); it could not be read") from None
    title = reader.title or _core_title(zf)
    return document_from_blocks(blocks, source_path, title=title, notices=reader.notices())


def _xml(zf: zipfile.ZipFile, name: str) -> ElementTree.Element | None:
    if name not in zf.NameToInfo:
        return None
    return ElementTree.fromstring(zf.read(name))


def _core_title(zf: zipfile.ZipFile) -> str | None:
    core = _xml(zf, "docProps/core.xml")
    if core is None:
        return None
    title = core.findtext("{http://purl.org/dc/elements/1.1/}title") or ""
    return one_line(title) or None


class _Reader:
    def __init__(self, zf: zipfile.ZipFile) -> None:
        self.title: str | None = None
        self._styles = self._style_names(zf)
        self._links = self._relationships(zf)
        self._bullets = self._bullet_lists(zf)
        self._sections = Sections()
        self._list: list[tuple[str, tuple[InlineSpan, ...]]] = []  # pending list items (rendered)
        self._counters: dict[tuple[str, str], int] = {}
        self._deletions = Deletions()
        self.blocks: list[Block] = []

    @staticmethod
    def _style_names(zf: zipfile.ZipFile) -> dict[str, str]:
        styles = _xml(zf, "word/styles.xml")
        out: dict[str, str] = {}
        for style in styles.iter(f"{W}style") if styles is not None else ():
            name = style.find(f"{W}name")
            out[style.get(f"{W}styleId") or ""] = (
                name.get(f"{W}val") or "" if name is not None else ""
            ).lower()
        return out

    @staticmethod
    def _relationships(zf: zipfile.ZipFile) -> dict[str, str]:
        rels = _xml(zf, "word/_rels/document.xml.rels")
        return (
            {r.get("Id") or "": r.get("Target") or "" for r in rels.iter(f"{_PACKAGE_REL}Relationship")}
            if rels is not None
            else {}
        )

    @staticmethod
    def _bullet_lists(zf: zipfile.ZipFile) -> set[tuple[str, str]]:
        """(numId, level) pairs drawn with bullets rather than numbers."""
        numbering = _xml(zf, "word/numbering.xml")
        if numbering is None:
            return set()
        bullet_abstract = set()
        for abstract in numbering.iter(f"{W}abstractNum"):
            for lvl in abstract.iter(f"{W}lvl"):
                fmt = lvl.find(f"{W}numFmt")
                if fmt is not None and fmt.get(f"{W}val") == "bullet":
                    bullet_abstract.add((abstract.get(f"{W}abstractNumId"), lvl.get(f"{W}ilvl")))
        out = set()
        for num in numbering.iter(f"{W}num"):
            ref = num.find(f"{W}abstractNumId")
            abstract_id = ref.get(f"{W}val") if ref is not None else None
            for a, level in bullet_abstract:
                if a == abstract_id:
                    out.add((num.get(f"{W}numId") or "", level or "0"))
        return out

    # --- body -----------------------------------------------------------------------------

    def read(self, document: ElementTree.Element) -> list[Block]:
        body = document.find(f"{W}body")
        for el in find(body, _BLOCKS, self._deletions, boxes=True) if body is not None else ():
            if el.tag == f"{W}p":
                self._paragraph(el)
            else:
                self._flush_list()
                self._table(el)
        self._flush_list()
        return self.blocks

    def notices(self) -> tuple[str, ...]:
        """What the import report says of this document: the tracked deletions not read."""
        count = self._deletions.count
        if not count:
            return ()
        what = "1 tracked deletion was" if count == 1 else f"{count} tracked deletions were"
        return (f"{what} not imported: the text reads as with its tracked changes accepted",)

    def _paragraph(self, p: ElementTree.Element) -> None:
        ppr = p.find(f"{W}pPr")
        style_id = ppr.find(f"{W}pStyle") if ppr is not None else None
        style = self._styles.get(style_id.get(f"{W}val") or "", "") if style_id is not None else ""
        outline = ppr.find(f"{W}outlineLvl") if ppr is not None else None
        num = ppr.find(f"{W}numPr") if ppr is not None else None
        code = any(c in style for c in _CODE_STYLES)
        text, spans = self._runs(p, code=code)
        if num is not None and text:
            self._list_item(num, text, spans)
            return
        self._flush_list()
        if not text:
            return
        level = _heading_level(style, outline)
        if style == "title" and self.title is None and not self.blocks:
            self.title = one_line(text)
        elif level:
            self.blocks.append(
                Block("heading", text, spans, self._sections.heading(level, one_line(text)), level)
            )
        else:
            self.blocks.append(
                Block("code" if code else "paragraph", text, () if code else spans, self._sections.locator)
            )

    def _runs(self, p: ElementTree.Element, *, code: bool = False) -> tuple[str, tuple[InlineSpan, ...]]:
        """A paragraph's text and spans: its runs wherever they are (docx_walk's rule, with a
        hyperlink's runs inside a link span); a text box's paragraphs are not its text."""
        b = TextBuilder()
        stack = [(iter(p), -1)]  # (children, the link span they close at their end or -1)
        while stack:
            el = next(stack[-1][0], None)
            if el is None:
                handle = stack.pop()[1]
                if handle >= 0:
                    b.close(handle)
                continue
            tag = el.tag
            if tag == f"{W}r":
                self._run(el, b)
            elif tag == f"{W}hyperlink":
                target = self._links.get(el.get(f"{R}id") or "")
                stack.append((iter(el), b.open("link", target) if target else -1))
            elif tag in DELETED:
                self._deletions.met(el)
            elif tag == ALTERNATE:
                stack.append((iter(chosen(el)), -1))
            elif tag not in NO_TEXT and tag != f"{W}p":  # (a paragraph in one: a text box's)
                stack.append((iter(el), -1))
        return b.finish(verbatim=code)

    def _run(self, r: ElementTree.Element, b: TextBuilder) -> None:
        rpr = r.find(f"{W}rPr")
        kinds = _run_kinds(rpr, self._styles)
        handles = [b.open(k) for k in kinds]
        children = list(r)
        while any(el.tag == ALTERNATE for el in children):  # a drawing in alternate content
            children = [c for el in children for c in (chosen(el) if el.tag == ALTERNATE else [el])]
        for el in children:
            if el.tag == f"{W}t":
                b.text(el.text or "")
            elif el.tag == f"{W}tab":
                b.verbatim("\t")
            elif el.tag in (f"{W}br", f"{W}cr"):
                b.hard_break()
            elif el.tag == f"{W}drawing":
                for doc_pr in el.iter(f"{WP}docPr"):
                    alt = one_line(doc_pr.get("descr") or doc_pr.get("title") or "")
                    if alt:
                        h = b.open("image")
                        b.text(alt)
                        b.close(h)
        for h in reversed(handles):
            b.close(h)

    def _list_item(self, num: ElementTree.Element, text: str, spans: tuple[InlineSpan, ...]) -> None:
        num_id_el = num.find(f"{W}numId")
        level_el = num.find(f"{W}ilvl")
        num_id = num_id_el.get(f"{W}val") or "" if num_id_el is not None else ""
        level = level_el.get(f"{W}val") or "0" if level_el is not None else "0"
        indent = "  " * int(level) if level.isdigit() else ""
        if (num_id, level) in self._bullets:
            marker = f"{indent}• "
        else:
            n = self._counters.get((num_id, level), 0) + 1
            self._counters[(num_id, level)] = n
            marker = f"{indent}{n}. "
        self._list.append((marker + text, shift_spans(spans, len(marker))))

    def _flush_list(self) -> None:
        if self._list:
            text, spans = join_texts(self._list)
            self.blocks.append(Block("list", text, spans, self._sections.locator))
            self._list = []

    def _table(self, tbl: ElementTree.Element) -> None:
        """One table block: its own rows (a nested table's are not), its cells' paragraphs
        joined, a nested table's and a text box's among them (each once)."""
        rows = []
        for tr in find(tbl, _ROWS, self._deletions):
            if tr.tag != f"{W}tr":
                continue  # a table nested in no cell: its rows are its own
            cells = []
            for tc in find(tr, _CELLS, self._deletions):
                paragraphs = find(tc, _PARAGRAPHS, self._deletions, boxes=True)
                cells.append(join_texts([self._runs(p) for p in paragraphs], " "))
            rows.append(join_texts([c if c[0] else (" ", ()) for c in cells], " | "))
        text, spans = join_texts(rows)
        if text.strip(" |\n"):
            self.blocks.append(Block("table", text, spans, self._sections.locator))


def _heading_level(style: str, outline: ElementTree.Element | None) -> int:
    if style.startswith("heading "):
        tail = style[8:].strip()
        return int(tail) if tail.isdigit() else 1
    if outline is not None and (outline.get(f"{W}val") or "").isdigit():
        value = int(outline.get(f"{W}val") or "9")
        return value + 1 if value < 9 else 0
    return 0


def _run_kinds(rpr: ElementTree.Element | None, styles: dict[str, str]) -> list[str]:
    if rpr is None:
        return []
    kinds = []
    style_el = rpr.find(f"{W}rStyle")
    style = styles.get(style_el.get(f"{W}val") or "", "") if style_el is not None else ""
    if _on(rpr.find(f"{W}b")) or "strong" in style:
        kinds.append("strong")
    if _on(rpr.find(f"{W}i")) or "emphasis" in style:
        kinds.append("emphasis")
    if any(c in style for c in _CODE_STYLES):
        kinds.append("code")
    return kinds


def _on(el: ElementTree.Element | None) -> bool:
    return el is not None and (el.get(f"{W}val") or "true") not in ("0", "false", "none")
