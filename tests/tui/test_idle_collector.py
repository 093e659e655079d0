"""The collector's full collections wait for the reader to pause (tui/collector.py): a burst of
keys on the Article screen while objects pile up in the oldest generation pauses for no full
collection; a second of rest makes one (and frees the garbage); after the app the thresholds
are Python's again. Before, Python made full collections in the middle of the burst."""

from __future__ import annotations

import gc
from typing import Any

from conftest import SIZE, make_app, settle

from core.services.bootstrap import Services
from sample_articles import sample_paths


class Cycle:
    """Cyclic garbage (only a full collection frees a cycle that reached the oldest generation)."""

    def __init__(self) -> None:
        self.me = self
        self.payload = [object() for _ in range(20)]


async def test_full_collections_wait_for_a_pause(svc: Services) -> None:
    svc.library.import_paths(sample_paths()[:1], extractor="offline")
    app = make_app(svc)
    thresholds = gc.get_threshold()
    full: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(info["collected"])

    kept: list[object] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l", "enter")
        await settle(pilot)
        gc.callbacks.append(seen)
        try:
            for i in range(80):  # keys while ~7,000 objects a key outlive the young collections
                kept.append([Cycle() for _ in range(300)])
                if len(kept) > 5:
                    kept.pop(0)  # let go: garbage once the oldest generation holds it
                await pilot.press("j" if i % 2 else "k")
                await pilot.pause()
            during = list(full)
            made = app.collector.full_collections
            await pilot.pause(1.6)  # the reader reads: three looks, two of them quiet
            after = list(full)
        finally:
            gc.callbacks.remove(seen)
        assert during == [], f"full collections during the burst of keys: {during}"
        assert made == 0
        assert len(after) == 1 and after[0] > 1000, after  # one, at rest, and it freed the cycles
        assert app.collector.full_collections == 1
    assert gc.get_threshold() == thresholds
