"""`memoryrush`: with no command, opens the app; subcommands for scripting and evaluation."""

from __future__ import annotations

import gc
import importlib
from pathlib import Path

import click

from core.services.bootstrap import use_data_dir
from tui.cli.common import data_dir_option, out, services
from tui.startup import start_up

COMMAND_MODULES = (
    "tui.cli.library_cmds",
    "tui.cli.source_cmds",
    "tui.cli.review_cmds",
    "tui.cli.search_cmds",
    "tui.cli.model_cmds",
    "tui.cli.app_cmds",
    "tui.cli.export_cmds",
    "tui.cli.backup_cmds",
    "tui.cli.mcp_cmds",
    "tui.cli.check_cmds",
)
# Which module holds each subcommand: a module is imported only when its command runs (or for
# --help), so opening the app doesn't pay for the importers, extractors and search. A test checks
# this table against each module's COMMANDS.
COMMAND_HOMES = {
    "process": "tui.cli.library_cmds",
    "import": "tui.cli.library_cmds",
    "list": "tui.cli.library_cmds",
    "show": "tui.cli.library_cmds",
    "rename": "tui.cli.library_cmds",
    "reimport": "tui.cli.source_cmds",
    "sync": "tui.cli.source_cmds",
    "session": "tui.cli.review_cmds",
    "stats": "tui.cli.review_cmds",
    "optimize": "tui.cli.review_cmds",
    "search": "tui.cli.search_cmds",
    "models": "tui.cli.model_cmds",
    "review": "tui.cli.app_cmds",
    "export": "tui.cli.export_cmds",
    "import-library": "tui.cli.export_cmds",
    "backup": "tui.cli.backup_cmds",
    "restore": "tui.cli.backup_cmds",
    "mcp": "tui.cli.mcp_cmds",
    "check": "tui.cli.check_cmds",
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use (click's documented lazy-loading pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMAND_HOMES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMAND_HOMES:
            for command in importlib.import_module(COMMAND_HOMES[cmd_name]).COMMANDS:
                self.add_command(command)
        return super().get_command(ctx, cmd_name)


def prepare_demo(home: Path) -> Path:
    """The sample articles imported into `home` by the offline extractor."""
    from core.services.commands.importing import Import
    from sample_articles import sample_paths

    use_data_dir(home)
    with services(home) as svc:
        for outcome in svc.run(Import(tuple(sample_paths()), extractor="offline")):
            if outcome.status == "refused":
                out(f"demo: {outcome.path}: {outcome.message}", err=True)
    return home


def run_app(data_dir: Path | None, *, start: str = "home") -> None:
    """Open the Textual app (imported lazily so the CLI starts fast)."""
    start_up()  # `memoryrush review` comes here through a subcommand, which resumed the collector
    try:
        process = importlib.import_module("tui.process")  # (which imports tui.app)
    except ModuleNotFoundError as exc:
        if exc.name not in ("tui.process", "tui.app"):  # a missing dependency inside the app is a real error
            raise
        # The app has not landed yet: show the library as text instead.
        with services(data_dir, exclusive=False) as svc:
            for a in svc.library.articles():
                out(f"{a.id}: {a.title} ({a.proposed} proposed units)")
                for u in svc.library.units(a.id):
                    out(f"   [{u.memory_type}] {u.content}")
        return
    try:
        process.run(data_dir, start=start)
    finally:
        gc.enable()


@click.group(
    cls=LazyGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(package_name="memoryrush", prog_name="memoryrush", message="%(prog)s %(version)s")
@click.option(
    "--demo",
    is_flag=True,
    help="Open on a throw-away library with the sample articles imported (removed on exit; "
    "with --data-dir, imported into that folder and kept).",
)
@data_dir_option
@click.pass_context
def cli(ctx: click.Context, demo: bool, data_dir: Path | None) -> None:
    """MemoryRush: turn what you read into memory you can trust."""
    if data_dir is not None:
        use_data_dir(data_dir)
    if ctx.invoked_subcommand is not None:
        gc.enable()  # paused by start_up() for the app's start only
        return
    if not demo:
        run_app(data_dir)
        return
    if data_dir is not None:  # the user's own folder: the demo articles stay there
        run_demo(data_dir)
        return
    from tui.cli.demo import demo_home

    with demo_home() as home:  # a temporary library, removed when the app exits
        run_demo(home)


def run_demo(home: Path) -> None:
    gc.enable()  # the import is ordinary work; the pause is for the app's start
    prepare_demo(home)
    gc.disable()
    run_app(home)


def main() -> None:
    """The CLI with every option and command (the console script is tui.launch.main)."""
    start_up()
    try:
        cli()
    finally:
        gc.enable()
