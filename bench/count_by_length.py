"""Does the unit count follow what a text holds? Units per document, per 1,000 words, per section.

    python bench/count_by_length.py [FILES...]

Without files: long texts found on this machine (HTML manuals in /usr/share/doc, the PDFs
there, a page of API index that is all links) and a book built here (bench/.cache) whose
chapters are the GNU licences' sections and manuals' chapters, of very different lengths. For
each: its words, its substantive words (the eligible sentences: prose that may become a unit;
Chinese characters count one each), the units the offline extractor proposes, units per 1,000
substantive and per 1,000 words, seconds to extract, characters per substantive word (space
included) and the extractor's notices; then units per chapter / top section / 20-page
range for the documents with more than one. The measure is computed here from the prepared
sentences, not by the count rule itself, so figures before and after a change compare.
Prints figures; no asserts.
"""

from __future__ import annotations

import html
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.domain import SourceDocument  # noqa: E402
from core.extraction.offline import OfflineExtractor, prepare  # noqa: E402
from core.ingest import read_document  # noqa: E402
from core.text.cjk import HAN_RE  # noqa: E402
from sample_articles.epub import epub  # noqa: E402

CACHE = Path(__file__).resolve().parent / ".cache"
DOCS = [
    "/usr/share/doc/bzip2/manual.html",
    "/usr/share/doc/ninja-build/manual.html",
    "/usr/share/doc/python3-dev/python-policy.html",
    "/usr/share/doc/fontconfig/fontconfig-user.html",
    "/usr/share/doc/nettle-dev/nettle.html",
    "/usr/share/doc/nodejs/api/process.html",
    "/usr/share/doc/libxslt1-dev/html/APIchunk2.html",
    "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf",
    "/usr/share/doc/libtasn1-doc/libtasn1.pdf",
]
LICENCES = Path("/usr/share/common-licenses")
_LATIN = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*|\d+(?:[.,]\d+)*")


def words(text: str) -> int:
    """Words, a Chinese character counting as one."""
    return len(_LATIN.findall(HAN_RE.sub(" ", text))) + len(HAN_RE.findall(text))


def section_of(doc: SourceDocument, paragraph_id: str) -> str:
    p = doc.paragraph(paragraph_id)
    if p is None:
        return "?"
    loc = p.locator
    if loc.chapter:
        return loc.chapter
    if loc.page is not None:
        first = (loc.page - 1) // 20 * 20 + 1
        return f"pp. {first}-{first + 19}"
    depth = _depth(doc)
    return " › ".join(loc.section[:depth]) or "(before any heading)"


def _depth(doc: SourceDocument) -> int:
    """The shallowest heading depth at which no section holds 80% of the paragraphs."""
    for depth in range(1, 4):
        held = Counter(p.locator.section[:depth] for p in doc.paragraphs if p.kind != "heading")
        if held and max(held.values()) <= 0.8 * sum(held.values()):
            return depth
    return 4


def book(target: Path) -> Path:
    """An EPUB whose chapters are the licences' texts and two manuals' sections (cached)."""
    if target.exists():
        return target
    chapters: list[tuple[str, str]] = []
    for name in ("GPL-3", "Apache-2.0", "MPL-2.0", "LGPL-2.1", "Artistic"):
        path = LICENCES / name
        if path.exists():
            paras = [" ".join(b.split()) for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
            chapters.append((name, "".join(f"<p>{html.escape(p)}</p>\n" for p in paras)))
    for page in ("/usr/share/doc/ninja-build/manual.html", "/usr/share/doc/bzip2/manual.html"):
        if Path(page).exists():
            body = Path(page).read_text(encoding="utf-8", errors="replace")
            body = re.sub(r"(?is)^.*?<body[^>]*>|</body>.*$", "", body)
            chapters.append((Path(page).parent.name + " manual", body))
    pages = [
        '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head>'
        f"<title>{html.escape(title)}</title></head><body>{body}</body></html>"
        for title, body in chapters
    ]
    book = epub(
        pages, title="Licences and manuals", contents=[html.escape(t) for t, _ in chapters], deflate=True
    )
    CACHE.mkdir(exist_ok=True)
    target.write_bytes(book)
    return target


def measure(path: Path) -> None:
    doc = read_document(path, max_bytes=64 * 1024 * 1024)
    total = sum(words(p.text) for p in doc.paragraphs)
    found = prepare.sentences(doc)
    substantive = Counter[str]()
    chars = 0
    for s in found:
        if s.eligible:
            substantive[section_of(doc, s.paragraph_id)] += words(s.text)
            chars += len(s.text) + 1
    started = time.perf_counter()
    result = OfflineExtractor().extract(doc)
    seconds = time.perf_counter() - started
    units = result.output.memory_units
    per_section = Counter(section_of(doc, u.evidence[-1].paragraph_id) for u in units)
    sub = sum(substantive.values())
    rate = f"{1000 * len(units) / sub:5.1f}" if sub else "    -"
    print(
        f"{path.name[:34]:34s} {total:7d} {sub:7d} {len(units):5d} {rate} "
        f"{1000 * len(units) / max(total, 1):5.1f} {seconds:6.2f} {chars / max(sub, 1):5.1f}"
    )
    notice = getattr(result, "count_notice", None)  # the extractor's since issue 30
    for line in (*result.notices, *([notice.text()] if notice else [])):
        print(f"    notice: {line}")
    sections = list(dict.fromkeys(section_of(doc, p.paragraph_id) for p in doc.paragraphs))
    if len(sections) > 1:
        for name in sections:
            if substantive[name] or per_section[name]:
                print(f"    {name[:48]:48s} {substantive[name]:7d} words {per_section[name]:4d} units")


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or [Path(d) for d in DOCS if Path(d).exists()]
    if not argv:
        paths.append(book(CACHE / "licences-and-manuals.epub"))
    print(
        f"{'document':34s} {'words':>7s} {'subst.':>7s} {'units':>5s} {'/1k s':>5s} {'/1k w':>5s} {'sec':>6s}"
    )
    for path in paths:
        measure(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
