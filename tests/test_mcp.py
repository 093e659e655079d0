"""`memoryrush mcp` with the MCP SDK's own client over stdio: the tools, search in English and
Chinese, a unit with its quote, what is due, and a proposal that lands in Triage (validated;
never confirmed), and none offered when the server is read-only."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import anyio
import pytest
from export_support import build_library

from core.host.clock import FixedClock
from core.services.bootstrap import Services
from tests.faults.helpers import RUBISCO, cli_argv, mr_env, rubisco_card

mcp = pytest.importorskip("mcp")
from mcp.client.stdio import StdioServerParameters  # noqa: E402

READ_TOOLS = {"search", "get_unit", "get_paragraph", "list_due", "list_articles"}


def server(home: Path, *extra: str) -> StdioServerParameters:
    argv = cli_argv()
    return StdioServerParameters(command=argv[0], args=[*argv[1:], "mcp", *extra], env=mr_env(home))


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return dict(result.structured_content)
    return json.loads(result.content[0].text)


async def session(
    params: StdioServerParameters, calls: list[tuple[str, dict[str, Any]]]
) -> tuple[set[str], list[Any]]:
    async with mcp.Client(params) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        results = [await client.call_tool(name, args) for name, args in calls]
    return tools, results


@pytest.fixture
def library(services: Services, clock: FixedClock, data_home: Path) -> Path:
    build_library(services, clock, days=1)
    services.close()
    return data_home


@pytest.mark.timeout(120)
def test_an_mcp_client_searches_reads_and_sees_what_is_due(library: Path) -> None:
    calls = [
        ("search", {"query": "photosynthesis light", "limit": 5}),
        ("search", {"query": "光合作用", "limit": 5}),
        ("search", {"query": "retrievability", "limit": 5, "units_only": True}),
        ("list_due", {"limit": 5}),
        ("list_articles", {}),
    ]
    tools, results = anyio.run(session, server(library), calls)
    assert tools == READ_TOOLS  # read-only: no propose_unit on offer
    english, chinese, units, due, articles = (structured(r) for r in results)
    assert english["hits"] and any(
        "photosynthesis" in h["title"].lower() or "light" in h["snippet"].lower() for h in english["hits"]
    )
    assert chinese["hits"] and any(
        "光合作用" in h["title"] or "光合" in h["snippet"] for h in chinese["hits"]
    )
    assert units["hits"] and all(h["kind"] == "unit" for h in units["hits"])
    assert due["due_now"] >= 0 and isinstance(due["cards"], list)
    assert articles["total"] == 4

    unit_id = units["hits"][0]["unit_id"]
    _, [unit_result, para_result, missing] = anyio.run(
        session,
        server(library),
        [
            ("get_unit", {"unit_id": unit_id}),
            (
                "get_paragraph",
                {
                    "article_id": units["hits"][0]["article_id"],
                    "paragraph_id": units["hits"][0]["paragraph_id"],
                },
            ),
            ("get_unit", {"unit_id": 10**6}),
        ],
    )
    unit = structured(unit_result)
    assert unit["id"] == unit_id and unit["evidence"]
    quote = unit["evidence"][0]
    assert quote["quote"] and quote["quote"].split()[0] in quote["paragraph"]
    assert unit["title"] and unit["source_path"] and unit["questions"]
    assert structured(para_result)["text"]
    assert missing.is_error and "no unit" in missing.content[0].text


@pytest.mark.timeout(120)
def test_a_proposal_lands_in_triage_and_a_bad_one_is_refused(library: Path) -> None:
    con = sqlite3.connect(library / "memoryrush.sqlite3")
    article_id, pid, text = con.execute(
        "SELECT a.id, p.paragraph_id, p.text FROM paragraph p JOIN article a ON a.id = p.article_id "
        "WHERE a.source_path LIKE '%photosynthesis%' AND p.text LIKE '%RuBisCO%' ORDER BY p.position LIMIT 1"
    ).fetchone()
    con.close()
    quote = RUBISCO
    assert quote in text
    good = rubisco_card(article_id, pid)  # a card a reviewer would keep
    bad = {
        **good,
        "content": "Something else entirely",
        "evidence": [{"paragraph_id": pid, "quote": "words that are not there"}],
    }
    tools, [made, refused] = anyio.run(
        session,
        server(library, "--allow-propose", "--client-name", "test-agent"),
        [("propose_unit", good), ("propose_unit", bad)],
    )
    assert "propose_unit" in tools
    unit_id = structured(made)["unit_id"]
    assert refused.is_error and "quote_not_found" in refused.content[0].text
    con = sqlite3.connect(library / "memoryrush.sqlite3")
    row = con.execute(
        "SELECT status, extractor, model, content FROM unit WHERE id = ?", (unit_id,)
    ).fetchone()
    assert row == ("proposed", "agent", "test-agent", good["content"])
    assert (
        con.execute("SELECT COUNT(*) FROM card WHERE unit_id = ?", (unit_id,)).fetchone()[0] == 0
    )  # never confirmed
    assert (
        con.execute("SELECT COUNT(*) FROM unit WHERE content = 'Something else entirely'").fetchone()[0] == 0
    )
    con.close()

    # Triage shows it: the library's own proposal queue for that article has it
    from core.services.bootstrap import open_services

    svc = open_services(library, exclusive=False)
    try:
        assert unit_id in [u.id for u in svc.library.units(article_id, ["proposed"])]
    finally:
        svc.close()


def _rubisco(library: Path) -> tuple[int, str]:
    con = sqlite3.connect(library / "memoryrush.sqlite3")
    try:
        return con.execute(
            "SELECT a.id, p.paragraph_id FROM paragraph p JOIN article a ON a.id = p.article_id "
            "WHERE p.text LIKE '%the enzyme RuBisCO fixes carbon dioxide%' ORDER BY p.position LIMIT 1"
        ).fetchone()
    finally:
        con.close()


# issue 34: OSC ... ST, ESC [ J, DCS ... ST, a right-to-left override
HOSTILE = "\x1b]0;PWNED\x1b\\ \x1b[J \x1bPqPWNED\x1b\\ \u202etxt.exe"
# in the content, questions and answers, controls alone: the sequences' letters ("PWNED") are
# words no quote backs, and such a proposal is refused on that ground alone (item 6)
BARE = "\x1b\x9b\x07\u202e"


def strings(value: Any) -> list[str]:
    """Every string in a JSON value (keys too), escapes decoded."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings(v))]
    return []


