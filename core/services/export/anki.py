"""`memoryrush export anki OUT.apkg`: an Anki package written by genanki, updated in place by Anki.

One note per question (our Q&A and Cloze note types ship in the package), one deck per article
under the MemoryRush parent deck (a unit Browse moved to another article's deck is in that one).
Note and card ids come from our own ids and creation times, and GUIDs from the library id and the
question id, so importing a second export updates the notes Anki already has instead of adding copies.

genanki writes notes, cards, decks and note types into the package's collection; it knows no
scheduling. With `with_history`, each card's row is then given our schedule (type, queue, due,
interval, reps, lapses and the FSRS memory state in `cards.data`) and its reviews are added to
`revlog`, the way Anki's own exporter fills them; Anki keeps them when the import is run with
"Import any learning progress" on. The collection says which scheduler it was written for, and
every deck of ours uses a preset with our FSRS parameters and retention (anki_settings.py says
why both matter). tests/test_export_anki.py and tests/faults/test_anki_history.py read every
package with Anki's code.
"""

from __future__ import annotations

import itertools
import json
import math
import sqlite3
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import genanki

from core.domain.card import Card
from core.domain.export import ExportArticle, ExportFilter, ExportResult, ExportReview, ExportUnit
from core.services.export.anki_notes import (
    CLOZE_MODEL_ID,
    PARENT_DECK,
    QA_MODEL_ID,
    deck_name,
    guid,
    note_fields,
    shared_fields,
    unit_tags,
)
from core.services.export.anki_settings import Schedule, collection_conf, preset
from core.services.export.files import atomic_path
from core.storage import export as export_repo

DAY = 86400
NOTE_TYPES = (QA_MODEL_ID, CLOZE_MODEL_ID)
# Said by the first Anki export of a library since the note types changed (anki_notes says why).
NOTE_TYPES_CHANGED = (
    "Anki: MemoryRush's note types now have a Context field (where each card comes from), so their "
    "ids changed. If your Anki collection has notes from an earlier MemoryRush export, tick "
    "“Merge note types” in Anki's import options (Anki 23.10 or later) to update them in place; "
    "without it Anki skips them."
)
Progress = Callable[[int, int], None]
# Anki's card type and queue per FSRS state (0 new, 1 learning, 2 review, 3 relearning)
_TYPE = {0: 0, 1: 1, 2: 2, 3: 3}
_QUEUE = {0: 0, 1: 1, 2: 2, 3: 1}
_REVLOG_TYPE = {0: 0, 1: 0, 2: 1, 3: 2}  # by the state before the answer: learn, review, relearn


class _Card(genanki.Card):  # type: ignore[misc]
    """A genanki card with our own id (genanki numbers cards from the clock)."""

    def __init__(self, card_id: int, ord_: int = 0) -> None:
        super().__init__(ord_)
        self.card_id = card_id

    def write_to_db(self, cursor, timestamp, deck_id, note_id, id_gen, due=0):  # type: ignore[no-untyped-def]
        super().write_to_db(cursor, timestamp, deck_id, note_id, iter((self.card_id,)), due)


