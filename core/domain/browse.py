"""Browse contracts: what the browse service takes (a filter, a sort, a selection) and returns
(pages of rows, bulk results, card info, the trash).

A Browse row is a card (one recall question of a unit), or a unit that has no card (a
proposal, a rejected or trashed unit never confirmed). Times are UTC epoch seconds. Text fields
(content, question, article title, tags) are untrusted: render them with markup off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from core.domain import READER
from core.domain.card import Card, CardSource


class Column(StrEnum):
    """A Browse column; each can be the sort."""

    CONTENT = "content"
    ARTICLE = "article"
    TYPE = "type"
    STATUS = "status"
    STATE = "state"
    DUE = "due"
    R = "r"
    STABILITY = "stability"
    DIFFICULTY = "difficulty"
    LAPSES = "lapses"
    REPS = "reps"
    TAGS = "tags"
    ORIGIN = "origin"
    ADDED = "added"

    @property
    def label(self) -> str:
        return _LABELS.get(self, self.value.capitalize())


_LABELS = {
    Column.STATE: "Card",
    Column.R: "R now",
    Column.STABILITY: "S",
    Column.DIFFICULTY: "D",
    Column.ORIGIN: "Origin",
}

# Card states a filter can ask for: the queue names (core.domain.review.Queue) and "leech".
CARD_STATES: tuple[str, ...] = ("new", "learning", "review", "suspended", "buried", "inactive")


@dataclass(frozen=True, slots=True)
class BrowseFilter:
    """Which rows Browse shows. Empty tuples / None mean "no constraint"; every given part must
    hold. Times are epoch seconds, `*_from` inclusive and `*_to` exclusive."""

    text: str = ""  # words in the content or the question (case-insensitive)
    statuses: tuple[str, ...] = ()  # unit status: proposed / confirmed / rejected / trashed
    states: tuple[str, ...] = ()  # card queue: new / learning / review / suspended / buried / inactive
    memory_types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    article_ids: tuple[int, ...] = ()
    article_title: str = ""  # words in the article's title
    due_before: int | None = None  # due (review / learning cards) before this time
    leech: bool | None = None
    suspended: bool | None = None
    pinned: bool | None = None
    source_changed: bool | None = None
    yours: bool | None = None  # made by the reader (unit.extractor == READER) or proposed by an extractor
    retrievability_below: float | None = None  # reviewed cards whose R now is below this
    added_from: int | None = None
    added_to: int | None = None
    reviewed_from: int | None = None
    reviewed_to: int | None = None


@dataclass(frozen=True, slots=True)
class BrowseSort:
    column: Column = Column.ADDED
    descending: bool = True


@dataclass(frozen=True, slots=True)
class RowKey:
    """A row's identity: its card, or (for a unit without a card) its unit."""

    card_id: int | None
    unit_id: int

    def __str__(self) -> str:
        return f"{self.card_id or 0}:{self.unit_id}"

    @classmethod
    def parse(cls, text: str) -> RowKey:
        card, _, unit = text.partition(":")
        return cls(int(card) or None, int(unit))


@dataclass(frozen=True, slots=True)
class BrowseRow:
    key: RowKey
    content: str  # the card's question, or the unit's content
    unit_content: str
    article_id: int
    article_title: str
    memory_type: str
    status: str  # the unit's
    state: str  # the card's queue name (new / learning / review / suspended / buried / inactive); "" without a card
    due: int | None
    last_review: int | None
    retrievability: float | None  # now; None for a card never reviewed or no card
    stability: float | None
    difficulty: float | None
    lapses: int | None
    reps: int | None
    tags: tuple[str, ...]
    extractor: str
    added: int
    pinned: bool
    leech: bool
    source_changed: bool
    deck_id: int | None = None  # the deck's article when not the source's (Browse "move to deck")
    deck_title: str = ""

    @property
    def yours(self) -> bool:
        return self.extractor == READER

    @property
    def origin(self) -> str:
        return "yours" if self.yours else "proposed"


@dataclass(frozen=True, slots=True)
class BrowsePage:
    """Rows in sort order and where the next page starts (None: this is the last)."""

    rows: tuple[BrowseRow, ...]
    after: tuple[object, ...] | None


class BulkAction(StrEnum):
    """What Browse can do to a selection or a whole filter, each in one transaction, undoable."""

    SUSPEND = "suspend"
    UNSUSPEND = "unsuspend"
    BURY = "bury"
    UNBURY = "unbury"
    PIN = "pin"
    UNPIN = "unpin"
    TRASH = "trash"
    RESTORE = "restore"
    REJECT = "reject"  # a confirmed unit: its cards leave review, their history is kept
    CONFIRM = "confirm"  # back from rejected (or a proposal accepted)
    TAG = "tag"
    UNTAG = "untag"
    FORGET = "forget"  # cards back to new (history kept)
    SET_DUE = "set_due"  # due in `days` days (0 = today)
    ADVANCE = "advance"  # review ahead: review cards due later, due now
    POSTPONE = "postpone"  # review cards due `days` days later than they are (overdue ones: from now)
    KEEP = "keep"  # a source-changed unit kept as it is
    MOVE_DECK = "move_deck"  # units (with their cards) into another article's deck
    SOURCE_DECK = "source_deck"  # units back in their source article's own deck

    @property
    def past(self) -> str:
        return _PAST.get(self, self.value + "ed")


