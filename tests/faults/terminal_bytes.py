"""Read the raw bytes an app wrote to a real terminal (tmux pipe-pane) and list what it should
never have written: every escape sequence is parsed, and only those Textual itself emits pass.

Textual draws with CSI sequences only (SGR colours `m`, cursor moves `H`, private modes `?h`/`?l`,
mode queries `$p`, the kitty keyboard `>u`/`<u`) and OSC 22 (pointer shape). Anything else is
a finding: another OSC (title 0/1/2, clipboard 52, hyperlink 8 ...), DCS, APC, PM or SOS
strings, C1 controls (U+0080-U+009F: an 8-bit CSI is U+009B), bytes that are not UTF-8, a bare
BEL or other C0 control, and any other CSI (`2J`, which wipes the screen, among them).
"""

from __future__ import annotations

import re

# One token: an escape sequence of any kind, or a single other character.
_TOKEN = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, to BEL or ST
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC, to ST
    r"|\x1b[\s\S]?",  # any other escape (ESC 7, ESC =, a lone ESC)
)
_ALLOWED_CSI = re.compile(r"\x1b\[(?:[\d;:]*m|\d*(?:;\d*)?H|\?[\d;]+[hl]|\?\d+\$p|>\d+u|<u)\Z")
_ALLOWED_OSC = re.compile(r"\x1b\]22;[a-z-]+(?:\x07|\x1b\\)\Z")
_C0 = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]")
_C1 = re.compile(r"[\x80-\x9f]")


def findings(raw: bytes) -> list[str]:
    """Everything in `raw` a well-behaved Textual app would not have written (empty = clean)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [f"not UTF-8 at byte {exc.start}: {raw[max(0, exc.start - 20) : exc.start + 20]!r}"]
    found: list[str] = []
    position = 0
    while position < len(text):
        if text[position] != "\x1b":
            end = text.find("\x1b", position)
            end = len(text) if end < 0 else end
            plain = text[position:end]
            found += [f"C0 control {c!r} in text" for c in _C0.findall(plain)]
            found += [f"C1 control U+{ord(c):04X} in text" for c in _C1.findall(plain)]
            position = end
            continue
        match = _TOKEN.match(text, position)
        assert match is not None  # the last alternative matches any ESC
        token = match.group(0)
        position = match.end()
        if _ALLOWED_CSI.match(token) or _ALLOWED_OSC.match(token):
            continue
        found.append(f"escape sequence not from Textual: {token[:60]!r}")
    return found
