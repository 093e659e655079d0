"""Talking to an Ollama server: which host, whether it is local, the client, errors in words.

Host: the configured one, else `$OLLAMA_HOST`, else http://127.0.0.1:11434. Loopback hosts are
reached with `trust_env=False`, so an HTTP(S)_PROXY in the environment never sees article text.
Every client gets a timeout (the ollama client's own default is none).
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx

try:
    import ollama
except ValueError:  # the package builds a default client from $OLLAMA_HOST as it is imported,
    _unusable = os.environ.pop("OLLAMA_HOST")  # and an unusable one stopped every command
    try:  # importing it without; resolve_host then says what is wrong with it
        import ollama
    finally:
        os.environ["OLLAMA_HOST"] = _unusable

from core.text import sanitize
from core.text.locations import DEFAULT_OLLAMA_PORT, host_url

DEFAULT_HOST = "http://127.0.0.1:11434"
DEFAULT_PORT = DEFAULT_OLLAMA_PORT
START_HINT = "start it with `ollama serve` (install it from https://ollama.com/download)"


class OllamaUnavailable(Exception):
    """The server could not be used; str() says what happened and what to do."""


def resolve_host(host: str | None = None) -> str:
    """The URL we will talk to: `host`, else $OLLAMA_HOST, else the local default.

    Same defaults as the ollama client (core.text.locations.host_url). Raises OllamaUnavailable
    naming where the host came from when it is not a usable URL.
    """
    configured = (host or "").strip()
    raw = configured or os.environ.get("OLLAMA_HOST", "").strip() or DEFAULT_HOST
    try:
        return host_url(raw, DEFAULT_PORT)
    except ValueError as exc:
        where = "the Ollama host" if configured else "$OLLAMA_HOST"
        raise OllamaUnavailable(f"{where}: {exc}") from None


def is_loopback(url: str) -> bool:
    """True for localhost, 127.0.0.0/8, ::1 and the unspecified 0.0.0.0 / :: (this machine)."""
    name = (urlsplit(url if "://" in url else "http://" + url).hostname or "").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        addr = ipaddress.ip_address(name)
    except ValueError:
        return False
    return addr.is_loopback or addr.is_unspecified


def make_client(url: str, timeout: float) -> ollama.Client:
    """An ollama.Client for `url` with a timeout; proxies ignored for loopback hosts."""
    kwargs: dict[str, Any] = {"timeout": httpx.Timeout(timeout, connect=min(timeout, 10.0))}
    if is_loopback(url):
        kwargs["trust_env"] = False  # passed through ollama.Client to httpx.Client
    return ollama.Client(host=url, **kwargs)


def describe_error(exc: BaseException, url: str, model: str | None = None) -> str:
    """One line for the user: what went wrong talking to `url`, and what to do about it."""
    if isinstance(exc, ollama.ResponseError):
        text = sanitize(str(exc.error), single_line=True)[:300]
        if exc.status_code == 404 and model and "not found" in text.lower():
            return f"model {model!r} is not installed on {url}; run `ollama pull {model}`"
        code = f"HTTP {exc.status_code}" if exc.status_code > 0 else "error"
        return f"the server at {url} answered {code}: {text}"
    if isinstance(exc, httpx.TimeoutException):
        return f"no answer from {url} within the timeout (raise [extraction] ollama_timeout_s)"
    if isinstance(exc, ConnectionError | httpx.ConnectError):
        return f"cannot reach Ollama at {url}; {START_HINT}"
    if isinstance(exc, httpx.HTTPError):
        return sanitize(f"the connection to {url} failed: {type(exc).__name__}: {exc}", single_line=True)
    return sanitize(f"{type(exc).__name__}: {exc}", single_line=True)[:300]


@dataclass(frozen=True, slots=True)
class LocalModel:
    name: str
    size_bytes: int
    modified: datetime | None
    parameter_size: str = ""
    quantization: str = ""


def list_models(url: str, timeout: float = 10.0) -> list[LocalModel]:
    """The models installed on the server (/api/tags). Raises OllamaUnavailable."""
    client = make_client(url, timeout)
    try:
        reply = client.list()
    except Exception as exc:  # any transport or server fault becomes one message
        raise OllamaUnavailable(describe_error(exc, url)) from exc
    finally:
        client.close()
    models = []
    for m in reply.models:
        modified = m.modified_at.astimezone(UTC) if m.modified_at is not None else None
        details = m.details
        models.append(
            LocalModel(
                name=m.model or "?",
                size_bytes=int(m.size or 0),
                modified=modified,
                parameter_size=(details.parameter_size or "") if details else "",
                quantization=(details.quantization_level or "") if details else "",
            )
        )
    return sorted(models, key=lambda x: x.name)
