"""`memoryrush process|import --extractor ollama` and `memoryrush models` against the test server.

The CLI reads config.toml from MEMORYRUSH_HOME (set per test by conftest), which points
ollama_host at the loopback server; the real ollama client does the talking.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from ollama_replies import grounded_output, reply_json
from ollama_server import OllamaTestServer, Reply, closed_port_url

from core.ingest import read_document
from core.services.bootstrap import open_services
from core.validation import quote_in_paragraph
from tui.cli.main import cli

SAMPLES = Path(__file__).resolve().parent.parent / "sample_articles"
ARTICLES = ["spaced-repetition.md", "光合作用.txt"]


@pytest.fixture
def server() -> Iterator[OllamaTestServer]:
    with OllamaTestServer() as s:
        yield s


def write_config(home: Path, host: str, **extra: Any) -> None:
    home.mkdir(parents=True, exist_ok=True)
    lines = ["[extraction]", f'ollama_host = "{host}"', "ollama_timeout_s = 10"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in extra.items()]
    (home / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def answer_from_request(body: dict[str, Any]) -> Reply:
    """A grounded reply for whatever article and window the request carries."""
    content = body["messages"][1]["content"]
    ids = re.findall(r"^\[(p_\d+)\]", content, re.M)
    for name in ARTICLES:
        doc = read_document(SAMPLES / name)
        if all(doc.paragraph(i) and doc.paragraph(i).text in content for i in ids):  # type: ignore[union-attr]
            return reply_json(grounded_output(doc, ids))
    return Reply(status=500, body={"error": "test: unknown article"})


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_process_with_ollama_writes_llm_artifacts(
    server: OllamaTestServer, data_home: Path, tmp_path: Path
) -> None:
    write_config(data_home, server.url)
    server.respond_with("/api/chat", answer_from_request)
    out_dir = tmp_path / "out"
    result = run(
        "process", *(str(SAMPLES / a) for a in ARTICLES), "--out", str(out_dir), "--extractor", "ollama"
    )
    assert result.exit_code == 0, result.output
    assert "2 processed, 0 failed" in result.output
    for name in ARTICLES:
        art = json.loads((out_dir / f"{name}.json").read_text(encoding="utf-8"))
        assert art["extractor"] == "ollama" and art["model"] == "qwen2.5:7b-instruct"
        assert art["prompt_version"] == "extract_v2"
        assert art["raw_output"] and art["validation_report"]["ok"], art["validation_report"]
        assert art["output"]["memory_units"] and art["validation_report"]["notices"] == []
    assert len(server.requests_to("/api/chat")) == 2


def test_process_falls_back_when_the_server_is_down(data_home: Path, tmp_path: Path) -> None:
    write_config(data_home, closed_port_url())
    result = run(
        "process", str(SAMPLES / ARTICLES[0]), "--out", str(tmp_path / "out"), "--extractor", "ollama"
    )
    assert result.exit_code == 0, result.output
    assert "cannot reach Ollama" in result.output and "used the offline extractor" in result.output
    art = json.loads((tmp_path / "out" / f"{ARTICLES[0]}.json").read_text(encoding="utf-8"))
    assert art["extractor"] == "offline" and art["validation_report"]["ok"]
    assert any("ollama serve" in n for n in art["validation_report"]["notices"])


def stored(home: Path) -> tuple[list[dict[str, Any]], list[Any]]:
    """(each article's stored artifact summary, every stored unit), checking each unit is grounded."""
    svc = open_services(home, exclusive=False)
    try:
        summaries, units = [], []
        for a in svc.library.articles():
            summaries.append(svc.library.summary(a.id))
            for u in svc.library.units(a.id):
                assert u.evidence
                for e in u.evidence:
                    p = svc.library.paragraph(a.id, e.paragraph_id)
                    assert p is not None and quote_in_paragraph(e.quote, p.text), (u.content, e)
                units.append(u)
        return summaries, units
    finally:
        svc.close()


def test_import_with_ollama_stores_grounded_llm_units(server: OllamaTestServer, data_home: Path) -> None:
    write_config(data_home, server.url)
    server.respond_with("/api/chat", answer_from_request)
    result = run("import", *(str(SAMPLES / a) for a in ARTICLES), "--extractor", "ollama")
    assert result.exit_code == 0, result.output
    assert "2 imported or up to date, 0 refused" in result.output
    summaries, units = stored(data_home)
    assert len(summaries) == 2 and all(s["extractor"] == "ollama" for s in summaries)
    assert units


def test_import_never_loses_the_article_on_a_broken_reply(server: OllamaTestServer, data_home: Path) -> None:
    write_config(data_home, server.url, ollama_model="tiny:1b")
    server.chat(Reply(content="```json\n{}\n```"))
    result = run("import", str(SAMPLES / ARTICLES[0]), "--extractor", "ollama")
    assert result.exit_code == 0, result.output
    assert "imported" in result.output and "code fence" in result.output
    (summary,), units = stored(data_home)
    assert units and summary["extractor"] == "offline"
    assert any("tiny:1b" in n and "used the offline extractor" in n for n in summary["notices"])


def test_config_extractor_setting_selects_ollama(server: OllamaTestServer, data_home: Path) -> None:
    write_config(data_home, server.url, extractor="ollama")
    server.respond_with("/api/chat", answer_from_request)
    result = run("import", str(SAMPLES / ARTICLES[0]))
    assert result.exit_code == 0, result.output
    assert len(server.requests_to("/api/chat")) == 1


def test_models_lists_the_server_models(server: OllamaTestServer, data_home: Path) -> None:
    write_config(data_home, server.url)
    result = run("models")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"Models on {server.url}:"
    (qwen,) = [line for line in lines if line.startswith("qwen2.5:7b-instruct")]
    assert "4.7 GB" in qwen and "2026-10-30 07:15" in qwen and "used for extraction" in qwen
    assert any(line.startswith("nomic-embed-text:latest") and "274.3 MB" in line for line in lines)
    assert server.requests_to("/api/tags")


def test_models_names_a_missing_configured_model(server: OllamaTestServer, data_home: Path) -> None:
    write_config(data_home, server.url, ollama_model="llama3.2:3b")
    result = run("models")
    assert result.exit_code == 0
    assert "run: ollama pull llama3.2:3b" in result.output


def test_models_host_option_wins_over_config(server: OllamaTestServer, data_home: Path) -> None:
    write_config(data_home, closed_port_url())
    result = run("models", "--host", server.url)
    assert result.exit_code == 0 and "qwen2.5:7b-instruct" in result.output


def test_models_on_a_closed_port_says_how_to_start_ollama(data_home: Path) -> None:
    url = closed_port_url()
    result = run("models", "--host", url)
    assert result.exit_code == 1
    assert f"cannot reach Ollama at {url}" in result.output and "ollama serve" in result.output


def test_models_reports_a_server_error(server: OllamaTestServer, data_home: Path) -> None:
    server.script("/api/tags", Reply(status=500, body={"error": "internal failure"}))
    result = run("models", "--host", server.url)
    assert result.exit_code == 1 and "HTTP 500" in result.output and "internal failure" in result.output


def test_installed_command_in_a_subprocess(server: OllamaTestServer, data_home: Path, tmp_path: Path) -> None:
    """The real entry point, in its own process (package data, config discovery, exit code)."""
    import os
    import subprocess
    import sys

    write_config(data_home, server.url)
    server.respond_with("/api/chat", answer_from_request)
    exe = Path(sys.executable).with_name("memoryrush")
    if not exe.exists():
        pytest.skip("the memoryrush script is not installed beside this Python")
    env = {**os.environ, "MEMORYRUSH_HOME": str(data_home)}
    args = [
        str(exe),
        "process",
        str(SAMPLES / ARTICLES[0]),
        "--out",
        str(tmp_path / "o"),
        "--extractor",
        "ollama",
    ]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    art = json.loads((tmp_path / "o" / f"{ARTICLES[0]}.json").read_text(encoding="utf-8"))
    assert art["extractor"] == "ollama" and art["prompt_version"] == "extract_v2"
