"""The store gate: every text that enters the library, by every door, is stored without a
character a terminal would obey (issue 34, item 5).

Exports (`export csv`, with and without --raw, `export json`) and MCP's `get_unit` hand stored
text to the next program as it is, so escapes and bidi overrides must not be stored at all: each
becomes one U+FFFD, the ingestion rule (core.text.stored, core/storage/fields.py). One test per
door: an agent's proposal (and its client name), a card you make, an edit in Triage, a tag from
Browse, an imported file (title and name), a library file (`import-library`). The export route
of the attack, over the real MCP server, is tests/test_mcp.py's.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from core.domain import SelectedSpan, StoredUnit
from core.domain.browse import BrowseFilter, BulkAction, RowKey, Selection
from core.host.clock import FixedClock
from core.services.agents import AgentTools
from core.services.bootstrap import Services, open_services

from .helpers import CONTROL_RE, RUBISCO, db_file, mr, write

# the attack's payload: OSC ... ST, ESC [ J, DCS ... ST, a C1 CSI, a right-to-left override
HOSTILE = "\x1b]0;PWNED\x1b\\ \x1b[J \x1bPqPWNED\x1b\\ \x9b2J \u202etxt.exe"
# in an agent's content, questions and answers, controls alone: the sequences' letters ("PWNED")
# are words no quote backs, and such a proposal is refused on that ground alone (issue 34, item 6)
BARE = "\x1b\x9b\x07\u202e"
QUOTE = RUBISCO
# every column of outside text (core/storage/fields.py) and the rows they are in
COLUMNS = {
    "unit": ("content", "tags_json", "issues_json", "model"),
    "question": ("question", "answer"),
    "evidence": ("quote",),
    "article": ("title",),
}


def stored_controls(home: Path) -> list[tuple[str, str, str]]:
    """(table, column, value) of every stored value that holds a control character, with JSON
    columns read as JSON (JSON writes ESC as \\u001b)."""
    con = sqlite3.connect(db_file(home))
    found = []
    try:
        for table, columns in COLUMNS.items():
            for column in columns:
                for (value,) in con.execute(f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL"):
                    if CONTROL_RE.search(_decoded(value, column)):
                        found.append((table, column, value))
    finally:
        con.close()
    return found


def _decoded(text: str, column: str) -> str:
    """A JSON column's strings, joined (their escapes decoded); any other column as it is."""
    if not column.endswith("_json"):
        return text
    out: list[str] = []

    def walk(v: object) -> None:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)

    walk(json.loads(text))
    return " ".join(out)


def test_an_agents_proposal_and_its_name_are_stored_through_the_gate(
    rubisco_article: tuple[Services, int, str], data_home: Path
) -> None:
    services, article_id, pid = rubisco_article
    tools = AgentTools(services, allow_propose=True, client=f"bot{HOSTILE}\nline two")
    unit_id = tools.propose(
        article_id,
        f"The enzyme RuBisCO fixes carbon dioxide {BARE} from the air into organic molecules.",
        "claim",
        [{"paragraph_id": pid, "quote": QUOTE}],
        [
            {
                "question": f"Which enzyme fixes carbon dioxide from the air? {BARE}",
                "expected_answer": f"RuBisCO {BARE}",
                "kind": "qa",
            }
        ],
        [f"Calvin{HOSTILE}", "RuBisCO"],
    )
    assert stored_controls(data_home) == []
    unit = services.library.unit(unit_id)
    assert unit is not None and "\ufffd" in unit.content and "\ufffd" in unit.tags[0]
    assert "\n" not in (unit.model or "") and (unit.model or "").startswith("bot\ufffd")
    shown = tools.unit(unit_id)  # get_unit
    texts = [
        shown.content,
        *shown.tags,
        *(t for q in shown.questions for t in (q.question, q.expected_answer)),
    ]
    assert CONTROL_RE.findall(" ".join(texts)) == []


