"""A misbehaving Ollama server against `memoryrush import --extractor ollama`: what it costs.

Two servers (the loopback test server, tests/ollama_server.py, speaking Ollama's API to the real
ollama client): an endless reply (3,000 chunks of 64 KB for a 3-line article) and a slow drip
(one chunk every 0.5 s under a 1 s timeout). Prints wall time, the import's peak memory (ru_maxrss) and the
library's size on disk.

python bench/bench_ollama_reply.py [path/to/memoryrush]   # another build, e.g. main's, to compare

Measured 2026-12-01, 2 shared cores, main (eee0b04) -> this build: endless reply 7.3 s, 681 MB
peak, 197.02 MB library -> 2.8 s, 55 MB, 0.27 MB; slow drip: still running after 120 s -> 7.5 s
(the 5 s deadline plus start-up).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from ollama_server import OllamaTestServer, Reply  # noqa: E402

ARTICLE = "Cells divide by mitosis.\nThe nucleus splits first.\nThen the cytoplasm divides.\n"
CASES = {
    "endless reply (3,000 x 64 KB)": (Reply(content="x" * 65536, chunk_size=65536, repeat=3000), 30),
    "slow drip (a chunk / 0.5 s, 1 s timeout)": (Reply(content='{"summary": "', drip=0.5, repeat=10**6), 1),
}
LIMIT_S = 120  # a build without a deadline would wait on the drip for ever


# Runs the command and prints its peak resident memory in KB (Linux ru_maxrss): one fresh
# parent per case, so each figure is that import's own.
PEAK = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], capture_output=True); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def measure(exe: str, reply: Reply, timeout_s: int) -> str:
    home = Path(tempfile.mkdtemp(prefix="mr-bench-reply-"))
    article = home / "article.txt"
    article.write_text(ARTICLE, encoding="utf-8")
    try:
        with OllamaTestServer() as server:
            server.respond_with("/api/chat", lambda body: reply)
            library = home / "library"
            library.mkdir()
            (library / "config.toml").write_text(
                f'[extraction]\nollama_host = "{server.url}"\nollama_timeout_s = {timeout_s}\n',
                encoding="utf-8",
            )
            started = time.perf_counter()
            try:
                done = subprocess.run(
                    [sys.executable, "-c", PEAK, exe, "import", "--extractor", "ollama", str(article)],
                    env=dict(os.environ, MEMORYRUSH_HOME=str(library)),
                    capture_output=True,
                    text=True,
                    timeout=LIMIT_S,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                return f"still running after {LIMIT_S} s (stopped)"
            took = time.perf_counter() - started
        peak_mb = int(done.stdout.split()[-1]) / 1024
        size = sum(f.stat().st_size for f in library.glob("memoryrush.sqlite3*"))
        return f"{took:5.1f} s, peak {peak_mb:4.0f} MB, library {size / 1e6:.2f} MB"
    finally:
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    exe = sys.argv[1] if len(sys.argv) > 1 else str(Path(sys.executable).with_name("memoryrush"))
    print(f"memoryrush: {exe}")
    for name, (reply, timeout_s) in CASES.items():
        print(f"{name:<42} {measure(exe, reply, timeout_s)}", flush=True)


if __name__ == "__main__":
    main()
