"""The keys that work on every screen: the app's own bindings (the app binds them; Help lists
them without importing the app)."""

from __future__ import annotations

from textual.binding import Binding

APP_BINDINGS = [
    Binding("slash", "search", "Search", id="app.search"),
    Binding("question_mark", "help", "Help", id="app.help"),
    Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
]
