"""Anki's own code reads what `export anki` writes (the `anki` package, test extras only).

A real library (sample articles, accepted units, real reviews) is exported and imported into a
fresh Anki collection with Anki's importer: note and card counts, every field, tags, deck names;
a second export after an edit updates the notes instead of adding copies; with --with-history the
review log and the FSRS memory state arrive; each note's Context field (issue 30) arrives and
shows small above the question; a collection holding notes of the note types before that field
is updated in place when imported with "Merge note types" (and skipped without, as we say).
"""

from __future__ import annotations

import html
import sqlite3
import time
from pathlib import Path

import genanki
import pytest
from export_support import build_library

from core.domain.context import context_line
from core.domain.export import ExportFilter
from core.host.clock import FixedClock
from core.services.bootstrap import Services
from core.services.export import anki as anki_export
from core.services.export import anki_notes
from core.services.export.anki import NOTE_TYPES_CHANGED, Schedule, export_anki
from core.services.export.anki_notes import CLOZE_FIELDS, QA_FIELDS, NoteFields, cloze_text, field_text
from core.text import sanitize

anki_collection = pytest.importorskip("anki.collection")


def anki_import(package: Path, collection: Path, *, merge: bool = True) -> object:
    col = anki_collection.Collection(str(collection))
    try:
        request = anki_collection.ImportAnkiPackageRequest(
            package_path=str(package),
            options=anki_collection.ImportAnkiPackageOptions(with_scheduling=True, merge_notetypes=merge),
        )
        return col.import_anki_package(request)
    finally:
        col.close()


def open_col(collection: Path):  # type: ignore[no-untyped-def]
    return anki_collection.Collection(str(collection))


def ours(services: Services) -> list[tuple[int, str, str, str, int, str]]:
    """(question id, question, answer, kind, unit id, article title) of every confirmed unit's question."""
    con = sqlite3.connect(services.data_dir / "memoryrush.sqlite3")
    try:
        return list(
            con.execute(
                "SELECT q.id, q.question, q.answer, q.kind, u.id, a.title FROM question q JOIN unit u ON u.id = q.unit_id "
                "JOIN article a ON a.id = u.article_id WHERE u.status = 'confirmed' ORDER BY q.id"
            )
        )
    finally:
        con.close()


@pytest.fixture
def library(services: Services, clock: FixedClock) -> Services:
    build_library(services, clock)
    return services


