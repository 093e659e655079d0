"""Library tables: articles, paragraphs, artifacts, memory units, evidence, questions, settings.

Times are UTC epoch integers. JSON columns hold lists/dicts as text.
Cards and review logs live in review_models.py; the search index in search_index.py.
"""

from __future__ import annotations

import peewee

from core.storage.db import MIGRATIONS, BaseModel, register_models
from core.storage.fields import UntrustedJson, UntrustedLine, UntrustedText, UntrustedTitle


class Article(BaseModel):
    source_path = peewee.TextField(index=True)  # absolute path at import time
    document_id = peewee.CharField(unique=True)  # doc_ + sha1(path NUL text)[:12]
    content_hash = peewee.CharField(index=True)  # sha1 of normalised text
    title = UntrustedTitle()  # the store gate (core/storage/fields.py), as every column of outside text
    encoding = peewee.CharField(default="utf-8")
    language = peewee.CharField(default="en")
    version = peewee.IntegerField(default=1)  # 1, 2, ... per source_path
    metadata_json = peewee.TextField(default="{}")  # front matter
    paragraph_count = peewee.IntegerField(default=0)
    reading_position = peewee.IntegerField(default=0)  # paragraph index last viewed
    added_at = peewee.IntegerField()
    # core.domain.READER_VERSION that read it; the SQL default as the migration adds it, so a
    # row written without it (raw SQL, an older writer) is one an older reader read
    reader_version = peewee.IntegerField(default=1, index=True, constraints=[peewee.SQL("DEFAULT 1")])
    source_missing_at = peewee.IntegerField(null=True)  # sync found the followed file gone (epoch)
    # the title the source gives, kept while the reader's own title (renamed) is `title`; NULL:
    # `title` is the source's (a reimport updates this one then, core/storage/titles.py)
    source_title = UntrustedTitle(null=True)


class Paragraph(BaseModel):
    article = peewee.ForeignKeyField(Article, backref="paragraphs", on_delete="CASCADE")
    paragraph_id = peewee.CharField()  # p_001
    position = peewee.IntegerField()
    kind = peewee.CharField(default="paragraph")
    text = peewee.TextField()  # reader text
    spans_json = peewee.TextField(null=True)  # [[start, end, kind(, href)], ...]; NULL = none
    locator_json = peewee.TextField(null=True)  # {"section": [...], "page": n, "chapter": ...}; NULL = {}
    article_id: int  # the foreign key's raw value (peewee), declared for the type checker

    class Meta:
        indexes = ((("article", "position"), True), (("article", "paragraph_id"), True))


class Artifact(BaseModel):
    article = peewee.ForeignKeyField(Article, backref="artifacts", on_delete="CASCADE")
    extractor = peewee.CharField()
    extractor_version = peewee.CharField(default="")
    model = peewee.CharField(null=True)
    prompt_version = peewee.CharField(null=True)
    summary = peewee.TextField(default="")
    output_json = peewee.TextField()
    raw_output = peewee.TextField(default="")
    validation_json = peewee.TextField(default="[]")
    notices_json = peewee.TextField(default="[]")
    dropped_json = peewee.TextField(default="[]")
    timings_json = peewee.TextField(default="{}")
    created_at = peewee.IntegerField()
    article_id: int


class Unit(BaseModel):
    article = peewee.ForeignKeyField(Article, backref="units", on_delete="CASCADE")
    artifact = peewee.ForeignKeyField(Artifact, backref="units", null=True, on_delete="SET NULL")
    position = peewee.IntegerField()  # index in the artifact output
    content = UntrustedText()
    memory_type = peewee.CharField()
    tags_json = UntrustedJson(default="[]", single_line=True)
    confidence = peewee.FloatField(default=0.5)
    # proposed/confirmed/rejected/trashed; read through Browse's (status, id) index (schema 6:
    # its own index, a duplicate, went: one entry fewer to move per unit a bulk trash writes)
    status = peewee.CharField(default="proposed")
    status_before_trash = peewee.CharField(null=True)
    issues_json = UntrustedJson(default="[]")  # validation issues for this unit (they quote its words)
    extractor = peewee.CharField(default="")
    model = UntrustedLine(null=True)  # an agent's --client-name too
    pinned = peewee.BooleanField(default=False)
    edited = peewee.BooleanField(default=False)
    low_confidence = peewee.BooleanField(default=False)  # parked below the triage floor
    created_at = peewee.IntegerField()
    updated_at = peewee.IntegerField()
    trashed_at = peewee.IntegerField(null=True, index=True)
    # AnchorState: "" found, "changed" (source changed), "kept"; SQL default as the migration's
    anchor = peewee.CharField(default="", constraints=[peewee.SQL("DEFAULT ''")])
    # The deck the unit's cards are in when it is not its source article's (Browse "move to
    # deck"): the Anki deck, Browse's article filter and MCP's due list go by it; evidence and
    # the Article screen stay the source's. NULL: the source's own deck (and after that deck's
    # article is purged).
    deck = peewee.ForeignKeyField(Article, backref="deck_units", null=True, on_delete="SET NULL")
    article_id: int
    artifact_id: int | None
    deck_id: int | None

    class Meta:
        indexes = ((("article", "status"), False),)


