"""model commands (filled in by the model work)."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