@pytest.mark.timeout(180)
def test_an_agents_escapes_reach_no_export_and_no_agent(library: Path, tmp_path: Path) -> None:
    """Issue 34 (5): a proposal with escapes in its content, question, answer, tags and the
    client's name, accepted, then exported (csv, csv --raw, json) and read back over MCP: no
    control character in any of them (the store gate kept each as one U+FFFD)."""
    from tests.faults.helpers import CONTROL_RE, mr

    article_id, pid = _rubisco(library)
    hostile = {
        "article_id": article_id,
        "content": f"The enzyme RuBisCO fixes carbon dioxide {BARE} from the air into organic molecules.",
        "memory_type": "claim",
        "evidence": [{"paragraph_id": pid, "quote": RUBISCO}],
        "questions": [
            {
                "question": f"Which enzyme fixes carbon dioxide from the air? {BARE}",
                "expected_answer": f"RuBisCO {BARE}",
                "kind": "qa",
            }
        ],
        "tags": [f"Calvin{HOSTILE}", "RuBisCO"],
    }
    _, [made] = anyio.run(
        session,
        server(library, "--allow-propose", "--client-name", f"bot{HOSTILE}"),
        [("propose_unit", hostile)],
    )
    unit_id = structured(made)["unit_id"]
    from core.services.bootstrap import open_services

    svc = open_services(library, exclusive=False)
    try:
        assert svc.curation.accept(unit_id)
    finally:
        svc.close()
    outputs = {}
    for name, args in {
        "csv": ["export", "csv", str(tmp_path / "cards.csv")],
        "csv --raw": ["export", "csv", "--raw", str(tmp_path / "raw.csv")],
        "json": ["export", "json", str(tmp_path / "library.json")],
    }.items():
        done = mr(library, *args)
        assert done.returncode == 0, done.stderr
        outputs[name] = Path(args[-1]).read_text(encoding="utf-8")
    outputs["json"] = " ".join(strings(json.loads(outputs["json"])))  # JSON writes ESC as \u001b
    _, [got] = anyio.run(session, server(library), [("get_unit", {"unit_id": unit_id})])
    unit = structured(got)
    outputs["get_unit"] = json.dumps(unit, ensure_ascii=False)
    outputs["get_unit strings"] = " ".join(
        [unit["content"], *unit["tags"], *(q["question"] + q["expected_answer"] for q in unit["questions"])]
    )
    for name, text in outputs.items():
        assert CONTROL_RE.findall(text) == [], name
    assert "RuBisCO \ufffd" in outputs["csv --raw"]  # the unit is in it, each escape one U+FFFD


