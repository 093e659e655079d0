"""`LibraryService.import_paths`: one transaction per article, re-import is a no-op, changed
text updates the article in place, bad files are refused while the rest import, ungrounded units are
never stored. (A changed text at a known path updates its article in place: tests/test_reimport.py
has the rest; the triage settings and the trash purge are in tests/test_library_settings.py.)"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from core.domain import ArticleMemoryOutput, EvidenceSpan, MemoryUnit, RecallQuestion, SourceDocument
from core.ingest.formats import SUPPORTED_SUFFIXES
from core.services.bootstrap import Services
from core.services.curation import CannotAccept
from core.services.planning import GROUNDING_CODES
from tests.faults.helpers import query as rows
from tests.library_support import TEXT, Scripted, grounded, questions_for, write

SAMPLES = Path(__file__).resolve().parent.parent / "sample_articles"


# --- files and folders -----------------------------------------------------------------------


def test_folders_are_imported_recursively_by_suffix(services: Services, tmp_path: Path) -> None:
    root = tmp_path / "notes"
    write(root / "a.txt")
    write(root / "deep" / "deeper" / "b.md", "# B\n\nBees dance to show where the flowers are.\n")
    write(root / "deep" / "c.markdown", "# C\n\nCats sleep for most of the day.\n")
    write(root / "deep" / "ignored.png", "not text")
    write(root / "deep" / "ignored.json", "{}")
    outcomes = services.library.import_paths([root], extractor="placeholder")
    read = [o for o in outcomes if o.status != "skipped"]
    assert sorted(Path(o.path).name for o in read) == ["a.txt", "b.md", "c.markdown"]
    assert {o.status for o in read} == {"imported"}
    # the other types are listed, first, with the reason
    assert [(Path(o.path).name, o.status) for o in outcomes[:2]] == [
        ("ignored.json", "skipped"),
        ("ignored.png", "skipped"),
    ]
    assert [o.message for o in outcomes[:2]] == [
        f"unsupported file type {suffix}; supported: {', '.join(SUPPORTED_SUFFIXES)}"
        for suffix in (".json", ".png")
    ]
    assert {a.title for a in services.library.articles()} == {"a", "B", "C"}


def test_reimporting_identical_content_is_a_no_op(services: Services, tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt")
    extractor = Scripted(
        lambda d: ArticleMemoryOutput("", (), (grounded(d, 0, "Reviews come late."),), questions_for(1))
    )
    first = services.library.import_file(path, extractor)
    assert first.status == "imported" and first.units == 1
    before = (
        rows(services.data_dir, "SELECT COUNT(*) FROM article"),
        rows(services.data_dir, "SELECT COUNT(*) FROM unit"),
    )
    again = services.library.import_file(path, extractor)
    assert again.status == "already"
    assert again.message == "already imported"
    assert again.article_id == first.article_id
    assert extractor.calls == 1  # no model time spent on a file already in the library
    after = (
        rows(services.data_dir, "SELECT COUNT(*) FROM article"),
        rows(services.data_dir, "SELECT COUNT(*) FROM unit"),
    )
    assert before == after


def test_crlf_and_lf_copies_of_a_file_are_the_same_article(services: Services, tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt")
    services.library.import_paths([path], extractor="placeholder")
    path.write_bytes(TEXT.replace("\n", "\r\n").encode())
    [outcome] = services.library.import_paths([path], extractor="placeholder")
    assert outcome.status == "already"


def test_changed_content_at_the_same_path_updates_the_article_in_place(
    services: Services, tmp_path: Path
) -> None:
    """A known path whose text changed is the same article, version 2: its units are found
    again (same quotes, same ids), the new paragraph gets proposals, nothing is duplicated."""
    path = write(tmp_path / "a.txt")
    [first] = services.library.import_paths([path], extractor="placeholder")
    old_units = services.library.units(first.article_id)
    write(path, TEXT + "\nA new paragraph appeared in the second draft of this article.\n")
    [second] = services.library.import_paths([path], extractor="placeholder")
    assert second.status == "new_version"
    assert second.message.startswith("updated in place (version 2): 1 paragraphs new or changed")
    assert f"{len(old_units)} of {len(old_units)} units found again" in second.message
    assert second.article_id == first.article_id
    assert services.library.article_count() == 1
    article = services.library.article(first.article_id)
    assert article is not None and article.version == 2
    assert article.paragraph_count == len(old_units) + 1
    units = services.library.units(first.article_id)
    kept = {u.id: (u.content, u.evidence, u.status) for u in units if u.id in {o.id for o in old_units}}
    assert kept == {u.id: (u.content, u.evidence, u.status) for u in old_units}  # found, unchanged
    added = [u for u in units if u.id not in kept]
    assert [e.paragraph_id for u in added for e in u.evidence] == ["p_004"] and second.units == 1
    [third] = services.library.import_paths([path], extractor="placeholder")
    assert third.status == "already"


def test_a_bad_file_is_refused_with_a_reason_and_the_others_import(
    services: Services, tmp_path: Path
) -> None:
    folder = tmp_path / "mixed"
    write(folder / "1-good.txt")
    write(folder / "2-empty.txt", "   \n\n  ")
    (folder / "3-binary.txt").write_bytes(b"\x00\x01\x02\xff\xfe" * 200)
    write(folder / "4-good.md", "# Four\n\nFour is the smallest composite number.\n")
    outcomes = services.library.import_paths([folder, tmp_path / "missing.txt"], extractor="placeholder")
    by_name = {Path(o.path).name: o for o in outcomes}
    assert by_name["1-good.txt"].status == "imported"
    assert by_name["4-good.md"].status == "imported"
    for name in ("2-empty.txt", "3-binary.txt", "missing.txt"):
        assert by_name[name].status == "refused", name
        assert by_name[name].message and "\n" not in by_name[name].message
        assert by_name[name].article_id is None
    assert services.library.article_count() == 2


def test_an_extractor_bug_refuses_that_file_only(services: Services, tmp_path: Path) -> None:
    def explode(doc: SourceDocument) -> ArticleMemoryOutput:
        if "Bees" in doc.paragraphs[0].text:
            raise ValueError("extractor bug")
        return ArticleMemoryOutput("", (), (grounded(doc, 0, "Reviews come late."),), questions_for(1))

    extractor = Scripted(explode)
    a = services.library.import_file(write(tmp_path / "a.txt"), extractor)
    b = services.library.import_file(write(tmp_path / "b.txt", "Bees dance.\n"), extractor)
    assert a.status == "imported"
    assert b.status == "refused" and "extractor bug" in b.message and "nothing saved" in b.message
    assert services.library.article_count() == 1


class StopAfter:
    """A stop flag (like threading.Event) that is set once `seen` holds `n` outcomes."""

    def __init__(self, seen: list[tuple[int, int]], n: int) -> None:
        self.seen, self.n = seen, n

    def is_set(self) -> bool:
        return len(self.seen) >= self.n


class StopOnRead:
    """A stop flag that turns set on its `n`-th read: counts how often long work looks at it."""

    def __init__(self, n: int) -> None:
        self.n, self.reads = n, 0

    def is_set(self) -> bool:
        self.reads += 1
        return self.reads >= self.n


def test_cancel_stops_inside_a_long_file_and_saves_nothing(services: Services, tmp_path: Path) -> None:
    """One huge one-line file: the stop flag is read inside its extraction (not only between
    files), the file is abandoned unsaved and the import returns."""
    path = write(tmp_path / "long.txt", "Cells divide when they grow. " * 20000 + "\n")
    stop = StopOnRead(3)  # the first read is before the file, the next ones inside it
    outcomes = services.library.import_paths([path], extractor="offline", stop=stop)
    assert outcomes == []
    assert stop.reads == 3
    assert services.library.article_count() == 0
    # the same flag, never set, lets the file through
    assert (
        services.library.import_paths([path], extractor="offline", stop=threading.Event())[0].status
        == "imported"
    )


def test_progress_and_cancel_between_files(services: Services, tmp_path: Path) -> None:
    for i in range(4):
        write(tmp_path / "f" / f"{i}.txt", f"Article number {i} says something about topic {i}.\n")
    seen: list[tuple[int, int]] = []
    outcomes = services.library.import_paths(
        [tmp_path / "f"],
        extractor="placeholder",
        progress=lambda i, n, o: seen.append((i, n)),
        stop=StopAfter(seen, 2),
    )
    assert seen == [(1, 4), (2, 4)]
    assert len(outcomes) == 2
    assert services.library.article_count() == 2


# --- what is stored ---------------------------------------------------------------------------


def test_ungrounded_units_are_never_stored(services: Services, tmp_path: Path) -> None:
    path = write(tmp_path / "doc.md", "# Title\n\n## A heading here\n\n" + TEXT + "\n```\ncode block\n```\n")

    def build(doc: SourceDocument) -> ArticleMemoryOutput:
        kinds = {p.kind: p for p in doc.paragraphs}
        prose = [p for p in doc.paragraphs if p.kind == "paragraph"]
        good = MemoryUnit(
            "Good unit about reviews.",
            "claim",
            (EvidenceSpan(prose[0].paragraph_id, prose[0].text[:25]),),
            (),
            0.7,
        )
        units = (
            good,
            MemoryUnit("Invented id.", "claim", (EvidenceSpan("p_999", "x"),), (), 0.9),
            MemoryUnit(
                "Invented quote.",
                "claim",
                (EvidenceSpan(prose[1].paragraph_id, "Ebbinghaus in 1999"),),
                (),
                0.9,
            ),
            MemoryUnit("No evidence at all.", "claim", (), (), 0.9),
            MemoryUnit(
                "Heading as evidence.",
                "claim",
                (EvidenceSpan(kinds["heading"].paragraph_id, "A heading"),),
                (),
                0.9,
            ),
            MemoryUnit(
                "Code as evidence.",
                "claim",
                (EvidenceSpan(kinds["code"].paragraph_id, "code block"),),
                (),
                0.9,
            ),
            MemoryUnit("  ", "claim", good.evidence, (), 0.9),
            MemoryUnit("Unknown type.", "definition", good.evidence, (), 0.9),
        )
        return ArticleMemoryOutput("", (), units, questions_for(len(units)))

    outcome = services.library.import_file(path, Scripted(build))
    assert outcome.status == "imported"
    assert outcome.units == 1
    assert "7 ungrounded dropped" in outcome.message
    [stored] = services.library.units(outcome.article_id)
    assert stored.content == "Good unit about reviews."
    assert stored.position == 0
    assert stored.questions[0].question == "Question 0?"
    assert rows(services.data_dir, "SELECT COUNT(*) FROM unit") == [(1,)]
    # the artifact keeps what was dropped and why
    summary = services.library.summary(outcome.article_id)
    assert summary is not None
    dropped = summary["dropped"]
    assert isinstance(dropped, list) and len(dropped) == 7
    reasons = " ".join(str(d["reason"]) for d in dropped)
    for code in (
        "unknown_paragraph",
        "quote_not_found",
        "no_evidence",
        "non_prose_evidence",
        "empty_content",
        "unknown_type",
    ):
        assert code in reasons and code in GROUNDING_CODES


def test_units_with_other_issues_are_stored_but_cannot_be_accepted(
    services: Services, tmp_path: Path
) -> None:
    path = write(tmp_path / "a.txt")

    def build(doc: SourceDocument) -> ArticleMemoryOutput:
        units = (
            grounded(doc, 0, "Reviews are timed before forgetting."),
            grounded(doc, 1, "Ebbinghaus described the forgetting curve."),
            grounded(doc, 2, "Retrieval beats rereading."),
        )
        questions = (
            RecallQuestion("When are reviews timed?", "", 0, "qa"),  # empty answer: unit 0
            RecallQuestion("Who described it?", "Ebbinghaus", 1, "qa"),
        )  # unit 2 has no question
        return ArticleMemoryOutput("", (), units, questions)

    outcome = services.library.import_file(path, Scripted(build))
    stored = {u.position: u for u in services.library.units(outcome.article_id)}
    assert set(stored) == {0, 1, 2}
    errors = {k: [i.code for i in u.issues if i.severity == "error"] for k, u in stored.items()}
    assert errors[0] == ["empty_answer"]
    assert errors[2] == ["no_question"]
    # the card rules' warnings are stored beside the card too (Triage shows them)
    assert "tag_word_piece" in {i.code for i in stored[0].issues if i.severity == "warning"}  # tag "t"
    assert stored[1].acceptable and not stored[0].acceptable and not stored[2].acceptable
    with pytest.raises(CannotAccept, match="empty_answer"):
        services.curation.accept(stored[0].id)
    assert services.curation.accept(stored[1].id)
    assert services.curation.accept_all_valid(outcome.article_id) == 0
    assert {u.position: u.status for u in services.library.units(outcome.article_id)} == {
        0: "proposed",
        1: "confirmed",
        2: "proposed",
    }


def test_one_transaction_per_article(services: Services, tmp_path: Path) -> None:
    """A write failing half-way through an article (a trigger refuses one unit) leaves no trace
    of that article, while the files before and after it import normally."""
    con = sqlite3.connect(services.data_dir / "memoryrush.sqlite3")
    con.execute(
        "CREATE TRIGGER poison BEFORE INSERT ON unit WHEN NEW.content LIKE '%POISON%' "
        "BEGIN SELECT RAISE(ABORT, 'poisoned unit'); END"
    )
    con.commit()
    con.close()
    folder = tmp_path / "batch"
    write(folder / "1.txt", "First article is fine and has a sentence.\n\nAnd a second one.\n")
    write(
        folder / "2.txt", "Second article starts well.\n\nThen POISON arrives in paragraph two.\n\nThird.\n"
    )
    write(folder / "3.txt", "Third article is fine too.\n")
    outcomes = services.library.import_paths([folder], extractor="placeholder")
    assert [o.status for o in outcomes] == ["imported", "refused", "imported"]
    assert "poisoned unit" in outcomes[1].message
    titles = [t for (t,) in rows(services.data_dir, "SELECT title FROM article ORDER BY id")]
    assert titles == ["1", "3"]
    # nothing of article 2 anywhere: no paragraph, artifact, unit or evidence without its article
    assert rows(services.data_dir, "SELECT COUNT(*) FROM paragraph WHERE text LIKE '%POISON%'") == [(0,)]
    assert rows(
        services.data_dir, "SELECT COUNT(*) FROM artifact WHERE article_id NOT IN (SELECT id FROM article)"
    ) == [(0,)]
    assert rows(
        services.data_dir, "SELECT COUNT(*) FROM unit WHERE article_id NOT IN (SELECT id FROM article)"
    ) == [(0,)]
    assert rows(
        services.data_dir, "SELECT COUNT(*) FROM evidence WHERE unit_id NOT IN (SELECT id FROM unit)"
    ) == [(0,)]


def test_stored_article_matches_the_document(services: Services, tmp_path: Path) -> None:
    path = write(tmp_path / "a.txt")
    [outcome] = services.library.import_paths([path], extractor="placeholder")
    article = services.library.article(outcome.article_id or 0)
    assert article is not None
    paragraphs = services.library.paragraphs(article.id)
    assert [p.paragraph_id for p in paragraphs] == ["p_001", "p_002", "p_003"]
    assert article.paragraph_count == 3
    assert article.encoding == "utf-8"
    assert article.source_path == str(path.resolve())
    assert article.document_id.startswith("doc_") and len(article.document_id) == 16
    for unit in services.library.units(article.id):
        for span in unit.evidence:
            paragraph = services.library.paragraph(article.id, span.paragraph_id)
            assert paragraph is not None and span.quote in paragraph.text
