"""Refusals: one-line reasons, and nothing written to the library; iter_input_files."""

from __future__ import annotations

import sqlite3
import zipfile
from pathlib import Path

import pytest

from core.domain.errors import RefusedInput
from core.ingest import DEFAULT_MAX_BYTES, SUPPORTED_SUFFIXES, iter_input_files, read_document
from core.services.bootstrap import Services

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00"


def _zip(path: Path) -> bytes:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("inner.txt", "hello " * 100)
    return path.read_bytes()


def _sqlite(path: Path) -> bytes:
    con = sqlite3.connect(str(path))
    con.execute("CREATE TABLE t (x TEXT)")
    con.commit()
    con.close()
    return path.read_bytes()


def refusal(path: Path, **kwargs: object) -> str:
    with pytest.raises(RefusedInput) as info:
        read_document(path, **kwargs)  # type: ignore[arg-type]
    message = str(info.value)
    assert message and "\n" not in message
    return message


def test_missing_file(tmp_path: Path) -> None:
    assert refusal(tmp_path / "nope.txt") == "no such file"


def test_directory_where_a_file_is_needed(tmp_path: Path) -> None:
    (tmp_path / "folder.md").mkdir()
    assert "is a directory" in refusal(tmp_path / "folder.md")


@pytest.mark.parametrize("name", ["slides.pptx", "book.mobi", "README", "photo.PNG"])
def test_unsupported_suffix_names_the_supported_ones(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("some text", encoding="utf-8")
    message = refusal(path)
    assert "unsupported file type" in message
    assert all(s in message for s in SUPPORTED_SUFFIXES)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("paper.pdf", "not a PDF (no %PDF- header); is the file damaged or misnamed?"),
        ("notes.docx", "not a DOCX file (not a zip); is the file damaged or misnamed?"),
        ("book.epub", "not an EPUB file (not a zip); is the file damaged or misnamed?"),
    ],
)
def test_text_named_as_a_container_format_is_refused_as_misnamed(
    tmp_path: Path, name: str, expected: str
) -> None:
    """.pdf, .docx and .epub import now; a text file wearing one of those names says so."""
    path = tmp_path / name
    path.write_text("some text", encoding="utf-8")
    assert refusal(path) == expected


def test_suffix_check_ignores_case(tmp_path: Path) -> None:
    path = tmp_path / "NOTES.MD"
    path.write_text("# T\n\nBody.", encoding="utf-8")
    doc = read_document(path)
    assert doc.title == "T" and doc.paragraphs[0].text == "Body."


