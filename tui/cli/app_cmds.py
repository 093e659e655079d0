"""`memoryrush review`: open the app straight into today's review session."""

from __future__ import annotations

from pathlib import Path

import click

from tui.cli.common import data_dir_option


@click.command("review")
@data_dir_option
def review(data_dir: Path | None) -> None:
    """Open the app on today's review session."""
    from tui.cli.main import run_app

    run_app(data_dir, start="review")


COMMANDS: list[click.Command] = [review]
