"""A library made before reader text (schema 1, by that release's own code) opened today.

tests/fixtures/migrations/library_v1.sqlite3 was written by main's code before this change
(make_v1_library.py beside it says how): Markdown notes with inline markup, a Chinese Markdown
sample and a .txt sample, every unit confirmed, four cards answered. Opening it migrates the
schema (a backup first), then renders its Markdown articles to reader text and re-anchors
their units: every quote is found again, so every unit keeps its status, cards and history.
"""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
from pathlib import Path

from core.domain import READER_VERSION
from core.services.bootstrap import Services, open_services
from core.storage import db as storage_db
from core.validation.evidence import quote_in_paragraph

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "migrations"
NOTES = "How spaced repetition works"


def sql(home: Path, statement: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    con = sqlite3.connect(home / "memoryrush.sqlite3")
    try:
        rows = con.execute(statement, args).fetchall()
        con.commit()
        return rows
    finally:
        con.close()


def old_reads(home: Path) -> int:
    """How many articles are still as an older reader read them (to be read again)."""
    [(count,)] = sql(home, "SELECT COUNT(*) FROM article WHERE reader_version < ?", (READER_VERSION,))
    return int(count)  # type: ignore[call-overload]


def old_library(home: Path, *, sources: Path) -> dict[str, list[tuple[object, ...]]]:
    """The v1 library in `home`, its articles' files said to be in `sources` (absent unless
    the test writes them); returns what must survive the upgrade."""
    home.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURE / "library_v1.sqlite3", home / "memoryrush.sqlite3")
    for article_id, path in sql(home, "SELECT id, source_path FROM article"):
        sql(
            home,
            "UPDATE article SET source_path = ? WHERE id = ?",
            (str(sources / Path(str(path)).name), article_id),
        )
    assert sql(home, "PRAGMA user_version") == [(1,)]
    return {
        "units": sql(home, "SELECT id, article_id, status, content FROM unit ORDER BY id"),
        "cards": sql(home, "SELECT id, unit_id, state, due, stability, difficulty FROM card ORDER BY id"),
        "logs": sql(home, "SELECT * FROM review_log ORDER BY id"),
    }


def open_library(home: Path) -> Services:
    return open_services(home)


def notes_article(svc: Services) -> int:
    [article] = [a for a in svc.library.articles() if a.title == NOTES]
    return article.id


