"""Full-text search index kept in step with the library (owned by the search work).

`index_article(article_id)` / `reindex_unit(unit_id)` / `remove_unit(unit_id)` are called by
repositories inside the same transaction as the write they follow, so the index never
disagrees with the library after a commit or a rollback.

Tables (created at open by a schema hook; see search_text.py for the columns):

- ``search_para``: contentless FTS5 (unicode61, diacritics removed) over every paragraph;
  rowid = paragraph.id. Paragraph text never changes, so its columns can be recomputed to
  delete it; nothing is stored twice.
- ``search_unit``: the same over each unit's content, tags, questions and answers; rowid = unit.id.
- ``search_tokens``: every other run of a paragraph that is not CJK (numbers, words with
  digits or letters outside ASCII, "x86", "naïve" as normalised) of two characters or more
  (not a unit's: substrings are searched in paragraphs). With search_words it
  is the vocabulary a substring inside a word is looked up in (core.services.search.substring):
  the words holding it, then their paragraphs through search_para. Only added to, as
  search_words. (Until schema 7 a trigram table over the raw text of every paragraph did this:
  on libxml2's 336 KB page it was 27 of the 85 ms its store and index took, and most of its
  commit; the vocabulary costs nothing more than the word list already did.)
- ``search_para_vocab``, ``search_unit_vocab``: fts5vocab over search_para and search_unit
  (document frequencies for the ranker; is a query word in the library at all?).
- ``search_words``: every English word of two letters or more that the index has seen, the
  vocabulary typo correction picks from (core.services.search.spell). Only added to: a word
  whose paragraphs are gone stays until a rebuild, and correction checks a candidate's
  document frequency before using it. (The fts5vocab tables read the whole index to list every
  term: 3-5 s on 100k paragraphs; this list loads in a fraction of that.)
- ``search_stats``: paragraph count and summed lengths (BM25 averages); counters of changes
  that tell a cached copy (the vocabulary, document frequencies) it is current.
- ``search_feedback``: how often a hit was opened (a small, switchable ranking signal).

An article is indexed in bulk: one analysis of its paragraphs (core.text.indexing.index_rows,
which also gives the English words search_words gains), one executemany per FTS table, the
stats added once. bench/bench_import.py measures it against raw executemany of the same rows
into the same tables.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import peewee

from core.storage.db import MIGRATIONS, db, register_schema_hook
from core.storage.errors import translated

_FTS_OPTIONS = "tokenize='unicode61 remove_diacritics 2'"
SCHEMA = (
    # contentless: the columns are recomputed from paragraph.text when a paragraph must go
    f"CREATE VIRTUAL TABLE IF NOT EXISTS search_para USING fts5(words, stems, trunc, content='', {_FTS_OPTIONS})",
    f"CREATE VIRTUAL TABLE IF NOT EXISTS search_unit USING fts5(words, stems, trunc, {_FTS_OPTIONS})",
    "CREATE VIRTUAL TABLE IF NOT EXISTS search_para_vocab USING fts5vocab(search_para, 'col')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS search_unit_vocab USING fts5vocab(search_unit, 'col')",
    "CREATE TABLE IF NOT EXISTS search_words (word TEXT PRIMARY KEY) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS search_tokens (token TEXT PRIMARY KEY) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS search_stats (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS search_feedback (paragraph_pk INTEGER NOT NULL, unit_id INTEGER NOT NULL, "
    "opens INTEGER NOT NULL, last_at INTEGER NOT NULL, PRIMARY KEY (paragraph_pk, unit_id)) WITHOUT ROWID",
)
# Counters in search_stats: paragraphs, BM25 terms (bag), five-letter truncations, sentences.
STAT_KEYS = ("docs", "bag", "trunc", "sentences")
# ... and how many words search_words has been given, ever (a rebuild keeps counting): a cached
# copy of the vocabulary is current while this is unchanged.
WORDS_KEY = "words"
WORDS_MIN = 2  # letters: shorter words are not listed (never offered as a correction)
# ... and how many search_tokens has been given, ever (the substring vocabulary's cache key, with WORDS_KEY)
TOKENS_KEY = "tokens"
# ... and how many times paragraphs were added to or removed from search_para, ever (a rebuild
# keeps counting): document frequencies a search remembers are current while this is unchanged
PARAGRAPHS_KEY = "paragraph_changes"
# FTS5 keeps a transaction's new terms in memory and writes a segment each time they pass
# `hashsize` (default 1 MB); every segment is merged again later. 16 MB per table means a few
# large segments for a big article: about a third less FTS5 time on bench_import's 50 MB.
# Stored in each table's _config row, so it is a setting, not index content.
FTS_SETTINGS = {"hashsize": 16 * 1024 * 1024}
_BULK_TABLES = ("search_para",)


def _create(database: peewee.SqliteDatabase) -> None:
    for sql in SCHEMA:
        database.execute_sql(sql)
    indexed = database.execute_sql("SELECT value FROM search_stats WHERE key = 'docs'").fetchone()
    if indexed is None:
        has_paragraphs = database.execute_sql("SELECT 1 FROM paragraph LIMIT 1").fetchone()
        if has_paragraphs:  # a library written before the index existed
            rebuild()
        else:
            _add_stats({k: 0 for k in STAT_KEYS})


register_schema_hook(
    _create,
    creates=(
        "search_para",
        "search_unit",
        "search_tokens",
        "search_para_vocab",
        "search_unit_vocab",
        "search_words",
        "search_stats",
        "search_feedback",
    ),
)


def _reindex_v3(database: peewee.SqliteDatabase) -> None:
    """Schema 2: Traditional Chinese is folded to Simplified in the index (core.text.chinese)
    and search_words lists the vocabulary: every paragraph and unit is indexed again (the
    migration runs it in one transaction, after a backup copy of the library). bench_search:
    100k paragraphs rebuilt in 120 s, the whole migration 128 s with its 409 MB backup (2 shared
    cores, load 4), about the time their import took to index; once per library."""
    for sql in SCHEMA:
        database.execute_sql(sql)
    rebuild()


MIGRATIONS[3] = _reindex_v3


def _vocabulary_v7(database: peewee.SqliteDatabase) -> None:
    """Schema 7: the trigram table over every paragraph's text goes; substrings are looked up
    in the vocabulary, search_words and the new search_tokens, filled here from every
    paragraph (one analysis of each, no FTS5 write; after the migration's backup). Units are
    left out, as the index leaves their tokens out (_add_words): substrings are searched in
    paragraphs only, and their English words (the typo vocabulary) are in search_words since
    schema 3. Reading a million units' text one by one
    took ~200 s of the 1M-card bench library's migration; its paragraphs take seconds."""
    from core.text.indexing import index_rows  # imported on first use

    database.execute_sql("DROP TABLE IF EXISTS search_tri")
    for sql in SCHEMA:
        database.execute_sql(sql)
    texts = [str(t) for (t,) in database.execute_sql("SELECT text FROM paragraph")]
    _add_words(index_rows(texts).words)


MIGRATIONS[7] = _vocabulary_v7


def _add_stats(delta: dict[str, int]) -> None:
    db.execute_sql(
        "INSERT INTO search_stats(key, value) VALUES "
        + ",".join("(?, ?)" for _ in delta)
        + " ON CONFLICT(key) DO UPDATE SET value = value + excluded.value",
        [x for kv in delta.items() for x in kv],
    )


@translated
def fts_settings(table: str) -> dict[str, int]:
    """The FTS5 settings a table has (its _config rows, the version left out)."""
    rows = db.execute_sql(f"SELECT k, v FROM {table}_config WHERE k != 'version'")
    return {str(k): int(v) for k, v in rows}


def _apply_settings() -> None:
    """Give the bulk-written tables FTS_SETTINGS (once per library; inside the write transaction)."""
    for table in _BULK_TABLES:
        have = fts_settings(table)
        for key, value in FTS_SETTINGS.items():
            if have.get(key) != value:
                db.execute_sql(f"INSERT INTO {table}({table}, rank) VALUES (?, ?)", (key, value))


def _add_words(words: Iterable[str], *, tokens: bool = True) -> None:
    """Add `words` (an analysis's vocabulary: runs that are not CJK) of WORDS_MIN characters or
    more, new ones only: the English words to search_words, the others to search_tokens (with
    `tokens`: paragraphs' only, as substrings are searched in paragraphs; a unit's English words
    are the typo vocabulary, its other runs would only take places in a substring's batch). One
    statement over a JSON array per table, in key order (each insert lands beside the last in
    the B-tree). 5,000 words: 3.5 ms CPU, where an executemany of them took 8-12 ms. Each list
    is sorted once it is split off: the same lists as splitting the sorted words, and libxml2's
    5,041 took 25.4M instructions here, against 30.7M (callgrind)."""
    english: list[str] = []
    other: list[str] = []
    for w in words:
        if len(w) >= WORDS_MIN:
            if w.isascii() and w.isalpha():
                english.append(w)
            elif tokens:
                other.append(w)
    english.sort()
    other.sort()
    con = db.connection()
    added: dict[str, int] = {}
    for table, column, key, new in (
        ("search_words", "word", WORDS_KEY, english),
        ("search_tokens", "token", TOKENS_KEY, other),
    ):
        if new:
            before = con.total_changes
            con.execute(
                f"INSERT OR IGNORE INTO {table}({column}) SELECT value FROM json_each(?)",
                (json.dumps(new, ensure_ascii=False),),
            )
            if con.total_changes > before:
                added[key] = con.total_changes - before
    if added:
        _add_stats(added)


def _index_paragraphs(rows: Sequence[tuple[int, str]]) -> None:
    """Index paragraphs given as (pk, text): one analysis of them all, one executemany per table."""
    from core.text.indexing import index_rows  # imported on first use

    if not rows:
        return
    batch = index_rows([text for _, text in rows])
    analysed = batch.rows
    _apply_settings()
    con = db.connection()
    con.executemany(
        "INSERT INTO search_para(rowid, words, stems, trunc) VALUES (?, ?, ?, ?)",
        [(pk, a.words, a.stems, a.trunc) for (pk, _), a in zip(rows, analysed, strict=True)],
    )
    _add_words(batch.words)
    _add_stats(
        {
            PARAGRAPHS_KEY: 1,
            "docs": len(analysed),
            "bag": sum(a.bag for a in analysed),
            "trunc": sum(a.trunc_count for a in analysed),
            "sentences": sum(a.sentences for a in analysed),
        }
    )


@translated
def unit_text(unit_id: int) -> str | None:
    """Everything of a unit a person may search for (`unit_words`), as stored."""
    row = db.execute_sql("SELECT content, tags_json FROM unit WHERE id = ?", (unit_id,)).fetchone()
    if row is None:
        return None
    questions = db.execute_sql(
        "SELECT question, answer FROM question WHERE unit_id = ? ORDER BY position", (unit_id,)
    )
    return unit_words(row[0], row[1], questions)


@translated
def unit_words(content: str, tags_json: str, questions: Iterable[tuple[str, str]]) -> str:
    """Everything of a unit a person may search for: content, tags, questions, answers."""
    parts = [content, tags_json if tags_json and tags_json != "[]" else ""]
    for q, a in questions:
        parts.extend((q, a))
    return "\n".join(p for p in parts if p)


@translated
def index_article(article_id: int) -> None:
    """Index an article's paragraphs and units. Called inside the import transaction."""
    rows = db.execute_sql(
        "SELECT id, text FROM paragraph WHERE article_id = ? ORDER BY position", (article_id,)
    )
    _index_paragraphs(list(rows))
    for (unit_id,) in list(db.execute_sql("SELECT id FROM unit WHERE article_id = ?", (article_id,))):
        reindex_unit(unit_id)


@translated
def reindex_unit(unit_id: int) -> None:
    """Refresh one unit's entry after an edit, status change, trash or restore."""
    db.execute_sql("DELETE FROM search_unit WHERE rowid = ?", (unit_id,))
    text = unit_text(unit_id)
    if text is not None:
        index_new_unit(unit_id, text)


@translated
def index_new_unit(unit_id: int, text: str) -> None:
    """The entry of a unit that has none yet (just stored), from its `unit_words`: what its
    writer has in hand, so nothing is read back. Inside the caller's transaction."""
    from core.text.indexing import index_rows  # imported on first use

    batch = index_rows([text])
    a = batch.rows[0]
    db.execute_sql(
        "INSERT INTO search_unit(rowid, words, stems, trunc) VALUES (?, ?, ?, ?)",
        (unit_id, a.words, a.stems, a.trunc),
    )
    _add_words(batch.words, tokens=False)


@translated
def remove_unit(unit_id: int) -> None:
    """Drop one unit from the index (purge). Called inside the caller's transaction."""
    db.execute_sql("DELETE FROM search_unit WHERE rowid = ?", (unit_id,))


@translated
def remove_article(article_id: int) -> None:
    """Drop an article's paragraphs and units from the index, before the article rows go."""
    from core.text.indexing import index_rows  # imported on first use

    rows = list(db.execute_sql("SELECT id, text FROM paragraph WHERE article_id = ?", (article_id,)))
    analysed = index_rows([text for _, text in rows]).rows
    con = db.connection()
    con.executemany(
        "INSERT INTO search_para(search_para, rowid, words, stems, trunc) VALUES ('delete', ?, ?, ?, ?)",
        [(pk, a.words, a.stems, a.trunc) for (pk, _), a in zip(rows, analysed, strict=True)],
    )
    if rows:
        _add_stats(
            {
                PARAGRAPHS_KEY: 1,
                "docs": -len(analysed),
                "bag": -sum(a.bag for a in analysed),
                "trunc": -sum(a.trunc_count for a in analysed),
                "sentences": -sum(a.sentences for a in analysed),
            }
        )
    for (unit_id,) in list(db.execute_sql("SELECT id FROM unit WHERE article_id = ?", (article_id,))):
        remove_unit(unit_id)


@translated
def rebuild() -> None:
    """Recreate the whole index from the library tables (inside the caller's transaction)."""
    db.execute_sql("INSERT INTO search_para(search_para) VALUES ('delete-all')")
    db.execute_sql("DELETE FROM search_unit")
    db.execute_sql(f"DELETE FROM search_stats WHERE key IN ({','.join('?' * len(STAT_KEYS))})", STAT_KEYS)
    db.execute_sql("DELETE FROM search_words")
    db.execute_sql("DELETE FROM search_tokens")
    _add_stats(dict.fromkeys(STAT_KEYS, 0))
    _index_paragraphs(list(db.execute_sql("SELECT id, text FROM paragraph ORDER BY id")))
    for (unit_id,) in list(db.execute_sql("SELECT id FROM unit")):
        reindex_unit(unit_id)


@translated
def record_open(paragraph_pk: int, unit_id: int | None, now: int) -> None:
    """Remember that a hit was opened (use feedback for ranking)."""
    db.execute_sql(
        "INSERT INTO search_feedback(paragraph_pk, unit_id, opens, last_at) VALUES (?, ?, 1, ?) "
        "ON CONFLICT(paragraph_pk, unit_id) DO UPDATE SET opens = opens + 1, last_at = excluded.last_at",
        (paragraph_pk, unit_id or 0, now),
    )
