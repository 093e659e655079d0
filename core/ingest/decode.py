"""Bytes -> text: binary sniffing, byte-order marks, strict UTF-8, UTF-16 without BOM, detection.

Order: an explicit encoding wins; else a BOM; else (NUL bytes present) a UTF-16 byte pattern or
"not a text file"; else strict UTF-8; else UTF-8 with a few bad bytes replaced (the import then
says which lines: bad_utf8_notice); else a GB/Big5 discriminator; else charset-normalizer.
When nothing is convincing the file is refused with a message that names `--encoding`.
"""

from __future__ import annotations

import codecs
import re

from charset_normalizer import from_bytes

from core.domain.errors import RefusedInput
from core.text.cjk import LEGACY_HAN

ENCODING_HINT = "pass --encoding gbk (or big5, utf-16, latin-1)"
NOT_DETECTED = f"file is not UTF-8 and its encoding could not be detected; {ENCODING_HINT}"
WHAT_IMPORTS = "import text, web pages, EPUB, PDF or DOCX files"
NOT_TEXT = f"not a text file (binary content); {WHAT_IMPORTS}"

# Longest first: the UTF-32 LE mark starts with the UTF-16 LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"PK\x03\x04", "zip archive"),
    (b"PK\x05\x06", "zip archive"),
    (b"SQLite format 3\x00", "SQLite database"),
    (b"%PDF-", "PDF document"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"\x1f\x8b", "gzip archive"),
    (b"\x7fELF", "executable"),
)
_FRIENDLY = {"iso8859-1": "latin-1"}
# Tie-break among equally good charset-normalizer guesses: the common encodings first.
_PREFERRED = ("utf_8", "gb18030", "gbk", "gb2312", "big5", "cp950", "cp1252", "latin_1", "iso8859_15")
# Never guessed: UTF-16/32 without NUL bytes (handled above), UTF-7, and EBCDIC code pages.
_EXCLUDED = [
    "utf_16",
    "utf_16_be",
    "utf_16_le",
    "utf_32",
    "utf_32_be",
    "utf_32_le",
    "utf_7",
    "cp037",
    "cp273",
    "cp424",
    "cp500",
    "cp875",
    "cp1026",
    "cp1140",
]
_LATIN_EXTRA = re.compile(
    "[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u00a0\u00a1\u00ab\u00b0\u00b7\u00bb\u00bf\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u20ac]"
)
_HAN = re.compile(f"[{LEGACY_HAN}]")
# Control characters other than tab/newline/carriage return/form feed: many of them mean binary.
_BAD_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
_SAMPLE = 65536
_ESCAPED = re.compile("[\udc80-\udcff]")  # bytes that are not UTF-8, after surrogateescape
BAD_UTF8_SHARE = 2  # "mostly UTF-8": at least 2 valid multi-byte characters per bad byte (GBK has fewer)


def canonical_name(encoding: str) -> str:
    """codecs' name for an encoding (gbk, big5, utf-16-le, latin-1, ...); LookupError if unknown."""
    name = codecs.lookup(encoding).name
    return _FRIENDLY.get(name, name)


def binary_kind(data: bytes, *, nul_is_binary: bool = True) -> str | None:
    """What kind of binary file this looks like, or None for text. BOMs and UTF-16 come first.

    With `nul_is_binary=False` (an encoding was forced) only the magic numbers count.
    """
    if bom_encoding(data) is not None:
        return None
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    if nul_is_binary and b"\x00" in data and utf16_without_bom(data) is None:
        return "binary data (NUL bytes)"
    return None


def bom_encoding(data: bytes) -> tuple[str, int] | None:
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, len(bom)
    return None


