"""The `memoryrush` console script: plain `memoryrush` opens the app without loading the
command-line parser; anything else goes to the click CLI (tui.cli.main)."""

from __future__ import annotations

import gc
import sys

from tui.startup import start_up


def main() -> None:
    start_up()
    try:
        if sys.argv[1:]:
            from tui.cli.main import cli

            cli()
        else:  # what `cli` does without arguments, minus importing click and every option
            from tui.process import run

            run(None)
    finally:
        gc.enable()
