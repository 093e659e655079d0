"""The `memoryrush` console script: plain `memoryrush` opens the app without loading the
command-line parser; anything else goes to the click CLI (tui.cli.main)."""

from __future__ import annotations

import gc
import sys


def start_up() -> None:
    """The first thing `memoryrush` does: the cyclic garbage collector is paused while the app
    starts. Importing Textual and building the first frame allocate a few hundred thousand
    long-lived objects, and the collections they trigger (a good part of the start-up time)
    find nothing to free. The app resumes it, after gc.freeze, once its first frame is shown
    (MemoryRushApp.on_ready); a subcommand resumes it at once (tui.cli.main.cli)."""
    gc.disable()


def main() -> None:
    start_up()
    try:
        if sys.argv[1:]:
            from tui.cli.main import cli

            cli()
        else:  # what `cli` does without arguments, minus importing click and every option
            from tui.app import run

            run(None)
    finally:
        gc.enable()