def utf16_without_bom(data: bytes) -> str | None:
    """'utf-16-le' / 'utf-16-be' when NUL bytes sit consistently on one side of each code unit."""
    if len(data) % 2:
        return None
    sample = data[:_SAMPLE]
    even = sample[0::2].count(0)
    odd = sample[1::2].count(0)
    if odd > 4 * even and odd > 0:
        name = "utf-16-le"
    elif even > 4 * odd and even > 0:
        name = "utf-16-be"
    else:
        return None
    try:
        text = data.decode(name)
    except UnicodeDecodeError:
        return None
    head = text[:_SAMPLE]
    if len(_BAD_CONTROLS.findall(head)) > len(head) / 100:
        return None
    return name


def decode_bytes(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """Decode file bytes; returns (text, encoding name). Raises RefusedInput when it cannot."""
    if encoding:
        return _decode_forced(data, encoding)
    bom = bom_encoding(data)
    if bom is not None:
        name, size = bom
        try:
            return data[size:].decode(name), name
        except UnicodeDecodeError:
            raise RefusedInput(
                f"file starts with a {name} byte-order mark but is not valid {name}; {ENCODING_HINT}"
            ) from None
    if b"\x00" in data:  # before UTF-8: ASCII-only UTF-16 is valid UTF-8 (full of NULs)
        name16 = utf16_without_bom(data)
        if name16 is None:
            raise RefusedInput(NOT_TEXT)
        return data.decode(name16), name16
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    if mostly_utf8(data):  # a few bad bytes in UTF-8 text: not a reason to read it all as Latin-1
        return data.decode("utf-8", "replace"), "utf-8"
    guessed = guess_chinese(data)
    if guessed is not None:
        return data.decode(guessed), guessed
    return _detect(data)


def _bad_utf8(data: bytes) -> tuple[str, list[int]]:
    """The text with each byte that is not UTF-8 as a lone surrogate, and where those are."""
    text = data.decode("utf-8", "surrogateescape")
    return text, [m.start() for m in _ESCAPED.finditer(text)]


def mostly_utf8(data: bytes) -> bool:
    """UTF-8 but for a few bytes: some valid multi-byte characters, and at most one bad byte
    for every BAD_UTF8_SHARE of them. A Latin-1 or GBK file has no or few valid sequences and
    many bad bytes; it goes to detection instead."""
    text, bad = _bad_utf8(data[: _SAMPLE * 4])
    valid = sum(1 for c in text if ord(c) > 127) - len(bad)
    return 0 < len(bad) * BAD_UTF8_SHARE <= valid


def bad_utf8_notice(data: bytes) -> str | None:
    """Which lines held bytes that are not UTF-8 (shown as U+FFFD), or None if none did."""
    text, bad = _bad_utf8(data)
    if not bad:
        return None
    places = []
    for offset in bad[:5]:
        line = text.count("\n", 0, offset) + 1
        byte = ord(text[offset]) - 0xDC00
        places.append(f"line {line}: byte 0x{byte:02X}")
    more = f" and {len(bad) - 5} more" if len(bad) > 5 else ""
    return (
        f"{len(bad)} byte{'s' if len(bad) != 1 else ''} not valid UTF-8 ({'; '.join(places)}{more}) "
        f"shown as \ufffd; if the file is in another encoding, {ENCODING_HINT}"
    )


def _decode_forced(data: bytes, encoding: str) -> tuple[str, str]:
    try:
        name = canonical_name(encoding)
    except LookupError:
        raise RefusedInput(
            f"unknown encoding {encoding!r}; try gbk, big5, utf-16, latin-1 or utf-8"
        ) from None
    bom = bom_encoding(data)
    if name == "utf-16" and bom is None:
        # Python's utf-16 without a BOM assumes the machine order; look at the bytes instead.
        name = utf16_without_bom(data) or "utf-16-le"
    try:
        text = data.decode(name)
    except UnicodeDecodeError as exc:
        raise RefusedInput(
            f"file is not valid {name} (bad byte at offset {exc.start}); check --encoding"
        ) from None
    return text.removeprefix("\ufeff"), name


def _ratio(text: str, wanted: str, lo: bytes, hi: bytes) -> tuple[float, int]:
    """Share of the first Han characters whose `wanted` encoding lies in [lo, hi]."""
    hans = _HAN.findall(text[:20000])[:3000]
    if not hans:
        return 0.0, 0
    good = 0
    for ch in hans:
        try:
            code = ch.encode(wanted)
        except UnicodeEncodeError:
            continue
        if len(code) == 2 and lo <= code <= hi:
            good += 1
    return good / len(hans), len(hans)


def guess_chinese(data: bytes) -> str | None:
    """GBK or Big5, when the bytes read as common characters in one and not the other.

    Simplified text read as GBK uses GB2312 characters almost only; traditional text read as
    Big5 uses Big5's frequent block (A440-C67E). Read the wrong way, either scores far lower.
    """
    sample = data[:_SAMPLE]
    scores: dict[str, float] = {}
    hans = 0
    for codec, wanted, lo, hi in (
        ("gb18030", "gb2312", b"\xb0\xa1", b"\xf7\xfe"),
        ("big5", "big5", b"\xa4\x40", b"\xc6\x7e"),
    ):
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError as exc:
            if exc.start < len(sample) - 4:  # not just a character cut by the sample's end
                continue
            text = sample[: exc.start].decode(codec)
        non_ascii = sum(1 for c in text[:20000] if ord(c) > 127)
        score, count = _ratio(text, wanted, lo, hi)
        if non_ascii and count >= non_ascii * 0.5:
            scores[codec] = score
            hans = max(hans, count)
    if hans < 2:
        return None
    gb, b5 = scores.get("gb18030", 0.0), scores.get("big5", 0.0)
    if gb >= 0.9 and gb - b5 >= 0.2:
        return _decodable(data, ("gbk", "gb18030"))
    if b5 >= 0.9 and b5 - gb >= 0.2:
        return _decodable(data, ("big5", "cp950", "big5hkscs"))
    return None


def _decodable(data: bytes, names: tuple[str, ...]) -> str | None:
    for name in names:
        try:
            data.decode(name)
        except UnicodeDecodeError:
            continue
        return name
    return None


def _latin1_plausible(data: bytes) -> bool:
    """Mostly ASCII plus accented Latin letters and Western punctuation: read it as cp1252."""
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return False
    extra = [ch for ch in text if ord(ch) > 127]
    if not extra or not all(_LATIN_EXTRA.match(ch) for ch in extra):
        return False
    letters = sum(1 for c in text if c.isalpha())
    return sum(1 for ch in extra if ch.isalpha()) <= letters * 0.5


def _detect(data: bytes) -> tuple[str, str]:
    matches = list(from_bytes(data, cp_exclusion=_EXCLUDED))
    if not matches:
        if _latin1_plausible(data):
            return data.decode("cp1252"), "cp1252"
        raise RefusedInput(NOT_DETECTED)
    best = matches[0]
    ties = [m for m in matches if m.chaos <= best.chaos + 0.03 and m.coherence >= best.coherence - 0.05]
    if best.coherence == 0 and len({str(m) for m in ties}) > 1:
        # No language recognised and the candidates disagree: too little text to tell.
        if _latin1_plausible(data):
            return data.decode("cp1252"), "cp1252"
        raise RefusedInput(NOT_DETECTED)
    ties.sort(key=lambda m: _PREFERRED.index(m.encoding) if m.encoding in _PREFERRED else len(_PREFERRED))
    chosen = ties[0]
    if chosen.chaos > 0.25:
        raise RefusedInput(NOT_DETECTED)
    text = str(chosen)
    if len(_BAD_CONTROLS.findall(text[:_SAMPLE])) > min(len(text), _SAMPLE) / 100:
        raise RefusedInput(NOT_TEXT)
    name = canonical_name(chosen.encoding)
    # Report the everyday name when it decodes to the same text (cp1250 -> cp1252, gb18030 -> gbk).
    for alias in ("cp1252", "gbk", "big5"):
        if alias != name:
            try:
                if data.decode(alias) == text:
                    return text, alias
            except UnicodeDecodeError:
                pass
    return text, name
