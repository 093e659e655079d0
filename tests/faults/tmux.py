"""A private tmux server for the fault suite: the real `memoryrush` in a real terminal, its
screen, title and clipboard read back, its exit status caught."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path


def tmux_available() -> bool:
    return shutil.which("tmux") is not None


class Tmux:
    """A private tmux server (own socket) running one command per window; reads screen and title."""

    TITLE = "mr-fault-title"
    HOME = "MemoryRush — Home"  # the title bar on the Home screen: the app is up and at home
    EXIT = "__MR_EXIT="

    def __init__(self, workdir: Path) -> None:

        self.dir = Path(tempfile.mkdtemp(prefix="mrtmux-"))  # short path: sockets max ~100 chars
        self.sock = str(self.dir / "s")
        self.workdir = workdir
        self.n = 0

    def tmux(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(["tmux", "-S", self.sock, *args], capture_output=True, text=True, timeout=20)
        if check and result.returncode != 0:
            raise AssertionError(f"tmux {args}: {result.stderr}")
        return result.stdout

    def start(
        self,
        argv: Sequence[str],
        env: dict[str, str],
        width: int = 160,
        height: int = 48,
        *,
        record: Path | None = None,
    ) -> str:
        """Run `argv` in a new window; with `record`, every byte it writes to the terminal is
        appended to that file (tmux pipe-pane, started before the command runs)."""
        import shlex

        self.n += 1
        target = f"w{self.n}"
        exports = " ".join(
            f"{k}={shlex.quote(v)}" for k, v in env.items() if k.startswith(("MEMORYRUSH", "PYTHON"))
        )
        # The shell waits for one line on stdin, so the title is set before the command runs,
        # and prints the command's exit code afterwards (tmux 3.3 sometimes misses the exit
        # status of a pane's process, leaving it a zombie with an empty #{pane_dead_status}).
        command = (
            f"read _go; cd {shlex.quote(str(self.workdir))} && "
            f"env -u COLUMNS -u LINES TERM=xterm-256color {exports} {shlex.join(argv)}; "
            f"code=$?; echo; echo {self.EXIT}$code"
        )
        size = ["-x", str(width), "-y", str(height)]
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", target, *size, "sh", "-c", command)
        self.tmux("set-option", "-g", "set-clipboard", "on")  # an OSC 52 write would land in a buffer
        self.tmux("set-option", "-t", target, "remain-on-exit", "on")
        self.tmux("select-pane", "-t", target, "-T", self.TITLE)
        if record is not None:
            self.tmux("pipe-pane", "-t", target, "-O", f"cat >> {shlex.quote(str(record))}")
        self.tmux("send-keys", "-t", target, "Enter")
        return target

    def dead(self, target: str) -> bool:
        """The command has finished (its exit code is on the screen)."""
        return self._exit_code(self.screen(target)) is not None

    def _exit_code(self, screen: str) -> int | None:
        found = re.findall(rf"^{self.EXIT}(\d+)$", screen, re.M)
        return int(found[-1]) if found else None

    def wait_dead(self, target: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not self.dead(target):
            if time.monotonic() > deadline:
                state = self.tmux(
                    "list-panes",
                    "-a",
                    "-F",
                    "#{session_name} #{pane_dead}:#{pane_dead_status} #{pane_current_command}",
                )
                raise AssertionError(f"{target} still running ({state}):\n{self.screen(target)}")
            time.sleep(0.05)

    def wait_for(self, target: str, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen(target)
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not on screen:\n{screen}")
            time.sleep(0.1)

    def exit_status(self, target: str) -> int:
        code = self._exit_code(self.screen(target))
        assert code is not None, f"{target} has not finished"
        return code

    def screen(self, target: str) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", target)

    def clipboard(self) -> str:
        """tmux's paste buffers: where a program's OSC 52 clipboard write ends up."""
        return self.tmux("list-buffers", check=False)

    def title(self, target: str) -> str:
        return self.tmux("display", "-p", "-t", target, "#{pane_title}").strip()

    def keys(self, target: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", target, *keys)

    def escape(self, target: str) -> None:
        """Escape, then a pause: a key right after it would be read as Alt+key."""
        self.keys(target, "Escape")
        time.sleep(0.6)

    def quit_app(self, target: str) -> None:
        """ctrl+q until the app has ended (a ctrl+q right after an Escape can be lost)."""
        for _ in range(5):
            self.keys(target, "C-q")
            deadline = time.monotonic() + 5
            while not self.dead(target) and time.monotonic() < deadline:
                time.sleep(0.1)
            if self.dead(target):
                return
        self.wait_dead(target)

    def close(self) -> None:
        self.tmux("kill-server", check=False)
        shutil.rmtree(self.dir, ignore_errors=True)