def test_an_old_library_is_migrated_then_shown_as_reader_text(data_home: Path, tmp_path: Path) -> None:
    before = old_library(data_home, sources=tmp_path / "gone")
    svc = open_library(data_home)
    try:
        assert sql(data_home, "PRAGMA user_version") == [(storage_db.SCHEMA_VERSION,)]
        assert len(list((data_home / "backups").glob("*v1-before-v*.sqlite3"))) == 1
        [notice] = [n for n in svc.notices if "new readers" in n]
        assert notice.startswith("brought 2 articles up to date with the new readers")
        assert "13 units found again" in notice and "source changed" not in notice  # 6 + 7 (.txt: as it was)
        article_id = notes_article(svc)  # the title too is reader text now ("How *spaced* ...")
        paragraphs = svc.library.paragraphs(article_id)
        texts = [p.text for p in paragraphs]
        assert texts[0].startswith("Spaced repetition spreads reviews over growing intervals")
        assert texts[0].endswith("See the FSRS wiki for details.")
        assert texts[2] == (
            "• Stability: the number of days until recall probability falls to 90 percent.\n"
            "• Difficulty: how hard it is to raise the stability of a card."
        )
        assert texts[4] == "term | meaning\nR | retrievability"
        assert texts[5].startswith("def retrievability(t, s):") and "```" not in texts[5]
        assert texts[6] == "Why desired_retention matters"
        prose = [p.text for p in paragraphs if p.kind != "code"]
        assert not any(mark in t for t in prose for mark in ("**", "](", "`"))
        spans = {(paragraphs[0].text[s.start : s.end], s.kind) for s in paragraphs[0].spans}
        assert {("reviews", "strong"), ("the FSRS wiki", "link"), ("FSRS", "strong")} <= spans
        assert [p.paragraph_id for p in paragraphs] == [f"p_{i:03d}" for i in range(1, 9)]  # ids kept
        assert paragraphs[3].locator.section == ("What a scheduler tracks",)
        assert paragraphs[7].locator.section == ("Why desired_retention matters",)
        # every unit found again: same status, and each quote an exact span of the new text
        units = svc.library.units()
        assert [(u.id, u.article_id, u.status) for u in units] == [r[:3] for r in before["units"]]
        assert all(u.anchor == "" for u in units)
        by_id = {
            (u.article_id, p.paragraph_id): p.text
            for u in units
            for p in svc.library.paragraphs(u.article_id)
        }
        for u in units:
            for e in u.evidence:
                assert quote_in_paragraph(e.quote, by_id[(u.article_id, e.paragraph_id)]), e.quote
        notes_units = [u for u in units if u.article_id == article_id]
        assert "Stability: the number of days" in notes_units[2].evidence[0].quote
        # the cards copied the old text's markup: rendered too (a cloze whose gap is in a link's
        # address is left as it was: rendering would lose the gap)
        cards = [(q.question, q.expected_answer) for u in notes_units for q in u.questions]
        assert (
            'What does the text say about "Stability"?',
            "Stability: the number of days until recall probability falls to 90 percent.",
        ) in cards
        assert (
            "Fill in the blank: A higher desired_retention means more ____ but fewer lapses; "
            "most people keep it at 0.9.",
            "reviews",
        ) in cards
        assert not any("**" in q or "**" in a for q, a in cards if "](" not in q)
    finally:
        svc.close()
    # cards and review history untouched
    assert (
        sql(data_home, "SELECT id, unit_id, state, due, stability, difficulty FROM card ORDER BY id")
        == before["cards"]
    )
    assert sql(data_home, "SELECT * FROM review_log ORDER BY id") == before["logs"]
    # the old quotes are kept as history, and every article is read by today's readers
    history = sql(data_home, "SELECT quote, outcome FROM evidence_history ORDER BY id")
    assert (
        "- **Stability**: the number of days until recall probability falls to 90 percent.",
        "rendered",
    ) in history
    assert {o for _, o in history} == {"rendered"}
    assert sql(data_home, "SELECT DISTINCT reader_version FROM article") == [(READER_VERSION,)]


def test_the_refresh_runs_once(data_home: Path, tmp_path: Path) -> None:
    old_library(data_home, sources=tmp_path / "gone")
    open_library(data_home).close()
    history = sql(data_home, "SELECT COUNT(*) FROM evidence_history")
    svc = open_library(data_home)
    try:
        assert not [n for n in svc.notices if "new readers" in n]
    finally:
        svc.close()
    assert sql(data_home, "SELECT COUNT(*) FROM evidence_history") == history
    assert len(list((data_home / "backups").glob("*.sqlite3"))) == 1


