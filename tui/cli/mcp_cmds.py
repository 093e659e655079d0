"""mcp: serve the library to agents over the Model Context Protocol (stdio).

Read-only unless proposing is switched on (--allow-propose or [agents] allow_propose). The server
never takes the instance lock, so it runs beside the app; a proposal is one short transaction
that only adds rows (it waits for the database like any write and never changes what you made).
"""

from __future__ import annotations

from pathlib import Path

import click

from tui.cli.common import data_dir_option, services


@click.command("mcp")
@click.option("--allow-propose", is_flag=True, help="Offer the propose_unit tool (proposals land in Triage).")
@click.option(
    "--client-name",
    default="mcp",
    show_default=True,
    help="Recorded as the model of units an agent proposes.",
)
@data_dir_option
def mcp_cmd(allow_propose: bool, client_name: str, data_dir: Path | None) -> None:
    """Serve the library over MCP on stdin/stdout: search, get_unit, get_paragraph, list_due, list_articles (+ propose_unit)."""
    from core.services.agents import AgentTools
    from tui.cli.mcp_server import build_server
    from tui.cli.mcp_stdio import run

    with services(data_dir, exclusive=False) as svc:
        tools = AgentTools(
            svc, allow_propose=allow_propose or svc.config.mcp_allow_propose, client=client_name
        )
        run(build_server(tools))  # every request line answered (tui/cli/mcp_stdio.py)


COMMANDS: list[click.Command] = [mcp_cmd]
