"""How common a word is in general English or Chinese: what makes an article's term specific.

A tag is a term the article uses far more often than the language at large does ("algorithm",
"Calvin cycle", "叶绿体"), not a word every text uses ("year", "people", "时间"). Rarity is
log10(total / count) in a general word-frequency table, read from data our dependencies
already ship (no new package, nothing downloaded):

* English: pyspellchecker's English list (MIT; 160k lower-case words with their counts in
  subtitles and web text, 1.6 billion words), read from its gzipped JSON (0.2 s, once per
  process, at the first English article; ~15 MB in memory). "the" 1.3, "brother" 3.8,
  "garden" 4.7, "algorithm" 5.7, "photosynthesis" 6.8; a word it lacks counts as rare.
* Chinese: rjieba's own dictionary frequencies (jieba's dict, 60 million words), asked per word
  (`suggest_freq`; a word it lacks gets the estimate of its pieces), on Simplified text (the
  dictionary is Simplified: a Traditional word is folded first). "人" 2.3, "时间" 3.3,
  "勋章" 4.8, "叶绿体" 5.7.

Without either table every word has the same middle rarity, and in-article counts alone rank.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import math
import threading
from functools import cache, lru_cache
from pathlib import Path

from core.text.chinese import fold_chinese

MIDDLE = 5.0  # the rarity of every word when no table can be read
CEILING = 7.5  # a word the table lacks: rare, but no rarer than a name it has ("nike" 7.0)
_ZH_TOTAL = 60_101_967  # the sum of jieba's dictionary frequencies
_lock = threading.Lock()


@cache
def _english() -> tuple[dict[str, int], float]:
    """pyspellchecker's English counts and their total; ({}, 0) when the package is missing."""
    with _lock:
        spec = importlib.util.find_spec("spellchecker")
        if spec is None or spec.origin is None:
            return {}, 0.0
        path = Path(spec.origin).parent / "resources" / "en.json.gz"
        try:
            table = json.loads(gzip.decompress(path.read_bytes()))
        except (OSError, ValueError):  # pragma: no cover - a damaged install: counts alone rank
            return {}, 0.0
        return table, float(sum(table.values()))


@lru_cache(maxsize=65536)
def rarity_en(word: str) -> float:
    """log10(total / count) of a lower-case English word; CEILING when the list lacks it."""
    table, total = _english()
    if not table:
        return MIDDLE
    count = table.get(word.lower())
    if not count:
        return CEILING
    return min(CEILING, math.log10(total / count))


@lru_cache(maxsize=65536)
def rarity_zh(word: str) -> float:
    """log10(total / count) of a Chinese word in jieba's dictionary (Traditional folded)."""
    try:
        import rjieba
    except ImportError:  # pragma: no cover - the wheel is unavailable: counts alone rank
        return MIDDLE
    count = max(1, rjieba.suggest_freq(fold_chinese(word)))
    return min(CEILING, math.log10(_ZH_TOTAL / count))
