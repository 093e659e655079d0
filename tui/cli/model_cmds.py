"""`memoryrush models`: the models a local Ollama server has, or why it cannot be reached."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from core.domain.errors import MemoryRushError
from core.host.config import load_config
from core.host.paths import config_path
from core.services.bootstrap import use_data_dir
from tui.cli.common import data_dir_option, fail, out


def _size(n: int) -> str:  # decimal units, as `ollama list` shows them
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.1f} {unit}" if unit != "B" else f"{n} B"
        value /= 1000
    return f"{n} B"


@click.command("models")
@click.option(
    "--host",
    default=None,
    help="Ollama URL (default: [extraction] ollama_host, $OLLAMA_HOST, http://127.0.0.1:11434).",
)
@data_dir_option
def models_cmd(host: str | None, data_dir: Path | None) -> None:
    """List the models installed in Ollama (name, size, modified), marking the configured one."""
    # Imported here: the ollama client costs ~0.5 s of start-up every other command need not pay.
    from core.extraction.ollama import OllamaUnavailable, list_models, resolve_host

    use_data_dir(data_dir)
    try:
        config = load_config(config_path())
    except MemoryRushError as exc:
        fail(str(exc))
        return
    try:
        url = resolve_host(host or config.ollama_host or None)
        models = list_models(url, timeout=min(config.ollama_timeout_s, 10.0))
    except OllamaUnavailable as exc:
        out(f"memoryrush: {exc}", err=True)
        sys.exit(1)
    wanted = config.ollama_model
    if not models:
        out(f"Ollama at {url} has no models. Get one with: ollama pull {wanted}")
        sys.exit(1)
    width = max(len(m.name) for m in models)
    out(f"Models on {url}:")
    out(f"{'name':<{width}}  {'size':>9}  {'modified (UTC)':<16}  details")
    for m in models:
        modified = m.modified.strftime("%Y-%m-%d %H:%M") if m.modified else "?"
        details = " ".join(x for x in (m.parameter_size, m.quantization) if x)
        mark = "  <- used for extraction" if m.name == wanted else ""
        out(f"{m.name:<{width}}  {_size(m.size_bytes):>9}  {modified:<16}  {details}{mark}")
    if wanted not in {m.name for m in models}:
        out(f"The configured model {wanted} is not installed; run: ollama pull {wanted}")


COMMANDS = [models_cmd]
