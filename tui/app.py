"""The MemoryRush Textual app: wires services to screens, themes, the palette and error notices."""

from __future__ import annotations

import asyncio
import gc
import signal
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.command import Provider
from textual.content import Content
from textual.driver import Driver
from textual.notifications import Notify
from textual.screen import Screen

from core.host import paths
from core.services.bootstrap import Services
from themes import DEFAULT_THEME, register_themes
from tui import typed_on
from tui.bindings import APP_BINDINGS
from tui.collector import IdleCollector
from tui.messages import FirstFrameShown, OpenArticle, OpenBrowse, SearchHitOpened
from tui.quitting import QuitDeadline
from tui.theme_setting import ThemeKept, keep_theme, said_kept
from tui.workers import DaemonWorkerThreads

if TYPE_CHECKING:
    from core.domain.search import SearchHit
    from tui.backup_worker import BackedUp
    from tui.runner import WorkFailed

MAX_NOTICES = 3  # toasts on screen at once
# Textual's palette commands that ours replace: Quit (ctrl+q is ours), Keys (`?` shows every
# key), Screenshot (saved where it can be, and says where).
TEXTUAL_COMMANDS_REPLACED = frozenset({"Quit", "Keys", "Screenshot"})
BROWSE_ABOUT = "Every unit and card in one table: filter, sort, act on many at once  (b on Home)"
SCHEDULE_ABOUT = "The next 30 days' reviews, easy days, vacations, retention and optimize  (w on Home)"
STYLES = Path(__file__).resolve().parent / "styles"
SCREEN_STYLES = STYLES / "screens.tcss"
# The code of the screens opened from Home, imported in a thread once the first frame is shown
# (App.on_ready): our own modules and the scheduler, no heavy dependency (tests/test_app_warm.py).
# Imported when Browse first opened, they cost ~30 ms of its first paint (bench/bench_browse.py).
WARM_MODULES = (
    "core.services.browse.service",
    "tui.screens.browse",
    "tui.screens.review",
    "tui.screens.triage",
    "tui.screens.article",
    "tui.screens.library",
)


def _import_warm_modules() -> None:
    import importlib

    for name in WARM_MODULES:
        importlib.import_module(name)


def _article_commands() -> type[Provider]:
    """The palette's article provider, imported when the palette first opens (not at start-up)."""
    from tui.commands import ArticleCommands

    return ArticleCommands


