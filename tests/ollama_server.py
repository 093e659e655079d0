"""A loopback HTTP server that speaks enough of Ollama's API for tests, with scripted replies.

    with OllamaTestServer() as server:
        server.chat(Reply(content=json.dumps(...)), Reply(status=500, body={"error": "boom"}))
        OllamaExtractor(host=server.url).extract(doc)
        server.requests_to("/api/chat")[0].body["options"]["temperature"] == 0

`respond_with(path, fn)` answers from the request itself (e.g. one reply per window).
Endpoints: POST /api/chat, /api/generate, /api/embed, /api/show; GET /api/tags, /api/version.
Chat and generate stream NDJSON when the request says `"stream": true` (the ollama client always
says), else answer with one JSON object; `drip` spaces the chunks out and `repeat` streams the
content over and over (a slow server, a reply without end). Each scripted `Reply` is used once, in order; an
unscripted chat/generate gets HTTP 500 so a test never passes by accident. Every request is
recorded. Real sockets, real threads: the real `ollama` client talks to it unmodified.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CREATED = "2026-11-02T12:00:00.000000Z"
DEFAULT_MODELS = (
    {"name": "qwen2.5:7b-instruct", "size": 4683087332, "modified_at": "2026-10-30T08:15:00.123456789+01:00"},
    {"name": "nomic-embed-text:latest", "size": 274302450, "modified_at": "2026-09-01T10:00:00Z"},
)


@dataclass
class Reply:
    """One scripted answer. `content` is the model's text; `body` replaces the whole JSON body."""

    content: str = ""
    status: int = 200
    body: Any = None
    delay: float = 0.0  # seconds before anything is sent (trips a client timeout)
    done_reason: str = "stop"
    stream_error: str | None = None  # an {"error": ...} line after the first chunk
    chunk_size: int = 40
    drip: float = 0.0  # seconds between two chunks (a server that keeps sending, slowly)
    repeat: int = 1  # the content is streamed this many times over (a reply without end)


@dataclass
class Recorded:
    method: str
    path: str
    body: Any


