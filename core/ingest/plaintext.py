"""Text normalisation and plain-text segmentation.

Newlines: only \\r\\n and \\r become \\n (str.splitlines() would also split on U+2028, form feed
and eight more). Paragraphs are separated by blank lines; inside one, a line break folds to one
space, or to nothing between two CJK characters. Everything here is linear: the one regex can
only start a match at a newline, and lines are folded with str methods.
"""

from __future__ import annotations

import re

from core.text import replace_controls
from core.text.cjk import FULLWIDTH, HAN, KANA, PUNCTUATION

# Han, CJK symbols and punctuation (not U+3000, which is a space), kana, fullwidth forms.
_CJK = PUNCTUATION + KANA + HAN + FULLWIDTH
# Whitespace that is not a line break (\s without \n; U+2028/2029 are text, not breaks, here).
_WS = r"[^\S\n\u2028\u2029]"
_BLANK_LINES = re.compile(rf"\n(?:{_WS}*\n)+")
# The same set as _WS, for str.strip: str.isspace() characters except \n, U+2028, U+2029.
_WS_CHARS = "\t\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_CJK_CHAR = re.compile(f"[{_CJK}]")
CJK_CHAR = _CJK_CHAR  # one character of the set a line break between two of folds to nothing
_SURROGATE = re.compile("[\ud800-\udfff]")
_C0_BYTES = bytes([*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F])  # all but \t and \n
_C1_UTF8 = re.compile(b"\xc2[\x80-\x9f]")
# ... and the bidi embeddings, overrides and isolates (core.text.BIDI_CONTROLS) as UTF-8:
# U+202A-U+202E and U+2066-U+2069.
_BIDI_UTF8 = re.compile(b"\xe2(?:\x80[\xaa-\xae]|\x81[\xa6-\xa9])")
# Zero-width characters: a file or block of only these (and whitespace) has no text.
_INVISIBLE = "\ufeff\u200b\u200c\u200d\u2060"
_BLANK_TEXT = re.compile(f"[\\s{_INVISIBLE}]*")


def is_blank(text: str) -> bool:
    """Only whitespace and zero-width characters (BOMs included)."""
    return _BLANK_TEXT.fullmatch(text) is not None


def normalize_text(text: str) -> tuple[str, bytes]:
    """\r\n and \r -> \n, leading BOM dropped, lone surrogates and what a terminal would obey
    (core.text.replace_controls: C0/C1 controls, bidi overrides) replaced.

    Returns the text and its UTF-8 bytes (for hashing). The controls are looked for in the
    bytes (C0 and DEL by deleting them, C1 and bidi controls as their UTF-8 sequences), which
    is several times faster than a regex over the str; most files have none.
    """
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        payload = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: no decoder makes them, but a caller's str may
        text = _SURROGATE.sub("\ufffd", text)
        payload = text.encode("utf-8")
    if (
        len(payload.translate(None, _C0_BYTES)) != len(payload)
        or _C1_UTF8.search(payload)
        or _BIDI_UTF8.search(payload)
    ):
        text = replace_controls(text)
        payload = text.encode("utf-8")
    return text, payload


def fold_lines(text: str) -> str:
    """Join the lines of one paragraph: a space, or nothing between two CJK characters."""
    if "\n" not in text:
        return text
    if text.isascii():
        # After normalisation the only ASCII whitespace left is space, tab and newline.
        if " \n" not in text and "\n " not in text and "\t" not in text:
            return text.replace("\n", " ")
        return " ".join([line.strip(_WS_CHARS) for line in text.split("\n")])
    lines = [line.strip(_WS_CHARS) for line in text.split("\n")]
    cjk = _CJK_CHAR.match
    parts = [lines[0]]
    prev = lines[0]
    for line in lines[1:]:
        # The cheap comparisons rule out most pairs before the regex runs (CJK starts at U+3001).
        if prev and line and prev[-1] > "\u3000" and line[0] > "\u3000" and cjk(prev[-1]) and cjk(line[0]):
            parts.append(line)
        else:
            parts.append(" ")
            parts.append(line)
        prev = line
    return "".join(parts)


def split_blocks(text: str) -> list[str]:
    """Blocks separated by blank lines, stripped, lines not yet folded. Empty blocks dropped."""
    out: list[str] = []
    for block in _BLANK_LINES.split(text):
        block = block.strip()
        if block and block.strip(_INVISIBLE):
            out.append(block)
    return out