class _Note(genanki.Note):  # type: ignore[misc]
    """A genanki note with our own note id and one card."""

    def __init__(self, note_id: int, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.note_id = note_id
        self.cards = [_Card(note_id)]  # one card per note: the card id is the note id (another table)

    def write_to_db(self, cursor, timestamp, deck_id, id_gen):  # type: ignore[no-untyped-def]
        super().write_to_db(cursor, timestamp, deck_id, iter((self.note_id,)))

    @property
    def tags(self) -> list[str]:
        return self._tags

    @tags.setter
    def tags(self, tags: list[str]) -> None:
        """Our tags as they are: anki_notes.tag_text makes each one word (Anki's rule), so
        genanki's check of every tag for a space (a tenth of an export's time) is not run."""
        self._tags = list(tags)

    def _check_invalid_html_tags_in_fields(self) -> None:
        """Our fields are escaped by construction (anki_notes.field_text; tested): genanki's
        per-field regex scan was a tenth of an export's time."""


class _BatchingCursor:
    """The cursor genanki writes through: its one-row INSERTs into notes and cards are kept and
    run as one executemany each at the end (genanki still builds every row; one execute per row
    was a third of an export's time). Everything else goes straight to the real cursor."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self.cursor = cursor
        self.rows: dict[str, list[tuple[object, ...]]] = {}
        self.lastrowid: int | None = None

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Cursor | _BatchingCursor:
        if sql.startswith(("INSERT INTO notes VALUES", "INSERT INTO cards VALUES")):
            self.rows.setdefault(sql, []).append(params)
            self.lastrowid = int(params[0])  # type: ignore[call-overload]  # our own id: the row's first value
            return self
        return self.cursor.execute(sql, params)

    def executescript(self, sql: str) -> sqlite3.Cursor:
        return self.cursor.executescript(sql)

    def flush(self) -> None:
        for sql, rows in self.rows.items():
            self.cursor.executemany(sql, rows)
        self.rows.clear()


@dataclass
class _Ids:
    """Anki ids are times in ms (note and card creation, review time). Ours: the second it
    happened, plus our id's last three digits, or the next free millisecond of that second, so
    ids are unique in the package, in time order, and the same on every export. A second that
    already holds a thousand (only made-up libraries do) goes past the highest id so far."""

    used: set[int] = field(default_factory=set)
    per_second: dict[int, int] = field(default_factory=dict)
    high: int = 0

    def take(self, second: int, our_id: int) -> int:
        taken = self.per_second.get(second, 0)
        if taken < 1000:
            start = our_id % 1000
            wanted = next(
                c for c in (second * 1000 + (start + k) % 1000 for k in range(1000)) if c not in self.used
            )
            self.per_second[second] = taken + 1
        else:
            wanted = self.high + 1
        self.used.add(wanted)
        self.high = max(self.high, wanted)
        return wanted


@dataclass
class _Build:
    """The package as it is written: each unit's notes go into the collection as they come
    (holding all of them until the end made Python's cycle collector walk 100k notes again and
    again: a fifth of an export's time), the decks and note types once at the end."""

    library: str
    cursor: _BatchingCursor
    now: int
    with_history: bool
    schedule: Schedule
    decks: dict[int, tuple[genanki.Deck, int]] = field(default_factory=dict)  # article id -> deck, place
    names: set[str] = field(default_factory=set)
    # note type id -> (note type, its last deck in deck order), which genanki makes its default deck
    models: dict[int, tuple[genanki.Model, int]] = field(default_factory=dict)
    cards: dict[int, tuple[int, Card, bool]] = field(default_factory=dict)  # anki id -> card, pinned
    ids: _Ids = field(default_factory=_Ids)
    deck_ids: _Ids = field(default_factory=_Ids)
    notes: int = 0
    units: int = 0

    def deck(self, article: ExportArticle) -> tuple[genanki.Deck, int]:
        """The article's deck and its place in deck order."""
        found = self.decks.get(article.id)
        if found is None:
            name = deck_name(article.title)
            if name in self.names:  # two articles of one title: one deck each
                name = f"{name} ({article.id})"
            self.names.add(name)
            deck = genanki.Deck(self.deck_ids.take(article.added_at, article.id), name)
            found = self.decks[article.id] = (deck, len(self.decks))
        return found

    def add(
        self, article: ExportArticle, unit: ExportUnit, deck_article: ExportArticle | None = None
    ) -> None:
        """Write the unit's notes and cards (into the cursor's batch), in `deck_article`'s deck
        (its own article's unless Browse moved it)."""
        self.units += 1
        shared = shared_fields(self.library, article, unit)
        tags = unit_tags(unit)
        deck, position = self.deck(deck_article or article)
        for question in unit.questions:
            made = note_fields(self.library, shared, tags, question)
            note_id = self.ids.take(unit.created_at, question.id)
            note = _Note(
                note_id,
                model=made.model,
                fields=list(made.fields),
                tags=list(made.tags),
                guid=guid(self.library, question.id),
            )
            note.write_to_db(self.cursor, self.now, deck.deck_id, None)
            last = self.models.get(made.model.model_id)
            if last is None or last[1] < position:
                self.models[made.model.model_id] = (made.model, position)
            self.notes += 1
            if self.with_history and question.card is not None:
                self.cards[note_id] = (question.card.id, question.card, unit.pinned)

    def write_decks(self) -> None:
        """The collection's settings, decks, deck presets and note types: JSON texts in its one
        `col` row, written once (genanki reads, extends and rewrites decks and note types for
        every deck: quadratic in decks). Our decks use our preset; Default keeps genanki's."""
        cursor = self.cursor.cursor
        conf, dconf = (json.loads(text) for text in cursor.execute("SELECT conf, dconf FROM col").fetchone())
        ours = preset(self.schedule, self.library, dconf["1"], self.now)
        order = [deck.deck_id for deck, _ in self.decks.values()]
        decks = [
            genanki.Deck(_parent_id(self.library), PARENT_DECK),
            *(deck for deck, _ in self.decks.values()),
        ]
        cursor.execute("UPDATE col SET conf = ?", (json.dumps(collection_conf(conf)),))
        for column, entries in (
            ("dconf", {str(ours["id"]): ours}),
            ("decks", {str(deck.deck_id): {**deck.to_json(), "conf": ours["id"]} for deck in decks}),
            (
                "models",
                {str(mid): model.to_json(self.now, order[at]) for mid, (model, at) in self.models.items()},
            ),
        ):
            stored = json.loads(cursor.execute(f"SELECT {column} FROM col").fetchone()[0])
            cursor.execute(f"UPDATE col SET {column} = ?", (json.dumps({**stored, **entries}),))


def export_anki(
    out: Path,
    f: ExportFilter,
    *,
    now: int,
    with_history: bool = False,
    schedule: Schedule | None = None,
    progress: Progress | None = None,
) -> ExportResult:
    """Write the package to `out` (a temporary name first, then renamed: never half a file).
    `schedule` is our review settings (runner.anki_schedule); fsrs' defaults when not given."""
    library = export_repo.library_id()
    schedule = schedule or Schedule(0.9, 0.97)
    _, total = export_repo.count_units(f)
    reviews = 0
    with atomic_path(out) as partial:
        collection = partial.with_name(partial.name + ".anki2")
        try:
            con = sqlite3.connect(collection)
            con.execute("PRAGMA journal_mode = OFF")  # a scratch file: renamed only when whole
            con.execute("PRAGMA synchronous = OFF")
            try:
                cursor = _BatchingCursor(con.cursor())
                genanki.Package([]).write_to_db(cursor, now, None)  # genanki's schema and col row
                build = _Build(library, cursor, now, with_history, schedule)
                for batch in export_repo.iter_with_decks(f):
                    for article, deck_article, unit in batch:
                        build.add(article, unit, deck_article)
                    cursor.flush()
                    if progress is not None:
                        progress(build.notes, total)
                build.write_decks()
                if with_history:
                    reviews = _write_history(con, build.cards, now, schedule)
                con.commit()
            finally:
                con.close()
            with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as package:
                package.write(collection, "collection.anki2")
                package.writestr("media", "{}")
        finally:
            collection.unlink(missing_ok=True)
    said: tuple[str, ...] = ()
    if export_repo.anki_note_types() != NOTE_TYPES:  # once: the package is written
        export_repo.remember_anki_note_types(NOTE_TYPES)
        said = (NOTE_TYPES_CHANGED,)
    return ExportResult(str(out), len(build.decks), build.units, build.notes, reviews, said)


def _parent_id(library: str) -> int:
    return 1_500_000_000_000 + int(genanki.guid_for(library).encode().hex(), 16) % 1_000_000_000


def _write_history(
    con: sqlite3.Connection, cards: dict[int, tuple[int, Card, bool]], now: int, schedule: Schedule
) -> int:
    """Our schedule on each card row, and every review into revlog. Returns the review count."""
    crt = now - now % DAY  # the package's collection starts today: due days count from here
    con.execute("UPDATE col SET crt = ?", (crt,))
    by_ours = {ours: anki_id for anki_id, (ours, _, _) in cards.items()}
    new_position = itertools.count(1)
    ordered = sorted(cards.items(), key=lambda kv: (kv[1][1].due, kv[0]))  # new cards keep our order
    con.executemany(
        "UPDATE cards SET type = ?, queue = ?, due = ?, ivl = ?, factor = ?, reps = ?, lapses = ?, "
        "left = ?, data = ? WHERE id = ?",
        [
            (
                *_card_row(card, now, crt, next(new_position) if card.state == 0 else 0, schedule, pinned),
                anki_id,
            )
            for anki_id, (_, card, pinned) in ordered
        ],
    )
    rows = _revlog(export_repo.reviews(list(by_ours)), by_ours)
    con.executemany("INSERT INTO revlog VALUES (?, ?, -1, ?, ?, ?, ?, ?, ?)", rows)
    return len(rows)


def _card_row(
    card: Card, now: int, crt: int, position: int, schedule: Schedule, pinned: bool
) -> tuple[int, int, int, int, int, int, int, int, str]:
    kind = _TYPE.get(card.state, 0)
    queue = _QUEUE.get(card.state, 0)
    if card.suspended:
        queue = -1
    elif card.buried_until is not None and card.buried_until > now:
        queue = -3
    if card.state == 0:
        due = position
    elif card.state == 2:
        due = max(0, math.floor((card.due - crt) / DAY))
    else:
        due = card.due  # learning and relearning: an epoch time, as Anki keeps them
    interval = 0
    if card.state == 2 and card.last_review is not None:
        interval = max(1, round((card.due - card.last_review) / DAY))
    data: dict[str, object] = {}
    if card.stability is not None and card.difficulty is not None:
        data = {
            "s": round(card.stability, 4),
            "d": round(card.difficulty, 4),
            "dr": schedule.pinned_retention if pinned else schedule.desired_retention,
            "decay": round(schedule.decay, 4),
        }
        if card.last_review is not None:
            data["lrt"] = card.last_review
    left = 1 if card.state in (1, 3) else 0
    return kind, queue, due, interval, 2500, card.reps, card.lapses, left, json.dumps(data) if data else ""


def _revlog(reviews: dict[int, list[ExportReview]], by_ours: dict[int, int]) -> list[tuple[int, ...]]:
    """revlog rows: id (review time in ms, unique), card, ease, interval, last interval, factor,
    time taken (ms, at most 60 s as Anki counts it), type."""
    rows: list[tuple[int, ...]] = []
    ids = _Ids()
    for ours, logs in reviews.items():
        last_interval = 0
        for log in logs:
            revlog_id = ids.take(log.reviewed_at, ours)
            interval = log.scheduled_days if log.scheduled_days > 0 else -600
            taken = min(60_000, max(0, log.duration_ms or 0))
            rows.append(
                (
                    revlog_id,
                    by_ours[ours],
                    log.rating,
                    interval,
                    last_interval,
                    2500,
                    taken,
                    _REVLOG_TYPE.get(log.state_before, 1),
                )
            )
            last_interval = interval
    return rows
