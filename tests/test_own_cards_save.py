"""Issue 16, the save of a card of yours: one transaction that reads only the paragraph it cites
(not the 5,000 of a long article), a no-wait write for the screen (DatabaseBusy at once, nothing
saved, when another process holds the lock), and the article-wide card rule still counted on the
whole article."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from process_support import write_locked

from core.domain import READER, SelectedSpan
from core.domain.errors import DatabaseBusy
from core.services.bootstrap import Services
from core.storage.db import db

GARDEN = "Tomatoes grow well in warm gardens."
OTHERS = [
    "Gardens need water. Gardens need sun. Gardens reward patience.",
    "Many gardens are small; gardens on balconies count too.",
    "Community gardens share tools and gardens share seeds.",
]


def _article(services: Services, tmp_path: Path) -> int:
    path = tmp_path / "gardens.md"
    path.write_text("\n\n".join([GARDEN, *OTHERS]) + "\n", encoding="utf-8")
    (outcome,) = services.library.import_paths([path], extractor="offline")
    assert outcome.article_id is not None
    return outcome.article_id


def _span(part: str) -> SelectedSpan:
    start = GARDEN.index(part)
    return SelectedSpan("p_001", start, start + len(part), part)


def _yours(services: Services, article_id: int) -> list[int]:
    return [u.id for u in services.library.units(article_id) if u.extractor == READER]


@contextmanager
def traced() -> Iterator[list[str]]:
    """The SQL this thread's connection runs meanwhile."""
    seen: list[str] = []
    connection = db.connection()
    connection.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        connection.set_trace_callback(None)


def test_a_cloze_reads_only_its_paragraph_inside_its_one_transaction(
    services: Services, tmp_path: Path
) -> None:
    article_id = _article(services, tmp_path)
    services.authoring.cloze(article_id, [_span("Tomatoes")])  # the first card reads the article once
    with traced() as sql:
        made = services.authoring.cloze(article_id, [_span("warm")])
    assert made.unit_id in _yours(services, article_id)
    begins = [i for i, s in enumerate(sql) if s.startswith("BEGIN")]
    commits = [i for i, s in enumerate(sql) if s.startswith("COMMIT")]
    assert len(begins) == 1 and len(commits) == 1, sql
    reads = [i for i, s in enumerate(sql) if 'FROM "paragraph"' in s]
    assert reads and all(begins[0] < i < commits[0] for i in reads), sql  # checked where it is stored
    assert all(" IN (" in sql[i] for i in reads), sql  # the cited paragraph, never the whole article


def test_a_cloze_on_a_database_locked_past_the_busy_timeout_saves_nothing_and_says_so(
    services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORYRUSH_BUSY_TIMEOUT_MS", "200")
    article_id = _article(services, tmp_path)
    services.authoring.topics(article_id)
    assert services.authoring.ready(article_id)
    with write_locked(), pytest.raises(DatabaseBusy, match="nothing was saved"):  # another process's lock
        services.authoring.cloze(article_id, [_span("warm")])
    assert _yours(services, article_id) == []
    made = services.authoring.cloze(article_id, [_span("warm")])  # the lock is free again
    assert _yours(services, article_id) == [made.unit_id]


def test_the_topic_term_rule_counts_the_whole_article_not_the_cited_paragraph(
    services: Services, tmp_path: Path
) -> None:
    """'gardens' is the article's most frequent term though its own paragraph names it once: a
    cloze blanking it is warned about (guessed, not recalled), one blanking 'Tomatoes' is not."""
    article_id = _article(services, tmp_path)
    topical = services.authoring.cloze(article_id, [_span("gardens")])
    assert "cloze_topic_term" in {i.code for i in topical.report.issues}
    plain = services.authoring.cloze(article_id, [_span("Tomatoes")])
    assert "cloze_topic_term" not in {i.code for i in plain.report.issues}


def test_the_make_event_keeps_the_unit_as_stored(services: Services, tmp_path: Path) -> None:
    """The save builds the undo snapshot from what it stores (no read back): it is the snapshot
    a read of the stored rows gives, in the trash."""
    import json

    from core.storage import curation
    from core.storage.models import CurationEvent, Unit

    article_id = _article(services, tmp_path)
    made = services.authoring.make(
        article_id, [_span("Tomatoes grow well")], content="Tomatoes grow well in warm gardens.",
        memory_type="claim", tags=("garden",),
        questions=(("What grows well in warm gardens?", "Tomatoes", "qa"), ("Where? ____", "warm gardens", "cloze")),
    )  # fmt: skip
    (event,) = CurationEvent.select().where(CurationEvent.unit == made.unit_id)
    stored = curation.snapshot(Unit.get_by_id(made.unit_id))
    before = json.loads(event.before_json)
    assert before["questions"] == stored["questions"] and len(stored["questions"]) == 2
    assert (
        before["evidence"] == stored["evidence"] == [{"paragraph_id": "p_001", "quote": "Tomatoes grow well"}]
    )
    assert before["status"] == "trashed" and before["status_before_trash"] == "confirmed"


def test_ready_is_false_once_the_article_was_read_again_with_other_text(
    services: Services, tmp_path: Path
) -> None:
    """The kept topic terms are the old text's after a re-import with changed text: the next
    card reads the article again (a worker on the screen), so the article is not ready."""
    article_id = _article(services, tmp_path)
    services.authoring.topics(article_id)
    assert services.authoring.ready(article_id)
    (tmp_path / "gardens.md").write_text(
        "\n\n".join([GARDEN, *OTHERS, "Orchards need pruning in winter."]) + "\n", encoding="utf-8"
    )
    assert services.library.reimport(article_id).status == "new_version"
    assert not services.authoring.ready(article_id)
    services.authoring.topics(article_id)  # read again: ready once more
    assert services.authoring.ready(article_id)


def test_the_save_reads_back_nothing_it_wrote(services: Services, tmp_path: Path) -> None:
    """Once the unit row is written, the save only writes (its cards from its questions in one
    INSERT ... SELECT): no read of the rows it just stored, no delete of evidence or questions
    a new unit has none of, one statement a table."""
    article_id = _article(services, tmp_path)
    services.authoring.cloze(article_id, [_span("Tomatoes")])
    with traced() as sql:
        services.authoring.cloze(article_id, [_span("warm")])
    statements = [s for s in sql if not s.startswith(("--", "PRAGMA", "BEGIN", "COMMIT"))]
    first_write = next(i for i, s in enumerate(statements) if s.startswith("INSERT"))
    after = statements[first_write:]
    assert not [s for s in after if s.startswith(("SELECT", "DELETE", "UPDATE"))], after
    # SQLite traces a statement on a table with a trigger (card) twice in a row: counted once
    ran = [s for i, s in enumerate(after) if i == 0 or s != after[i - 1]]
    tables = [s.split()[2] for s in ran if not s.startswith("INSERT OR IGNORE INTO search_words")]
    assert len(tables) == len(set(tables)), after  # one statement a table (words: one executemany)