def test_a_source_file_still_there_is_read_again_with_its_heading_levels(
    data_home: Path, tmp_path: Path
) -> None:
    """With the file present and unchanged, the article reads exactly as a fresh import would."""
    spec = importlib.util.spec_from_file_location("make_v1_library", FIXTURE / "make_v1_library.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "notes.md").write_text(module.NOTES, encoding="utf-8")
    old_library(data_home, sources=sources)
    svc = open_library(data_home)
    try:
        article_id = notes_article(svc)
        paragraphs = svc.library.paragraphs(article_id)
        assert paragraphs[3].locator.section == ("What a scheduler tracks",)
        assert all(u.anchor == "" for u in svc.library.units(article_id))
    finally:
        svc.close()
    from core.ingest import read_document

    fresh = read_document(sources / "notes.md")
    assert [(p.text, p.kind, p.locator, p.spans) for p in paragraphs] == [
        (p.text, p.kind, p.locator, p.spans) for p in fresh.paragraphs
    ]


def test_a_read_only_open_does_not_refresh(data_home: Path, tmp_path: Path) -> None:
    """`memoryrush list` while the app runs elsewhere must not write: the refresh waits."""
    old_library(data_home, sources=tmp_path / "gone")
    svc = open_services(data_home, exclusive=False)
    try:
        assert svc.library.article_count() == 3
    finally:
        svc.close()
    assert old_reads(data_home) == 3


def test_words_the_reader_edited_stay_exactly_theirs(data_home: Path, tmp_path: Path) -> None:
    old_library(data_home, sources=tmp_path / "gone")
    mine = "My own **bold** note"
    sql(data_home, "UPDATE unit SET edited = 1, content = ? WHERE id = 3", (mine,))
    svc = open_library(data_home)
    try:
        edited = svc.library.unit(3)
        other = svc.library.unit(4)
        assert edited is not None and other is not None
        assert edited.content == mine and edited.anchor == ""
        assert edited.questions[0].expected_answer.startswith("- **Stability**")
        assert other.content == "Difficulty: how hard it is to raise the stability of a card."
        assert other.questions[0].expected_answer.startswith("Difficulty: how hard")
    finally:
        svc.close()


def test_an_article_whose_refresh_fails_is_left_as_it_was_and_the_library_opens(
    data_home: Path, tmp_path: Path
) -> None:
    """A search index out of step with the paragraphs (emptied here) makes SQLite report the
    file damaged while the refresh takes the old paragraphs out of it. That error came from the
    raw connection as sqlite3.DatabaseError, which the write transaction did not translate:
    every command that opens the library (`restore` too) ended in a traceback. Now the article
    stays as it was, the notice says so, and the next open tries again. (The upgrade from
    schema 1 rebuilds the search index, schema 3: so the library is opened once, then its
    articles are said to be read by the old reader again and the index is emptied.)"""
    old_library(data_home, sources=tmp_path / "gone")
    open_library(data_home).close()
    sql(data_home, "UPDATE article SET reader_version = 1")
    sql(data_home, "INSERT INTO search_para(search_para) VALUES ('delete-all')")
    svc = open_library(data_home)
    try:
        [notice] = [n for n in svc.notices if "new readers" in n]
        assert "left as they were, tried again next time" in notice and "damaged" in notice
        assert svc.library.article_count() == 3
    finally:
        svc.close()
    assert old_reads(data_home) == 2


def test_a_web_page_read_before_reader_3_is_read_again(data_home: Path, tmp_path: Path) -> None:
    """Reader 3 reads the text after an HTML comment inside a paragraph (reader 2 dropped it):
    a page stored by reader 2 is read again at the next open, its paragraph whole."""
    from core.extraction.offline import OfflineExtractor

    page = tmp_path / "page.html"
    page.write_text(
        "<html><head><title>Comments</title></head><body><main><p>Sleep consolidates what you"
        " learned <!-- an editor's note --> during the day, and spacing the reviews helps"
        " more than cramming them.</p></main></body></html>",
        encoding="utf-8",
    )
    svc = open_library(data_home)
    try:
        outcome = svc.library.import_file(page, OfflineExtractor())
        assert outcome.status == "imported", outcome
    finally:
        svc.close()
    [(whole,)] = sql(data_home, "SELECT text FROM paragraph WHERE text LIKE 'Sleep%'")
    assert "during the day" in whole
    sql(
        data_home,
        "UPDATE paragraph SET text = 'Sleep consolidates what you learned' WHERE text LIKE 'Sleep%'",
    )
    sql(data_home, "UPDATE article SET reader_version = 2")
    open_library(data_home).close()
    assert sql(data_home, "SELECT text FROM paragraph WHERE text LIKE 'Sleep%'") == [(whole,)]
    assert sql(data_home, "SELECT DISTINCT reader_version FROM article") == [(READER_VERSION,)]
