"""The Ollama extractor: a local LLM writes the units, the validator decides what survives.

Per window of whole paragraphs: one `chat` with the JSON schema as `format`, temperature 0 and
a fixed seed; if the validator finds problems, the issues go back once for a corrected JSON;
whatever is still invalid is dropped and recorded. Any fault (server down, timeout, HTTP error,
missing model, unusable reply) falls back to the offline extractor with a notice; it never
raises and never returns an ungrounded unit.

Bounds, whatever the server does: the client's timeout only measures the silence between two
reads, so a server sending one chunk every 2 s under a 3 s timeout held an import for ever;
each request also has an overall deadline (`deadline`, by default five times the timeout),
checked at every chunk. A reply is read up to REPLY_CHARS_PER_TOKEN characters per token of
the reply limit and no further (3,000 chunks of 64 KB made a 197 MB library for a 3-line
article and 754 MB of memory), and the artifact keeps at most STORED_RAW_CHARS of raw output,
with a marker and a notice saying what was cut.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

import ollama

from core.domain import ArticleMemoryOutput, ExtractionResult, SourceDocument
from core.domain.errors import Cancelled
from core.domain.stop import StopFlag, check_stop
from core.extraction.ollama.client import (
    OllamaUnavailable,
    describe_error,
    is_loopback,
    make_client,
    resolve_host,
)
from core.extraction.ollama.prompt import (
    PROMPT_VERSION,
    Window,
    context_size,
    load_prompt,
    make_windows,
    render_system,
    render_user,
    repair_message,
    units_for,
)
from core.extraction.ollama.reply import ReplyFault, issue_lines, merge, parse_reply, prune, to_output
from core.extraction.ollama.schema import output_schema
from core.validation import validate_raw

DEFAULT_MODEL = "qwen2.5:7b-instruct"
SEED = 42
DEADLINE_TIMEOUTS = 5  # the overall deadline when none is set: five times the timeout
# A token is a few characters (JSON, English words; a CJK character is about one): a reply of
# 16 characters per allowed token is no longer an answer, and is not read further.
REPLY_CHARS_PER_TOKEN = 16
STORED_RAW_CHARS = 1_000_000  # raw model output kept in the artifact (the rest is cut, marked)


class TransportFault(Exception):
    """The server could not answer; the whole document falls back."""


@dataclass
class _Run:
    """What one extraction collects on its way."""

    raw: list[tuple[str, str]] = field(default_factory=list)  # (label, reply text)
    notices: list[str] = field(default_factory=list)
    dropped: list[dict[str, Any]] = field(default_factory=list)
    fallback: list[str] = field(default_factory=list)  # paragraphs of windows the offline extractor covered

    def raw_output(self) -> str:
        """The raw replies as stored: at most STORED_RAW_CHARS, a marker and a notice if cut."""
        if len(self.raw) == 1:
            text = self.raw[0][1]
        else:
            text = "\n\n".join(f"### {label}\n{text}" for label, text in self.raw)
        if len(text) <= STORED_RAW_CHARS:
            return text
        cut = len(text) - STORED_RAW_CHARS
        notice = (
            f"the raw model output was {len(text):,} characters; the first {STORED_RAW_CHARS:,} are "
            "kept in this artifact"
        )
        if notice not in self.notices:
            self.notices.append(notice)
        return f"{text[:STORED_RAW_CHARS]}\n[… {cut:,} more characters of model output not stored]"


class OllamaExtractor:
    name = "ollama"
    version = "1"

    def __init__(
        self,
        host: str | None = None,
        model: str = DEFAULT_MODEL,
        timeout: float = 120.0,
        allow_remote: bool = False,
        *,
        deadline: float | None = None,
        context_tokens: int = 8192,
        reply_tokens: int = 3072,
        prompt_version: str = PROMPT_VERSION,
        **_: object,
    ) -> None:
        try:
            self.host, self._host_problem = resolve_host(host), ""
        except OllamaUnavailable as exc:  # a bad $OLLAMA_HOST (a bad setting stops start-up)
            self.host, self._host_problem = (host or os.environ.get("OLLAMA_HOST", "")).strip(), str(exc)
        self.model = model or DEFAULT_MODEL
        self.timeout = float(timeout)
        self.deadline = float(deadline) if deadline else DEADLINE_TIMEOUTS * self.timeout
        self.allow_remote = allow_remote
        self.context_tokens = context_tokens
        self.reply_tokens = reply_tokens
        self.template = load_prompt(prompt_version)
        self._http: ollama.Client | None = None
        self._lock = threading.Lock()

    def _client(self) -> ollama.Client:
        """One client per extractor, made on first use (building one costs ~80 ms of TLS setup)."""
        with self._lock:
            if self._http is None:
                self._http = make_client(self.host, self.timeout)
            return self._http

    def close(self) -> None:
        with self._lock:
            if self._http is not None:
                self._http.close()
                self._http = None

    # --- the public interface -------------------------------------------------------------

    def _refusal(self, run: _Run) -> str | None:
        """Why nothing may be sent to the model (no host, or one off this machine not allowed);
        a remote host that is allowed is said in the notices."""
        if self._host_problem:
            return self._host_problem
        if not is_loopback(self.host):
            if not self.allow_remote:
                return (
                    f"{self.host} is not on this machine and your article would be sent there; set "
                    "[extraction] ollama_allow_remote = true to allow it"
                )
            run.notices.append(
                f"Ollama host {self.host} is not on this machine; the article text is sent there "
                "([extraction] ollama_allow_remote = true)."
            )
        return None

    def extract(self, document: SourceDocument, stop: StopFlag | None = None) -> ExtractionResult:
        run = _Run()
        refused = self._refusal(run)
        if refused is not None:
            return self._fallback(document, run, refused)
        # the model is sent the paragraphs proposals may come from (a re-import: the new ones)
        sent = replace(
            document, paragraphs=tuple(p for p in document.paragraphs if document.proposable(p.paragraph_id))
        )
        windows = make_windows(sent, self.template, self.context_tokens, self.reply_tokens)
        if not windows:
            return self._fallback(document, run, "the article has no paragraphs to send")
        client = self._client()
        parts: list[ArticleMemoryOutput] = []
        faults: list[str] = []  # "window 2/5 (p_010–p_019): the reply was empty"
        try:
            for window in windows:
                check_stop(stop)
                label = f"window {window.number}/{len(windows)} ({window.span})" if len(windows) > 1 else ""
                try:
                    parts.append(self._extract_window(client, document, window, label, run))
                except ReplyFault as fault:
                    faults.append(f"{label}: {fault}" if label else str(fault))
                    parts.append(self._offline(_sub_document(document, window)).output)
                    run.fallback.extend(p.paragraph_id for p in window.paragraphs)
        except TransportFault as fault:
            return self._fallback(document, run, str(fault))
        except Cancelled:
            raise
        except Exception as exc:  # never crash an import over the model: say what happened
            return self._fallback(document, run, describe_error(exc, self.host, self.model))
        if len(faults) == len(windows):
            reason = faults[0] if len(faults) == 1 else f"every window failed ({'; '.join(faults[:3])})"
            return self._fallback(document, run, reason)
        if faults:
            run.notices += [f"Ollama {f}; the offline extractor covered those paragraphs." for f in faults]
        output, dupes = merge(parts)
        run.dropped.extend(dupes)
        output = _final_guard(output, document, run)
        return ExtractionResult(
            output=output,
            extractor=self.name,
            extractor_version=self.version,
            model=self.model,
            prompt_version=self.template.version,
            raw_output=run.raw_output(),
            notices=tuple(run.notices),
            dropped=tuple(run.dropped),
            fallback_paragraphs=tuple(run.fallback),
        )

    # --- one window -----------------------------------------------------------------------

    def _extract_window(
        self, client: Any, document: SourceDocument, window: Window, label: str, run: _Run
    ) -> ArticleMemoryOutput:
        sub = _sub_document(document, window)
        messages = [
            {"role": "system", "content": render_system(self.template, document, units_for(window))},
            {"role": "user", "content": render_user(self.template, document, window)},
        ]
        schema = output_schema(window.evidence_ids)
        reply = self._chat(client, messages, schema, run, label or "reply")
        data = parse_reply(reply)
        report = validate_raw(data, sub)
        if not report.ok:  # the repair round: errors to fix, the card rules' warnings as advice
            messages += [
                {"role": "assistant", "content": reply},
                {
                    "role": "user",
                    "content": repair_message(issue_lines(report), issue_lines(report, 20, "warning")),
                },
            ]
            try:
                data = parse_reply(self._chat(client, messages, schema, run, f"{label} repair".strip()))
            except ReplyFault as fault:
                run.notices.append(
                    f"Ollama repair reply{' for ' + label if label else ''} unusable ({fault}); kept the first reply"
                )
        pruned = prune(data, sub, window=window.span)
        run.dropped.extend(pruned.dropped)
        if not pruned.data["memory_units"]:
            raise ReplyFault("gave no grounded memory unit (invented paragraph ids or quotes?)")
        return to_output(pruned.data)

    def _chat(
        self, client: Any, messages: list[dict[str, str]], schema: dict[str, Any], run: _Run, label: str
    ) -> str:
        options = {
            "temperature": 0,
            "seed": SEED,
            "num_ctx": context_size(messages, self.reply_tokens),
            "num_predict": self.reply_tokens,
        }
        chunks: list[str] = []
        done_reason = None
        size, most = 0, REPLY_CHARS_PER_TOKEN * self.reply_tokens
        ends = time.monotonic() + self.deadline
        overdue = False
        stream = None
        try:
            stream = client.chat(
                model=self.model, messages=messages, format=schema, options=options, stream=True
            )
            for part in stream:
                piece = part.message.content or ""
                chunks.append(piece[: max(0, most - size)])
                size += len(piece)
                if part.done:
                    done_reason = part.done_reason
                    break
                overdue = time.monotonic() > ends
                if size > most or overdue:
                    break
        except Exception as exc:
            if chunks:
                run.raw.append((label, "".join(chunks)))
            raise TransportFault(describe_error(exc, self.host, self.model)) from exc
        finally:
            if stream is not None:
                stream.close()  # stop reading: the connection is closed, not drained
        text = "".join(chunks)
        run.raw.append((label, text))
        if size > most:
            raise ReplyFault(
                f"the reply passed {most:,} characters ({REPLY_CHARS_PER_TOKEN} per token of the "
                f"{self.reply_tokens}-token limit) and was not read further"
            )
        if overdue:
            raise TransportFault(
                f"no complete answer from {self.host} within {self.deadline:g} s although it kept "
                "sending (raise [extraction] ollama_deadline_s)"
            )
        if done_reason == "length":
            run.notices.append(f"Ollama {label} hit the reply length limit ({self.reply_tokens} tokens)")
        return text

    # --- fallback -------------------------------------------------------------------------

    def _offline(self, document: SourceDocument) -> ExtractionResult:
        from core.extraction.offline import OfflineExtractor

        result: ExtractionResult = OfflineExtractor().extract(document)
        return result

    def _fallback(self, document: SourceDocument, run: _Run, reason: str) -> ExtractionResult:
        offline = self._offline(document)
        notice = f"Ollama ({self.model} at {self.host}) failed: {reason}; used the offline extractor."
        return replace(
            offline,
            output=_final_guard(offline.output, document, run),
            raw_output=run.raw_output(),
            notices=(*run.notices, notice, *offline.notices),
            dropped=(*run.dropped, *offline.dropped),
        )


def _sub_document(document: SourceDocument, window: Window) -> SourceDocument:
    return replace(document, paragraphs=window.paragraphs)


def _final_guard(output: ArticleMemoryOutput, document: SourceDocument, run: _Run) -> ArticleMemoryOutput:
    """Belt and braces: validate the merged output against the whole document once more."""
    if validate_raw(output, document).ok:
        return output
    from core.domain.artifact import output_to_dict

    pruned = prune(output_to_dict(output), document)
    run.dropped.extend(pruned.dropped)
    return to_output(pruned.data)
