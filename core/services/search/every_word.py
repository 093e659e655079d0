"""The candidate lists of a short query that need every word (search service, step 2):
``all`` (every word present, exact first; the last word as a prefix when exact matches are few)
and ``phrase`` (the words side by side, the last one a prefix when it was one in ``all``).

What FTS5 reads decides the cost (core.services.search.termstats). In a large library:

- a common word must be there, but the `all` order reads only the other words (bm25() would
  read the common word's whole list to learn its document frequency);
- a last word typed as a prefix: FTS5's prefix query first reads the lists of every word that
  starts with it into one (4.5 ms per statement for "gipi" in half of bench_search's 100k
  paragraphs, 8 ms for "go"). When those words are common together, or more than
  MAX_COMPLETIONS start with it, the prefix matches any of the library's words that start with
  it, the shortest MAX_COMPLETIONS (Elasticsearch's max_expansions is 50), which FTS5 steps
  through beside the other words, and the order leaves it out. Otherwise, and in a small
  library, FTS5's prefix query as it is.

The phrase list's last word is a prefix only when it was one in the `all` list (exact words that
already found k paragraphs are words the reader has finished typing), and FTS5's: after a costly
prefix the phrase ends in the word as typed (its MAX_COMPLETIONS phrases, each stepped through
beside the words before it, took 4-7 ms a statement on bench_search).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.services.search.termstats import TermStats
from core.storage.search import query as search_query
from core.storage.search import words as vocabulary

MAX_COMPLETIONS = 50


@dataclass(frozen=True, slots=True)
class EveryWord:
    """The `all` list (best first), the expression units are searched with (FTS5's own prefix,
    units are few), and the `phrase` list (None: not asked for)."""

    found: list[int]
    unit_expr: str
    phrase: list[int] | None


def every_word(
    stats: TermStats,
    q_runs: list[str],
    toks: list[str],
    *,
    prefix: bool,
    k: int,
    article_ids: Sequence[int],
    cap: int,
) -> EveryWord:
    """The `all` and `phrase` lists of `q_runs` (`toks`: the query's tokens, for the phrase);
    `prefix`: the last word may be unfinished; `cap`: past this many matches a list is the newest
    paragraphs (search_query.paragraphs_matching)."""
    term = search_query.term_expr
    common = stats.common(term(r) for r in q_runs)
    rare = [r for r in q_runs if term(r) not in common]
    expr = search_query.all_of(q_runs, last_prefix=False)
    rank_by = search_query.all_of(rare, last_prefix=False) if common else None
    found = [pk for pk, _ in search_query.paragraphs_matching(expr, k, article_ids, cap, rank_by)]
    completions: list[str] = []
    prefixed = prefix and len(found) < k
    if prefixed:
        completions = _costly_completions(stats, q_runs[-1])
        expr = search_query.all_of(q_runs, last_prefix=True, completions=completions)
        # the order: the words that are not common, and the prefix unless it is costly
        head = [r for r in q_runs[:-1] if r in rare]
        if q_runs[-1] in rare and not completions:
            rank_by = search_query.all_of([*head, q_runs[-1]], last_prefix=True)
        else:
            rank_by = search_query.all_of(head, last_prefix=False)
        more = search_query.paragraphs_matching(
            expr, k, article_ids, cap, None if rank_by == expr else rank_by
        )
        seen = set(found)
        found += [pk for pk, _ in more if pk not in seen]
    unit_expr = search_query.all_of(q_runs, last_prefix=prefixed)
    phrase = None
    if len(q_runs) >= 2 and len(toks) <= 12 and found:
        # a costly prefix: the phrase ends in the word as typed (50 phrases cost 4-7 ms a statement)
        phrase_expr = search_query.phrase_of(
            toks, last_prefix=prefixed and len(toks[-1]) >= 2 and not completions
        )
        phrase = [pk for pk, _ in search_query.paragraphs_matching(phrase_expr, k, article_ids, cap)]
    return EveryWord(found, unit_expr, phrase)


def _costly_completions(stats: TermStats, word: str) -> list[str]:
    """The library's words that start with `word`, the shortest MAX_COMPLETIONS, when FTS5's
    prefix query would read too much (a large library: more of them, or common together); []
    for FTS5's own prefix."""
    if stats.threshold(stats.current()) is None or len(word) < 2:
        return []
    completions = vocabulary.starting_with(word, MAX_COMPLETIONS + 1)
    if not completions:
        return []
    group = search_query.term_expr(word, prefix=True, completions=completions[:MAX_COMPLETIONS])
    if len(completions) > MAX_COMPLETIONS or stats.common([group]):
        return completions[:MAX_COMPLETIONS]
    return []
