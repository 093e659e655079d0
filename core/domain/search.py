"""Search contracts: what the search service takes (filters) and returns (hits)."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.domain import NO_LOCATOR, Locator


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Narrow a search. Empty tuples / False / None mean "no constraint".

    Unit filters (statuses, memory types, tags, memory state) keep only unit hits. Memory-state
    filters follow Anki's search: `due` (is:due), `leech` (tag:leech), `suspended`
    (is:suspended), `retrievability_below` (prop:r<0.9; cards never reviewed have no R).
    Without any unit filter, units in `DEFAULT_UNIT_STATUSES` are searched beside paragraphs.
    """

    article_ids: tuple[int, ...] = ()
    unit_statuses: tuple[str, ...] = ()
    memory_types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    due: bool = False
    leech: bool = False
    suspended: bool = False
    retrievability_below: float | None = None
    units_only: bool = False
    origin: str | None = None  # "yours" (units you made) | "extracted" (proposed by an extractor)

    @property
    def memory_state(self) -> bool:
        return self.due or self.leech or self.suspended or self.retrievability_below is not None

    @property
    def wants_units_only(self) -> bool:
        return bool(
            self.units_only
            or self.unit_statuses
            or self.memory_types
            or self.tags
            or self.memory_state
            or self.origin
        )


DEFAULT_UNIT_STATUSES: tuple[str, ...] = ("proposed", "confirmed")


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One result: a paragraph, or a memory unit (with the paragraph its first quote is from).

    `snippet` is untrusted text (sanitised, one line); `highlights` are (start, end) offsets of
    the matched words inside `snippet`, for safe highlighting without markup.
    """

    article_id: int
    source_path: str
    title: str
    paragraph_id: str  # "" for a unit whose evidence paragraph no longer exists
    position: int  # paragraph index in the article (-1 when unknown)
    unit_id: int | None
    score: float
    snippet: str
    highlights: tuple[tuple[int, int], ...] = field(default=())
    locator: Locator = NO_LOCATOR  # where the paragraph sits: heading path, page, chapter

    @property
    def kind(self) -> str:
        return "unit" if self.unit_id is not None else "paragraph"

    def to_json(self) -> dict[str, object]:
        """The CLI's --json shape."""
        return {
            "source_path": self.source_path,
            "paragraph_id": self.paragraph_id,
            "locator": self.locator.as_dict(),
            "unit_id": self.unit_id,
            "score": round(self.score, 6),
            "snippet": self.snippet,
        }


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What one search found: the hits, best first, and, when words of the query were not in
    the library and were corrected, the query the hits are for (`showing_results_for`; None
    when the words were searched as typed)."""

    query: str
    hits: tuple[SearchHit, ...]
    showing_results_for: str | None = None