@pytest.mark.parametrize(
    "data",
    [b"", b"  \n\t\r\n", "\u3000\u00a0\n\ufeff\u200b".encode(), b"\xef\xbb\xbf", b"\xff\xfe \x00\n\x00"],
)
def test_empty_or_whitespace_only(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "blank.txt"
    path.write_bytes(data)
    assert refusal(path) == "file is empty"


def test_markdown_with_only_a_title_or_front_matter_has_nothing_to_import(tmp_path: Path) -> None:
    path = tmp_path / "t.md"
    path.write_text("---\na: b\n---\n\n# Only a title\n\n---\n", encoding="utf-8")
    assert "no text to import" in refusal(path)


@pytest.mark.parametrize("kind", ["png", "zip", "sqlite", "pdf", "nul"])
def test_binary_files_are_not_text(tmp_path: Path, kind: str) -> None:
    data = {
        "png": PNG,
        "zip": _zip(tmp_path / "x.zip"),
        "sqlite": _sqlite(tmp_path / "x.sqlite3"),
        "pdf": b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n",
        "nul": b"text\x00\x00\x00\x01\x02binary\x00" * 50,
    }[kind]
    path = tmp_path / f"disguised.{'md' if kind == 'zip' else 'txt'}"
    path.write_bytes(data)
    assert refusal(path).startswith("not a text file")


def test_utf16_is_not_mistaken_for_binary_despite_nul_bytes(tmp_path: Path) -> None:
    path = tmp_path / "u16.txt"
    path.write_bytes("Plain English in UTF-16.\n".encode("utf-16-le"))
    assert read_document(path).paragraphs[0].text == "Plain English in UTF-16."


def test_file_over_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"word " * (12 * 1024 * 1024 // 5 + 1))
    assert refusal(path) == "file is 12.0 MB, over the 10 MB cap; raise max_file_mb in the config"
    assert DEFAULT_MAX_BYTES == 10 * 1024 * 1024


def test_configurable_cap_is_named(tmp_path: Path) -> None:
    path = tmp_path / "mid.txt"
    path.write_bytes(b"a sentence here.\n\n" * 20000)
    message = refusal(path, max_bytes=int(0.3 * 1024 * 1024))
    assert message == "file is 0.343 MB, over the 0.3 MB cap; raise max_file_mb in the config"
    assert read_document(path, max_bytes=1024 * 1024).paragraphs


def test_refused_files_write_nothing_and_good_files_still_import(services: Services, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.txt").write_text("A good paragraph about memory.\n", encoding="utf-8")
    (folder / "empty.md").write_bytes(b"")
    (folder / "image.txt").write_bytes(PNG)
    (folder / "noise.txt").write_bytes(bytes(range(0x80, 0x100)) * 8)
    outcomes = services.library.import_paths([folder, tmp_path / "missing.md", tmp_path / "x.pdf"])
    by_name = {Path(o.path).name: o for o in outcomes}
    assert by_name["good.txt"].status == "imported"
    refused = {name: o.message for name, o in by_name.items() if o.status == "refused"}
    assert refused == {
        "empty.md": "file is empty",
        "image.txt": "not a text file (PNG image); import text, web pages, EPUB, PDF or DOCX files",
        "noise.txt": refused["noise.txt"],
        "missing.md": "no such file",
        "x.pdf": "no such file",
    }
    assert "--encoding" in refused["noise.txt"] or "not a text file" in refused["noise.txt"]
    assert services.library.article_count() == 1


def test_iter_input_files_walks_folders_sorted_by_suffix_and_keeps_files_as_given(tmp_path: Path) -> None:
    root = tmp_path / "lib"
    (root / "b" / "deep").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "a").mkdir()
    for rel in [
        "z.txt",
        "a/one.md",
        "b/two.markdown",
        "b/deep/three.TXT",
        "b/skip.pptx",
        "b/paper.PDF",
        "a/page.html",
        ".hidden/h.md",
        ".dot.md",
    ]:
        (root / rel).write_text("x", encoding="utf-8")
    loose = tmp_path / "loose.pdf"
    files = iter_input_files([loose, root, tmp_path / "missing.txt"])
    rel = [p.relative_to(root).as_posix() if root in p.parents else p.name for p in files]
    assert rel == [
        "loose.pdf",
        "a/one.md",
        "a/page.html",
        "b/deep/three.TXT",
        "b/paper.PDF",
        "b/two.markdown",
        "z.txt",
        "missing.txt",
    ]


def test_a_folder_scan_lists_the_files_of_other_types_with_the_reason(tmp_path: Path) -> None:
    from core.ingest import scan_inputs

    root = tmp_path / "notes"
    (root / "deep").mkdir(parents=True)
    (root / ".git").mkdir()
    for rel in ["a.md", "deep/b.rst", "c.pdf", "README", "slides.pptx", ".git/config", ".hidden.rst"]:
        (root / rel).write_text("x", encoding="utf-8")
    scan = scan_inputs([root])
    assert scan.files == [root / "a.md", root / "c.pdf", root / "deep" / "b.rst"]
    assert [(p, reason.split(";")[0]) for p, reason in scan.skipped] == [
        (root / "README", "unsupported file type (no suffix)"),
        (root / "slides.pptx", "unsupported file type .pptx"),
    ]  # hidden files and folders are not looked at, so not listed
    assert all(".html" in reason and ".pdf" in reason for _, reason in scan.skipped)  # what would be read
