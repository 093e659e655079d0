"""Questions asked again of a unit's new content (issue 32, item 5).

An edit that changes a unit's content ("42 percent" -> "90 percent") left the questions built
from the old content as they were: the cloze went on teaching "42 percent" once the edit was
kept. Cards teach what the unit says, so a question the reader did not reword in the same
edit, and that was built from the old content, is asked again of the new one:

* a cloze whose sentence (its blank filled) is in the old content and not in the new: the
  sentence and the blank are carried through the edit ("The survey found that ____ of adults
  ..." keeps its place and gets "90 percent");
* a question and answer: an answer that is in the old content and not in the new is carried
  through the edit, and a phrase of the question that the edit replaced is replaced too
  ("What share of adults ...?" when "adults" became "children").

Carried by a diff of the old and new content's words (difflib): an edited stretch maps to
what replaced it, the rest to itself. A question whose answer the edit took out stays as it
was and is named (`lost`): the edit marks it an error the reader fixes with b or e, and the
validator reports any question that contradicts its unit's content, so a card never silently
teaches what the unit no longer says.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise

from core.text.cjk import HAN
from core.validation.cards import BLANK

Question = tuple[str, str, str]  # (question, answer, kind)


@dataclass(frozen=True, slots=True)
class Restated:
    questions: list[Question]
    again: int  # how many were asked again of the new content
    lost: tuple[int, ...]  # positions of those whose answer the edit took out (left as they were)


def restate(before: str, after: str, questions: Sequence[Question], stored: Sequence[Question]) -> Restated:
    """`questions` (the edit's) with those built from `before` asked of `after`; `stored` are
    the unit's questions before the edit (one the edit changed is the reader's, left alone)."""
    if before == after:
        return Restated(list(questions), 0, ())
    edit = _Edit(before, after)
    out: list[Question] = []
    lost: list[int] = []
    for i, question in enumerate(questions):
        again = None
        if i < len(stored) and question == stored[i]:
            try:
                again = edit.cloze(question) if question[2] == "cloze" else edit.qa(question)
            except _Lost:
                lost.append(i)
        out.append(again or question)
    return Restated(out, sum(a != b for a, b in zip(out, questions, strict=True)), tuple(lost))


class _Lost(Exception):
    """The question was built from words of the old content that the edit took out."""


class _Edit:
    """Positions and phrases of the old content carried to the new one, through a diff of
    their words (a Han character, a run of other letters or digits, a space, a sign each)."""

    def __init__(self, before: str, after: str) -> None:
        self.before = before
        self.after = after
        self.starts_before = _starts(before)
        self.starts_after = _starts(after)
        words_before = [before[a:b] for a, b in pairwise(self.starts_before)]
        words_after = [after[a:b] for a, b in pairwise(self.starts_after)]
        self.ops = SequenceMatcher(None, words_before, words_after, autojunk=False).get_opcodes()

    def at(self, position: int, *, end: bool) -> int:
        """Where `position` of the old content is in the new: inside an edited stretch, its
        start (for a start) or its end (for an end)."""
        k = bisect_left(self.starts_before, position)
        if self.starts_before[k] != position and not end:
            k -= 1  # inside a word: from the word's start
        for tag, i1, i2, j1, j2 in self.ops:
            if tag == "equal" and i1 <= k <= i2:
                return self.starts_after[j1 + k - i1]
            if i1 <= k < i2 or (tag == "insert" and k == i1 and end):
                return self.starts_after[j2 if end else j1]
        return len(self.after)

    def stale(self, text: str) -> int | None:
        """Where `text` is in the old content, when the new no longer has it (else None)."""
        at = self.before.find(text) if text.strip() else -1
        return at if at >= 0 and text not in self.after else None

    def cloze(self, question: Question) -> Question | None:
        text, answer, kind = question
        blank = BLANK.search(text)
        if blank is None:
            return None
        filled = text[: blank.start()] + answer + text[blank.end() :]
        at = self.stale(filled)
        if at is None:
            return None
        start = at + blank.start()
        a, b = self.at(start, end=False), self.at(start + len(answer), end=True)
        new = self.after[a:b].strip()
        if not new:
            raise _Lost
        a = self.after.index(new, a)
        head = self.after[self.at(at, end=False) : a]
        tail = self.after[a + len(new) : self.at(at + len(filled), end=True)]
        return (head + blank.group(0) + tail, new, kind)

    def qa(self, question: Question) -> Question | None:
        text, answer, kind = question
        at = self.stale(answer)
        if at is not None:
            answer = self.after[self.at(at, end=False) : self.at(at + len(answer), end=True)].strip()
            if not answer:
                raise _Lost
        for tag, i1, i2, j1, j2 in self.ops:
            old = self.before[self.starts_before[i1] : self.starts_before[i2]].strip()
            if tag != "equal" and _WORDY.search(old) and not _phrase(old).search(self.after):
                new = self.after[self.starts_after[j1] : self.starts_after[j2]].strip()
                text = _phrase(old).sub(lambda _: new, text)  # noqa: B023 (used at once)
        return (text, answer, kind) if (text, answer, kind) != question else None


_HAN_CHAR = re.compile(f"[{HAN}]")
_WORDY = re.compile(r"[^\W_]")  # a phrase worth replacing in a question has a letter or digit
_WORD = re.compile(rf"[{HAN}]|(?:(?![{HAN}])[^\W_])+|\s+|.", re.DOTALL)


def _phrase(words: str) -> re.Pattern[str]:
    """`words` as a whole phrase: not inside a longer word ("a" is not in "share"; a Han
    character has no word edge)."""
    head = "" if _HAN_CHAR.match(words) else r"(?<![^\W_])"
    tail = "" if _HAN_CHAR.match(words[-1]) else r"(?![^\W_])"
    return re.compile(head + re.escape(words) + tail)


def _starts(text: str) -> list[int]:
    """Where each word of `text` starts, and its length last."""
    return [m.start() for m in _WORD.finditer(text)] + [len(text)]
