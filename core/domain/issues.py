"""Validation issues, typed once from the validator to the Triage screen: what rule broke
(`code`), how badly (`severity`), and where (`Where`: the part of an extraction, its index, the
field inside), so that no reader parses the location text again. Named through the package as
the other domain types are (`from core.domain import ValidationIssue`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

KEEPABLE_CODES = ("claim_contradicts_", "claim_unsupported")  # code prefixes (consistency.CODES)


_WHERE = re.compile(r"^(?P<part>[a-z_]+)(?:\[(?P<index>\d+)\])?(?P<rest>.*)$", re.S)


@dataclass(frozen=True, slots=True)
class Where:
    """What part of an extraction an issue is about: `part` ("memory_units",
    "recall_questions", "core_ideas", "summary", or "" for the whole), its `index` there, and
    the field inside it (`rest`, e.g. ".evidence[0]")."""

    part: str = ""
    index: int | None = None
    rest: str = ""

    @classmethod
    def of(cls, location: str) -> Where:
        m = _WHERE.match(location)
        if m is None:
            return cls("", None, location)
        index = m.group("index")
        return cls(m.group("part"), int(index) if index is not None else None, m.group("rest"))

    def __str__(self) -> str:
        return (
            f"{self.part}[{self.index}]{self.rest}" if self.index is not None else f"{self.part}{self.rest}"
        )


@dataclass(frozen=True, slots=True)
class ValidationIssue:
    """One broken rule: its code, what it says, where (the location as the artifact JSON writes
    it, and `where`, the same typed once here so no reader parses the text again), its
    severity, and the reader's reason when kept anyway."""

    code: str  # e.g. "unknown_paragraph", "quote_not_found"
    message: str
    location: str  # e.g. "memory_units[2].evidence[0]"
    severity: Literal["error", "warning"] = "error"
    kept: str = ""  # the reader's reason for keeping the unit despite this error ("" = not kept)
    where: Where = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "where", Where.of(self.location))

    @property
    def keepable(self) -> bool:
        """Words that contradict the quote, or a sentence no quote backs (core/validation/
        consistency.py): the errors a reader may keep with a reason, knowing better than the
        check; every other error must be fixed."""
        return self.severity == "error" and self.code.startswith(KEEPABLE_CODES)

    def index_in(self, part: str) -> int | None:
        """The index of the unit, question or idea this issue is about, when it is one of `part`."""
        return self.where.index if self.where.part == part else None

    @property
    def unit_index(self) -> int | None:
        """The memory unit this issue is about, if any."""
        return self.index_in("memory_units")

    @property
    def question_index(self) -> int | None:
        """The recall question this issue is about, if any."""
        return self.index_in("recall_questions")


@dataclass(frozen=True, slots=True)
class ValidationReport:
    issues: tuple[ValidationIssue, ...] = ()

    @property
    def ok(self) -> bool:
        return not any(i.severity == "error" for i in self.issues)

    def for_unit(self, index: int) -> tuple[ValidationIssue, ...]:
        return tuple(i for i in self.issues if i.unit_index == index)
