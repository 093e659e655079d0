"""The readers' output pinned: every document the tests and the format benchmark read gives the
paragraphs (kind, text, spans, locator) and the title recorded in
tests/fixtures/formats/golden.json.

This is what lets a reader be made faster without changing what it reads: a change that is
meant to change the output re-records the file and says why in its commit:

    .venv/bin/python tests/test_reader_golden.py --record

The repository's fixtures are recorded whole (a failure shows the first paragraph that
differs); the pages Debian ships that bench/bench_formats.py also times (libxml2-doc,
python-blinker-doc, when installed) are recorded as a digest of that output beside a digest
of the page itself, so a machine with another version of a package skips them rather than fails.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))

from core.domain import SourceDocument  # noqa: E402
from core.ingest import read_document  # noqa: E402
from core.ingest.formats import SUPPORTED_SUFFIXES  # noqa: E402

GOLDEN = ROOT / "tests" / "fixtures" / "formats" / "golden.json"
FIXTURE_DIRS = [ROOT / "tests" / "fixtures" / "formats", ROOT / "sample_articles"]
# the pages bench/bench_formats.py times besides the fixtures (its DOC_PAGES)
SYSTEM_PAGES = [Path("/usr/share/doc/libxml2-doc"), Path("/usr/share/doc/python-blinker-doc/html")]


def fixture_files() -> list[Path]:
    return sorted(
        p for folder in FIXTURE_DIRS for p in folder.rglob("*") if p.suffix.lower() in SUPPORTED_SUFFIXES
    )


def system_pages() -> list[Path]:
    return sorted(p for folder in SYSTEM_PAGES if folder.is_dir() for p in folder.glob("*.html"))


def as_data(doc: SourceDocument) -> dict[str, Any]:
    return {
        "title": doc.title,
        "paragraphs": [
            {
                "id": p.paragraph_id,
                "kind": p.kind,
                "text": p.text,
                "spans": [[s.start, s.end, s.kind, s.href] for s in p.spans],
                "locator": p.locator.as_dict(),
            }
            for p in doc.paragraphs
        ],
    }


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, ensure_ascii=False, sort_keys=True).encode()).hexdigest()


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def key(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def record() -> None:
    fixtures = {key(p): as_data(read_document(p)) for p in fixture_files()}
    pages = {
        key(p): {"page": file_digest(p), "output": digest(as_data(read_document(p)))} for p in system_pages()
    }
    GOLDEN.write_text(_layout({"fixtures": fixtures, "system_pages": pages}), encoding="utf-8")
    print(f"recorded {len(fixtures)} fixtures and {len(pages)} system pages in {key(GOLDEN)}")


def _layout(data: dict[str, Any]) -> str:
    """JSON with one paragraph a line: a change shows in a diff as the paragraphs it changed."""
    lines = ["{"]
    for n, (section, entries) in enumerate(data.items()):
        lines.append(f" {json.dumps(section)}: {{")
        for m, (name, entry) in enumerate(entries.items()):
            fields = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in entry.items()]
            if "paragraphs" in entry:
                rows = [json.dumps(p, ensure_ascii=False) for p in entry["paragraphs"]]
                fields[-1] = '"paragraphs": [\n   ' + ",\n   ".join(rows) + "\n  ]"
            comma = "," if m < len(entries) - 1 else ""
            lines.append(f"  {json.dumps(name, ensure_ascii=False)}: {{" + ", ".join(fields) + f"}}{comma}")
        lines.append(" }" + ("," if n < len(data) - 1 else ""))
    return "\n".join(lines) + "\n}\n"


def _golden() -> dict[str, Any]:
    return json.loads(GOLDEN.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_every_fixture_is_recorded() -> None:
    assert sorted(_golden()["fixtures"]) == [key(p) for p in fixture_files()]


@pytest.mark.parametrize("path", fixture_files(), ids=key)
def test_fixture_reads_as_recorded(path: Path) -> None:
    want = _golden()["fixtures"][key(path)]
    got = as_data(read_document(path))
    assert got["title"] == want["title"]
    for new, old in zip(got["paragraphs"], want["paragraphs"], strict=False):
        assert new == old
    assert len(got["paragraphs"]) == len(want["paragraphs"])


@pytest.mark.parametrize("path", system_pages(), ids=key)
def test_system_page_reads_as_recorded(path: Path) -> None:
    want = _golden()["system_pages"].get(key(path))
    if want is None or want["page"] != file_digest(path):
        pytest.skip(f"{path} is not the version recorded")
    assert digest(as_data(read_document(path))) == want["output"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        raise SystemExit(__doc__)
    record()
