"""Substrings inside words ("ynthes" in "photosynthesis", "x86-6" in "x86-64"), found through
the library's vocabulary: the words that hold the piece, then their paragraphs in search_para.

The search service asks for them when the word lists find too little (its ``substring`` list).
Until schema 7 a trigram table over every paragraph's raw text answered; writing it was a third
of what storing and indexing a large web page cost (libxml2's 336 KB page: 27 of 85 ms, and
most of its commit), for a list that is asked for now and then. The vocabulary (search_words
and search_tokens, core.storage.search.index) is written at import anyway, and a piece is
looked up in an in-memory copy of it: one `str.find` pass over the words, read again only
when the index has gained words since.

A piece is normalised as the index normalises text, cut into tokens (core.text.analysis):
- one token: every word holding it (up to WORDS_PER_PIECE, the shortest first), any of them;
- several (a piece across punctuation, "x86-6"): a phrase of them, the first token as the end
  of a word (the token itself or a vocabulary word ending with it, up to FIRST_WORDS), the last
  as a prefix; then each paragraph found is checked to hold the normalised piece, punctuation
  included, as the trigram table's match required. A piece with anything beside its one token
  ("ynthes,") is checked the same way.
Several pieces: all of them (AND). CJK characters are whole tokens, matched as they are.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from core.storage.search import query as search_query
from core.storage.search import words as vocabulary
from core.text.analysis import fts_phrase, is_cjk, normalize, tokens

MIN_CHARS = 3  # a shorter piece is not looked up (as the trigram table needed three)
WORDS_PER_PIECE = 100  # vocabulary words a one-token piece is searched by, the shortest first
FIRST_WORDS = 30  # words the first token of a longer piece may end, the shortest first


class Substrings:
    """The vocabulary copy (guarded by a lock: searches may run in worker threads) and the lookups."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._text = "\n"

    def _vocabulary(self) -> str:
        """Every listed word between newlines ("\\nword\\nword\\n"), read again when the index grew."""
        current = vocabulary.vocabulary_stamp()
        with self._lock:
            if current != self._stamp:
                listed = vocabulary.every_word() + vocabulary.every_token()
                self._text = "\n" + "\n".join(listed) + "\n"
                self._stamp = current
            return self._text

    def holding(self, token: str, *, ending: bool = False) -> list[str]:
        """Vocabulary words that hold `token` (or end with it), the shortest first, then by
        spelling. One `str.find` per word found, none per word scanned."""
        text = self._vocabulary()
        found: set[str] = set()
        pos = text.find(token)
        while pos != -1:
            start = text.rfind("\n", 0, pos) + 1
            end = text.find("\n", pos)
            if start > 0 and (not ending or end == pos + len(token)):  # not across a newline
                found.add(text[start:end])
            pos = text.find(token, end)
        return sorted(found, key=lambda w: (len(w), w))

    def _expression(self, piece: str) -> tuple[str, bool] | None:
        """The FTS5 expression over `words` for one piece, and whether hits must be checked
        against the text; None when no word of the library can hold it."""
        toks = tokens(piece)
        if not toks:
            return None
        if len(toks) == 1:
            token = toks[0]
            words = [token] if is_cjk(token) else self.holding(token)[:WORDS_PER_PIECE]
            if not words:
                return None
            return "words : (" + " OR ".join(fts_phrase([w]) for w in words) + ")", normalize(piece) != token
        first, rest = toks[0], toks[1:]
        firsts = [first]
        if not is_cjk(first):
            firsts += [w for w in self.holding(first, ending=True) if w != first][:FIRST_WORDS]
        prefix = "" if is_cjk(rest[-1]) else " *"
        return "words : (" + " OR ".join(fts_phrase([f, *rest]) + prefix for f in firsts) + ")", True

    def paragraphs(
        self, pieces: Sequence[str], limit: int, article_ids: Sequence[int] = (), cap: int | None = None
    ) -> list[int]:
        """Paragraph pks whose text holds every piece of MIN_CHARS characters or more, best first
        (BM25 over the words found; the newest first past `cap` matches, as search_para lists)."""
        pieces = [p for p in pieces if len(p) >= MIN_CHARS]
        exprs: list[str] = []
        checks: list[str] = []
        for piece in pieces:
            found = self._expression(piece)
            if found is None:
                return []
            exprs.append(f"({found[0]})")
            if found[1]:
                checks.append(normalize(piece))
        if not exprs:
            return []
        ranked = search_query.paragraphs_matching(" AND ".join(exprs), limit, article_ids, cap)
        pks = [pk for pk, _ in ranked]
        if checks and pks:
            rows = search_query.paragraph_rows(pks)
            pks = [pk for pk in pks if pk in rows and all(c in normalize(rows[pk].text) for c in checks)]
        return pks
