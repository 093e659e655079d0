"""README's "The library as JSON" says what the code writes (issue 32: it documented schema 5
while the files said schema 10): the example's format and schema versions are the code's, every
schema since 1 is described, and the example has the keys the JSON Schema requires."""

from __future__ import annotations

import json
import re

from core.services.export.library_json import FORMAT, FORMAT_VERSION, SCHEMA_FILE
from core.storage.db import SCHEMA_VERSION
from tests.conftest import ROOT


def _section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("### The library as JSON")
    end = text.index("\n### ", start + 1)
    return text[start:end]


def _example() -> dict[str, object]:
    block = re.search(r"```json\n(.*?)```", _section(), re.S)
    assert block is not None, "the section shows an example file"
    return json.loads(block.group(1))  # type: ignore[no-any-return]


def test_the_example_carries_the_versions_the_code_writes() -> None:
    example = _example()
    assert example["format"] == FORMAT
    assert example["format_version"] == FORMAT_VERSION
    assert example["schema_version"] == SCHEMA_VERSION
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert set(example) == set(schema["required"])
    assert schema["properties"]["format_version"]["const"] == FORMAT_VERSION


def test_every_schema_is_described_and_none_that_does_not_exist() -> None:
    described = {int(n) for n in re.findall(r"\bSchema (\d+)\b", _section())}
    assert described == set(range(2, SCHEMA_VERSION + 1))
    said = re.search(r"`schema_version` \(now (\d+)\)", _section())
    assert said is not None and int(said.group(1)) == SCHEMA_VERSION
    said = re.search(r"`format_version` \(now (\d+)\)", _section())
    assert said is not None and int(said.group(1)) == FORMAT_VERSION