def raw_session(home: Path, lines: list[str], *extra: str, timeout: float = 60) -> tuple[dict[Any, Any], str]:
    """Send JSON-RPC lines as they are (a lone surrogate escape, a line that is not JSON) after
    the handshake; return every reply by its id (None: an error with id null) and stderr."""
    import subprocess
    import threading
    import time

    argv = cli_argv()
    proc = subprocess.Popen(
        [*argv, "mcp", *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=mr_env(home),
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    replies: dict[Any, Any] = {}
    reader = threading.Thread(
        target=lambda: [replies.setdefault(json.loads(b).get("id"), json.loads(b)) for b in proc.stdout],
        daemon=True,
    )
    reader.start()
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    handshake = [
        json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ]
    for line in [*handshake, *lines]:
        proc.stdin.write(line.encode("utf-8") + b"\n")
        proc.stdin.flush()
    ids = [json.loads(line).get("id") if line.startswith("{") else None for line in lines]
    # an id that is neither an integer nor a string is answered with null
    wanted = {i if isinstance(i, int | str) and not isinstance(i, bool) else None for i in ids} | {0}
    deadline = time.monotonic() + timeout
    while not wanted <= replies.keys() and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.stdin.close()
    try:
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:  # it did not end with its input: stopped, and the test fails
            proc.kill()
            proc.wait(timeout=10)
    reader.join(timeout=5)
    return replies, proc.stderr.read().decode("utf-8", "replace")


def _call(request_id: int, name: str, arguments: dict[str, Any]) -> str:
    return json.dumps(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
    )


@pytest.mark.timeout(120)
def test_every_request_gets_an_answer_and_the_server_prints_no_traceback(library: Path) -> None:
    """Issue 34 (13) and 32: ids and counts beyond 64 bits are refused with the range (they
    crashed the tool: "Error executing tool" and a 60-line traceback on stderr); a lone surrogate
    escape gets a JSON-RPC error with its id, a line that is not JSON one with id null (both got
    no reply at all); serverInfo.version is the package's."""
    from importlib.metadata import version

    huge = 10**30
    lines = [
        _call(1, "get_unit", {"unit_id": huge}),
        _call(2, "get_paragraph", {"article_id": huge, "paragraph_id": "p_001"}),
        _call(3, "list_articles", {"offset": huge}),
        _call(4, "search", {"query": "light", "article_ids": [huge]}),
        _call(5, "list_due", {"article_ids": [huge]}),
        _call(
            6,
            "propose_unit",
            {"article_id": huge, "content": "x", "memory_type": "claim", "evidence": [], "questions": []},
        ),
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"query":"\\udc80"}}}',
        "not json at all",
        _call(8, "search", {"query": "light", "limit": 1}),  # and the server still answers
    ]
    replies, stderr = raw_session(library, lines, "--allow-propose")
    assert replies[0]["result"]["serverInfo"]["version"] == version("memoryrush") != ""
    for request_id in range(1, 7):
        result = replies[request_id]["result"]
        assert result["isError"], result
        assert "less than or equal to 9223372036854775807" in result["content"][0]["text"], result
    assert replies[7]["error"]["code"] == -32602 and "lone surrogate" in replies[7]["error"]["message"]
    assert replies[None]["error"]["code"] == -32700
    assert not replies[8]["result"].get("isError")
    assert "Traceback" not in stderr and "UnexpectedToolError" not in stderr, stderr
    assert len(stderr.splitlines()) < 30, stderr


