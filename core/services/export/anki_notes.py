"""What an Anki note of ours holds: our two note types and the fields of one question.

Every field is HTML (Anki's field format), written from untrusted text: escaped, braces turned
into entities so article text never becomes cloze or template syntax, newlines as <br>. The
evidence field is the quote's paragraph with the quote in <mark>. Ids are derived from ours:
the same question always gets the same GUID (Anki updates a note whose GUID it knows).

Each note carries its card's context line (core.domain.context: "Title › … › Section") in a
Context field, shown small above the question. Adding that field changed the note types, and
so their ids (PREVIOUS_MODEL_IDS were the ones without it). Anki 26.9's importer, measured
(tests/test_export_anki.py): a package whose note type has a known id but other fields makes a
second note type beside the first ("MemoryRush Q&A+") and skips every note it already has; with
"Merge note types" ticked the fields are merged, but the merge marks the old notes changed after
the package was written, so they are still not updated (only the next export's import does).
Under new ids with "Merge note types" ticked, the notes Anki has are updated in place (same note
and card ids, their reviews kept) and moved to the new note type, which takes the old one's
place. Without that option no change of ours can update them: Anki skips a note whose note type
changed. The first Anki export of a library since then says so (anki.NOTE_TYPES_CHANGED).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import genanki

from core.domain.context import context_line
from core.domain.export import ExportArticle, ExportQuestion, ExportUnit
from core.text import sanitize
from core.text.spans import find_span
from core.text.tags import tag_word
from core.validation.cards import BLANK

PARENT_DECK = "MemoryRush"
QA_MODEL_ID = 1_746_300_103  # fixed: every export ships the same two note types
CLOZE_MODEL_ID = 1_746_300_104
PREVIOUS_MODEL_IDS = (1_746_300_101, 1_746_300_102)  # Q&A and Cloze before the Context field
SHARED_FIELDS = ("Unit", "Evidence", "Quote", "Source", "Paragraph", "Locator", "Context", "MemoryRush ID")
QA_FIELDS = ("Question", "Answer", *SHARED_FIELDS)
CLOZE_FIELDS = ("Text", "Answer", *SHARED_FIELDS)
_BACK = (
    '<div class="mr-unit">{{Unit}}</div>'
    '<div class="mr-evidence">{{Evidence}}</div>'
    '<div class="mr-source">{{Source}} · {{Paragraph}}{{#Locator}} · {{Locator}}{{/Locator}}</div>'
)
_CONTEXT = '{{#Context}}<div class="mr-context">{{Context}}</div>{{/Context}}'  # small, above the question
CSS = (
    ".card { font-family: sans-serif; font-size: 20px; text-align: left; }\n"
    ".mr-context { margin-bottom: 1em; font-size: 13px; color: #888; }\n"
    ".mr-unit { margin-top: 1em; font-style: italic; }\n"
    ".mr-evidence { margin-top: 1em; font-size: 16px; color: #555; }\n"
    ".mr-evidence mark { background: #fde68a; color: #000; }\n"
    ".mr-source { margin-top: .5em; font-size: 13px; color: #888; }\n"
    ".cloze { font-weight: bold; color: #2563eb; }\n"
)
# A label before the blank ("Fill in the blank: ", "填空：") is for our Review screen; the Anki cloze
# shows the sentence alone.
_LABEL = re.compile(r"^[^:：\n]{1,24}[:：]\s*")


class _Model(genanki.Model):  # type: ignore[misc]
    """genanki's Model with its required-fields table computed once (it renders every template
    for every field on each access: per note, that was most of an export's time)."""

    @cached_property
    def _req(self) -> Any:
        return super()._req


def _model(model_id: int, name: str, fields: tuple[str, ...], front: str, back: str, cloze: bool) -> _Model:
    return _Model(
        model_id,
        name,
        fields=[{"name": f} for f in fields],
        templates=[{"name": "Recall", "qfmt": front, "afmt": back}],
        css=CSS,
        model_type=genanki.Model.CLOZE if cloze else genanki.Model.FRONT_BACK,
        sort_field_index=0,
    )


QA_MODEL = _model(
    QA_MODEL_ID,
    "MemoryRush Q&A",
    QA_FIELDS,
    _CONTEXT + "{{Question}}",
    '{{FrontSide}}<hr id="answer">{{Answer}}' + _BACK,
    cloze=False,
)
CLOZE_MODEL = _model(
    CLOZE_MODEL_ID,
    "MemoryRush Cloze",
    CLOZE_FIELDS,
    _CONTEXT + "{{cloze:Text}}",
    _CONTEXT + "{{cloze:Text}}" + _BACK,
    cloze=True,
)


