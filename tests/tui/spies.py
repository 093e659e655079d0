"""Noting what Textual (or a service) is asked to do: while on, every call of a watched method
puts a note in a list, then the real method runs and its result is returned. The paint tests
count layouts, frame builds and lines drawn with it.

    with noted((Screen, "_refresh_layout", says("layout")), (View, "render_line", lambda v, y: y)) as calls:
        ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

Watched = tuple[object, str, Callable[..., object]]  # (class or object, method name, note of a call)


def says(note: str) -> Callable[..., str]:
    """The same note for every call."""
    return lambda *args, **kwargs: note


@contextmanager
def noted(*watched: Watched) -> Iterator[list[object]]:
    """While on: each call of a watched method notes `note(*args)` (args with self, for a class)."""
    calls: list[object] = []
    with pytest.MonkeyPatch.context() as patch:
        for owner, name, note in watched:
            real = getattr(owner, name)

            def spy(*args: Any, _real: Any = real, _note: Any = note, **kwargs: Any) -> Any:
                calls.append(_note(*args, **kwargs))
                return _real(*args, **kwargs)

            patch.setattr(owner, name, spy)
        yield calls
