"""What an Anki package of ours says about scheduling: the scheduler its collection was written
for, FSRS on, and the deck preset ("deck options") every deck of ours uses.

genanki's collection names no scheduler version, and Anki reads such a collection as a
v1-scheduler one: with "Import any learning progress" it upgrades it first, and the upgrade
renumbers v1's three learning buttons (Again, Good, Easy) to v2's four, so every Hard and Good
given to a new or learning card arrived one button higher (11 of the test library's 18
reviews), and Anki's FSRS, replaying that log, disagreed with our memory state on 6 of 7 cards.
The collection here says `schedVer` 2 with `sched2021` (the v3 scheduler, the only one Anki
23.10+ runs), as Anki's own schema-11 collections do (rslib/src/config/schema11.rs); our revlog
numbers the buttons as v2 and v3 do.

The preset carries our FSRS-6 parameters (fsrs' defaults, or what `memoryrush optimize` saved),
desired retention, steps and daily limits, under the keys of Anki's schema-11 deck config
(`fsrsParams6`, `desiredRetention`; rslib/src/deckconfig/schema11.rs). Anki imports it only with
"Import deck presets" on, and never overwrites a preset whose id it already has (INSERT OR
IGNORE): the id is therefore made from the settings, so an export after `optimize` brings a
preset of its own and the decks move to it (Anki re-points a known deck to an imported preset).
FSRS on or off is a setting of the whole Anki collection, which no import changes: the package's
collection says FSRS on, and the user turns it on in Anki once (Deck options, FSRS).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from scheduler import DEFAULT_PARAMETERS

# The package's collection settings. Its `crt` is a UTC midnight (anki._write_history counts
# review due days from it): `creationOffset` 0 makes Anki count its days from that UTC day too.
# 4 is Anki's own hour for the day's rollover.
COLLECTION_CONF = {"schedVer": 2, "sched2021": True, "fsrs": True, "creationOffset": 0, "rollover": 4}


@dataclass(frozen=True, slots=True)
class Schedule:
    """Our review settings as the package carries them: the retention targets, FSRS-6's 21
    parameters (the last is the decay, positive as Anki keeps it), steps in minutes, daily limits."""

    desired_retention: float
    pinned_retention: float
    parameters: tuple[float, ...] = DEFAULT_PARAMETERS
    learning_steps: tuple[float, ...] = (1.0, 10.0)
    relearning_steps: tuple[float, ...] = (10.0,)
    new_per_day: int = 20
    reviews_per_day: int = 200
    maximum_interval: int = 36500

    @property
    def decay(self) -> float:
        return float(self.parameters[20])


def collection_conf(conf: dict[str, Any]) -> dict[str, Any]:
    """genanki's collection settings with our scheduler and FSRS on."""
    return {**conf, **COLLECTION_CONF}


def preset(schedule: Schedule, library: str, template: dict[str, Any], now: int) -> dict[str, Any]:
    """Our deck preset: genanki's Default preset (`template`) with our settings, its id made
    from the library and those settings. Its name says the day it was first exported."""
    new = {"delays": list(schedule.learning_steps), "perDay": schedule.new_per_day}
    rev = {"perDay": schedule.reviews_per_day, "maxIvl": schedule.maximum_interval}
    lapse = {"delays": list(schedule.relearning_steps)}
    fsrs = {
        "fsrsParams6": [round(float(p), 6) for p in schedule.parameters],
        "desiredRetention": schedule.desired_retention,
    }
    settings = json.dumps([library, new, rev, lapse, fsrs], sort_keys=True)
    ident = 1_500_000_000_000 + int(hashlib.sha256(settings.encode()).hexdigest(), 16) % 1_000_000_000
    day = datetime.fromtimestamp(now, UTC).date().isoformat()
    return {
        **template,
        **fsrs,
        "id": ident,
        "name": f"MemoryRush ({day})",
        "mod": now,
        "usn": -1,
        "new": {**template["new"], **new},
        "rev": {**template["rev"], **rev},
        "lapse": {**template["lapse"], **lapse},
    }
