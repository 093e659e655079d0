"""`memoryrush mcp` on stdin/stdout, with an answer for every request line.

The SDK's stdio transport parses each line as JSON-RPC, and a line it cannot parse goes to the
server as an exception the server only logs at debug level: the client waits for a reply that
never comes. A lone surrogate escape ("\\udc80", no Unicode character) is such a line (issue 34).
Here each line is checked first, with the SDK's own parser: a line it refuses is answered on the
transport's write stream (so replies never interleave) with a JSON-RPC error, and the server never
sees it: invalid params for a request that holds a lone surrogate (its id echoed when it has one),
a parse error (id null, JSON-RPC 2.0 section 5.1) for a line that is not JSON, invalid request for
JSON that is no JSON-RPC message.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError


def refusal(line: str) -> JSONRPCError | None:
    """The error that answers a line the SDK cannot read as JSON-RPC; None for a good line. A
    request whose id is neither an integer nor a string (`_odd_id`) is refused here."""
    try:
        jsonrpc_message_adapter.validate_json(line, by_name=False)
        if not _odd_id(line):
            return None
    except ValidationError:
        pass
    try:
        message = json.loads(line)  # Python's parser takes what the SDK's refuses: a lone surrogate
    except ValueError:
        return _error(None, PARSE_ERROR, "not JSON: each line must be one JSON-RPC message")
    if not isinstance(message, dict) or "method" not in message:
        return _error(None, INVALID_REQUEST, "not a JSON-RPC request")
    raw_id = message.get("id")
    plain = isinstance(raw_id, int | str) and not isinstance(raw_id, bool)  # true is no id
    request_id = raw_id if plain and not _lone_surrogate(raw_id) else None
    if _lone_surrogate(message):
        return _error(
            request_id,
            INVALID_PARAMS,
            "the request holds a lone surrogate (an escape such as \\udc80 that is no Unicode "
            "character); send text as UTF-8",
        )
    return _error(request_id, INVALID_REQUEST, "not a valid JSON-RPC request")


def _odd_id(line: str) -> bool:
    """A request (it has a method) whose id is there but neither an integer nor a string: a
    number with a fraction or an exponent, true, null, a list or an object. The SDK took such
    a request and its answer never came (re-attacks, issue 34 item 13)."""
    try:
        message = json.loads(line)
    except ValueError:
        return False
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        return False
    found = message["id"]
    return isinstance(found, bool) or not isinstance(found, int | str)


def _error(request_id: int | str | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def _lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return not value.isascii() and any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_lone_surrogate(v) for v in value)
    return False


class CheckedLines:
    """Standard input as the transport reads it (an async iterator of lines), each line checked
    by `refusal` first: a refused one is answered on `replies` and not passed on."""

    def __init__(self) -> None:
        self.replies: Any = None  # the transport's write stream, set once it exists
        self.ready = anyio.Event()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        stdin = anyio.wrap_file(open(0, encoding="utf-8", errors="replace", closefd=False))  # noqa: SIM115
        async for line in stdin:
            error = refusal(line) if line.strip() else None
            if error is None:
                yield line
                continue
            await self.ready.wait()
            await self.replies.send(SessionMessage(error))


async def serve(server: MCPServer) -> None:
    """Serve `server` over stdin/stdout as MCPServer.run("stdio") does, with checked lines.
    MCPServer runs stdio only on the transport's own stdin, so this runs its low-level server
    (`_lowlevel_server`, private: the SDK offers no public way to give stdio a stdin) the way
    MCPServer.run_stdio_async does (mcp 2.3)."""
    lines = CheckedLines()
    async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
        lines.replies = write_stream
        lines.ready.set()
        low = server._lowlevel_server
        await low.run(read_stream, write_stream, low.create_initialization_options())


def run(server: MCPServer) -> None:
    anyio.run(serve, server)
