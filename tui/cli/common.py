"""Helpers shared by the CLI commands: safe output and opening services with clean errors."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from core.domain import MEMORY_TYPES, UnitStatus
from core.domain.errors import MemoryRushError
from core.domain.export import ORIGINS
from core.services.bootstrap import Services, open_services
from core.text import sanitize


def out(text: str = "", *, err: bool = False) -> None:
    """Print untrusted text as plain text: control characters (escape sequences) removed."""
    click.echo(sanitize(text), err=err)


def one_line(text: str) -> str:
    """Untrusted text for a one-line field (titles, paths): control characters and newlines out."""
    return sanitize(text, single_line=True)


def fail(message: str, code: int = 2) -> None:
    out(f"memoryrush: {message}", err=True)
    sys.exit(code)


@contextmanager
def services(data_dir: Path | None, *, exclusive: bool = True) -> Iterator[Services]:
    """Open the library for a command; known errors become one line and exit code 2."""
    try:
        svc = open_services(data_dir, exclusive=exclusive)
    except MemoryRushError as exc:
        fail(str(exc))
        raise AssertionError from exc  # unreachable; fail() exits
    for notice in svc.notices:  # what opening did (old trash purged, old articles refreshed)
        out(f"memoryrush: {notice}", err=True)
    try:
        yield svc
    except MemoryRushError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted; everything reported above is saved, the file in progress was not", 130)
    finally:
        svc.close()


data_dir_option = click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Library folder (default: the platform data dir, or $MEMORYRUSH_HOME).",
)


STATUSES = [s.value for s in UnitStatus]


def unit_filter_options(
    *, article: str, status: str, memory_type: str, tag: str, origin: str
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The unit filters search, Browse and the exports share (--article, --status, --type,
    --tag, --origin), each with its command's help: one set of choices for all."""
    options = (
        click.option("--article", "article_ids", multiple=True, type=int, help=article),
        click.option("--status", "statuses", multiple=True, type=click.Choice(STATUSES), help=status),
        click.option(
            "--type", "memory_types", multiple=True, type=click.Choice(MEMORY_TYPES), help=memory_type
        ),
        click.option("--tag", "tags", multiple=True, help=tag),
        click.option("--origin", type=click.Choice(ORIGINS), default=None, help=origin),
    )

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate
