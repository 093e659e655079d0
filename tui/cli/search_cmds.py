"""search commands (filled in by the search work)."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
