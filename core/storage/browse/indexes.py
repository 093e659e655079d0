"""The indexes Browse's sorts read in order, by name and what they order (made at open by
core.storage.browse.models; read by rows.py's plans and rsort.py).

A module of its own, importing nothing of Browse's queries: opening the library checks these
names (the schema hook's `creates`), and importing the row query for them (rows.py, where.py,
rsort.py, by_queue.py and the domain types they use) was 150M instructions, a tenth of the cold
start to the first frame (callgrind; bench/tui_cold.py).
"""

from __future__ import annotations

from core.domain import READER

R_INDEX = "browse_card_r"  # card (sbucket, last_review, stability): the R sort (rsort.py)
NEVER_INDEX = "browse_card_never"  # ... and its cards never reviewed, by id
NEVER_WHERE = "NOT (last_review IS NOT NULL AND COALESCE(stability, 0) > 0)"  # NEVER_INDEX's own WHERE

SORT_INDEXES: dict[str, str] = {
    "browse_card_added": "card (created_at, id)",
    "browse_card_stability": "card (COALESCE(stability, -1), id)",
    "browse_card_difficulty": "card (COALESCE(difficulty, -1), id)",
    "browse_card_lapses": "card (lapses, id)",
    "browse_card_reps": "card (reps, id)",
    "browse_unit_text": "unit (content, id)",
    "browse_unit_type": "unit (memory_type, id)",
    "browse_unit_status": "unit (status, id)",
    "browse_unit_tags": "unit (tags_json, id)",
    "browse_unit_origin": f"unit ((extractor = '{READER}'), id)",
    "browse_article_title": "article (title, id)",
    "browse_card_leech": "card (created_at, id) WHERE leech = 1",  # is:leech (few)
    R_INDEX: "card (sbucket, last_review, stability)",
    NEVER_INDEX: f"card (id) WHERE {NEVER_WHERE}",
}