def test_a_card_you_make_is_stored_through_the_gate(
    rubisco_article: tuple[Services, int, str], data_home: Path
) -> None:
    services, article_id, pid = rubisco_article
    text = next(p.text for p in services.library.paragraphs(article_id) if p.paragraph_id == pid)
    at = text.index(QUOTE)
    services.authoring.make(
        article_id,
        [SelectedSpan(pid, at, at + len(QUOTE), QUOTE)],
        content=f"The enzyme RuBisCO fixes carbon dioxide from the air {HOSTILE}.",
        memory_type="claim",
        tags=(f"mine{HOSTILE}",),
        questions=((f"Which enzyme fixes carbon dioxide? {HOSTILE}", f"RuBisCO{HOSTILE}", "qa"),),
    )
    assert stored_controls(data_home) == []


@pytest.fixture
def rubisco_unit(rubisco_article: tuple[Services, int, str]) -> tuple[Services, StoredUnit]:
    """(services, the photosynthesis article's first proposed or confirmed unit)."""
    services, article_id, _ = rubisco_article
    return services, services.library.units(article_id, ["proposed", "confirmed"])[0]


def test_an_edit_in_triage_is_stored_through_the_gate(
    rubisco_unit: tuple[Services, StoredUnit], data_home: Path
) -> None:
    services, unit = rubisco_unit
    services.curation.edit(
        unit.id,
        content=f"{unit.content} {HOSTILE}",
        memory_type=unit.memory_type,
        tags=(f"edited{HOSTILE}",),
        questions=((f"Edited {HOSTILE}?", f"answer {HOSTILE}", "qa"),),
    )
    assert stored_controls(data_home) == []
    assert "\ufffd" in (services.library.unit(unit.id) or unit).content


def test_a_tag_from_browse_is_stored_through_the_gate(
    rubisco_unit: tuple[Services, StoredUnit], data_home: Path
) -> None:
    services, unit = rubisco_unit
    services.browse.act(
        BulkAction.TAG, Selection(BrowseFilter(), (RowKey(None, unit.id),)), tag=f"b{HOSTILE}"
    )
    assert stored_controls(data_home) == []
    assert any(t.startswith("b\ufffd") for t in (services.library.unit(unit.id) or unit).tags)


def test_an_imported_file_name_and_title_are_stored_through_the_gate(home: Path, inputs: Path) -> None:
    name = write(inputs / f"name{HOSTILE}.md", f"# Title {HOSTILE}\n\nA paragraph {HOSTILE} of text.\n")
    assert mr(home, "import", str(name), "--extractor", "offline").returncode == 0
    untitled = write(inputs / f"plain{HOSTILE}.txt", "Plain words, no title in them at all.\n")
    assert mr(home, "import", str(untitled), "--extractor", "offline").returncode == 0
    assert stored_controls(home) == []


def test_a_library_file_is_loaded_through_the_gate(
    rubisco_article: tuple[Services, int, str], data_home: Path, tmp_path: Path, clock: FixedClock
) -> None:
    services, article_id, _ = rubisco_article
    services.close()
    out = tmp_path / "library.json"
    assert mr(data_home, "export", "json", str(out)).returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    unit = data["tables"]["unit"]
    column = unit["columns"].index("content")
    tags = unit["columns"].index("tags_json")
    unit["rows"][0][column] = f"From a file {HOSTILE}"
    unit["rows"][0][tags] = json.dumps([f"file{HOSTILE}"])
    article = data["tables"]["article"]
    article["rows"][0][article["columns"].index("title")] = f"Title {HOSTILE}"
    out.write_text(json.dumps(data), encoding="utf-8")
    fresh = tmp_path / "fresh"
    loaded = mr(fresh, "import-library", str(out))
    assert loaded.returncode == 0, loaded.stderr
    assert stored_controls(fresh) == []
    svc = open_services(fresh, clock=clock, exclusive=False)
    try:
        assert svc.library.article(article_id) is not None
    finally:
        svc.close()
