"""Text helpers every floor may use: sanitising untrusted text and normalising for comparison.

No I/O, no Textual. `sanitize` is the one gate untrusted text passes before display.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

# What a terminal would obey rather than show: C0 and C1 controls (ESC, BEL, CSI ...) and DEL,
# and the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) that reorder
# the text around them ("Trojan Source": a title reading "evil\u202etxt.exe" shows as
# "evilexe.txt"). The marks U+200E/U+200F reorder nothing and stay: Arabic and Hebrew use them.
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
# The character classes of the gate, compiled on first use (`_pattern`; `UNSAFE` is read from
# the module as before, through __getattr__). sre walks a class's ranges beyond Latin-1 in
# Python: compiling these three was ~6.5M instructions, and this module is imported before the
# first frame (the config module reads core.text.locations), whose title is plain ASCII.
_PATTERNS = {
    "UNSAFE": f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f{BIDI_CONTROLS}]",
    "UNSAFE_ALL": f"[\\x00-\\x1f\\x7f-\\x9f{BIDI_CONTROLS}]",  # tab and newline too
    # Lone surrogates: what a file name that is not UTF-8 decodes to. No terminal can be sent one.
    "SURROGATES": "[\ud800-\udfff]",
}


@cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(_PATTERNS[name])


def __getattr__(name: str) -> re.Pattern[str]:
    """`UNSAFE`, the ingestion rule's class (C0/C1 controls but newline and tab, DEL, bidi
    controls), compiled when first asked for."""
    if name == "UNSAFE":
        return _pattern(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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


def replace_controls(text: str, replacement: str = "\ufffd") -> str:
    """The ingestion rule: each character a terminal would obey (UNSAFE: C0/C1 controls but
    newline and tab, DEL, bidi embeddings, overrides and isolates) becomes one U+FFFD, so offsets
    into the text (a reader's spans, a quote's position) still hold. Stored text goes out in
    exports and over MCP without our display gate, so it must not reorder what it is shown in."""
    return _pattern("UNSAFE").sub(replacement, text) if _may_be_unsafe(text) else text


# the ASCII characters UNSAFE does not hold (printable ones, tab and newline)
_SAFE_ASCII = bytes(b for b in range(128) if not (b < 0x09 or 0x0B <= b < 0x20 or b == 0x7F))


_ASCII_BYTES = bytes(range(128))


def outside_ascii(data: bytes) -> str:
    """The characters outside ASCII of a text whose UTF-8 (surrogatepass) is `data`, in order:
    without the ASCII bytes the rest is theirs alone (C passes, where a regex's scan visited every
    character, 60 instructions each in callgrind)."""
    return data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")


def _may_be_unsafe(text: str) -> bool:
    """Whether UNSAFE matches in `text`, asked of its characters but the safe ASCII ones (its
    UTF-8 without their bytes, decoded: a few characters, often none). One C pass over the
    bytes, where the regex's scan cost 57 instructions a character (callgrind: 16M of the 47M
    that numbering libxml2's 753 paragraphs took, nearly all of its text clean)."""
    rest = text.encode("utf-8", "surrogatepass").translate(None, _SAFE_ASCII)
    return bool(rest) and _pattern("UNSAFE").search(rest.decode("utf-8", "surrogatepass")) is not None


_LINE_BREAKS = re.compile(r"\r\n?")
_LINE_SPACES = re.compile(r"[\n\t]")


def stored(text: str, *, single_line: bool = False) -> str:
    """The store gate: what every text from outside (an agent's proposal and its name, a model's
    reply, the reader's card, edit and tag, an article's title, a library file) becomes as it is
    written (core/storage/fields.py applies it to every such column). The ingestion rule
    (`replace_controls`: each character a terminal would obey, bidi overrides too, is one
    U+FFFD), after CR LF and CR become LF, and a lone surrogate (SQLite cannot hold one) U+FFFD.
    `single_line` (tags, titles, names): newlines and tabs become spaces. Idempotent, so a
    stored value compares equal to itself gated again."""
    text = str(text)
    if not text.isascii():
        text = _pattern("SURROGATES").sub("\ufffd", text)
    if "\r" in text:
        text = _LINE_BREAKS.sub("\n", text)
    if single_line and ("\n" in text or "\t" in text):
        text = _LINE_SPACES.sub(" ", text)
    return replace_controls(text)


def sanitize(text: str, *, single_line: bool = False) -> str:
    """Make untrusted text safe to show: control characters (ESC, BEL, CSI ...) and bidi
    overrides out (see UNSAFE), lone surrogates as U+FFFD. The one gate: the TUI (tui/safe.py)
    and the CLI's output use it.

    `single_line` also turns newlines and tabs into spaces, one space per character taken out,
    so positions in the result are positions in the input (an Input's cursor stays right).
    The result still must be shown with markup off (Content / markup=False / rich Text).
    """
    text = str(text)
    if text.isascii() and text.isprintable():  # nothing to take out (most titles and labels)
        return text
    if not text.isascii():
        text = _pattern("SURROGATES").sub("\ufffd", text)
    if single_line:
        return _pattern("UNSAFE_ALL").sub(" ", text)
    return _pattern("UNSAFE").sub("", text).replace("\t", "    ")


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
    sample in 2 ms, where a loop over the characters took 26). The CJK ones are counted among
    the characters outside ASCII alone (`outside_ascii`): an English page's scan is of a few."""
    if text.isascii():
        return 0.0
    # (imported here: compiling the CJK ranges is ~30M instructions, sre walks every code point,
    # and this module is on the way to the first frame for `sanitize`; nothing else here needs them)
    from core.text.cjk import HAN_RE

    cjk = len(HAN_RE.findall(outside_ascii(text.encode("utf-8", "surrogatepass"))))
    if not cjk:  # no letter count needed (most of the 2 ms of an English page's scans)
        return 0.0
    letters = len(_LETTER.findall(text))
    return cjk / letters if letters else 0.0


def detect_language(text: str) -> str:
    """'zh' when CJK characters dominate the letters, else 'en'."""
    sample = text[:20000]
    return "zh" if cjk_ratio(sample) >= 0.3 else "en"
