"""Typo correction: a query word the library does not hold becomes the library word one or two
edits away ("photosynthsis" -> "photosynthesis"), shown as "showing results for ...".

Only words that are not in the library are touched; a query whose words are all there is
never rewritten. A word counts as present when the index has it (paragraphs or units), has
its stem ("photosynthesising" is there if "photosynthesise" is), or, for the last word of a
query typed without a trailing space, when a library word starts with it (still typing).
Words under three letters, numbers, CJK text and words written with two capitals or more
(acronyms and names: "GMO", "DSMs") are left alone.

A word the library lacks but English has is what the reader meant, not a typo: "unaffected"
is never turned into the library's "affected", nor "career" into "larger". English here is
pyspellchecker's word list (MIT, 160k words, loaded at the first unknown word), cut at
apostrophes as the index cuts words ("couldn't" makes "couldn" English). Without it, half the
corrections of the SQuAD dev questions (242 of 4630 corrected) were such real words, some
reversing the meaning; with it, 119 are corrected, nearly all real typos ("guage", "Krugmen").

Candidates come from the library's own vocabulary (`search_words`), at most one edit away for
words of three to five letters and two for longer ones (Elasticsearch's AUTO fuzziness), an
edit being an insertion, deletion, substitution or swap of neighbours (optimal string
alignment). The nearest wins, then the one in most paragraphs and units, then the first in
alphabetical order (so the choice never depends on timing). Each candidate's paragraphs and units
are counted up to RANK_CAP, and exactly only when two or more reach it (a count reads the term's
whole list: 3 ms for a word in half of 100k paragraphs):

- one edit: every string one edit away is looked up in the word list's primary key (about
  55 per letter, one query), so the usual typo costs a few milliseconds and loads nothing;
- two edits (only when no word is one edit away): the word list is loaded once into memory,
  by length, and scanned with rapidfuzz's C++ OSA distance for lengths within two of the word.
"""

from __future__ import annotations

import re
import string
import threading
from dataclasses import dataclass, field

from core.storage.search import words as vocabulary
from core.text import sanitize
from core.text.analysis import STOP, normalize, runs, stem

CORRECT_MIN = 3  # letters: shorter words are never corrected
TWO_EDITS_FROM = 6  # letters: shorter words get one edit at most
RANK_CAP = 1000  # paragraphs or units: candidates are counted this far, then exactly if tied
_LETTERS = string.ascii_lowercase
_WORD = re.compile(r"[^\W_]+")


def edits1(word: str) -> set[str]:
    """Every string one insertion, deletion, substitution or neighbour swap (a-z) from `word`."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out.update(a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1)
    out.update(a + c + b[1:] for a, b in splits if b for c in _LETTERS)
    out.update(a + c + b for a, b in splits for c in _LETTERS)
    out.discard(word)
    return out


def correctable(run: str) -> bool:
    return len(run) >= CORRECT_MIN and run.isascii() and run.isalpha()


@dataclass
class Speller:
    """Corrections for one library; the two-edit word list is cached until the list grows."""

    _by_length: dict[int, list[str]] = field(default_factory=dict, init=False, repr=False)
    _stamp: int = field(default=-1, init=False, repr=False)
    _english: frozenset[str] | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def correct(self, query: str) -> str | None:
        """The query with its unknown words corrected, or None when nothing is changed."""
        query = sanitize(query, single_line=True)
        q_runs = runs(query)
        typing = bool(q_runs) and not query[-1:].isspace()
        capitals = {normalize(w) for w in _WORD.findall(query) if sum(c.isupper() for c in w) >= 2}
        asked = [r for r in dict.fromkeys(q_runs) if correctable(r) and r not in capitals]
        unknown = self._unknown(asked, q_runs[-1:] if typing else [])
        typos = [w for w in unknown if w not in self.english()]
        fixes = {w: best for w in typos if (best := self._best(w)) is not None}
        if not fixes:
            return None
        return _WORD.sub(lambda m: _replace(m.group(), fixes), query)

    def _unknown(self, candidates: list[str], typing: list[str]) -> list[str]:
        """The words neither the index, nor their stem, nor (last word) a prefix accounts for."""
        if not candidates:
            return []
        found = vocabulary.present("words", candidates)
        stems = vocabulary.present("stems", {stem(w) for w in candidates if w not in found and w not in STOP})
        out = []
        for w in candidates:
            if w in found or (w not in STOP and stem(w) in stems):
                continue
            if w in typing and vocabulary.has_prefix(w):
                continue
            out.append(w)
        return out

    def english(self) -> frozenset[str]:
        """English words (pyspellchecker's list), loaded once."""
        with self._lock:
            if self._english is None:
                from spellchecker import SpellChecker

                words = SpellChecker(language="en", distance=1).word_frequency.keys()
                self._english = frozenset(p for w in words for p in w.split("'") if p)
            return self._english

    def _best(self, word: str) -> str | None:
        """The nearest library word (one edit, else two for long words), most frequent first."""
        near = vocabulary.listed(edits1(word))
        if not near and len(word) >= TWO_EDITS_FROM:
            near = self._two_edits(word)
        if not near:
            return None
        freq = vocabulary.counts("words", near, RANK_CAP)  # words of gone paragraphs have none
        tied = [w for w, n in freq.items() if n >= RANK_CAP]
        if len(tied) > 1:
            freq.update(vocabulary.counts("words", tied))
        ranked = sorted(freq, key=lambda w: (-freq[w], w))
        return ranked[0] if ranked else None

    def _two_edits(self, word: str) -> set[str]:
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        by_length = self._words()
        out: set[str] = set()
        for n in range(len(word) - 2, len(word) + 3):
            pool = by_length.get(n)
            if pool:
                found = process.extract(word, pool, scorer=OSA.distance, score_cutoff=2, limit=None)
                out.update(str(w) for w, _, _ in found)
        return out

    def _words(self) -> dict[int, list[str]]:
        """The word list by length, read again when search_words has grown since."""
        current = vocabulary.vocabulary_stamp()[0]
        with self._lock:
            if current != self._stamp:
                by_length: dict[int, list[str]] = {}
                for w in vocabulary.every_word():
                    by_length.setdefault(len(w), []).append(w)
                self._by_length, self._stamp = by_length, current
            return self._by_length


def _replace(word: str, fixes: dict[str, str]) -> str:
    """A word of the query as shown: its correction in the word's own case pattern."""
    fix = fixes.get(normalize(word))
    if fix is None:
        return word
    if word.isupper() and len(word) > 1:
        return fix.upper()
    if word[:1].isupper():
        return fix.capitalize()
    return fix
