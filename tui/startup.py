"""The first thing `memoryrush` does, for the console script (tui.launch) and the CLI
(tui.cli.main) alike: a module of its own, so neither imports the other for it."""

from __future__ import annotations

import gc


def start_up() -> None:
    """The first thing `memoryrush` does: the cyclic garbage collector is paused while the app
    starts. Importing Textual and building the first frame allocate a few hundred thousand
    long-lived objects, and the collections they trigger (a good part of the start-up time)
    find nothing to free. The app resumes it, after gc.freeze, once its first frame is shown
    (MemoryRushApp.on_ready); a subcommand resumes it at once (tui.cli.main.cli)."""
    gc.disable()