_PAST = {
    BulkAction.SUSPEND: "suspended",
    BulkAction.UNSUSPEND: "unsuspended",
    BulkAction.BURY: "buried",
    BulkAction.UNBURY: "unburied",
    BulkAction.PIN: "pinned",
    BulkAction.UNPIN: "unpinned",
    BulkAction.TRASH: "trashed",
    BulkAction.RESTORE: "restored",
    BulkAction.REJECT: "rejected",
    BulkAction.CONFIRM: "confirmed",
    BulkAction.TAG: "tagged",
    BulkAction.UNTAG: "untagged",
    BulkAction.FORGET: "forgotten",
    BulkAction.SET_DUE: "rescheduled",
    BulkAction.ADVANCE: "brought forward",
    BulkAction.POSTPONE: "postponed",
    BulkAction.KEEP: "kept",
    BulkAction.MOVE_DECK: "moved to the deck",
    BulkAction.SOURCE_DECK: "moved back to their own deck",
}


@dataclass(frozen=True, slots=True)
class Selection:
    """What an action applies to: the rows picked (`keys`), or, when `keys` is empty, every row
    of `filter`."""

    filter: BrowseFilter = field(default_factory=BrowseFilter)
    keys: tuple[RowKey, ...] = ()


@dataclass(frozen=True, slots=True)
class BulkResult:
    action: str
    cards: int  # cards changed
    units: int  # units changed
    journal_id: int  # what undo takes back (0: nothing changed, nothing journalled)


@dataclass(frozen=True, slots=True)
class BulkUndo:
    action: str
    cards: int
    units: int
    # rows changed since the action (answered, edited, moved by another tool): left as they are
    cards_left: int = 0
    units_left: int = 0
    setting_left: str = ""  # a library setting the action changed ("vacations"), changed again since

    def changed_since(self) -> str:
        """'' or what the undo left as it is, for the notice ("2 cards changed since left as they
        are", "the vacations changed since left as they are")."""
        parts = [
            f"{n} {what}{'s' if n != 1 else ''}"
            for n, what in ((self.cards_left, "card"), (self.units_left, "unit"))
            if n
        ]
        said = []
        if parts:
            said.append(
                f"{' and '.join(parts)} changed since (answered or edited) left as {'they are' if sum((self.cards_left, self.units_left)) > 1 else 'it is'}"
            )
        if self.setting_left:
            said.append(f"the {self.setting_left.replace('_', ' ')} changed since left as they are")
        return "; ".join(said)

    def notice(self) -> str:
        """What Browse, Trash and Schedule say of it."""
        since = self.changed_since()
        return f"Undone: {self.action.replace('_', ' ')}" + (f" · {since}" if since else "")


@dataclass(frozen=True, slots=True)
class ReviewEntry:
    at: int
    rating: int  # 1 again .. 4 easy
    interval_days: int  # scheduled after this answer
    retrievability: float | None  # R just before the answer (None for the first)
    stability: float | None  # after the answer


@dataclass(frozen=True, slots=True, kw_only=True)
class CardInfo(CardSource):
    """One card's memory for card info: what it asks and where from (its CardSource, whose fields
    these are), the card itself, its R now and every review it had."""

    card: Card
    retrievability: float | None  # now; None for a card never reviewed
    interval_days: int | None  # from the last review to due
    reviews: tuple[ReviewEntry, ...]
    curve: tuple[tuple[float, float], ...]  # (days from the last review, R) of the forgetting curve


@dataclass(frozen=True, slots=True)
class TrashEntry:
    unit_id: int
    content: str
    article_title: str
    trashed_at: int
    purge_at: int  # when start-up purges it for good
    cards: int


@dataclass(frozen=True, slots=True)
class Forecast:
    """Cards due per day for the next days (day 0 = today, overdue included): review cards as
    they are scheduled now and learning cards by their step; and the total over those days at
    each retention choice (each review card's next review at that retention, the learning cards
    as they are: the reviews those reviews lead to are not counted)."""

    days: tuple[str, ...]  # ISO dates
    due: tuple[int, ...]
    by_retention: tuple[tuple[float, int], ...]
    easy_days: tuple[float, ...]  # Monday first
    vacations: tuple[tuple[str, str], ...]  # (first, last) ISO dates
    problems: tuple[str, ...] = ()  # the stored easy days or vacations that cannot be read, said


@dataclass(frozen=True, slots=True)
class WorkloadChange:
    """What rescheduling for a new desired retention would do, before it is done."""

    old_retention: float
    new_retention: float
    cards: int  # review cards re-timed
    old_total: int  # reviews due over the forecast days now
    new_total: int  # ... after rescheduling
