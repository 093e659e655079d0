"""`memoryrush check FILE.jsonl` end to end, in a subprocess: one verdict line per input line, in
order; "-" reads standard input; a bad line gets an error line and a non-zero exit, never a
traceback; the command never opens the library, so it runs while another process holds it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from process_support import lock_held

from tests.faults.helpers import cli_argv, mr_env

PAIRS = [
    {
        "quote": "The survey found that 42 percent of adults read daily.",
        "claim": "The survey found that 90 percent of adults read daily.",
    },
    {"quote": "RuBisCO fixes carbon dioxide.", "claim": "RuBisCO fixes carbon dioxide."},
    {"quote": "Octopuses have three hearts.", "claim": "Octopuses can change colour."},
    {"quote": "光合作用分為兩個階段。", "claim": "光合作用分為三個階段。", "id": "extra keys are ignored"},
]


def run(home: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*cli_argv(), "check", *args], input=stdin, env=mr_env(home), capture_output=True, timeout=120
    )


def lines(data: bytes) -> list[dict[str, object]]:
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def jsonl(rows: list[dict[str, str]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


def test_a_file_gets_one_verdict_per_line_in_order(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(jsonl(PAIRS))
    done = run(tmp_path / "home", str(path))
    assert done.returncode == 0, done.stderr
    got = lines(done.stdout)
    assert [g["verdict"] for g in got] == ["contradicts", "consistent", "unsupported", "contradicts"]
    assert got[0]["reasons"] == ["the quote says 42 percent, the claim 90 percent"]
    assert got[1] == {"verdict": "consistent", "reasons": []}
    assert "三個階段" in str(got[3]["reasons"])
    assert not (tmp_path / "home").exists()  # the library was never opened


def test_dash_reads_standard_input(tmp_path: Path) -> None:
    done = run(tmp_path / "home", "-", stdin=jsonl(PAIRS[:2]))
    assert done.returncode == 0, done.stderr
    assert [g["verdict"] for g in lines(done.stdout)] == ["contradicts", "consistent"]


def test_bad_lines_get_an_error_line_in_place_and_a_failing_exit(tmp_path: Path) -> None:
    good = json.dumps(PAIRS[1]).encode()
    data = b"\n".join(
        [
            good,
            b"not json",
            b"[1, 2]",
            b'{"quote": 3, "claim": "x"}',
            b'{"claim": "only a claim"}',
            b"\xff\xfe bad bytes",
            b"",
            good,
        ]
    )
    done = run(tmp_path / "home", "-", stdin=data + b"\n")
    assert done.returncode == 1
    got = lines(done.stdout)
    assert len(got) == 7  # the blank line is skipped
    assert got[0]["verdict"] == got[6]["verdict"] == "consistent"
    errors = [str(g["error"]) for g in got[1:6]]
    assert errors[0].startswith("line 2: not JSON")
    assert errors[1].startswith("line 3: not a JSON object")
    assert errors[2] == "line 4: quote missing or not text"
    assert errors[3] == "line 5: quote missing or not text"
    assert errors[4].startswith("line 6: not UTF-8")
    stderr = done.stderr.decode("utf-8")
    assert "Traceback" not in stderr and "5 lines could not be checked" in stderr


def test_a_missing_file_is_one_clear_line(tmp_path: Path) -> None:
    done = run(tmp_path / "home", str(tmp_path / "nope.jsonl"))
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr and b"nope.jsonl" in done.stderr


def test_untrusted_text_in_reasons_cannot_reach_the_terminal_as_control_codes(tmp_path: Path) -> None:
    row = {
        "quote": "The \x1b[31mred\x9b2J team won in 1998.",
        "claim": "The \x1b[31mred\x9b2J team won in 1989.",
    }
    done = run(tmp_path / "home", "-", stdin=jsonl([row]))
    assert done.returncode == 0
    assert not any(b in done.stdout for b in (b"\x1b", "\x9b".encode()))
    assert lines(done.stdout)[0]["verdict"] == "contradicts"


def test_it_runs_while_another_process_holds_the_library(tmp_path: Path) -> None:
    home = tmp_path / "home"
    with lock_held(home):
        done = run(home, "-", stdin=jsonl(PAIRS[:1]))
        assert done.returncode == 0, done.stderr
        assert lines(done.stdout)[0]["verdict"] == "contradicts"