def test_anki_reads_every_note_field_tag_and_deck(
    library: Services, clock: FixedClock, tmp_path: Path
) -> None:
    package = tmp_path / "out.apkg"
    result = export_anki(package, ExportFilter(), now=clock.epoch())
    expected = ours(library)
    assert result.cards == len(expected) > 20
    anki_import(package, tmp_path / "c.anki2")
    col = open_col(tmp_path / "c.anki2")
    try:
        assert col.note_count() == len(expected)
        assert col.card_count() == len(expected)  # one card per question
        notes = [col.get_note(nid) for nid in col.find_notes("")]
        by_id = {n["MemoryRush ID"].rsplit("/q", 1)[1]: n for n in notes}
        units = {u.id: u for a in library.library.articles() for u in library.library.units(a.id)}
        where = {
            (a.id, p.paragraph_id): p.locator.label()
            for a in library.library.articles()
            for p in library.library.paragraphs(a.id)
        }
        assert any(n["Locator"] for n in notes)  # the Markdown samples have headings (.txt: none)
        assert any(" › " in n["Context"] for n in notes) and all(n["Context"] for n in notes)
        for qid, question, answer, kind, unit_id, title in expected:
            note = by_id[str(qid)]
            unit = units[unit_id]
            names = note.keys()
            if kind == "cloze" and cloze_text(question, answer) is not None:
                assert names == list(CLOZE_FIELDS)
                assert note["Text"] == cloze_text(question, answer)
                assert "{{c1::" in note["Text"]
            else:
                assert names == list(QA_FIELDS)
                assert note["Question"] == field_text(question)
            assert note["Answer"] == field_text(answer)
            assert note["Unit"] == field_text(unit.content)
            assert note["Quote"] == "<br>".join(field_text(e.quote) for e in unit.evidence)
            assert "<mark>" in note["Evidence"]
            assert (
                html.unescape(note["Evidence"].split("<mark>")[1].split("</mark>")[0])
                == unit.evidence[0].quote
            )
            assert note["Source"] == field_text(title)
            assert note["Paragraph"] == ", ".join(e.paragraph_id for e in unit.evidence)
            # where each quote sits (issue 19): the paragraph's heading path, page or chapter
            located = [where[unit.article_id, e.paragraph_id] for e in unit.evidence]
            assert note["Locator"] == field_text(", ".join(label for label in located if label))
            # where the card comes from (issue 30): the title › the section of its first quote
            assert note["Context"] == field_text(context_line(title, unit.locator))
            assert f"MemoryRush::{unit.memory_type}" in note.tags
            for tag in unit.tags:
                assert tag.replace(" ", "_") in note.tags
        decks = {name for name, _ in ((d.name, d.id) for d in col.decks.all_names_and_ids())}
        titles = {a.title for a in library.library.articles()}
        assert {f"MemoryRush::{t}" for t in titles} <= decks and "MemoryRush" in decks
        for cid in col.find_cards(""):
            card = col.get_card(cid)
            note = col.get_note(card.nid)
            assert col.decks.name(card.did) == f"MemoryRush::{note['Source']}"
            assert card.type == 0  # without --with-history every card is new
            shown = f'<div class="mr-context">{note["Context"]}</div>'
            front = card.question().split("</style>", 1)[-1]  # Anki's rendering, our CSS before it
            assert front.startswith(shown) and shown in card.answer()  # first, above the question
            assert ".mr-context {" in card.question()  # its small, muted style
        assert col.db.scalar("SELECT COUNT(*) FROM revlog") == 0
    finally:
        col.close()


def test_a_second_export_updates_notes_instead_of_adding_copies(
    library: Services, clock: FixedClock, tmp_path: Path
) -> None:
    first = tmp_path / "first.apkg"
    export_anki(first, ExportFilter(), now=clock.epoch())
    anki_import(first, tmp_path / "c.anki2")
    unit = next(u for a in library.library.articles() for u in library.library.units(a.id, ["confirmed"]))
    questions = [(q.question, q.expected_answer, q.kind) for q in unit.questions]
    questions[0] = ("What changed here?", questions[0][1], "qa")
    clock.advance(minutes=5)
    library.curation.edit(
        unit.id,
        content=unit.content + " (edited)",
        memory_type=unit.memory_type,
        tags=list(unit.tags),
        questions=questions,
    )
    second = tmp_path / "second.apkg"
    export_anki(second, ExportFilter(), now=clock.epoch() + 60)
    log = anki_import(second, tmp_path / "c.anki2").log  # type: ignore[attr-defined]
    assert len(log.new) == 0
    assert len(log.updated) >= 1
    col = open_col(tmp_path / "c.anki2")
    try:
        assert col.note_count() == len(ours(library))
        edited = [col.get_note(n) for n in col.find_notes("") if col.get_note(n)["Unit"].endswith("(edited)")]
        assert len(edited) == len(unit.questions)
        assert any(n["Question"] == "What changed here?" for n in edited)
    finally:
        col.close()