class Evidence(BaseModel):
    unit = peewee.ForeignKeyField(Unit, backref="evidence", on_delete="CASCADE")
    position = peewee.IntegerField()
    paragraph_id = peewee.CharField()
    quote = UntrustedText()
    unit_id: int


class EvidenceHistory(BaseModel):
    """A quote as it was before its source changed: moved fuzzily to new words, or lost.

    Written by every re-import that changes a unit's evidence, so a kept unit shows the quote
    it was made from and nothing a unit was grounded on is ever lost."""

    unit = peewee.ForeignKeyField(Unit, backref="evidence_history", on_delete="CASCADE")
    position = peewee.IntegerField()  # the evidence position in the unit
    article_version = peewee.IntegerField()  # the article version the quote was from
    paragraph_id = peewee.CharField()
    quote = peewee.TextField()
    outcome = peewee.CharField()  # "rendered" (a new reader's way), "fuzzy" (new words) or "lost"
    similarity = peewee.FloatField(default=0.0)
    at = peewee.IntegerField()
    unit_id: int


class Question(BaseModel):
    unit = peewee.ForeignKeyField(Unit, backref="questions", on_delete="CASCADE")
    position = peewee.IntegerField()
    question = UntrustedText()
    answer = UntrustedText()
    kind = peewee.CharField(default="qa")
    unit_id: int


class CurationEvent(BaseModel):
    """Every accept / reject / edit ... of a unit: the details of a curation step's entry in the
    one undo journal (core/storage/journal.py; the units of one step share it), and the
    accept/edit/reject rate per extractor and model in Stats (`undone` steps not counted)."""

    unit = peewee.ForeignKeyField(Unit, backref="curation_events", on_delete="CASCADE")
    action = peewee.CharField()  # accept / reject / edit / auto_accept / undo
    before_json = peewee.TextField(default="{}")  # snapshot for undo
    extractor = peewee.CharField(default="")
    model = peewee.CharField(null=True)
    at = peewee.IntegerField(index=True)
    undone = peewee.BooleanField(default=False)
    # the journal entry of the action (core/storage/journal.py; one for every event of a batch)
    journal_id = peewee.IntegerField(null=True, index=True)
    unit_id: int


class Setting(BaseModel):
    key = peewee.CharField(primary_key=True)
    value_json = peewee.TextField()


register_models(
    Article, Paragraph, Artifact, Unit, Evidence, EvidenceHistory, Question, CurationEvent, Setting
)


def _to_v2(database: peewee.SqliteDatabase) -> None:
    """Schema 2 (reader text): paragraph spans and locators, the reader version of each article,
    sync's missing-source mark, a unit's anchor state (the evidence_history table and the new
    index are made by the create pass that follows every migration). The articles' text itself
    is brought up to date by LibraryService.refresh_readers, which re-anchors their units."""
    for table, column, kind in (
        ("paragraph", "spans_json", "TEXT"),
        ("paragraph", "locator_json", "TEXT"),
        ("article", "reader_version", "INTEGER NOT NULL DEFAULT 1"),
        ("article", "source_missing_at", "INTEGER"),
        ("unit", "anchor", "VARCHAR(255) NOT NULL DEFAULT ''"),
    ):
        present = {row[1] for row in database.execute_sql(f"PRAGMA table_info({table})")}
        if column not in present:  # an unversioned file may have them already
            database.execute_sql(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


MIGRATIONS[2] = _to_v2


def _to_v4(database: peewee.SqliteDatabase) -> None:
    """Schema 4 (decks): a unit's deck override, NULL = its source article's deck, and the same
    column in Browse's undo snapshots (bulk actions journalled before it put back NULL: they
    predate every move). Its index is made by the create pass that follows."""
    for table, kind in (
        ("unit", "INTEGER REFERENCES article (id) ON DELETE SET NULL"),
        ("bulk_unit", "INTEGER"),
    ):
        present = {row[1] for row in database.execute_sql(f"PRAGMA table_info({table})")}
        if present and "deck_id" not in present:
            database.execute_sql(f"ALTER TABLE {table} ADD COLUMN deck_id {kind}")


MIGRATIONS[4] = _to_v4


def _to_v11(database: peewee.SqliteDatabase) -> None:
    """Schema 11 (rename an article): the source's title beside the reader's, NULL = the
    article's title is the source's own."""
    present = {row[1] for row in database.execute_sql("PRAGMA table_info(article)")}
    if present and "source_title" not in present:
        database.execute_sql("ALTER TABLE article ADD COLUMN source_title TEXT")


MIGRATIONS[11] = _to_v11
