"""`memoryrush export csv OUT.csv`: one row per question (card), for spreadsheets and scripts.

UTF-8 (with a byte-order mark when `bom`, which Excel needs to read Chinese text), RFC 4180
quoting, times as UTC ISO 8601. Untrusted text stays text in a spreadsheet: a cell that would
start a formula (=, +, -, @, tab, carriage return) gets a leading apostrophe, as OWASP advises,
unless `raw` is asked for.

`deck_id`, `deck`: the article whose deck the card is in (Browse can move a unit to another
article's deck; the Anki deck, the article filter). `article_id`, `article`: the source article,
which the quotes and paragraph ids are from. `context`: where the card comes from, its context line
("Title › … › Section": the source article and the section of the unit's first quote;
core.domain.context), the last column so that scripts reading earlier files by position still work.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from core.domain.context import context_line
from core.domain.export import ExportArticle, ExportFilter, ExportQuestion, ExportResult, ExportUnit
from core.services.export.files import atomic_path
from core.storage import export as export_repo

COLUMNS = (
    "card_id",
    "question_id",
    "unit_id",
    "article_id",
    "article",
    "deck_id",
    "deck",
    "kind",
    "question",
    "answer",
    "unit",
    "memory_type",
    "status",
    "yours",
    "tags",
    "quotes",
    "paragraphs",
    "state",
    "due",
    "last_review",
    "stability",
    "difficulty",
    "reps",
    "lapses",
    "suspended",
    "leech",
    "context",
)
STATES = {0: "new", 1: "learning", 2: "review", 3: "relearning"}
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
Progress = Callable[[int, int], None]


def _time(epoch: int | None) -> str:
    return "" if epoch is None else datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")


def _cell(value: object, raw: bool) -> object:
    if isinstance(value, str) and not raw and value.startswith(_FORMULA):
        return "'" + value
    return value


def row(
    article: ExportArticle, deck: ExportArticle, unit: ExportUnit, q: ExportQuestion, context: str
) -> list[object]:
    """One card's cells, in COLUMNS' order; `context`: the unit's context line (made once a unit)."""
    card = q.card
    return [
        card.id if card else "",
        q.id,
        unit.id,
        article.id,
        article.title,
        deck.id,
        deck.title,
        q.kind,
        q.question,
        q.answer,
        unit.content,
        unit.memory_type,
        unit.status,
        int(unit.yours),
        "; ".join(unit.tags),
        "\n".join(e.quote for e in unit.quotes),
        " ".join(e.paragraph_id for e in unit.quotes),
        STATES.get(card.state, "") if card else "",
        _time(card.due) if card else "",
        _time(card.last_review) if card else "",
        "" if card is None or card.stability is None else round(card.stability, 4),
        "" if card is None or card.difficulty is None else round(card.difficulty, 4),
        card.reps if card else 0,
        card.lapses if card else 0,
        int(card.suspended) if card else 0,
        int(card.leech) if card else 0,
        context,
    ]


def export_csv(
    out: Path, f: ExportFilter, *, bom: bool = False, raw: bool = False, progress: Progress | None = None
) -> ExportResult:
    _, total = export_repo.count_units(f)
    decks: set[int] = set()
    units = cards = 0
    with (
        atomic_path(out) as partial,
        partial.open("w", encoding="utf-8-sig" if bom else "utf-8", newline="") as fh,
    ):
        writer = csv.writer(fh)
        writer.writerow(COLUMNS)
        for batch in export_repo.iter_with_decks(f):
            for article, deck, unit in batch:
                decks.add(deck.id)
                units += 1
                context = context_line(article.title, unit.locator)
                for q in unit.questions:
                    writer.writerow([_cell(v, raw) for v in row(article, deck, unit, q, context)])
                    cards += 1
            if progress is not None:
                progress(cards, total)
    return ExportResult(str(out), len(decks), units, cards, 0)