def old_note_types(monkeypatch: pytest.MonkeyPatch, *, with_context: bool = False) -> None:
    """Exports under the note types' previous ids: as they were before the Context field
    (without it, their templates without its line), or `with_context` (the field added under
    the old ids: what we did not do)."""
    old: dict[int, tuple[genanki.Model, int | None]] = {}
    for model, old_id in zip(
        (anki_notes.QA_MODEL, anki_notes.CLOZE_MODEL), anki_notes.PREVIOUS_MODEL_IDS, strict=True
    ):
        names = [f["name"] for f in model.fields]
        front, back = (model.templates[0][k] for k in ("qfmt", "afmt"))
        at: int | None = None
        if not with_context:
            front, back = front.replace(anki_notes._CONTEXT, ""), back.replace(anki_notes._CONTEXT, "")
            at = names.index("Context")
            names.remove("Context")
        cloze = model.model_type == genanki.Model.CLOZE
        old[model.model_id] = (anki_notes._model(old_id, model.name, tuple(names), front, back, cloze), at)
    made_now = anki_export.note_fields

    def note_fields(*args):  # type: ignore[no-untyped-def]
        made = made_now(*args)
        model, at = old[made.model.model_id]
        fields = made.fields if at is None else made.fields[:at] + made.fields[at + 1 :]
        return NoteFields(model, fields, made.tags)

    monkeypatch.setattr(anki_export, "note_fields", note_fields)
    monkeypatch.setattr(anki_export, "NOTE_TYPES", anki_notes.PREVIOUS_MODEL_IDS)


