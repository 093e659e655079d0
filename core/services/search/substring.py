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
- one token: the words holding it, any of them;
- several (a piece across punctuation, "x86-6"): the first token as the end of a word (the
  token itself or a vocabulary word ending with it), any of them, and the phrase of the others,
  the last as a prefix; each paragraph found is checked to hold the normalised piece,
  punctuation included, as the trigram table's match required (the check also sees that the
  phrase follows the word). A piece with anything beside its one token ("ynthes,") is checked
  the same way. (One phrase per first word expanded the prefix once per phrase: 9 ms each on
  bench_search's 100k paragraphs, 0.9 s for 100 first words; OR-ed words and one phrase: 40 ms.)
Several pieces: all of them (AND). CJK characters are whole tokens, matched as they are.

The words (for several tokens: the words the first may end) are taken in batches, the
shortest first: BATCH of each piece, then as many again each time (100, 200, 400, ...
searched), each batch asking only for the combinations it adds, until `limit` paragraphs are
found (and pass the check) or the words run out. The first batch is taken as listed; from the
second on, words no paragraph holds any more are skipped before they count (the vocabulary is
only added to: a removed or re-imported article's words stay, as do words only units hold),
by their document frequency in search_para, asked for only when the first batch falls short.
A batch's matches are read `limit` at a time, then four times as many, and so on, until
enough pass the check. The bound: MAX_WORDS words of each piece (six batches), CHECK_MAX
matches read per batch.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from core.storage.search import query as search_query
from core.storage.search import words as vocabulary
from core.text.analysis import fts_phrase, is_cjk, normalize, tokens

MIN_CHARS = 3  # a shorter piece is not looked up (as the trigram table needed three)
BATCH = 100  # words of each piece in the first batch; each further one doubles what is searched
MAX_WORDS = 3200  # words of one piece searched at most: 100 + 100 + 200 + ... + 1600
CHECK_MAX = 6400  # matches of one batch read (and checked against the text) at most
_LIVE_CHUNK = 200  # words whose document frequency is asked for at a time


@dataclass
class _Piece:
    """One piece: its candidate words (the shortest first), each searched as an FTS5 phrase
    over `words`, and the phrases taken so far."""

    words: list[str]
    # a piece across punctuation: the phrase of the tokens after the first (the last may be the
    # start of a word), which a paragraph must hold too; the text check sees that it follows
    after: str = ""
    taken: list[str] = field(default_factory=list)
    _read: int = 0  # words looked at
    _live: list[str] = field(default_factory=list)  # looked at, held by a paragraph, not yet taken

    def take(self, n: int) -> list[str]:
        """Up to `n` more phrases (the first batch as listed, then live words only)."""
        if not self.taken:
            new = self.words[:n]
            self._read = len(new)
        else:
            while len(self._live) < n and self._read < len(self.words):
                chunk = self.words[self._read : self._read + _LIVE_CHUNK]
                self._read += len(chunk)
                held = search_query.document_frequencies("words", chunk)
                self._live += [w for w in chunk if held.get(w, 0) > 0]
            new, self._live = self._live[:n], self._live[n:]
        phrases = [fts_phrase([w]) for w in new]
        self.taken += phrases
        return phrases


def _group(piece: _Piece, phrases: Sequence[str]) -> str:
    """One piece in an expression: any of `phrases`, and what follows them."""
    expr = "(words : (" + " OR ".join(phrases) + "))"
    return f"{expr} AND (words : {piece.after})" if piece.after else expr


def batches(pieces: Sequence[_Piece]) -> Iterator[str]:
    """FTS5 expressions over `words`, one per batch, each matching the combinations of words
    (one per piece) that the batch adds: those whose first new word is piece i's, the pieces
    before it on their old words, the ones after on old and new."""
    size = BATCH
    while True:
        old = [list(p.taken) for p in pieces]
        new = [p.take(min(size, MAX_WORDS) - len(p.taken)) for p in pieces]
        if not any(new):
            return
        parts = []
        for i, added in enumerate(new):
            if added and all(old[:i]):
                each = [*old[:i], added, *(o + n for o, n in zip(old[i + 1 :], new[i + 1 :], strict=True))]
                parts.append(" AND ".join(_group(p, ph) for p, ph in zip(pieces, each, strict=True)))
        yield " OR ".join(f"({p})" for p in parts)
        size *= 2


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
        spelling. One `str.find` per word found, none per word scanned. (A token holds no
        newline, and the copy starts with one: each find lies inside one word.)"""
        text = self._vocabulary()
        found: set[str] = set()
        pos = text.find(token)
        while pos != -1:
            start = text.rfind("\n", 0, pos) + 1
            end = text.find("\n", pos)
            if not ending or end == pos + len(token):
                found.add(text[start:end])
            pos = text.find(token, end)
        return sorted(found, key=lambda w: (len(w), w))

    def _piece(self, piece: str) -> tuple[_Piece, bool] | None:
        """A piece's candidate words, and whether hits must be checked against the text; None
        when no word of the library can hold it."""
        toks = tokens(piece)
        if not toks:
            return None
        if len(toks) == 1:
            token = toks[0]
            words = [token] if is_cjk(token) else self.holding(token)
            return (_Piece(words), normalize(piece) != token) if words else None
        first, rest = toks[0], toks[1:]
        firsts = [first]
        if not is_cjk(first):
            firsts += [w for w in self.holding(first, ending=True) if w != first]
        return _Piece(firsts, fts_phrase(rest) + ("" if is_cjk(rest[-1]) else " *")), True

    def paragraphs(
        self, pieces: Sequence[str], limit: int, article_ids: Sequence[int] = (), cap: int | None = None
    ) -> list[int]:
        """Paragraph pks whose text holds every piece of MIN_CHARS characters or more: batch by
        batch (the shortest words first), each best first (BM25 over the words found; the
        newest first past `cap` matches, as search_para lists)."""
        planned: list[_Piece] = []
        checks: list[str] = []
        for piece in (p for p in pieces if len(p) >= MIN_CHARS):
            found = self._piece(piece)
            if found is None:
                return []
            planned.append(found[0])
            if found[1]:
                checks.append(normalize(piece))
        out: list[int] = []
        for expr in batches(planned) if planned else ():
            out += _matching(expr, limit - len(out), article_ids, cap, checks, set(out))
            if len(out) >= limit:
                break
        return out


def _matching(
    expr: str, want: int, article_ids: Sequence[int], cap: int | None, checks: list[str], seen: set[int]
) -> list[int]:
    """Up to `want` paragraphs matching `expr`, not in `seen`, that hold every `checks` text:
    `want` matches read, then four times as many, ..., until enough or none are left."""
    verdict: dict[int, bool] = {}
    n = want
    while True:
        pks = [pk for pk, _ in search_query.paragraphs_matching(expr, n, article_ids, cap)]
        fresh = [pk for pk in pks if pk not in seen]
        if checks:
            unread = [pk for pk in fresh if pk not in verdict]
            rows = search_query.paragraph_rows(unread)
            for pk in unread:
                verdict[pk] = pk in rows and all(c in normalize(rows[pk].text) for c in checks)
            fresh = [pk for pk in fresh if verdict[pk]]
        if len(fresh) >= want or len(pks) < n or n >= CHECK_MAX:
            return fresh[:want]
        n = min(n * 4, CHECK_MAX)
