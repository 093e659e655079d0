"""How many units from what the text holds (issue 30): a long text gets units part by part in
proportion to its prose, a book more than the old cap of 12, a text of code and tables none and
a notice saying why (carried by the import result), and a short article about what it got."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from core.domain import SourceDocument
from core.extraction.offline import OfflineExtractor
from core.ingest import parse_text, read_document
from core.services.bootstrap import Services
from sample_articles.epub import chapter, epub

SAMPLES = Path(__file__).resolve().parent.parent / "sample_articles"
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def prose(seed: int, paragraphs: int) -> list[str]:
    """Paragraphs of distinct sentences (five of 14 words each) from a Zipf vocabulary: prose
    as the extractor sees it, no two sentences alike."""
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choices(_LETTERS, k=rng.randint(3, 10))) for _ in range(4000)]
    weights = [1 / rank for rank in range(1, len(vocabulary) + 1)]
    return [
        " ".join(" ".join(rng.choices(vocabulary, weights, k=14)).capitalize() + "." for _ in range(5))
        for _ in range(paragraphs)
    ]


def section_of(document: SourceDocument, paragraph_id: str) -> str:
    p = document.paragraph(paragraph_id)
    assert p is not None
    return p.locator.chapter or (p.locator.section[-1] if p.locator.section else "")


def test_a_long_document_gets_units_from_every_section_in_proportion() -> None:
    sizes = {"Alpha": 12, "Beta": 24, "Gamma": 48, "Delta": 36}  # paragraphs of ~70 words
    text = "# A long report\n\n" + "".join(
        f"## {name}\n\n" + "\n\n".join(prose(seed, n)) + "\n\n"
        for seed, (name, n) in enumerate(sizes.items())
    )
    document = parse_text(text, "report.md", suffix=".md")
    units = OfflineExtractor().extract(document).output.memory_units
    per_section = Counter(section_of(document, u.evidence[-1].paragraph_id) for u in units)
    total = sum(sizes.values())
    assert len(units) > 12
    for name, n in sizes.items():
        share = len(units) * n / total
        assert abs(per_section[name] - share) <= max(2, 0.25 * share), (name, per_section, share)


def test_a_book_gets_more_than_twelve_units_and_every_chapter_its_share(tmp_path: Path) -> None:
    chapters = [(f"Chapter {i + 1}", prose(100 + i, 20)) for i in range(6)]  # ~1,400 words each
    path = tmp_path / "book.epub"
    path.write_bytes(_epub(chapters))
    document = read_document(path)
    units = OfflineExtractor().extract(document).output.memory_units
    per_chapter = Counter(section_of(document, u.evidence[-1].paragraph_id) for u in units)
    assert len(units) > 6 * 6  # ~9 a chapter, not 12 in all
    assert set(per_chapter) == {title for title, _ in chapters}
    assert max(per_chapter.values()) - min(per_chapter.values()) <= 2  # chapters alike, shares alike


def test_a_text_of_code_and_tables_gets_no_unit_and_the_reason() -> None:
    code = "```python\n" + "\n".join(f"def f{i}(x):\n    return x * {i}\n" for i in range(40)) + "```\n"
    table = "| name | value |\n|---|---|\n" + "".join(f"| row{i} | {i * 3} |\n" for i in range(40))
    document = parse_text(f"# Reference\n\n{code}\n{table}\n{code}", "reference.md", suffix=".md")
    result = OfflineExtractor().extract(document)
    assert result.output.memory_units == ()
    notice = result.count_notice
    assert notice is not None and notice.units == 0 and notice.prose_sentences == 0
    assert set(notice.rest) <= {"code", "tables", "headings"} and "code" in notice.rest
    assert notice.text().startswith("no unit: no prose sentences, the text is code")


def test_a_page_mostly_navigation_gets_few_units_and_says_what_the_rest_is() -> None:
    body = "\n\n".join(prose(7, 3))
    menu = "\n\n".join(f"Home | News | Sport | Weather | Page {i} | Contact" for i in range(120))
    captions = "\n\n".join(f"Photo: a view of the harbour number {i} at dawn (Reuters)." for i in range(60))
    document = parse_text(f"{body}\n\n{menu}\n\n{captions}\n", "page.txt")
    result = OfflineExtractor().extract(document)
    notice = result.count_notice
    assert 0 < len(result.output.memory_units) <= 15
    assert notice is not None and notice.units == len(result.output.memory_units)
    assert notice.rest[0] == "navigation and captions"
    assert f"{notice.units} units where its length suggests {notice.suggested}" in notice.text()


def test_short_articles_keep_their_count() -> None:
    """The counts the sample articles got before issue 30 (bench/bench_extract.py)."""
    before = {"photosynthesis.txt": 7, "spaced-repetition.md": 8, "光合作用.txt": 6, "间隔重复.md": 7}
    for name, count in before.items():
        document = read_document(SAMPLES / name)
        result = OfflineExtractor().extract(document)
        # about the same (within one: a sentence that needs the one before is no longer glued to it)
        assert abs(len(result.output.memory_units) - count) <= 1, name
        assert result.count_notice is None


def test_a_fixed_count_is_shared_between_the_parts() -> None:
    """`max_units` (the eval's budget curve) above one part's share is shared out the same way."""
    text = "".join(f"## Part {i}\n\n" + "\n\n".join(prose(20 + i, 30)) + "\n\n" for i in range(4))
    document = parse_text(text, "parts.md", suffix=".md")
    units = OfflineExtractor(max_units=40).extract(document).output.memory_units
    assert Counter(section_of(document, u.evidence[-1].paragraph_id) for u in units) == {
        f"Part {i}": 10 for i in range(4)
    }


def test_the_import_result_carries_the_notice(services: Services, tmp_path: Path) -> None:
    path = tmp_path / "snippets.md"
    path.write_text("```sh\nmake && make install\nmake check\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    (outcome,) = services.library.import_paths([path], extractor="offline")
    assert outcome.status == "imported" and outcome.units == 0
    assert outcome.count_notice is not None and outcome.count_notice.units == 0
    assert outcome.count_notice.text() in outcome.message
    assert outcome.article_id is not None
    assert services.library.import_notices(outcome.article_id) == (outcome.count_notice.text(),)


def _epub(chapters: list[tuple[str, list[str]]]) -> bytes:
    return epub(
        [chapter(title, "".join(f"<p>{p}</p>" for p in paragraphs)) for title, paragraphs in chapters],
        title="A book",
        contents=[title for title, _ in chapters],
        deflate=True,
    )
