"""Simplified and Traditional Chinese folded to one form, so either script finds both.

Every Han character is mapped to its Simplified form by OpenCC (the maintained converter,
Apache-2.0, its `t2s` tables), one character to one character: 葉綠體 and 叶绿体 both fold to
叶绿体. Search folds the index and the query alike (core.text.analysis.normalize), so a query in
either script matches text in either.

Character by character, not phrase by phrase: OpenCC's phrase tables depend on the neighbours
(乾隆 keeps 乾, 乾燥 becomes 干燥), so a term searched alone could fold differently from the
same term inside a paragraph. A character table folds a character the same way wherever it
stands, and the text keeps its length, so offsets found in folded text hold in the original
(snippet highlights). Folding is closed: a folded character folds to itself (薴 -> 苧 -> 苎 is
followed to 苎).

OpenCC is imported when the first text with a Han character is folded (start-up and English-only
work never load it). Each character is converted once and remembered: the table grows with the
characters the library holds (a few thousand), so folding is one `str.translate`.
"""

from __future__ import annotations

import threading
from typing import Any

from core.text.cjk import HAN_RE as _HAN

_converter: Any = None
_lock = threading.Lock()


def _convert(text: str) -> str:
    global _converter
    if _converter is None:
        with _lock:
            if _converter is None:
                import opencc

                _converter = opencc.OpenCC("t2s")
    return str(_converter.convert(text))


class _Table(dict[int, int]):
    """Code point -> its folded code point, filled on first sight of each character."""

    def __missing__(self, code: int) -> int:
        char = chr(code)
        folded = char
        if _HAN.match(char):
            for _ in range(3):  # closed under folding (a chain is at most two steps in OpenCC's tables)
                step = _convert(folded)
                if len(step) != 1 or step == folded:
                    break
                folded = step
        self[code] = ord(folded)
        return ord(folded)


_TABLE = _Table()


def fold_chinese(text: str) -> str:
    """`text` with every Traditional Han character in its Simplified form (same length)."""
    if text.isascii() or not _HAN.search(text):
        return text
    return text.translate(_TABLE)
