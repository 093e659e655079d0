"""A key acts on the screen it was typed on, and only while that screen is still on top: the one
guard of every key, as tui/modals/once.py is of every dismiss.

The app sees each key twice: when the terminal delivers it (it goes to the focused widget of the
screen on top) and when it comes back up to run a binding (Textual runs bindings then, against
the screen on top *at that moment*). A fast typist's second key is delivered before the first
has run: Triage `o` then `e` delivered both to Triage, `o` opened the article, and `e` ran
against whatever was on top then; Home `t` then `r` rejected a unit in Triage. So the app notes
the screen each key is delivered to, and a key that comes back once another screen is on top
(opened or closed meanwhile) is dropped: it was meant for a screen that is no longer there.

This holds because a key opens what it opens before the next key runs: screens push screens
themselves (`push_screen`), never through a message the app handles later (a screen left on
top with a request on its way would take the next key as its own).
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from textual import events
from textual.screen import Screen

_DELIVERED_TO: WeakKeyDictionary[events.Key, Screen[Any]] = WeakKeyDictionary()


def delivered(key: events.Key, screen: Screen[Any]) -> None:
    """The terminal's key went to `screen` (the one on top when it arrived)."""
    _DELIVERED_TO[key] = screen


def stale(key: events.Key, on_top: Screen[Any]) -> bool:
    """The key, back to run a binding, was delivered to a screen that is no longer on top."""
    return _DELIVERED_TO.get(key, on_top) is not on_top