@dataclass
class _State:
    scripts: dict[str, deque[Reply]] = field(default_factory=dict)
    responders: dict[str, Callable[[dict[str, Any]], Reply]] = field(default_factory=dict)
    requests: list[Recorded] = field(default_factory=list)
    models: list[dict[str, Any]] = field(default_factory=lambda: [dict(m) for m in DEFAULT_MODELS])
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(BaseHTTPRequestHandler):
    server_version = "OllamaTestServer/1"
    state: _State  # set on the subclass made per server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    # --- plumbing -------------------------------------------------------------------------

    def _send_json(self, status: int, body: Any) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except json.JSONDecodeError:
            return raw.decode("utf-8", "replace")

    def _next(self, path: str) -> Reply | None:
        with self.state.lock:
            queue = self.state.scripts.get(path)
            return queue.popleft() if queue else None

    def _record(self, body: Any) -> None:
        with self.state.lock:
            self.state.requests.append(Recorded(self.command, self.path, body))

    def _safely(self, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
            pass

    # --- endpoints ------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._record(None)
        self._safely(self._get)

    def do_POST(self) -> None:
        body = self._body()
        self._record(body)
        self._safely(self._post, body if isinstance(body, dict) else {})

    def _get(self) -> None:
        if self.path == "/api/tags":
            reply = self._next("/api/tags")
            if reply is not None:
                time.sleep(reply.delay)
                return self._send_json(reply.status, reply.body)
            return self._send_json(200, {"models": [_tag(m) for m in self.state.models]})
        if self.path == "/api/version":
            return self._send_json(200, {"version": "0.12.0-test"})
        return self._send_json(404, {"error": f"unknown path {self.path}"})

    def _post(self, body: dict[str, Any]) -> None:
        if self.path not in ("/api/chat", "/api/generate", "/api/embed", "/api/show"):
            return self._send_json(404, {"error": f"unknown path {self.path}"})
        reply = self._next(self.path)
        responder = self.state.responders.get(self.path)
        if reply is None and responder is not None:
            reply = responder(body)
        if reply is None and self.path in ("/api/embed", "/api/show"):
            reply = Reply()
        if reply is None:
            return self._send_json(500, {"error": f"test server: no scripted reply for {self.path}"})
        time.sleep(reply.delay)
        model = str(body.get("model", ""))
        if reply.body is not None or reply.status != 200:
            return self._send_json(
                reply.status, reply.body if reply.body is not None else {"error": "scripted"}
            )
        if self.path == "/api/embed":
            inputs = body.get("input")
            texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
            return self._send_json(200, {"model": model, "embeddings": [_vector(t) for t in texts]})
        if self.path == "/api/show":
            return self._send_json(200, {"modelfile": "", "parameters": "", "template": "", "details": {}})
        if body.get("stream", True):
            return self._stream(model, reply)
        return self._send_json(200, self._frame(model, reply.content, done=True, reason=reply.done_reason))

    def _frame(self, model: str, text: str, *, done: bool, reason: str = "") -> dict[str, Any]:
        frame: dict[str, Any] = {"model": model, "created_at": CREATED, "done": done}
        if self.path == "/api/chat":
            frame["message"] = {"role": "assistant", "content": text}
        else:
            frame["response"] = text
        if done:
            frame.update(done_reason=reason, total_duration=1000, eval_count=len(text) // 4 + 1)
        return frame

    def _stream(self, model: str, reply: Reply) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.end_headers()
        text, size = reply.content, max(1, reply.chunk_size)
        pieces = [text[i : i + size] for i in range(0, len(text), size)]
        frames = [json.dumps(self._frame(model, piece, done=False)).encode() + b"\n" for piece in pieces]
        for n in range(len(frames) * reply.repeat):
            if n and reply.drip:
                time.sleep(reply.drip)
            self.wfile.write(frames[n % len(frames)])
            if reply.drip:
                self.wfile.flush()
            if n == 0 and reply.stream_error:
                self.wfile.write(json.dumps({"error": reply.stream_error}).encode() + b"\n")
                return
        self.wfile.write(
            json.dumps(self._frame(model, "", done=True, reason=reply.done_reason)).encode() + b"\n"
        )


def _tag(m: dict[str, Any]) -> dict[str, Any]:
    digest = hashlib.sha256(m["name"].encode()).hexdigest()
    return {
        "name": m["name"],
        "model": m["name"],
        "modified_at": m["modified_at"],
        "size": m["size"],
        "digest": digest,
        "details": {
            "format": "gguf",
            "family": "qwen2",
            "parameter_size": "7.6B",
            "quantization_level": "Q4_K_M",
        },
    }


def _vector(text: str, dims: int = 8) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [round(b / 255, 4) for b in digest[:dims]]


class OllamaTestServer:
    """Start on 127.0.0.1 (or `bind`) with port 0 (any free port); use as a context manager."""

    def __init__(self, bind: str = "127.0.0.1") -> None:
        self.state = _State()
        handler = type("Handler", (_Handler,), {"state": self.state})
        self._httpd = ThreadingHTTPServer((bind, 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> OllamaTestServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def script(self, path: str, *replies: Reply) -> None:
        with self.state.lock:
            self.state.scripts.setdefault(path, deque()).extend(replies)

    def chat(self, *replies: Reply) -> None:
        self.script("/api/chat", *replies)

    def respond_with(self, path: str, responder: Callable[[dict[str, Any]], Reply]) -> None:
        """Answer `path` by calling `responder(request_body)` once the script is used up."""
        with self.state.lock:
            self.state.responders[path] = responder

    def pending(self, path: str = "/api/chat") -> int:
        with self.state.lock:
            return len(self.state.scripts.get(path, ()))

    def requests_to(self, path: str) -> list[Recorded]:
        with self.state.lock:
            return [r for r in self.state.requests if r.path == path]


def closed_port_url() -> str:
    """A loopback URL where nothing listens (connection refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"
