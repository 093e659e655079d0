"""review commands (filled in by the review work)."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
