"""Browse: every unit and card of the library in one table, filtered, sorted, acted on.

screen.py is the table and its pages, actions.py what the keys do to the rows (each one
transaction, `u` takes it back), rows.py how a row becomes the table's cells.
"""

from tui.screens.browse.screen import BrowseScreen

__all__ = ["BrowseScreen"]
