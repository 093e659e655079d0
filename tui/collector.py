"""The cyclic garbage collector's full collections, moved to the moments the reader pauses.

CPython collects its oldest generation when enough objects have outlived the younger two; on
the Article screen of a big library (bench/bench_tui.py, 5,000 paragraphs) such a collection
walks ~60,000 objects and holds the UI for 40-150 ms, about once in a hundred keys: the worst
frame of a run of card saves or selection steps was a collection, not the key's own work.
Here the app turns those automatic full collections off once it is ready (gc.freeze has put
start-up's objects out of every collection's way) and makes them itself, every half second's
look, when nothing has been allocated since the last one (the reader is reading, not
pressing keys), and in any case after FULL_EVERY younger collections, so a long burst of
keys (or a worker that never rests) keeps memory bounded. What survives a full collection is
frozen, so the next one walks only newer objects (the pages of an article just opened, once);
at rest, once the frozen objects have grown by half, one whole collection walks them too (a
frozen object left in a cycle, a closed screen, is freed then). The two younger generations
are collected as before (a few ms each, bounded by their thresholds).

Activity is told by the collector's own counts, not by input events: a key, a worker and a
bench driving actions directly all allocate, a screen at rest does not.
"""

from __future__ import annotations

import gc

from textual.app import App
from textual.timer import Timer

TICK = 0.5  # seconds between looks
QUIET_OBJECTS = 500  # fewer new objects than this between two looks: nothing is happening
QUIET_TICKS = 2  # that many quiet looks in a row (a second) before a full collection
FULL_EVERY = 200  # younger (generation 1) collections after which a full one runs anyway
DEFERRED = 1_000_000  # a generation-2 threshold never reached: no automatic full collection
REFREEZE = 1.5  # a whole collection (frozen objects too) at rest once they have grown by half


class IdleCollector:
    """Started by the app once it is ready (`start`), stopped when it ends (`stop`)."""

    def __init__(self) -> None:
        self._thresholds: tuple[int, int, int] | None = None
        self._timer: Timer | None = None
        self._last: tuple[int, int, int] = (0, 0, 0)
        self._quiet = 0
        self._frozen = 0  # objects frozen after the last whole collection
        self.full_collections = 0  # made here (idle or bounded), for tests and the bench

    def start(self, app: App[object]) -> None:
        gc.freeze()  # everything built so far lives as long as the app
        self._frozen = gc.get_freeze_count()
        if self._thresholds is None:
            first, second, _third = gc.get_threshold()
            self._thresholds = (first, second, _third)
            gc.set_threshold(first, second, DEFERRED)
        self._last = gc.get_count()
        self._timer = app.set_interval(TICK, self.look, name="idle garbage collection")

    def stop(self) -> None:
        """The thresholds as they were (another app, or tests, run in this process after)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def look(self) -> None:
        count = gc.get_count()  # (new objects, gen-0 collections, gen-1 collections) pending
        last, self._last = self._last, count
        busy = count[1:] != last[1:] or count[0] - last[0] >= QUIET_OBJECTS
        self._quiet = 0 if busy else self._quiet + 1
        if count[2] == 0:
            return  # nothing has reached the oldest generation since the last full collection
        idle = self._quiet >= QUIET_TICKS
        if idle or count[2] >= FULL_EVERY:
            self._collect(whole=idle and gc.get_freeze_count() > self._frozen * REFREEZE)
            self.full_collections += 1
            self._quiet = 0
            self._last = gc.get_count()

    def _collect(self, *, whole: bool) -> None:
        """A full collection, its survivors frozen (they have outlived every generation: the
        next one walks only what is newer). A frozen object is never collected: one that
        becomes garbage in a cycle (a closed screen's widgets) waits for a whole collection,
        made at rest once the frozen objects have grown by half since the last."""
        if whole:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        if whole:
            self._frozen = gc.get_freeze_count()
