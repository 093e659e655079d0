"""Undo: the one journal read backwards, in a screen's scope (core/services/undo.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from core.domain.undo import Scope
from core.services.commands import Command

if TYPE_CHECKING:
    from core.domain.undo import Undone
    from core.services.bootstrap import Services


@dataclass(frozen=True, slots=True)
class Undo(Command["Undone | None"]):
    """Take back the newest step of `scope` not undone (of one article: Triage, the Article);
    None: nothing to undo."""

    scope: Scope
    article_id: int | None = None
    what: ClassVar[str] = "undoing"

    def handle(self, services: Services) -> Undone | None:
        return services.undo.undo(self.scope, self.article_id)  # type: ignore[call-overload]