# Most text needs no change: one regex search says so (a field is written ~8 times per note, and
# escaping everything was a third of an export's time).
_SPECIAL = re.compile(r"[&<>{}\n\t\x00-\x08\x0b-\x1f\x7f-\x9f]")


def field_text(text: str) -> str:
    """Untrusted text as an Anki field: HTML-escaped, no braces, no control characters, newlines as <br>."""
    text = str(text)
    if _SPECIAL.search(text) is None:
        return text
    escaped = html.escape(sanitize(text), quote=False)
    return escaped.replace("{", "&#123;").replace("}", "&#125;").replace("\n", "<br>")


@lru_cache(maxsize=8)
def _library_field(library: str) -> str:
    return field_text(library)


def tag_text(tag: str) -> str:
    """A tag as Anki keeps it: one word (spaces become underscores; core/text/tags.py)."""
    return tag_word(tag)


def evidence_html(paragraph: str, quote: str) -> str:
    """The paragraph with the quote marked; the quote alone when the paragraph is gone."""
    if not paragraph:
        return f"<mark>{field_text(quote)}</mark>"
    span = find_span(quote, paragraph)
    if span is None:
        return field_text(paragraph)
    a, b = span
    return f"{field_text(paragraph[:a])}<mark>{field_text(paragraph[a:b])}</mark>{field_text(paragraph[b:])}"


def cloze_text(question: str, answer: str) -> str | None:
    """Our cloze ("… ____ …" + answer; any blank the card rules accept) in Anki's syntax, or None when it has no blank to fill."""
    if not BLANK.search(question) or not answer.strip():
        return None
    label = _LABEL.match(question)
    sentence = question[label.end() :] if label and BLANK.search(question[label.end() :]) else question
    blank = BLANK.search(sentence)
    assert blank is not None
    head, tail = sentence[: blank.start()], sentence[blank.end() :]
    return f"{field_text(head)}{{{{c1::{field_text(answer)}}}}}{field_text(tail)}"


def deck_name(title: str) -> str:
    """MemoryRush::<title>; a "::" in the title would make sub-decks, so it becomes ":"."""
    clean = sanitize(title, single_line=True).replace("::", ":").strip() or "Untitled"
    return f"{PARENT_DECK}::{clean}"


@dataclass(frozen=True, slots=True)
class NoteFields:
    """One question's note: its type, fields (HTML) and tags."""

    model: genanki.Model
    fields: tuple[str, ...]
    tags: tuple[str, ...]


def shared_fields(library: str, article: ExportArticle, unit: ExportUnit) -> tuple[str, ...]:
    """The fields every question of a unit shares (computed once per unit)."""
    quotes = unit.quotes
    return (
        field_text(unit.content),
        "<br><br>".join(evidence_html(q.paragraph_text, q.quote) for q in quotes),
        "<br>".join(field_text(q.quote) for q in quotes),
        field_text(article.title),
        field_text(", ".join(q.paragraph_id for q in quotes)),
        field_text(", ".join(q.locator.label() for q in quotes if q.locator)),
        field_text(context_line(article.title, unit.locator)),
    )


def unit_tags(unit: ExportUnit) -> list[str]:
    return list(_unit_tags(unit.tags, unit.memory_type, unit.yours))


@lru_cache(maxsize=4096)
def _unit_tags(tags: tuple[str, ...], memory_type: str, yours: bool) -> tuple[str, ...]:
    """A unit's Anki tags, made once per distinct set (most units share a few: per unit, the
    sanitising regexes were a twentieth of an export's time)."""
    made = [t for t in (tag_text(x) for x in tags) if t]
    made.append(f"{PARENT_DECK}::{tag_text(memory_type)}")
    if yours:
        made.append(f"{PARENT_DECK}::yours")
    return tuple(made)


def note_fields(
    library: str, shared: tuple[str, ...], tags: list[str], question: ExportQuestion
) -> NoteFields:
    """One question's note from its unit's shared fields and tags."""
    ident = f"{_library_field(library)}/q{question.id}"  # "/q<digits>" needs no escaping
    if question.card is not None and question.card.leech:
        tags = [*tags, "leech"]  # Anki's own leech tag
    cloze = cloze_text(question.question, question.answer) if question.kind == "cloze" else None
    if cloze is not None:
        return NoteFields(
            CLOZE_MODEL, (cloze, field_text(question.answer), *shared, ident), tuple(dict.fromkeys(tags))
        )
    first = (field_text(question.question), field_text(question.answer))
    return NoteFields(QA_MODEL, (*first, *shared, ident), tuple(dict.fromkeys(tags)))


def guid(library: str, question_id: int) -> str:
    """The note's GUID: this library and this question, readable (Anki only compares it)."""
    return f"mr-{library}-q{question_id}"
