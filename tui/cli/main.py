"""`memoryrush`: with no command, opens the app; subcommands for scripting and evaluation."""

from __future__ import annotations

import importlib
import tempfile
from pathlib import Path

import click

from core.services.bootstrap import use_data_dir
from tui.cli.common import data_dir_option, out, services

COMMAND_MODULES = (
    "tui.cli.library_cmds",
    "tui.cli.review_cmds",
    "tui.cli.search_cmds",
    "tui.cli.model_cmds",
    "tui.cli.app_cmds",
)


def prepare_demo(data_dir: Path | None) -> Path:
    """A throw-away library with the sample articles imported by the offline extractor."""
    from sample_articles import sample_paths

    home = data_dir or Path(tempfile.mkdtemp(prefix="memoryrush-demo-"))
    use_data_dir(home)
    with services(home) as svc:
        for outcome in svc.library.import_paths(sample_paths(), extractor="offline"):
            if outcome.status == "refused":
                out(f"demo: {outcome.path}: {outcome.message}", err=True)
    return home


def run_app(data_dir: Path | None, *, start: str = "home") -> None:
    """Open the Textual app (imported lazily so the CLI starts fast)."""
    try:
        app_module = importlib.import_module("tui.app")
    except ModuleNotFoundError as exc:
        if exc.name != "tui.app":  # a missing dependency inside the app is a real error
            raise
        # The app has not landed yet: show the library as text instead.
        with services(data_dir, exclusive=False) as svc:
            for a in svc.library.articles():
                out(f"{a.id}: {a.title} ({a.proposed} proposed units)")
                for u in svc.library.units(a.id):
                    out(f"   [{u.memory_type}] {u.content}")
        return
    app_module.run(data_dir, start=start)


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--demo", is_flag=True, help="Open on a throw-away library with the sample articles imported.")
@data_dir_option
@click.pass_context
def cli(ctx: click.Context, demo: bool, data_dir: Path | None) -> None:
    """MemoryRush: turn what you read into memory you can trust."""
    if data_dir is not None:
        use_data_dir(data_dir)
    if ctx.invoked_subcommand is not None:
        return
    if demo:
        data_dir = prepare_demo(data_dir)
    run_app(data_dir)


for _name in COMMAND_MODULES:
    for _command in importlib.import_module(_name).COMMANDS:
        cli.add_command(_command)


def main() -> None:
    cli()
