"""Names of things outside the library as text: file paths and server URLs.

`path_text` stores a path SQLite and terminals can hold. A file name that is not UTF-8
(`caf\\xe9.md` from a Latin-1 system) decodes to lone surrogates, which SQLite refused with a
UnicodeEncodeError; such a path is stored as its `file:` URI, every byte percent-encoded, so
nothing is lost: `path_from_text` gives the same path back, and a real path (always absolute:
it starts with "/") can never be mistaken for one.

`host_url` reads an Ollama host the way the ollama client does (no scheme: http on port
11434; http:// or https:// without a port: 80 or 443) and refuses what is not a URL with a
sentence: "http://[::1" raised a traceback and ":99999" quietly became port 80.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlsplit

DEFAULT_OLLAMA_PORT = 11434
_FILE_URI = "file://"


def path_text(path: Path) -> str:
    """`path` as storable text: itself when it is valid UTF-8, else its file: URI."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return Path(os.path.abspath(path)).as_uri()
    return text


def path_from_text(text: str) -> Path:
    """The path `path_text` stored (a file: URI back to the bytes it names)."""
    if text.startswith(_FILE_URI):
        return Path(os.fsdecode(unquote_to_bytes(text[len(_FILE_URI) :])))
    return Path(text)


def shown_path(text: str) -> str:
    """A stored path for people: a file: URI's bytes decoded, the bad ones as U+FFFD."""
    if text.startswith(_FILE_URI):
        return unquote_to_bytes(text[len(_FILE_URI) :]).decode("utf-8", "replace")
    return text


def host_url(raw: str, default_port: int = DEFAULT_OLLAMA_PORT) -> str:
    """'host', 'host:port' or 'http(s)://host[:port][/path]' -> 'scheme://host:port[/path]'.

    Raises ValueError saying what is wrong (the message fits after "ollama_host ...").
    """
    raw = raw.strip()
    scheme, sep, rest = raw.partition("://")
    if not sep:
        scheme, rest = "http", raw
    elif scheme.lower() not in ("http", "https"):
        raise ValueError(f"{raw!r} has the scheme {scheme!r}; use http:// or https://")
    else:
        default_port = 443 if scheme.lower() == "https" else 80
    if not rest or any(c.isspace() for c in rest):
        raise ValueError(f"{raw!r} is not a host name or URL")
    try:
        split = urlsplit(f"{scheme}://{rest}")
        port = split.port
    except ValueError as exc:  # "Invalid IPv6 URL", "Port out of range 0-65535", "Port could not be cast"
        raise ValueError(f"{raw!r} is not a usable URL ({exc})") from None
    name = split.hostname or ("127.0.0.1" if rest.startswith(":") else "")
    if not name:
        raise ValueError(f"{raw!r} names no host")
    if port == 0:
        raise ValueError(f"{raw!r} has port 0; ports are 1 to 65535")
    if split.query or split.fragment:
        raise ValueError(f"{raw!r} has a query or fragment; give only scheme, host, port and path")
    shown = f"[{name}]" if ":" in name else name
    return f"{scheme.lower()}://{shown}:{port or default_port}{split.path.rstrip('/')}"
