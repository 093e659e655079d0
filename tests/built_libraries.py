"""Libraries built once per test process and copied into each test that asks for one.

Importing the sample articles takes 1.5-2.5 s (the offline extractor, or the placeholder one and
accepting every unit); some 80 tests start from the same library. Each test process (each
pytest-xdist worker) builds it once, in a folder of its own, through the product's own services,
and every test gets a fresh file copy of the SQLite file (and of config.toml, if the build wrote
one): what a test writes stays in its own tmp_path, as before. The copy is the library the build
left, closed (no WAL beside it: checked), so it opens exactly as a library reopened after a quit.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

DB_NAME = "memoryrush.sqlite3"
COPIED = (DB_NAME, "config.toml")  # never the lock file: the template's lock is no test's
ENV_HOME = "MEMORYRUSH_HOME"

_root: Path | None = None
_built: dict[str, Path] = {}


def _process_root() -> Path:
    """This process's own folder (a unique name: workers never share one), removed at exit."""
    global _root
    if _root is None:
        _root = Path(tempfile.mkdtemp(prefix="mr-built-"))
        atexit.register(shutil.rmtree, _root, True)
    return _root


def copy_built(name: str, home: Path, build: Callable[[Path], object]) -> None:
    """Copy the library `name` into `home`, building it first with `build(template_home)` if this
    process has not yet. `build` opens and closes the library itself; MEMORYRUSH_HOME is put back
    afterwards (open_services points it at the folder it opens)."""
    template = _built.get(name)
    if template is None:
        template = _process_root() / name
        template.mkdir()
        saved = os.environ.get(ENV_HOME)
        try:
            os.environ[ENV_HOME] = str(template)
            build(template)
        except BaseException:
            shutil.rmtree(template, ignore_errors=True)  # the next test builds it again
            raise
        finally:
            if saved is None:
                os.environ.pop(ENV_HOME, None)
            else:
                os.environ[ENV_HOME] = saved
        leftovers = sorted(p.name for p in template.glob(f"{DB_NAME}-*"))
        assert not leftovers, f"the {name} library was not closed cleanly: {leftovers}"
        _built[name] = template
    home.mkdir(parents=True, exist_ok=True)
    for file_name in COPIED:
        if (template / file_name).is_file():
            shutil.copyfile(template / file_name, home / file_name)
