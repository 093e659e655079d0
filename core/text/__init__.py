"""Text helpers every floor may use: sanitising untrusted text and normalising for comparison.

No I/O, no Textual. `sanitize` is the one gate untrusted text passes before display.
"""

from __future__ import annotations

import re
import unicodedata

# C0 and C1 control characters except \n and \t, plus DEL.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTROL_ALL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
    }
)
_WS = re.compile(r"\s+")
CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")


def replace_controls(text: str, replacement: str = "\ufffd") -> str:
    """Replace C0/C1 control characters except newline and tab (ingestion rule)."""
    return _CONTROL.sub(replacement, text)


def sanitize(text: str, *, single_line: bool = False) -> str:
    """Make untrusted text safe to show: control characters (ESC, BEL, ...) out.

    The result still must be shown with markup off (Content / markup=False / rich Text).
    """
    text = str(text)
    if single_line:
        return _CONTROL_ALL.sub(" ", text)
    return _CONTROL.sub("", text).replace("\t", "    ")


def unify(text: str) -> str:
    """NFKC and curly -> straight quotes; case and spacing kept (full-width digits become ASCII)."""
    return unicodedata.normalize("NFKC", text).translate(_QUOTES)


def normalize_for_match(text: str) -> str:
    """NFKC, curly -> straight quotes, whitespace collapsed, case folded (validator rule)."""
    text = unify(text).casefold()
    return _WS.sub(" ", text).strip()


def squash(text: str) -> str:
    """normalize_for_match without any whitespace (CJK text compares alike)."""
    return _WS.sub("", normalize_for_match(text))


def cjk_ratio(text: str) -> float:
    """Share of CJK characters among the letters of a text."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if CJK_RE.match(c)) / len(letters)


def detect_language(text: str) -> str:
    """'zh' when CJK characters dominate the letters, else 'en'."""
    sample = text[:20000]
    return "zh" if cjk_ratio(sample) >= 0.3 else "en"
