"""The CJK ranges, defined once: every question about Chinese characters composes these.

Ideographs are in four blocks; the legacy Chinese encodings (GBK, Big5) hold only the first two.
Kana, CJK punctuation and full-width forms matter where text is cut into words or lines.
"""

from __future__ import annotations

import re

EXT_A = "\u3400-\u4dbf"  # CJK Unified Ideographs Extension A
UNIFIED = "\u4e00-\u9fff"  # CJK Unified Ideographs
COMPATIBILITY = "\uf900-\ufaff"  # CJK Compatibility Ideographs
SUPPLEMENTARY = "\U00020000-\U000323af"  # planes 2 and 3: extensions B to H, compatibility supplement
HAN = EXT_A + UNIFIED + COMPATIBILITY + SUPPLEMENTARY
LEGACY_HAN = EXT_A + UNIFIED  # what GBK and Big5 can encode
KANA = "\u3040-\u30ff"  # hiragana and katakana
PUNCTUATION = "\u3001-\u303f"  # CJK symbols and punctuation (not U+3000, which is a space)
FULLWIDTH = "\uff01-\uff60\uffe0-\uffe6"  # full-width ASCII and signs

HAN_RE = re.compile(f"[{HAN}]")
