"""What this version's library file holds: its schema version and the names of its tables,
indexes and triggers, known without peewee or the table modules (core/storage/fast_open.py reads
a file against them before the first frame; core.storage.db opens with them).

SCHEMA_NAMES is what the table modules create (db._expected_names() once core.storage.schema
has registered them all); tests/test_fast_open.py fails when the two differ, so a table or
index added to a model is added here too.
"""

from __future__ import annotations

import os
from pathlib import Path

# 2: reader text (paragraph spans and locators, unit anchors; core/storage/models.py)
# 3: the search index folds Traditional Chinese to Simplified and keeps a word list for typo
#    correction (core.storage.search.index registers the step: the index is built again)
# 4: a unit's deck override, Browse's "move to deck" (core/storage/models.py)
# 5: the review session's index holds review cards only, the due-day trigger split in two
#    (core/storage/review/models.py: a bulk suspend of 100k cards writes half the index entries)
# 6: the unit status index goes, Browse's (status, id) serves its reads (core/storage/browse/models.py)
# 7: substrings are found through the vocabulary (search_tokens), the trigram table goes
#    (core/storage/search/index.py: a third of a large web page's store and index time)
# 8: Browse's due index goes, its sort reads the queue index one queue at a time
#    (core/storage/browse/by_queue.py: a 100k-card forget or postpone moves one entry fewer a card)
# 9: undo takes back its own change only: the bulk journal records what each action left
#    (core/storage/browse/models.py), the review journal too (core/storage/review/models.py)
# 10: a bulk journal entry may carry a library setting's change (easy days, vacations) that its
#    undo puts back with the cards (core/storage/browse/models.py)
# 11: an article's title the reader gave it, the source's kept beside it (core/storage/models.py)
# 12: one undo journal (core/storage/journal.py): every undoable write appends an entry, its
#    kind's details keyed by it; pending undos of the three old journals converted
SCHEMA_VERSION = 12

# Every table, index and trigger, by name (tests/test_fast_open.py checks them against the models)
SCHEMA_NAMES = frozenset(
    [
        "article",
        "article_content_hash",
        "article_deck_gone",
        "article_document_id",
        "article_reader_version",
        "article_source_path",
        "article_trash",
        "article_trash_trashed_at",
        "artifact",
        "artifact_article_id",
        "browse_article_title",
        "browse_card_added",
        "browse_card_difficulty",
        "browse_card_lapses",
        "browse_card_leech",
        "browse_card_never",
        "browse_card_r",
        "browse_card_reps",
        "browse_card_stability",
        "browse_unit_origin",
        "browse_unit_status",
        "browse_unit_tags",
        "browse_unit_text",
        "browse_unit_type",
        "bulk_card",
        "bulk_card_journal_id_card_id",
        "bulk_journal",
        "bulk_journal_journal_id",
        "bulk_unit",
        "bulk_unit_journal_id",
        "card",
        "card_due_day_del",
        "card_due_day_in",
        "card_due_day_ins",
        "card_due_day_out",
        "card_question_id",
        "card_queue_due",
        "card_review_session",
        "card_unit_id",
        "curation_event",
        "curation_event_at",
        "curation_event_journal_id",
        "curation_event_unit_id",
        "evidence",
        "evidence_history",
        "evidence_history_unit_id",
        "evidence_unit_id",
        "journal",
        "journal_article_id_scope_undone_id",
        "journal_scope_undone_id",
        "paragraph",
        "paragraph_article_id",
        "paragraph_article_id_paragraph_id",
        "paragraph_article_id_position",
        "question",
        "question_unit_id",
        "review_due_day",
        "review_log",
        "review_log_card_id",
        "review_log_reviewed_at",
        "search_feedback",
        "search_para",
        "search_para_vocab",
        "search_stats",
        "search_tokens",
        "search_unit",
        "search_unit_vocab",
        "search_words",
        "setting",
        "undo_entry",
        "undo_entry_journal_id",
        "unit",
        "unit_article_id",
        "unit_article_id_status",
        "unit_artifact_id",
        "unit_deck_id",
        "unit_pinned",
        "unit_trashed_at",
    ]
)


def writable(path: Path) -> bool:
    """Whether this process may write the library (its folder holds the WAL files too)."""
    return os.access(path.parent, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))
