"""Reciprocal rank fusion of the candidate lists, the small ranking signals, and what a
paragraph's place in the results shows (split out of the search service).

Signals (`SearchService.signals`; off for evaluation: `memoryrush search --no-signals`): a hit
opened before (search_feedback, written when a hit is opened in the app) gains up to
FEEDBACK_BONUS of the best score, an article imported in the last weeks up to RECENCY_BONUS;
both are below one RRF rank step at the top, so they reorder near-ties only.
"""

from __future__ import annotations

import math

from core.storage.search import query as search_query

RRF_K = 60
LIST_WEIGHTS: dict[str, float] = {
    "all": 1.0,
    "phrase": 1.0,
    "terms": 1.0,
    "units": 0.5,
    "substring": 0.5,
}
FEEDBACK_BONUS = 0.02  # share of the best score
RECENCY_BONUS = 0.01
RECENCY_HALF_LIFE_DAYS = 14.0


def shown_at(
    pk: int, matched: list[int], own: set[int], whole: set[int], *, units_only: bool
) -> list[int | None]:
    """What a paragraph's place in the results shows, in order: unit ids, None for the paragraph.
    A paragraph that matched on its own shows itself, after its best unit if that unit holds
    every word; one found only through its units shows the best of them."""
    if units_only:
        return list(matched)
    if pk in own or not matched:
        return [*[uid for uid in matched if uid in whole][:1], None]
    return [*matched[:1]]


def fuse(lists: dict[str, list[int]]) -> dict[int, float]:
    fused: dict[int, float] = {}
    for name, ranked in lists.items():
        weight = LIST_WEIGHTS.get(name, 1.0)
        for rank, pk in enumerate(dict.fromkeys(ranked)):
            fused[pk] = fused.get(pk, 0.0) + weight / (RRF_K + rank + 1)
    return fused


def apply_signals(fused: dict[int, float], rows: dict[int, search_query.ParagraphRow], now: int) -> None:
    """Add up to FEEDBACK_BONUS (opened before) + RECENCY_BONUS (imported lately), as shares of
    the best score, so the signals reorder near-ties only."""
    top = max((fused[pk] for pk in rows if pk in fused), default=0.0)
    opens = search_query.feedback(rows)
    by_pk: dict[int, int] = {}
    for (pk, _uid), n in opens.items():
        by_pk[pk] = by_pk.get(pk, 0) + n
    for pk, row in rows.items():
        n = by_pk.get(pk, 0)
        if n:
            fused[pk] += top * FEEDBACK_BONUS * n / (n + 2)
        age_days = max(0.0, (now - row.added_at) / 86400)
        fused[pk] += top * RECENCY_BONUS * math.pow(0.5, age_days / RECENCY_HALF_LIFE_DAYS)
