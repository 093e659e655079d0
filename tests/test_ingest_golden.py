"""Golden files: GBK, Big5, UTF-16 LE/BE with and without BOM, Latin-1, UTF-8 BOM, CRLF, CR,
mixed newlines, CJK line folding and structured markdown parse to the expected paragraphs
(Markdown as reader text: markup rendered away, with its heading paths and styled spans).

The expected JSON is written from the specification in tests/golden/ingest/make_golden.py,
never from the parser's output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from core.ingest import read_document

GOLDEN = Path(__file__).resolve().parent / "golden" / "ingest"
CASES = sorted(p.name.removesuffix(".json") for p in (GOLDEN / "expected").glob("*.json"))


def _expected(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((GOLDEN / "expected" / f"{name}.json").read_text(encoding="utf-8"))
    return data


def test_every_required_golden_case_is_present() -> None:
    required = {
        "gbk.txt",
        "big5.txt",
        "utf16le_bom.txt",
        "utf16be_bom.txt",
        "utf16le_nobom.txt",
        "utf16be_nobom.txt",
        "latin1.txt",
        "crlf.txt",
        "mixed_newlines.txt",
        "cjk_folding.txt",
        "structured.md",
    }
    assert required <= set(CASES)
    for name in CASES:
        assert (GOLDEN / "inputs" / name).is_file(), name


@pytest.mark.parametrize("name", CASES)
def test_golden_input_parses_to_expected_paragraphs(name: str) -> None:
    want = _expected(name)
    doc = read_document(GOLDEN / "inputs" / name)
    got = [{"paragraph_id": p.paragraph_id, "kind": p.kind, "text": p.text} for p in doc.paragraphs]
    assert got == want["paragraphs"]
    assert [p.index for p in doc.paragraphs] == list(range(len(doc.paragraphs)))
    assert doc.title == want["title"]
    assert doc.encoding in want["encodings"]  # type: ignore[operator]
    assert doc.content_hash == want["content_hash"]
    assert doc.language == want["language"]
    assert doc.metadata == want["metadata"]
    assert doc.source_path == str((GOLDEN / "inputs" / name).resolve())
    if "sections" in want:  # Markdown: every paragraph's heading path and styled spans
        assert [list(p.locator.section) for p in doc.paragraphs] == want["sections"]
        assert [[[s.start, s.end, s.kind] for s in p.spans] for p in doc.paragraphs] == want["spans"]


def test_newline_variants_of_one_text_give_identical_paragraphs_and_hash() -> None:
    docs = [
        read_document(GOLDEN / "inputs" / n)
        for n in ("crlf.txt", "cr.txt", "mixed_newlines.txt", "utf8_bom.txt")
    ]
    assert len({d.paragraphs for d in docs}) == 1
    assert len({d.content_hash for d in docs}) == 1
    md = [read_document(GOLDEN / "inputs" / n) for n in ("structured.md", "structured_crlf.md")]
    assert md[0].paragraphs == md[1].paragraphs and md[0].content_hash == md[1].content_hash


def test_committed_golden_files_match_the_generator(tmp_path: Path) -> None:
    sys.path.insert(0, str(GOLDEN))
    try:
        import make_golden  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(GOLDEN))
    written = make_golden.write_all(tmp_path)
    assert written
    for path in written:
        committed = GOLDEN / path.relative_to(tmp_path)
        assert committed.read_bytes() == path.read_bytes(), f"{committed} is stale: rerun make_golden.py"
    assert {p.name for p in (GOLDEN / "inputs").iterdir()} == {
        p.name for p in (tmp_path / "inputs").iterdir()
    }