@pytest.mark.timeout(120)
def test_an_id_with_a_fraction_or_exponent_gets_an_error(library: Path) -> None:
    """Re-attacks (issue 34 item 13): a request with id 1e400 (infinity to Python), true, null,
    [] or {} got no reply at all. Such an id is an invalid request (JSON-RPC ids are strings or
    integers), answered with id null; the server answers the next request."""
    for odd in ("1e400", "1.5", "true", "null", "[]", "{}"):  # the second re-attack: true, null, [], {}
        lines = [
            f'{{"jsonrpc":"2.0","id":{odd},"method":"tools/list"}}',
            _call(9, "search", {"query": "light", "limit": 1}),
        ]
        replies, stderr = raw_session(library, lines)
        assert replies[None]["error"]["code"] == -32600, (odd, replies)
        assert not replies[9]["result"].get("isError"), odd
        assert "Traceback" not in stderr, stderr


@pytest.mark.timeout(180)
def test_a_deleted_article_is_invisible_to_agents_and_every_hit_says_where(library: Path) -> None:
    """Issue 34 (13): an agent could propose into a deleted article (waiting in the trash) and
    `search` and `get_paragraph` still gave its paragraphs; issue 32: search hits lacked their
    locator (the heading path of a Markdown paragraph, the page of a PDF's)."""
    from core.services.bootstrap import open_services

    svc = open_services(library, exclusive=False)
    try:
        article = next(a for a in svc.library.articles() if a.source_path.endswith("spaced-repetition.md"))
        unit = svc.library.units(article.id, ["proposed", "confirmed"])[0]
        pid = unit.evidence[0].paragraph_id
    finally:
        svc.close()
    query = {"query": "forgetting curve spaced repetition", "limit": 10}
    _, [before, shown, read] = anyio.run(
        session,
        server(library),
        [
            ("search", query),
            ("get_paragraph", {"article_id": article.id, "paragraph_id": "p_003"}),
            ("get_unit", {"unit_id": unit.id}),
        ],
    )
    assert structured(shown)["locator"] == "The forgetting curve"  # under its heading
    assert all("locator" in quote for quote in structured(read)["evidence"])
    hits = structured(before)["hits"]
    mine = [h for h in hits if h["article_id"] == article.id]
    assert mine and all("locator" in h for h in hits)
    assert any(h["locator"] == "The forgetting curve" for h in mine), mine  # its heading

    svc = open_services(library, exclusive=False)
    try:
        assert svc.browse.delete_article(article.id).units
    finally:
        svc.close()
    good = {
        "article_id": article.id,
        "content": unit.content,
        "memory_type": unit.memory_type,
        "evidence": [{"paragraph_id": e.paragraph_id, "quote": e.quote} for e in unit.evidence],
        "questions": [
            {"question": "What is spaced repetition?", "expected_answer": "a technique", "kind": "qa"}
        ],
    }
    _, [after, trashed, para, proposed, listed] = anyio.run(
        session,
        server(library, "--allow-propose"),
        [
            ("search", {**query, "statuses": ["proposed", "confirmed", "rejected", "trashed"]}),
            ("get_unit", {"unit_id": unit.id}),
            ("get_paragraph", {"article_id": article.id, "paragraph_id": pid}),
            ("propose_unit", good),
            ("list_articles", {}),
        ],
    )
    assert [h for h in structured(after)["hits"] if h["article_id"] == article.id] == []
    assert trashed.is_error and f"no unit {unit.id}" in trashed.content[0].text
    assert para.is_error and "no paragraph" in para.content[0].text
    assert proposed.is_error and f"no article {article.id}" in proposed.content[0].text
    assert article.id not in [a["id"] for a in structured(listed)["articles"]]
