"""Word text inside what wraps it (issue 34, item 2): content controls, custom XML, smart
tags, tracked insertions and moves, fields, text boxes, in the body and in table cells, at
any depth. The reader read only the body's own paragraphs: a Word template's cover page,
table of contents and form fields (block-level content controls) were dropped without a word.
Tracked deletions are not read, by design, and the import report says how many there were.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from core.ingest import read_document

from .helpers import mr, write

NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml"'
)


def p(text: str) -> str:
    return f'<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def sdt(content: str) -> str:
    return f'<w:sdt><w:sdtPr><w:alias w:val="Cover"/></w:sdtPr><w:sdtContent>{content}</w:sdtContent></w:sdt>'


def docx(body: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("word/document.xml", f"<w:document {NS}><w:body>{body}<w:sectPr/></w:body></w:document>")
    return buf.getvalue()


def texts(path: Path) -> list[str]:
    return [para.text for para in read_document(path).paragraphs]


def test_a_paragraph_in_a_block_level_content_control_is_read(inputs: Path) -> None:
    """The attack as reported: A, B (in a content control), C imported as A and C."""
    path = write(inputs / "sdt.docx", docx(p("A") + sdt(p("B")) + p("C")))
    assert texts(path) == ["A", "B", "C"]


def test_wrappers_at_any_depth_and_inside_paragraphs_are_read(inputs: Path) -> None:
    cover = sdt(f'<w:customXml w:element="cover">{sdt(p("Title page text"))}</w:customXml>')
    runs = (
        '<w:p><w:customXml w:element="name"><w:r><w:t xml:space="preserve">custom </w:t></w:r></w:customXml>'
        '<w:moveTo w:id="1" w:author="a"><w:r><w:t xml:space="preserve">moved-here </w:t></w:r></w:moveTo>'
        '<w:moveFrom w:id="2" w:author="a"><w:r><w:t>moved-away </w:t></w:r></w:moveFrom>'
        '<w:fldSimple w:instr="DATE"><w:r><w:t xml:space="preserve">field </w:t></w:r></w:fldSimple>'
        '<w:dir w:val="rtl"><w:r><w:t xml:space="preserve">bidi </w:t></w:r></w:dir>'
        '<w:sdt><w:sdtContent><w:smartTag w:element="x"><w:ins w:id="3" w:author="a">'
        "<w:r><w:t>deep</w:t></w:r></w:ins></w:smartTag></w:sdtContent></w:sdt></w:p>"
    )
    deep = "<w:customXml>" * 3000 + p("Three thousand levels down") + "</w:customXml>" * 3000
    path = write(inputs / "wrapped.docx", docx(cover + runs + deep))
    assert texts(path) == [
        "Title page text",
        "custom moved-here field bidi deep",
        "Three thousand levels down",
    ]


def test_table_rows_and_cells_in_content_controls_are_read_once(inputs: Path) -> None:
    def cell(content: str) -> str:
        return f"<w:tc><w:tcPr/>{content}</w:tc>"

    nested = f"<w:tbl><w:tr>{cell(p('inner cell'))}</w:tr></w:tbl>"
    first_row = "<w:tr>" + cell(sdt(p("cell in a control"))) + sdt(cell(p("cell that is one"))) + "</w:tr>"
    second_row = sdt("<w:tr>" + cell(p("row in a control")) + cell(nested) + "</w:tr>")
    table = f"<w:tbl><w:tblPr/>{first_row}{second_row}</w:tbl>"
    path = write(inputs / "table.docx", docx(p("Before") + table))
    # the nested table's cell read once: it was read three times (as a row of its own, as a
    # cell of the outer row and as a paragraph of the outer cell)
    assert texts(path) == ["Before", "cell in a control | cell that is one\nrow in a control | inner cell"]


def test_a_text_box_is_read_once_after_its_paragraph(inputs: Path) -> None:
    box = f"<w:txbxContent>{p('Boxed words')}</w:txbxContent>"
    anchor = (
        '<w:p><w:r><w:t xml:space="preserve">Anchor </w:t></w:r><w:r><mc:AlternateContent>'
        f'<mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:docPr id="1" name="Text Box 1"/>'
        f"<a:graphic><a:graphicData><wps:wsp><wps:txbx>{box}</wps:txbx></wps:wsp></a:graphicData>"
        "</a:graphic></wp:anchor></w:drawing></mc:Choice>"
        f"<mc:Fallback><w:pict><v:shape><v:textbox>{box}</v:textbox></v:shape></w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r><w:r><w:t>text</w:t></w:r></w:p>"
    )
    path = write(inputs / "box.docx", docx(anchor + p("After")))
    assert texts(path) == ["Anchor text", "Boxed words", "After"]


def test_tracked_deletions_are_skipped_and_counted(home: Path, inputs: Path) -> None:
    deleted = '<w:del w:id="9" w:author="a"><w:r><w:delText>struck words</w:delText></w:r></w:del>'
    body = (
        f'<w:p><w:r><w:t xml:space="preserve">Kept </w:t></w:r>{deleted}<w:r><w:t>text</w:t></w:r></w:p>'
        + sdt(f"<w:p>{deleted}<w:r><w:t>More kept text</w:t></w:r></w:p>")
    )
    path = write(inputs / "tracked.docx", docx(body))
    doc = read_document(path)
    assert [para.text for para in doc.paragraphs] == ["Kept text", "More kept text"]
    assert doc.notices == (
        "2 tracked deletions were not imported: the text reads as with its tracked changes accepted",
    )
    done = mr(home, "import", str(path), "--extractor", "placeholder")
    assert done.returncode == 0 and "2 tracked deletions were not imported" in done.stdout + done.stderr
