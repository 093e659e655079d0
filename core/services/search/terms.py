"""Which index terms a query asks for: stems, CJK bigrams and characters, minus the very common.

Split out of search.py (the query plan's term choice; the service runs and fuses the lists).
"""

from __future__ import annotations

from core.storage.search import query as search_query
from core.text.analysis import STOP, bigrams, is_cjk, stem

COMMON_SHARE, COMMON_MIN_DOCS = 0.25, 5000  # question terms in more paragraphs than this are left out of
# the candidate query in a large library (they still count in the rerank)
SELECTIVE_SHARE, SELECTIVE_MIN = 0.02, 20  # single CJK characters added to a question's candidate query


def query_terms(q_runs: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Stems of English words, bigrams of CJK runs, single CJK characters (1-character runs)."""
    stems_: list[str] = []
    bis: list[str] = []
    chars: list[str] = []
    for r in q_runs:
        if is_cjk(r):
            if len(r) == 1:
                chars.append(r)
            else:
                bis.extend(bigrams(r))
        elif r not in STOP:
            stems_.append(stem(r))
    if not stems_ and not bis and not chars:  # only stop words: search them as they are
        stems_ = [stem(r) for r in q_runs if not is_cjk(r)]
    return stems_, bis, chars


def selective_chars(q_runs: list[str]) -> list[str]:
    """CJK characters of longer runs that occur in at most SELECTIVE_SHARE of the paragraphs."""
    wanted = {c for r in q_runs if is_cjk(r) and len(r) > 1 for c in r}
    if not wanted:
        return []
    docs = search_query.index_stats().docs
    df = search_query.document_frequencies("words", wanted)
    return sorted(c for c, n in df.items() if n <= max(SELECTIVE_MIN, docs * SELECTIVE_SHARE))


def without_common(stems_: list[str], bis: list[str]) -> tuple[list[str], list[str]]:
    """Leave very common terms out of a question's candidate query in a large library (they
    match most paragraphs, cost the most, and set none apart); keep at least two terms."""
    docs = search_query.index_stats().docs
    if docs < COMMON_MIN_DOCS or len(set(stems_) | set(bis)) <= 2:
        return stems_, bis
    df = search_query.document_frequencies("stems", set(stems_) | set(bis))
    limit = docs * COMMON_SHARE
    kept_stems = [t for t in stems_ if df.get(t, 0) <= limit]
    kept_bis = [t for t in bis if df.get(t, 0) <= limit]
    if len(set(kept_stems) | set(kept_bis)) < 2:
        return stems_, bis
    return kept_stems, kept_bis
