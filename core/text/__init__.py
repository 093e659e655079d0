"""Text helpers every floor may use: sanitising untrusted text and normalising for comparison.

No I/O, no Textual. `sanitize` is the one gate untrusted text passes before display.
"""

from __future__ import annotations

import re
import unicodedata

from core.text.cjk import HAN_RE

# What a terminal would obey rather than show: C0 and C1 controls (ESC, BEL, CSI ...) and DEL,
# and the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) that reorder
# the text around them ("Trojan Source": a title reading "evil\u202etxt.exe" shows as
# "evilexe.txt"). The marks U+200E/U+200F reorder nothing and stay: Arabic and Hebrew use them.
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
UNSAFE = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{BIDI_CONTROLS}]")
_UNSAFE_ALL = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{BIDI_CONTROLS}]")
# Lone surrogates: what a file name that is not UTF-8 decodes to. No terminal can be sent one.
_SURROGATES = re.compile("[\ud800-\udfff]")
QUOTE_FOLD = str.maketrans(  # curly quotes and primes -> straight quotes
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
CJK_RE = HAN_RE  # a Han character (core.text.cjk holds the ranges)


def replace_controls(text: str, replacement: str = "\ufffd") -> str:
    """The ingestion rule: each character a terminal would obey (UNSAFE: C0/C1 controls but
    newline and tab, DEL, bidi embeddings, overrides and isolates) becomes one U+FFFD, so offsets
    into the text (a reader's spans, a quote's position) still hold. Stored text goes out in
    exports and over MCP without our display gate, so it must not reorder what it is shown in."""
    return UNSAFE.sub(replacement, text)


def sanitize(text: str, *, single_line: bool = False) -> str:
    """Make untrusted text safe to show: control characters (ESC, BEL, CSI ...) and bidi
    overrides out (see UNSAFE), lone surrogates as U+FFFD. The one gate: the TUI (tui/safe.py)
    and the CLI's output use it.

    `single_line` also turns newlines and tabs into spaces, one space per character taken out,
    so positions in the result are positions in the input (an Input's cursor stays right).
    The result still must be shown with markup off (Content / markup=False / rich Text).
    """
    text = str(text)
    if not text.isascii():
        text = _SURROGATES.sub("\ufffd", text)
    if single_line:
        return _UNSAFE_ALL.sub(" ", text)
    return UNSAFE.sub("", text).replace("\t", "    ")


def unify(text: str) -> str:
    """NFKC and curly -> straight quotes; case and spacing kept (full-width digits become ASCII)."""
    return unicodedata.normalize("NFKC", text).translate(QUOTE_FOLD)


def normalize_for_match(text: str) -> str:
    """NFKC, curly -> straight quotes, whitespace collapsed, case folded (validator rule)."""
    text = unify(text).casefold()
    return _WS.sub(" ", text).strip()


def squash(text: str) -> str:
    """normalize_for_match without any whitespace (CJK text compares alike)."""
    return _WS.sub("", normalize_for_match(text))


_LETTER = re.compile(r"[^\W\d_]")


def cjk_ratio(text: str) -> float:
    """Share of CJK characters among the letters of a text (two regex scans: a 20,000-character
    sample in 2 ms, where a loop over the characters took 26)."""
    cjk = len(CJK_RE.findall(text))
    if not cjk:  # no letter count needed (most of the 2 ms of an English page's scans)
        return 0.0
    letters = len(_LETTER.findall(text))
    return cjk / letters if letters else 0.0


def detect_language(text: str) -> str:
    """'zh' when CJK characters dominate the letters, else 'en'."""
    sample = text[:20000]
    return "zh" if cjk_ratio(sample) >= 0.3 else "en"