class MemoryRushApp(App[None]):
    """Library, evidence browser, triage, daily review and stats over one Services object."""

    TITLE = "MemoryRush"
    CSS_PATH = [STYLES / "app.tcss"]  # what the first frame (Home) needs; see _read_screen_styles
    COMMANDS = App.COMMANDS | {_article_commands}
    BINDINGS = APP_BINDINGS
    _themes_ready = False  # (get_css_variables)

    def __init__(self, services: Services, *, start: str = "home") -> None:
        super().__init__()
        self.services = services
        self.start = start
        if start != "home":  # the first frame is another screen: it needs its rules at once
            self.css_path.append(SCREEN_STYLES)
        self.first_frame_shown = False
        self.crashed = False  # set by panic(): the app ended on an error (exit status 1)
        self.worker_threads = DaemonWorkerThreads()
        self.collector = IdleCollector()
        self._signals_before: dict[int, Any] = {}
        self.quit_deadline: QuitDeadline | None = None  # armed by tui.process.run: the real process only
        self._theme_problems = register_themes(self, paths.user_themes_dir())
        wanted = services.config.theme
        self._start_theme(wanted if wanted in self.available_themes else DEFAULT_THEME)

    def get_css_variables(self) -> dict[str, str]:
        """The theme's variables, once ours are registered. App.__init__ asks first, for its
        default theme, and _start_theme replaces them before anything is parsed: working them
        out for a theme never shown was 6.5M instructions of the cold start (callgrind)."""
        if not self._themes_ready:
            return {}
        return super().get_css_variables()

    def _start_theme(self, name: str) -> None:
        """Apply the saved theme before the stylesheet is first parsed. Assigning `self.theme`
        (as the settings screen does later) would schedule a parse of every stylesheet again,
        a good part of the start-up time; nothing is parsed yet, so new variables are enough."""
        self._themes_ready = True
        self.set_reactive(App.theme, name)
        theme = self.current_theme
        classes = {c: False for c in self.classes if c.startswith("-theme-")}
        classes.update(
            {f"-theme-{theme.name}": True, "-dark-mode": theme.dark, "-light-mode": not theme.dark}
        )
        self.update_classes(classes, update=False)
        self._refresh_truecolor_filter(self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())

    def get_driver_class(self) -> type[Driver]:
        """Textual's own driver, but on Linux and macOS the guarded one (tui/driver.py)."""
        driver = super().get_driver_class()
        from textual.drivers.linux_driver import LinuxDriver

        if driver is LinuxDriver:
            from tui.driver import GuardedDriver

            return GuardedDriver
        return driver

    def panic(self, *renderables: Any) -> None:
        """Textual ends the app this way on an error it cannot handle (a dead input thread, a
        failed worker): remember it, so the process exits non-zero (run)."""
        self.crashed = True
        super().panic(*renderables)

    def format_title(self, title: str, sub_title: str) -> Content:
        """Titles pass the gate too, whoever set them (the title bar draws this)."""
        from core.text import sanitize

        return super().format_title(sanitize(title, single_line=True), sanitize(sub_title, single_line=True))

    def on_mount(self) -> None:
        # Thread workers run here: a worker stuck in a slow request never holds up quitting.
        asyncio.get_running_loop().set_default_executor(self.worker_threads)
        self._end_on_signals()
        self.theme_changed_signal.subscribe(self, partial(keep_theme, self))  # tui/theme_setting.py
        if self._theme_problems or self.services.notices:
            from tui.safe import notify  # (imported here: not needed for most first frames)

            for problem in self._theme_problems:
                notify(self, problem, severity="warning")
            for notice in self.services.notices:
                notify(self, notice)
        from tui.screens.home import HomeScreen

        self.push_screen(HomeScreen())
        if self.start == "review":
            self.action_review()

    async def on_event(self, event: events.Event) -> None:
        """Every key acts on the screen it was typed on, while that is on top (tui/typed_on.py)."""
        if isinstance(event, events.Key):
            if not event.is_forwarded:  # from the terminal: to the focused widget of the top screen
                typed_on.delivered(event, self.screen)
            elif typed_on.stale(event, self.screen):  # back up to run a binding: another screen now
                return
        await super().on_event(event)

    def on_ready(self) -> None:
        # Everything built so far lives as long as the app: frozen out of the collector's way,
        # and the full collections (which pause the UI) are made when the reader pauses
        # (tui/collector.py). The `memoryrush` command keeps the collector off until here
        # (tui.launch.start_up).
        self.collector.start(self)
        gc.enable()
        self._read_screen_styles()
        self._warm_screens()
        self.first_frame_shown = True
        for screen in self.screen_stack:
            screen.post_message(FirstFrameShown())
        if self.services.config.backup_auto != "off":
            self.action_backup(auto=True)  # daily / at start-up, per Settings (after the first frame)

    def on_unmount(self) -> None:
        self.collector.stop()
        for sig, before in self._signals_before.items():
            signal.signal(sig, before)  # put back the caller's
        self._signals_before.clear()

    def _end_on_signals(self) -> None:
        """SIGTERM and SIGHUP (the terminal closed) end the app as a quit does, from the event
        loop: the terminal is restored, workers are let go, the exit status is 128 + the signal.
        (A SystemExit raised wherever the signal lands could stop the loop with Textual's
        input and output threads still running: the process then waited on them for ever.)
        The handler itself only arms the quit deadline (tui/quitting.py) and asks the loop to
        exit, so it works even when the loop is busy."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if sig is None:
                continue
            try:
                before = signal.signal(sig, partial(self._on_signal, loop))
            except (ValueError, OSError):  # not the main thread / no such signal here
                continue
            self._signals_before[sig] = before

    def _on_signal(self, loop: asyncio.AbstractEventLoop, signum: int, _frame: object) -> None:
        code = 128 + signum
        if self.quit_deadline is not None:
            self.quit_deadline.start(code)
        loop.call_soon_threadsafe(partial(self.exit, return_code=code))

    def exit(self, result: Any = None, return_code: int = 0, message: Any = None) -> None:
        """End the app; in the real process (tui.process.run) within QUIT_DEADLINE_S, whatever is
        still running (tui/quitting.py)."""
        if self.quit_deadline is not None:
            self.quit_deadline.start(return_code)
        super().exit(result, return_code, message)

    def _warm_screens(self) -> None:
        """Import the screens' code (WARM_MODULES) in a worker after the first frame, so opening
        one does not pay for it; a module a screen imports first is simply there already."""
        from tui import runner

        runner.start(self, "preparing the other screens", _import_warm_modules)

    def _read_screen_styles(self) -> None:
        """Read the other screens' rules now that the first frame is shown: parsing them before
        it would hold it up, and parsing them when a screen opens would hold that screen up."""
        if self.stylesheet.has_source(str(SCREEN_STYLES), ""):
            return
        self.stylesheet.read(SCREEN_STYLES)
        self.stylesheet.parse()  # only the new source: the others come from the parse cache
        self.stylesheet.update(self)

    # --- notices ----------------------------------------------------------------------------

    def on_notify(self, event: Notify) -> None:
        """Before a notice is shown (App._on_notify, which runs after this, adds it): the same
        text already on screen is replaced, and at most MAX_NOTICES stay, the oldest going first
        (errors last). Ten accepts in a row stacked ten "Accepted" toasts over the screen."""
        incoming = event.notification
        shown = list(self._notifications)
        for old in shown:
            if old.message == incoming.message and old.severity == incoming.severity:
                self._unnotify(old, refresh=False)
        shown = list(self._notifications)
        while len(shown) >= MAX_NOTICES:
            oldest = next((n for n in shown if n.severity != "error"), shown[0])
            self._unnotify(oldest, refresh=False)
            shown.remove(oldest)

    # --- one place for errors -------------------------------------------------------------

    def on_work_failed(self, message: WorkFailed) -> None:
        """Every worker's failure, whichever node ran it (tui/runner.py): logged, said under the
        worker's name, then the call's own hook; the app runs on."""
        from tui.runner import report_failure

        report_failure(self, message)

    # --- navigation (also reachable from every screen through the palette) ----------------

    def action_search(self) -> None:
        from tui.modals.search import SearchModal

        if not isinstance(self.screen, SearchModal):
            self.push_screen(SearchModal())

    def on_search_hit_opened(self, message: SearchHitOpened) -> None:
        self.remember_open(message.hit)

    def remember_open(self, hit: SearchHit) -> None:
        """In a worker: recording the open is a write (the ranking's use signal)."""
        from core.services.commands.search import RecordOpen
        from tui import runner

        runner.run(self, RecordOpen(hit), group="search-write")

    def on_theme_kept(self, message: ThemeKept) -> None:
        said_kept(self, message)

    def copy_to_clipboard(self, text: str) -> None:
        """Every copy comes here (ctrl+c on a mouse selection, an input's copy and cut). Nothing
        to copy writes nothing: a selection of text that has since gone (a notice that closed)
        gave "", and an empty OSC 52 clears the terminal's clipboard (tests/faults/test_clipboard.py)."""
        if not text.strip():
            from tui.safe import notify

            notify(self, "Nothing selected to copy", timeout=3)
            return
        super().copy_to_clipboard(text)

    def action_help(self) -> None:
        from tui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_backup(self, auto: bool = False) -> None:
        """Back up the library (a named worker; see tui/backup_worker.py)."""
        from tui.backup_worker import start_backup

        start_backup(self, self.services, auto=auto)

    def on_backed_up(self, message: BackedUp) -> None:
        from tui.safe import notify

        notify(self, message.said())

    def action_review(self) -> None:
        from tui.screens.review import ReviewScreen

        self.push_screen(ReviewScreen())

    def open_article(
        self, article_id: int, *, unit_id: int | None = None, paragraph: int | None = None
    ) -> None:
        from tui.screens.article import ArticleScreen

        self.push_screen(ArticleScreen(article_id, unit_id=unit_id, paragraph=paragraph))

    def on_open_article(self, message: OpenArticle) -> None:
        self.open_article(message.article_id, unit_id=message.unit_id, paragraph=message.paragraph)

    def on_open_browse(self, message: OpenBrowse) -> None:
        from tui.screens.browse import BrowseScreen

        self.push_screen(BrowseScreen(message.query))

    def open_schedule(self) -> None:
        from tui.screens.schedule import ScheduleScreen

        self.push_screen(ScheduleScreen())

    def action_command_palette(self) -> None:
        """Textual's palette as ours: dismissed once, whatever arrives after (tui/modals/once.py)."""
        from textual.command import CommandPalette

        from tui.modals.once import Palette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(Palette(id="--command-palette"))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette: every action of ours bound on this screen (its description, then what it
        does and its key), then Textual's theme and maximise commands and our Screenshot. Widget
        internals (cursor keys, focus next, copy) and Textual's second Quit and Keys are left out."""
        from tui.keys import ABOUT, NOT_IN_PALETTE, pretty_key

        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            wanted = binding.id in ABOUT and binding.id not in NOT_IN_PALETTE
            if not wanted or not active.enabled or binding.id in seen:
                continue
            seen.add(binding.id)  # type: ignore[arg-type]
            runner = partial(self.run_action, binding.action, active.node)
            about = f"{ABOUT[binding.id]}  ({pretty_key(binding.key)})"  # type: ignore[index]
            yield SystemCommand(binding.description, about, runner)
        for command in super().get_system_commands(screen):
            if command.title not in TEXTUAL_COMMANDS_REPLACED:
                yield command
        # Browse and Schedule from any screen (Home binds them to b and w: offered once there)
        if "home.browse" not in seen:
            yield SystemCommand("Browse", BROWSE_ABOUT, lambda: self.post_message(OpenBrowse()))
        if "home.schedule" not in seen:
            yield SystemCommand("Schedule", SCHEDULE_ABOUT, self.open_schedule)
        yield SystemCommand(
            "Screenshot",
            f"Save a picture (SVG) of this screen in {paths.screenshots_dir()}",
            lambda: self.set_timer(0.1, self.save_screen_picture),  # after the palette has closed
        )

    def save_screen_picture(self) -> None:
        """Write an SVG of the screen to a folder that exists and say where (Textual's own
        screenshot only said "Failed" when ~/Downloads was missing)."""
        from tui.safe import notify

        folder = paths.screenshots_dir()
        try:
            saved = self.save_screenshot(path=str(folder))
        except OSError as exc:
            notify(self, f"Screenshot not saved in {folder}: {exc.strerror or exc}", severity="error")
            return
        notify(self, f"Screenshot saved: {saved}")
