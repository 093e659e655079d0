"""Which index terms a query asks for: stems, CJK bigrams and characters, minus the very common.

Split out of search.py (the query plan's term choice; the service runs and fuses the lists).
Counts come from core.services.search.termstats (common: in more than a quarter of a large
library's paragraphs).

A question's candidate query ORs at most QUESTION_TERMS stems and bigrams, its rarest
(`rarest_of`): bm25() reads every term of its expression for every paragraph it matches, and a
Chinese question has one bigram a character (DRCD's dev questions: up to 61 tokens, 221 of 932
over 30). On bench_search's 100k paragraphs, 12 Chinese questions of 20-58 characters cut from
the text: bm25() 42-47 -> 22 ms each (warm counts), the whole search p50 67-74 -> 37-38 ms, the
paragraph each was cut from first 12 of 12 either way; 12 or 8 terms cost the same as 16 (the
rows matched, not the terms, are left). Dev sets, tuning half (sha1 of the id even), R@1 / R@3 /
MRR: DRCD 0.957 / 0.996 / 0.976 -> 0.957 / 0.995 / 0.976, SQuAD and CMRC unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.services.search.termstats import TermStats
from core.text.analysis import STOP, bigrams, is_cjk, stem

SELECTIVE_SHARE, SELECTIVE_MIN = 0.02, 20  # single CJK characters added to a question's candidate query
QUESTION_TERMS = 16  # a question's candidate query ORs at most this many stems and bigrams: its rarest


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


def selective_chars(q_runs: list[str], stats: TermStats) -> list[str]:
    """CJK characters of longer runs that occur in at most SELECTIVE_SHARE of the paragraphs."""
    wanted = {c for r in q_runs if is_cjk(r) and len(r) > 1 for c in r}
    if not wanted:
        return []
    most = max(SELECTIVE_MIN, int(stats.current().docs * SELECTIVE_SHARE))
    df = stats.counts("words", wanted, cap=most + 1)
    return sorted(c for c, n in df.items() if n <= most)


def without_common(
    stems_: list[str], bis: list[str], stats: TermStats, words: Sequence[str] = ()
) -> tuple[list[str], list[str]]:
    """Leave common terms out of a question's candidate query in a large library (they match
    most paragraphs, cost the most, and set none apart); keep at least two terms. `words`: the
    English words the stems are of; a common word's stem is common (in at least its paragraphs),
    so it is not counted (the rerank counts the words anyway)."""
    if len(set(stems_) | set(bis)) <= 2:
        return stems_, bis
    implied = {stem(w) for w in stats.common_terms("words", {w for w in words if w not in STOP})}
    common = implied | stats.common_terms("stems", (set(stems_) | set(bis)) - implied)
    if not common:
        return stems_, bis
    kept_stems = [t for t in stems_ if t not in common]
    kept_bis = [t for t in bis if t not in common]
    if len(set(kept_stems) | set(kept_bis)) < 2:
        return stems_, bis
    return kept_stems, kept_bis


def rarest_of(stems_: list[str], bis: list[str], stats: TermStats) -> tuple[list[str], list[str]]:
    """At most QUESTION_TERMS of a question's stems and bigrams (a long Chinese question has one
    bigram a character): those in the fewest paragraphs, terms no paragraph holds last. bm25()
    reads every term of its expression for every paragraph it matches (issue 32)."""
    most = QUESTION_TERMS
    distinct = list(dict.fromkeys([*stems_, *bis]))
    if len(distinct) <= most:
        return stems_, bis
    df = stats.counts("stems", distinct)
    kept = set(sorted(distinct, key=lambda t: (t not in df, df.get(t, 0)))[:most])
    return [t for t in stems_ if t in kept], [t for t in bis if t in kept]
