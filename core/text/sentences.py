"""How many sentences a text holds, as the ranker counts them (BM25's sentence lengths).

`sentence_count(text)` is the number of non-blank pieces `SENTENCE_END.split(text)` gives, at
least 1, found without the split; core.text.analysis counts each text of the index with
`count_sentences` (the same count, from the UTF-8 it has in hand), and the query side's `analyse`
cuts a text into those pieces with `sentence_pieces`.
"""

from __future__ import annotations

import re

SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])")
# the same sentence ends, found without a lookbehind at every position (see sentence_count)
_LATIN_END = re.compile(r"[.!?;](?=\s)")
# sentence_count's marks over a text's UTF-8: a sentence end "." (any of .!?;), "s" for each
# ASCII character `\s` matches (str.isspace: tab, line breaks, \x1c-\x1f, space), "u" for a byte
# of a character outside ASCII, "x" else
_SENTENCE_BYTES = (
    bytes(ord("." if chr(i) in ".!?;" else "s" if chr(i).isspace() else "x") for i in range(128)) + b"u" * 128
)


def sentence_count(text: str) -> int:
    """How many non-blank pieces `SENTENCE_END.split(text)` gives (at least 1), without the split.

    Every piece before a sentence end holds its end mark, so it is never blank: the count is
    the number of ends, plus one when the text after the last end is not blank.
    """
    return count_sentences(text, text.encode("utf-8", "surrogatepass"))


# a mark of .!?; and the whitespace after it: SENTENCE_END's Latin ends, matched from the mark
_LATIN_BREAK = re.compile(r"[.!?;]\s+")
_WIDE_END = re.compile("[。！？；]")


def sentence_pieces(text: str) -> list[str]:
    """`SENTENCE_END.split(text)`. A text without a wide end (。！？；) is cut after each mark of
    .!?; that whitespace follows, the whitespace left out: the same pieces, found by a pattern
    that starts at a mark instead of a lookbehind tried at every position (31 of the 74 us an
    English paragraph's analysis took for the rerank, issue 32)."""
    if not text.isascii() and _WIDE_END.search(text):
        return SENTENCE_END.split(text)
    pieces: list[str] = []
    at = 0
    for m in _LATIN_BREAK.finditer(text):
        pieces.append(text[at : m.start() + 1])
        at = m.end()
    pieces.append(text[at:])
    return pieces


# the wide sentence ends in UTF-8: 。 (E3 80 82); ！？； (EF BC 81, 9F, 9B) share a prefix
_WIDE_STOP, _WIDE_PREFIX = "。".encode(), b"\xef\xbc"
_WIDE_ENDS = tuple(c.encode() for c in "！？；")


def count_sentences(text: str, data: bytes) -> int:
    """`sentence_count` of a text whose UTF-8 (surrogatepass) is `data` (index_rows has it).
    The wide ends are counted in the bytes (a character's UTF-8 is found only where the
    character is: a lead byte is never a continuation byte), and only after their prefix:
    libxml2's bulleted lists took 4M instructions in four counts of their characters, none there."""
    ends = _latin_ends(text, data)
    if len(data) != len(text):  # not ASCII
        ends += data.count(_WIDE_STOP)
        if _WIDE_PREFIX in data:
            ends += sum(data.count(end) for end in _WIDE_ENDS)
    tail = text.rstrip()
    last_blank = not tail or tail[-1] in "。！？；" or (tail[-1] in ".!?;" and len(tail) < len(text))
    return max(1, ends + (0 if last_blank else 1))


def _latin_ends(text: str, data: bytes) -> int:
    """How many times `_LATIN_END` matches (a mark of .!?; before whitespace): the ".s" in the
    text's bytes (`data`) mapped by _SENTENCE_BYTES (two never overlap: each starts with a mark
    and goes on with a space). A mark before a character outside ASCII (a wide space?) takes
    the regex. C passes, where the regex's search cost 60 instructions a character (callgrind)."""
    marks = data.translate(_SENTENCE_BYTES)
    if b".u" in marks:
        return len(_LATIN_END.findall(text))
    return marks.count(b".s")
