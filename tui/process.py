"""The `memoryrush` process around the app: open the library, run the app on it with the quit
deadline armed (tui/quitting.py: only here, in the real process, never in tests that run the
app in-process), close the library, then leave with the app's exit status. tui/launch.py (plain
`memoryrush`) and tui/cli/main.py (`memoryrush review`, `--demo` ...) come here; the app itself
(tui/app.py) knows nothing of the process it runs in.
"""

from __future__ import annotations

import sys
from pathlib import Path

from core.domain.errors import MemoryRushError
from core.services.bootstrap import open_services
from tui.app import MemoryRushApp
from tui.quitting import QuitDeadline


def run(data_dir: Path | None, *, start: str = "home") -> None:
    """Open the app on the library in `data_dir` (None = the default place)."""
    from tui.cli.common import fail

    try:
        services = open_services(data_dir)
    except MemoryRushError as exc:
        fail(str(exc))
        return
    try:
        app = MemoryRushApp(services, start=start)
        app.quit_deadline = QuitDeadline()
        app.run()
    finally:
        services.close()
    if app.worker_threads.abandoned:
        from tui.cli.common import out

        out(
            "memoryrush: quit during background work (an import?): what it had not finished is not saved",
            err=True,
        )
    code = exit_status(app)
    if code:
        sys.exit(code)


def exit_status(app: MemoryRushApp) -> int:
    """The process exit status once the app has ended: 0 only when it was asked to quit.
    Textual sets return_code 1 for an unhandled exception, but not when it panics (a dead input
    thread), and `run()` itself returns normally in both cases."""
    return app.return_code or (1 if app.crashed else 0)
