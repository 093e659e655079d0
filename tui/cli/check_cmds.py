"""`memoryrush check FILE.jsonl`: the claim-evidence consistency check for scripts and evaluation.

Reads one JSON object per line, {"quote": ..., "claim": ...} (other keys are ignored, blank
lines skipped), from FILE or standard input ("-"), and writes one JSON line per object, in order:
{"verdict": "consistent" | "contradicts" | "unsupported", "reasons": [...]}. A line that cannot be
read gets {"error": "line N: ..."} in its place (and the same on standard error), and the command
exits 1 at the end; it never opens the library, so it runs beside the app.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from typing import IO, Any

import click

from tui.cli.common import fail, out

# JSON leaves DEL and the C1 controls (\x9b is a terminal's CSI) as they are: escape them too
_UNSAFE = re.compile("[\x7f-\x9f]")


def _json_line(obj: dict[str, Any]) -> bytes:
    text = json.dumps(obj, ensure_ascii=False)
    return (_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text) + "\n").encode("utf-8")


def _pairs(stream: IO[bytes]) -> Iterator[tuple[int, tuple[str, str] | str]]:
    """(line number, (quote, claim)) for every non-blank line, or (line number, what is wrong)."""
    for number, raw in enumerate(stream, start=1):
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            yield number, f"not UTF-8 text (byte {exc.start + 1})"
            continue
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            yield number, f"not JSON ({exc})"
            continue
        if not isinstance(obj, dict):
            yield number, 'not a JSON object; expected {"quote": "...", "claim": "..."}'
            continue
        missing = [k for k in ("quote", "claim") if not isinstance(obj.get(k), str)]
        if missing:
            yield number, f"{' and '.join(missing)} missing or not text"
            continue
        yield number, (obj["quote"], obj["claim"])


@click.command("check")
@click.argument("source", metavar="FILE.jsonl", type=click.Path(dir_okay=False, allow_dash=True))
def check_cmd(source: str) -> None:
    """Check claims against their quotes: one {"quote", "claim"} JSON object per line ("-": stdin)."""
    from core.validation.consistency import check  # the command's only heavy import

    try:
        stream: IO[bytes] = sys.stdin.buffer if source == "-" else open(source, "rb")  # noqa: SIM115
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror or exc}")
        return
    bad = 0
    write = sys.stdout.buffer.write
    try:
        for number, item in _pairs(stream):
            if isinstance(item, str):
                bad += 1
                write(_json_line({"error": f"line {number}: {item}"}))
                out(f"memoryrush check: line {number}: {item}", err=True)
            else:
                write(_json_line(check(*item).to_json()))
            sys.stdout.buffer.flush()
    except KeyboardInterrupt:
        fail("interrupted", 130)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if bad:
        fail(f"{bad} line{'s' if bad != 1 else ''} could not be checked", 1)


COMMANDS: list[click.Command] = [check_cmd]
