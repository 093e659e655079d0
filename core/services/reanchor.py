"""Re-anchoring, decided once: where a revised article's units find their quotes.

A changed source (reimport, sync) or a new reader (the refresh of an old library) gives an
article new paragraphs. Here, and only here, each unit's quotes are looked for in them
(core.validation.anchor.Reanchor: as they were, as the new reader shows them, then fuzzily),
and the consequences decided: a unit whose quotes are all found keeps everything (status,
cards, review history) and loses a "source changed" mark it had; one with a quote lost is
marked "source changed" and keeps its old quote, to be kept or retired by the reader (a quote
is looked for only in blocks that may be evidence: one now only in a heading, or in a contents
listing a newer reader recognises, is lost); quotes
moved to new words, and lost ones, keep their old words in evidence_history; the reader's
place follows its paragraph. Storage writes the decision (core.storage.revision).

The decision is made inside the caller's write transaction, on the units as they are when the
write happens (`reanchored`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from core.domain import AnchorState, SourceDocument, StoredUnit
from core.storage import library as library_repo
from core.storage.revision import QuoteMove, Reanchoring, UnitMove
from core.validation.anchor import Reanchor

REWORDED = ("rendered", "fuzzy", "lost")  # outcomes whose old quote goes to evidence_history


def decide(
    finder: Reanchor,
    units: Sequence[StoredUnit],
    reading_position: int,
    variants: Mapping[str, Sequence[str]] | None = None,
) -> Reanchoring:
    """Where every quote of `units` is in `finder`'s new text, and what follows (the module)."""
    moves: list[UnitMove] = []
    counts: dict[str, int] = defaultdict(int)
    kept = fuzzy = 0
    changed: list[int] = []
    for unit in sorted(units, key=lambda u: u.id):
        if not unit.evidence:
            continue
        found = [
            finder.find(e.paragraph_id, e.quote, (variants or {}).get(e.quote, ())) for e in unit.evidence
        ]
        for f in found:
            counts[f.outcome] += 1
        anchor: str | None = None
        if any(f.paragraph_id is None for f in found):
            anchor = AnchorState.CHANGED.value
            changed.append(unit.id)
        else:
            kept += 1
            fuzzy += any(f.outcome == "fuzzy" for f in found)
            if unit.anchor == AnchorState.CHANGED.value:
                anchor = AnchorState.FOUND.value  # all found again: nothing left to decide
        quotes = tuple(QuoteMove(f, f.outcome in REWORDED) for f in found)
        moves.append(UnitMove(unit.id, quotes, anchor))
    return Reanchoring(
        tuple(moves),
        _new_position(finder, reading_position),
        len(finder.new) - len(finder.unchanged),
        kept,
        fuzzy,
        tuple(changed),
        dict(counts),
    )


def _new_position(finder: Reanchor, reading_position: int) -> int:
    """The reader's place (an old paragraph index) in the new text: where its paragraph went."""
    old = next((p for p in finder.old.values() if p.index == reading_position), None)
    return finder.expected(old.paragraph_id) if old is not None else 0


def reanchored(
    article_id: int,
    document: SourceDocument,
    finder: Reanchor | None = None,
    variants: Mapping[str, Sequence[str]] | None = None,
) -> tuple[Reanchoring, list[StoredUnit]]:
    """The article's re-anchoring onto `document`, with its units as read for it. Call it inside
    the write transaction that stores it. `finder`, made earlier from the stored paragraphs, is
    used when they are still those."""
    old = library_repo.paragraphs(article_id)
    if finder is None or list(finder.old.values()) != old:
        finder = Reanchor(old, document.paragraphs)
    units = library_repo.units(article_id)
    return decide(finder, units, library_repo.reading_position(article_id), variants), units


def still_anchored(moves: Reanchoring, units: Sequence[StoredUnit]) -> list[StoredUnit]:
    """The units whose every quote is found in the new text (none marked source changed)."""
    changed = set(moves.changed)
    return [u for u in units if u.id not in changed]
