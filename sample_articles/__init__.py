"""Sample articles shipped with MemoryRush: the demo library and test material."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
SUFFIXES = (".txt", ".md", ".markdown")


def sample_paths() -> list[Path]:
    return sorted(p for p in HERE.iterdir() if p.suffix in SUFFIXES)