def test_a_collection_with_the_old_note_types_is_updated_in_place_when_merged(
    library: Services, clock: FixedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as before:
        old_note_types(before)
        export_anki(tmp_path / "old.apkg", ExportFilter(), now=clock.epoch())
    for merge in (False, True):
        anki_import(tmp_path / "old.apkg", tmp_path / f"c{merge}.anki2")
    col = open_col(tmp_path / "cTrue.anki2")
    try:
        old_ids = {m.id for m in col.models.all_names_and_ids()} & set(anki_notes.PREVIOUS_MODEL_IDS)
        assert old_ids == set(anki_notes.PREVIOUS_MODEL_IDS)
        notes, cards = sorted(col.find_notes("")), sorted(col.find_cards(""))
    finally:
        col.close()
    clock.advance(minutes=5)
    package = tmp_path / "new.apkg"
    result = export_anki(package, ExportFilter(), now=clock.epoch())
    assert result.notes == (NOTE_TYPES_CHANGED,)  # said once per library
    # Anki's default ("Merge note types" off) skips every note whose note type changed: what we say
    skipped = anki_import(package, tmp_path / "cFalse.anki2", merge=False).log  # type: ignore[attr-defined]
    assert len(skipped.conflicting) == len(notes) and not skipped.updated and not skipped.new
    log = anki_import(package, tmp_path / "cTrue.anki2").log  # type: ignore[attr-defined]
    assert len(log.updated) == len(notes) and not log.new and not log.conflicting
    col = open_col(tmp_path / "cTrue.anki2")
    try:
        assert sorted(col.find_notes("")) == notes and sorted(col.find_cards("")) == cards  # the same notes
        kinds = {m.id: m.name for m in col.models.all_names_and_ids()}
        assert anki_notes.QA_MODEL_ID in kinds and not set(anki_notes.PREVIOUS_MODEL_IDS) & kinds.keys()
        for nid in notes:
            note = col.get_note(nid)
            assert note.note_type()["id"] in (anki_notes.QA_MODEL_ID, anki_notes.CLOZE_MODEL_ID)
            assert note["Context"] and note["Context"] in col.get_card(note.card_ids()[0]).question()
    finally:
        col.close()
    assert export_anki(tmp_path / "again.apkg", ExportFilter(), now=clock.epoch()).notes == ()


def test_the_field_under_the_old_ids_would_not_update_the_notes(
    library: Services, clock: FixedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why the note type ids changed: the same ids with the new field, imported with "Merge
    note types", merge the field in but leave every note as it was (the merge marks them changed
    after the package was written); without the option, Anki skips them."""
    with monkeypatch.context() as before:
        old_note_types(before)
        export_anki(tmp_path / "old.apkg", ExportFilter(), now=clock.epoch())
    for merge in (False, True):
        anki_import(tmp_path / "old.apkg", tmp_path / f"c{merge}.anki2")
    clock.advance(minutes=5)
    with monkeypatch.context() as same_ids:
        old_note_types(same_ids, with_context=True)
        export_anki(tmp_path / "same_ids.apkg", ExportFilter(), now=clock.epoch())
    skipped = anki_import(tmp_path / "same_ids.apkg", tmp_path / "cFalse.anki2", merge=False).log  # type: ignore[attr-defined]
    assert skipped.conflicting and not skipped.updated
    merged = anki_import(tmp_path / "same_ids.apkg", tmp_path / "cTrue.anki2").log  # type: ignore[attr-defined]
    assert merged.duplicate and not merged.updated
    col = open_col(tmp_path / "cTrue.anki2")
    try:
        assert all(col.get_note(n)["Context"] == "" for n in col.find_notes(""))
    finally:
        col.close()


def test_with_history_the_review_log_and_memory_state_arrive(
    library: Services, clock: FixedClock, tmp_path: Path
) -> None:
    con = sqlite3.connect(library.data_dir / "memoryrush.sqlite3")
    reviewed = con.execute(
        "SELECT c.id, c.question_id, c.stability, c.difficulty, c.reps, c.lapses, c.state, c.due, "
        "(SELECT COUNT(*) FROM review_log r WHERE r.card_id = c.id) FROM card c WHERE c.reps > 0"
    ).fetchall()
    logs = con.execute("SELECT COUNT(*) FROM review_log").fetchone()[0]
    con.close()
    assert reviewed and logs >= 10
    package = tmp_path / "history.apkg"
    result = export_anki(
        package, ExportFilter(), now=clock.epoch(), with_history=True, schedule=Schedule(0.9, 0.97)
    )
    assert result.reviews == logs
    anki_import(package, tmp_path / "c.anki2")
    col = open_col(tmp_path / "c.anki2")
    try:
        assert col.db.scalar("SELECT COUNT(*) FROM revlog") == logs
        by_question = {
            col.get_note(col.get_card(c).nid)["MemoryRush ID"].rsplit("/q", 1)[1]: col.get_card(c)
            for c in col.find_cards("")
        }
        for _cid, qid, stability, difficulty, reps, lapses, state, due, n_logs in reviewed:
            card = by_question[str(qid)]
            assert card.reps == reps and card.lapses == lapses
            assert card.type == state  # FSRS and Anki number learning/review/relearning alike
            assert card.memory_state is not None
            assert card.memory_state.stability == pytest.approx(stability, rel=1e-3)
            assert card.memory_state.difficulty == pytest.approx(difficulty, rel=1e-3)
            assert card.desired_retention == pytest.approx(0.9)
            assert col.db.scalar("SELECT COUNT(*) FROM revlog WHERE cid = ?", card.id) == n_logs
            if state == 2:  # Anki keeps review due dates as days: the same calendar day, give or take one
                days = (due - time.time()) / 86400  # Anki's "today" is the real clock's
                assert abs((card.due - col.sched.today) - days) <= 1.5
    finally:
        col.close()


def test_article_text_never_becomes_html_or_cloze_syntax() -> None:
    hostile = "<script>alert(1)</script> {{c2::x}} <img src=x onerror=alert(2)> \x1b[31m"
    text = field_text(hostile)
    assert "<" not in text and "{" not in text and "\x1b" not in text
    assert html.unescape(text) == sanitize(hostile)
    cloze = cloze_text("Fill in the blank: a ____ {{c3::b}}", "<b>x</b>")
    assert cloze is not None and cloze.count("{{c") == 1 and "<b>" not in cloze


def test_anki_ids_stay_unique_and_in_time_order_when_thousands_share_a_second() -> None:
    """A bulk import (or a made-up library) makes thousands of notes, and reviews, in one second:
    ids must stay unique without a search that grows with each one (that was quadratic: minutes
    here). The bound is this thread's CPU, not the wall clock a busy machine stretches (~0.1 s)."""
    from core.services.export.anki import _Ids

    ids = _Ids()
    started = time.thread_time()
    taken = [ids.take(1_800_000_000, n) for n in range(50_000)]
    assert len(set(taken)) == len(taken)
    assert time.thread_time() - started < 5
    assert all(1_800_000_000_000 <= t < 1_800_000_001_000 for t in taken[:1000])  # the second's own ms first
    later = ids.take(1_800_000_100, 42)  # (the overflow spilled into the next 49 seconds)
    assert later == 1_800_000_100_042  # another second keeps its own time
