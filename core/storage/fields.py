"""Columns of text that came from outside the program: the store gate is their type.

A unit's content, its questions, answers and quotes, its tags, the name of the model or agent
that proposed it and an article's title can be written by an agent over MCP, a model's reply,
the reader (a card, an edit in Triage, a tag in Browse), an import or a library file. Each such
column is one of the fields here, whose `db_value` is `core.text.stored` (the ingestion rule:
each character a terminal would obey, bidi overrides too, is one U+FFFD), so every peewee write
(create, save, insert_many, update, and `rows.insert_row`) stores the gated text; the few raw
statements that write these columns (the reader's card's evidence and questions, Browse's tag,
`import-library`) call `gate` on the same field. Exports and MCP hand stored text to the next
program as it is, so the text must be safe when it is stored, not only when it is shown.

The gate is idempotent: a value read back and compared (`Unit.content == x`) meets itself.
"""

from __future__ import annotations

import json
from typing import Any

import peewee

from core.storage.errors import translated
from core.text import stored


class UntrustedText(peewee.TextField):
    """Text of many lines (content, question, answer, quote): the store gate on every write."""

    def db_value(self, value: Any) -> Any:
        return super().db_value(None if value is None else stored(value))


class UntrustedLine(peewee.CharField):
    """One line (a model's or agent's name): the store gate, line breaks and tabs as spaces."""

    def db_value(self, value: Any) -> Any:
        return super().db_value(None if value is None else stored(value, single_line=True))


class UntrustedTitle(peewee.TextField):
    """One line kept as TEXT (an article's title): the store gate, line breaks as spaces."""

    def db_value(self, value: Any) -> Any:
        return super().db_value(None if value is None else stored(value, single_line=True))


class UntrustedJson(peewee.TextField):
    """JSON whose strings came from outside (a unit's tags, its validation issues, which quote
    its words): each string through the store gate (`single_line`: as one line, for tags). JSON
    escapes C0 controls (ESC is written \\u001b), so the value is read when it holds an escape
    or a character the gate would change; a clean value is stored as given."""

    def __init__(self, *args: Any, single_line: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.single_line = single_line

    def db_value(self, value: Any) -> Any:
        if value is None:
            return None
        text = str(value)
        if "\\" in text or stored(text) != text:
            try:
                text = json.dumps(self._walk(json.loads(text)), ensure_ascii=False)
            except ValueError:  # not JSON: gated as text
                text = stored(text, single_line=self.single_line)
        return super().db_value(text)

    def _walk(self, value: Any) -> Any:
        if isinstance(value, str):
            return stored(value, single_line=self.single_line)
        if isinstance(value, list):
            return [self._walk(v) for v in value]
        if isinstance(value, dict):
            return {self._walk(k): self._walk(v) for k, v in value.items()}
        return value


UNTRUSTED = (UntrustedText, UntrustedLine, UntrustedTitle, UntrustedJson)


@translated
def gate(field: peewee.Field, value: Any) -> Any:
    """`value` as `field` stores it: gated when the field is one of the untrusted columns
    (for the raw statements that write them), unchanged otherwise."""
    return field.db_value(value) if isinstance(field, UNTRUSTED) else value


__all__ = ["UNTRUSTED", "UntrustedJson", "UntrustedLine", "UntrustedText", "UntrustedTitle", "gate"]
