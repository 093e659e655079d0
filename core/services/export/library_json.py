"""`export json` and `import-library`: the whole library as one documented, versioned JSON file.

The file (schema: library.schema.json beside this module; README "The library as JSON"):

    {"format": "memoryrush-library", "format_version": 1, "schema_version": <the database's>,
     "exported_at": "<UTC ISO time>", "library_id": "<uuid>", "config": {<section>: {<key>: value}},
     "tables": {"<table>": {"columns": [<name>, ...], "rows": [[<value>, ...], ...]}, ...}}

Rows keep their ids and every column as SQLite holds it (booleans 0/1, times UTC epoch seconds,
`*_json` columns as the JSON text they store), so loading a file into an empty library gives back
the same rows. The search index and counters are rebuilt, not carried. The file is written
table by table from one read snapshot, under a temporary name, renamed when complete.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.domain.errors import MemoryRushError
from core.domain.export import ExportResult
from core.host.config import SETTINGS, Config
from core.services.export.files import atomic_path
from core.storage import dump
from core.storage import export as export_repo
from core.storage.db import SCHEMA_VERSION

FORMAT = "memoryrush-library"
FORMAT_VERSION = 1
SCHEMA_FILE = Path(__file__).with_name("library.schema.json")
Progress = Callable[[int, int], None]


class LibraryFileError(MemoryRushError):
    """A library JSON file that cannot be loaded: what is wrong and what to do."""


def config_dict(config: Config) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for f in fields(Config):
        setting = SETTINGS[f.name]
        value = getattr(config, f.name)
        out.setdefault(setting.section, {})[setting.key] = list(value) if isinstance(value, tuple) else value
    return out


def export_json(out: Path, *, now: int, config: Config, progress: Progress | None = None) -> ExportResult:
    """Write every dumped table to `out`; returns the counts."""
    library = export_repo.library_id()
    tables = dump.dumped_tables()
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_version": SCHEMA_VERSION,
        "exported_at": datetime.fromtimestamp(now, UTC).isoformat().replace("+00:00", "Z"),
        "library_id": library,
        "config": config_dict(config),
    }
    counts: dict[str, int] = {}
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode  # one encoder: ~2x faster
    with atomic_path(out) as partial, partial.open("w", encoding="utf-8") as fh, dump.snapshot():
        total = sum(dump.count_rows(t) for t in tables)
        done = 0
        head = json.dumps(header, ensure_ascii=False, indent=1)
        fh.write(head[:-2] + ',\n "tables": {')
        for ti, table in enumerate(tables):
            fh.write(
                f'{"," if ti else ""}\n  {json.dumps(table)}: {{"columns": {encode(dump.columns(table))}, "rows": ['
            )
            n = 0
            for batch in dump.iter_rows(table):
                fh.write(("," if n else "") + "\n   " + _encode_rows(batch))
                n += len(batch)
                done += len(batch)
                if progress is not None:
                    progress(done, total)
            fh.write("\n  ]}" if n else "]}")
            counts[table] = n
        fh.write("\n }\n}\n")
    return ExportResult(
        str(out),
        articles=counts.get("article", 0),
        units=counts.get("unit", 0),
        cards=counts.get("card", 0),
        reviews=counts.get("review_log", 0),
    )


# Rows of a batch encoded in one call with a newline between values: JSON escapes every newline
# inside a string, so a raw one is always a separator, and "],\n[" (a row's end, then the next
# row's start) only falls between rows, whose values are never lists. One call per row was
# half of an export's time.
_ROWS = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",\n", ": ")).encode


def _encode_rows(rows: list[tuple[Any, ...]]) -> str:
    """Rows as JSON arrays, one a line, as `encode` writes each (", " between values)."""
    text = _ROWS(rows)[1:-1].replace("],\n[", "]\n[")
    return text.replace(",\n", ", ").replace("]\n[", "],\n   [")


@dataclass(frozen=True, slots=True)
class LibraryFile:
    """A checked library file, ready to load."""

    path: Path
    schema_version: int
    library_id: str
    config: dict[str, Any]
    tables: dict[str, dump.TableRows]


def read_library_file(path: Path) -> LibraryFile:
    """Read and check a library file; LibraryFileError says what is wrong."""
    try:
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise LibraryFileError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise LibraryFileError(
            f"{path}: not UTF-8 text ({exc.reason}); is this a library JSON file?"
        ) from None
    except json.JSONDecodeError as exc:
        raise LibraryFileError(
            f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg}); "
            "the file may be cut short: export it again"
        ) from None
    except OSError as exc:
        raise LibraryFileError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LibraryFileError(f'{path}: not a MemoryRush library file (no "format": "{FORMAT}")')
    version = data.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise LibraryFileError(
            f"{path}: format version {version!r} is newer than this MemoryRush reads ({FORMAT_VERSION}); upgrade MemoryRush"
        )
    schema = data.get("schema_version")
    if not isinstance(schema, int) or schema > SCHEMA_VERSION:
        raise LibraryFileError(
            f"{path}: written by a newer MemoryRush (schema {schema!r}, this one knows {SCHEMA_VERSION}); upgrade MemoryRush"
        )
    tables = data.get("tables")
    if not isinstance(tables, dict):
        raise LibraryFileError(f'{path}: "tables" is missing or not an object')
    known = set(dump.dumped_tables())
    checked: dict[str, dump.TableRows] = {}
    for name, table in tables.items():
        if name not in known:
            raise LibraryFileError(f"{path}: unknown table {name!r} (known: {', '.join(sorted(known))})")
        names = table.get("columns") if isinstance(table, dict) else None
        rows = table.get("rows") if isinstance(table, dict) else None
        if (
            not isinstance(names, list)
            or not all(isinstance(c, str) for c in names)
            or not isinstance(rows, list)
        ):
            raise LibraryFileError(f'{path}: table {name!r} must be {{"columns": [...], "rows": [...]}}')
        for i, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != len(names):
                raise LibraryFileError(
                    f"{path}: table {name!r}, row {i + 1}: not a list of {len(names)} values"
                )
        checked[name] = dump.TableRows(tuple(names), rows)
    config = data.get("config")
    return LibraryFile(
        path, schema, str(data.get("library_id") or ""), config if isinstance(config, dict) else {}, checked
    )


@dataclass(frozen=True, slots=True)
class LoadedLibrary:
    path: str
    rows: dict[str, int]  # rows loaded per table
    config: Config | None  # the settings the file carries (checked), if any


def import_library(path: Path, progress: Callable[[str, int, int], None] | None = None) -> LoadedLibrary:
    """Load a library file into this library, which must be empty. One transaction."""
    checked = read_library_file(path)
    if not dump.is_empty():
        held = ", ".join(f"{n} {t} rows" for t, n in sorted(dump.nonempty_counts().items()))
        raise LibraryFileError(
            f"this library is not empty ({held}); import-library loads into an empty library only, "
            "so nothing is mixed or overwritten: use --data-dir NEW_FOLDER (or `memoryrush backup`, "
            "then start a fresh library)"
        )
    config = config_from(checked)  # checked before anything is written
    return LoadedLibrary(str(path), dump.load(checked.tables, progress), config)


def config_from(file: LibraryFile) -> Config | None:
    """The settings a library file carries, checked like config.toml (None if it has none)."""
    if not file.config:
        return None
    import tomlkit

    from core.host.config import parse_config

    return parse_config(tomlkit.dumps(file.config), f"{file.path} (config)")
