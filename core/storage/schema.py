"""The library's tables, all of them, and the one way to open the library file with them.

Each table module registers its models, migrations and schema pieces with core.storage.db when
imported; this module imports every one, so opening through it (open_database) creates,
checks and migrates the whole schema. db.py itself imports no table module: the tables depend
on it, never the other way round.
"""

from __future__ import annotations

from pathlib import Path

import peewee

from core.storage import db
from core.storage import journal as _journal_table  # noqa: F401
from core.storage import models as _base_tables  # noqa: F401  (importing registers the tables)
from core.storage.browse import models as _browse_tables  # noqa: F401
from core.storage.errors import translated
from core.storage.review import models as _review_tables  # noqa: F401
from core.storage.search import index as _search_tables  # noqa: F401


@translated
def open_database(path: Path, *, backups: Path | None = None) -> peewee.SqliteDatabase:
    """Open (creating or migrating) the library file with every table (db.open_file)."""
    return db.open_file(path, backups=backups)


@translated
def registered_models() -> list[type[db.BaseModel]]:
    """Every table model, in the order rows are loaded (parents first)."""
    return db.registered_models()
